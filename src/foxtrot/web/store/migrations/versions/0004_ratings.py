"""Ratings of free-for-all tables: each account's rating, the rated tables, the changes.

``rated_tables.applied_at`` is set in the same transaction that writes a match's rating
changes, and only where it was empty: a match moves ratings once, whichever process (or
restart) gets to it, and never twice.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The ratings' tables."""
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("applied_at", sa.Float, nullable=True),
        sa.Column("outcome", sa.String(16), nullable=True),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("foxtrots", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "created_at"])


def downgrade() -> None:
    """Drop the ratings."""
    op.drop_index("ix_rating_changes_account", "rating_changes")
    for table in ("rating_changes", "rated_tables", "ratings"):
        op.drop_table(table)
