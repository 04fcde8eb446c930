"""The deal of the day: each day's committed seeds and benchmark lines, and who played them.

``daily_plays`` has one row per play; an account's play of a day's deck is unique
(``uq_daily_plays_account``: the server's "once per account per day", whatever process or
retry reaches it).  A guest's play has no account (guests keep their result on their device).

Revision ID: 0008d
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008d"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The two tables."""
    op.create_table(
        "daily_decks",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("hard_score", sa.Integer, nullable=True),
        sa.Column("hard_record", sa.Text, nullable=True),
    )
    op.create_table(
        "daily_plays",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("day", "variant", "account_id", name="uq_daily_plays_account"),
    )
    op.create_index("ix_daily_plays_day", "daily_plays", ["day", "variant"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_daily_plays_day", "daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("daily_decks")
