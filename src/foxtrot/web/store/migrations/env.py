"""Alembic's environment: migrate the connection ``store.migrate`` hands over.

Alembic runs this file itself; imported as a module (e.g. by doctest
collection) it does nothing.
"""

from __future__ import annotations

from alembic import context


def run() -> None:
    """Run the migrations on the connection in the config's attributes."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only while Alembic runs the migrations
    run()
