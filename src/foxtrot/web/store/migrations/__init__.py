"""Alembic migrations of the server database (run by ``store.migrate`` at startup)."""
