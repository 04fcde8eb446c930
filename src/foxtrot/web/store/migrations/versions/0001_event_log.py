"""The first schema: tables, seats, the append-only event log, the server heartbeat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table of the server."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("turn_deadline", sa.Float, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action_id", sa.String(64), nullable=True),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("secret", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_events_action", "events", ["table_id", "seat", "action_id"])
    op.create_table(
        "server",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop every table of the server."""
    op.drop_table("server")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_table("tables")
