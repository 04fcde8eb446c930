"""Display names that look alike: ``accounts.name_skeleton``, indexed.

A new display name is refused when its skeleton (web/players/names.py: NFKC, case folded,
Cyrillic and Greek look-alikes mapped to Latin) equals an existing account's.  The column
is filled here for the accounts made before; it is not unique, because accounts made
before may already share a skeleton (they keep their names).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from foxtrot.web.players.names import skeleton

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The column, filled for every account, and its index."""
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(96), nullable=True))
    db = op.get_bind()
    accounts = sa.table("accounts", sa.column("id"), sa.column("name"), sa.column("name_skeleton"))
    for ident, name in db.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        db.execute(
            accounts.update().where(accounts.c.id == ident).values(name_skeleton=skeleton(name))
        )
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"])


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_accounts_name_skeleton", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
