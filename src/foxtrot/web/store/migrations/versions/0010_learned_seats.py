"""Learned computer seats: a seat's kind holds up to 32 characters.

A seat of an operator's learned policy has the kind ``learned:NAME`` (web/table/learned.py:
NAME up to 16 characters), longer than the 16 the column held.  SQLite never enforced the
length; PostgreSQL does, so the column is widened there (the batch rebuilds it on SQLite).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``seats.kind``: 16 -> 32 characters."""
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("kind", type_=sa.String(32), existing_type=sa.String(16))


def downgrade() -> None:
    """Back to 16 characters (a learned:NAME seat longer than that must be gone first)."""
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("kind", type_=sa.String(16), existing_type=sa.String(32))
