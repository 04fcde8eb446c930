"""Bot accounts: a person's programs that play through the WebSocket protocol.

``bots`` holds each bot's owner, name and the SHA-256 of its token (the token itself is
shown once, at creation, and never stored); ``bot_seats`` the seats bots took (rated in
the bots' own pool when the match is over: ``rated_at``); ``bot_ratings`` that pool, apart
from the people's ``ratings``; ``bot_invites`` the bots a person at a rated table invited to
it (the only way a bot sits at one).

Revision ID: 0009
Revises: 0008d
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008d"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The bots' tables."""
    op.create_table(
        "bots",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "owner_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_skeleton", sa.String(96), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("revoked_at", sa.Float, nullable=True),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bots_owner", "bots", ["owner_id"])
    op.create_index("ix_bots_name_skeleton", "bots", ["name_skeleton"])
    op.create_table(
        "bot_seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("bot_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("rated_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bot_seats_bot", "bot_seats", ["bot_id", "table_id"])
    op.create_table(
        "bot_invites",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("bot_id", sa.String(32), primary_key=True),
        sa.Column("invited_by", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "bot_ratings",
        sa.Column("bot_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop the bots' tables."""
    op.drop_table("bot_ratings")
    op.drop_table("bot_invites")
    op.drop_index("ix_bot_seats_bot", "bot_seats")
    op.drop_table("bot_seats")
    op.drop_index("ix_bots_name_skeleton", "bots")
    op.drop_index("ix_bots_owner", "bots")
    op.drop_table("bots")
