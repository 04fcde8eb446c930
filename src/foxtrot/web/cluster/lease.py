"""Who owns a table when many server processes share one database: a lease row per table.

A process that owns a table applies its actions, runs its computers and its
timers; it renews all its leases together every ``ttl / 3`` seconds.  When a
lease runs out (its owner died or stalled), any process may take it: an
``UPDATE ... WHERE expires_at < now`` that only one process can win.  Times are
the database's clock, so the processes' own clocks may differ.

A process that dies is noticed sooner than its leases run out: Redis drops
its subscription the moment its connection closes, and any other process that
sees an owner with no subscription ends that owner's leases (``expire``) — but
only the leases it has failed to renew on time.  Redis's view alone never moves a
table: after a restart of Redis every live process is without its subscription
for a moment, and a live owner renews its leases in the database all the same.

The lease decides who should commit, and its generation (``epoch``, one more at
every change of owner) fences the commits: an owner's group commit checks, in
the same transaction, that the lease row still names it at the generation it
won (``Append.fence``, web/store/event_log.py).  A process that took the lease
waits for that transaction and then reads a log that holds its events; the old
owner's next commit is refused (``LeaseLostError``) and it steps down.  So a new
owner is never behind the log, and two owners can never both commit an event.
The event log's primary key (table, sequence number) stays the last guard.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import sqlalchemy as sa

from ..store.event_log import ACTIVE, LEASES, TABLES, Store


def _now(dialect: str) -> sa.ColumnElement[float]:
    """The database's clock in seconds since 1970."""
    if dialect == "postgresql":
        return sa.literal_column("EXTRACT(EPOCH FROM clock_timestamp())", sa.Float)
    return sa.literal_column("((julianday('now') - 2440587.5) * 86400.0)", sa.Float)


class Leases:
    """The lease rows, as one process (``node``) sees and changes them."""

    def __init__(self, store: Store, node: str, ttl: float) -> None:
        self.store = store
        self.node = node
        self.ttl = ttl
        self._now = _now(store.engine.dialect.name)

    def claim(self, table_id: str) -> int | None:
        """Take the lease of a table nobody holds, or whose lease ran out: the generation
        won, or None (another process holds it)."""
        expires = self._now + self.ttl
        with self.store.engine.begin() as db:
            row = db.execute(
                sa.select(LEASES.c.owner, LEASES.c.expires_at < self._now).where(
                    LEASES.c.table_id == table_id
                )
            ).first()
            if row is None:
                try:
                    with db.begin_nested():
                        db.execute(
                            LEASES.insert().values(
                                table_id=table_id, owner=self.node, expires_at=expires, epoch=1
                            )
                        )
                except sa.exc.IntegrityError:  # another process inserted it first
                    return None
                return 1
            won = db.execute(
                LEASES.update()
                .where(
                    LEASES.c.table_id == table_id,
                    sa.or_(LEASES.c.expires_at < self._now, LEASES.c.owner == self.node),
                )
                .values(owner=self.node, expires_at=expires, epoch=LEASES.c.epoch + 1)
                .returning(LEASES.c.epoch)
            ).first()
            return None if won is None else int(won[0])

    def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Extend this process's leases; the tables it still owns (a lost one is missing)."""
        if not table_ids:
            return set()
        with self.store.engine.begin() as db:
            rows = db.execute(
                LEASES.update()
                .where(LEASES.c.table_id.in_(list(table_ids)), LEASES.c.owner == self.node)
                .values(expires_at=self._now + self.ttl)
                .returning(LEASES.c.table_id)
            ).all()
        return {row[0] for row in rows}

    def release(self, table_ids: Sequence[str]) -> None:
        """Give leases up at once (a clean stop): another process takes over without waiting."""
        if not table_ids:
            return
        with self.store.engine.begin() as db:
            db.execute(
                LEASES.update()
                .where(LEASES.c.table_id.in_(list(table_ids)), LEASES.c.owner == self.node)
                .values(expires_at=0.0)
            )

    def owner(self, table_id: str) -> str | None:
        """The process that holds a live lease of the table, or None."""
        with self.store.engine.connect() as db:
            return db.execute(
                sa.select(LEASES.c.owner).where(
                    LEASES.c.table_id == table_id, LEASES.c.expires_at >= self._now
                )
            ).scalar()

    def owners(self) -> list[str]:
        """The processes that hold a live lease now."""
        with self.store.engine.connect() as db:
            rows = db.execute(
                sa.select(LEASES.c.owner).where(LEASES.c.expires_at >= self._now).distinct()
            ).all()
        return [row[0] for row in rows]

    def expire(self, owner: str) -> None:
        """End the leases of a process that looks dead (Redis lost its subscription) and has
        missed a renewal: a live owner renews every ``ttl / 3``, so its leases always have
        more than a third of ``ttl`` left, and Redis's view alone never takes them."""
        with self.store.engine.begin() as db:
            db.execute(
                LEASES.update()
                .where(LEASES.c.owner == owner, LEASES.c.expires_at < self._now + self.ttl / 3)
                .values(expires_at=0.0)
            )

    def orphans(self, limit: int = 100) -> list[str]:
        """Active tables with no live lease (their owner died), oldest first.

        A table younger than a lease is left to its creator, which claims it
        right after creating it.
        """
        with self.store.engine.connect() as db:
            live = sa.select(LEASES.c.table_id).where(LEASES.c.expires_at >= self._now)
            leased = sa.select(LEASES.c.table_id)
            settled = sa.or_(TABLES.c.id.in_(leased), TABLES.c.created_at < time.time() - self.ttl)
            rows = db.execute(
                sa.select(TABLES.c.id)
                .where(TABLES.c.status.in_(ACTIVE), TABLES.c.id.not_in(live), settled)
                .order_by(TABLES.c.created_at)
                .limit(limit)
            ).all()
        return [row[0] for row in rows]
