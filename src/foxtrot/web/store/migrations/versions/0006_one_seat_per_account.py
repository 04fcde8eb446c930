"""One account, one seat per table: a unique index on ``seats (table_id, account_id)``.

A rated join used to check "already seated" and link the seat to its account in two
separate steps, so joins sent at once from one session could seat one account in many
seats of one table (and the rating sweep then failed on it).  The join now links the
seat in its own transaction, under the table's lock, and this index makes the database
refuse a second seat whatever reaches it.  Seats without an account (guests, computers,
free seats) are NULL, which a unique index allows any number of, on SQLite and PostgreSQL.

A database that already holds such doubles keeps the account on its lowest seat at that
table; the other seats lose the link (a rated table with a person's seat and no account
is closed ``unsigned`` by the sweep: it moves nobody's rating).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Unlink the doubles, then the unique index."""
    op.execute(
        "UPDATE seats SET account_id = NULL WHERE account_id IS NOT NULL AND EXISTS ("
        " SELECT 1 FROM seats AS other WHERE other.table_id = seats.table_id"
        " AND other.account_id = seats.account_id AND other.seat < seats.seat)"
    )
    op.create_index("uq_seats_table_account", "seats", ["table_id", "account_id"], unique=True)


def downgrade() -> None:
    """Drop the index."""
    op.drop_index("uq_seats_table_account", "seats")
