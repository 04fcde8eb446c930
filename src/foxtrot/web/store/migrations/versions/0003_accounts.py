"""Players who come back: accounts, their passkeys, sessions, pending challenges.

An account has no password and no e-mail: a display name (unique whatever its letters'
case), a preferred language and one or more passkeys (WebAuthn credentials).  A session
and a pending challenge are rows, not process memory, so that every process of a
cluster honours them; only hashes of session ids are stored.  A seat may name the
account that sat in it (``seats.account_id``): deleting the account renames those seats.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The accounts' tables and the seats' link to an account."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1400), primary_key=True),  # the credential id, base64url
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(24), nullable=True),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_client", "challenges", ["client", "purpose", "created_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    """Drop the accounts and the seats' link."""
    op.drop_index("ix_seats_account", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    for table in ("challenges", "sessions", "passkeys", "accounts"):
        op.drop_table(table)
