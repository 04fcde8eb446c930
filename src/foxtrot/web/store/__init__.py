"""The database: the event log and the table rows, the accounts' rows, the Alembic migrations."""
