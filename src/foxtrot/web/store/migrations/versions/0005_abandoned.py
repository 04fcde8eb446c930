"""Abandoned rated matches: a person's seat a computer finished for him.

A person away past the grace period at a rated table is played for by a computer; the
table's log says so (``replaced``, and ``returned`` if he came back before the end).  One
who was still away when the match ended is rated by the place his seat finished, and the
change row notes that he abandoned the match, so that his profile shows it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``rating_changes.abandoned``: false for every change made before."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(
            sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("abandoned")
