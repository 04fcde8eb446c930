"""The event log and the table rows (SQLAlchemy 2 Core; the schema comes from Alembic).

Every accepted action is one row of ``events`` (primary key: table and
sequence number, so a number is never used twice), committed before anything
is broadcast; many tables' events share one transaction (a group commit).  The
table row changes only with its status, a seat or its turn deadline (its
``seq`` column then notes the sequence number; the log itself is the truth).
A table's state is rebuilt by replaying its events.  The schema is created
and upgraded only by the migrations in ``migrations/``, run by ``migrate``
when the server starts (one process at a time on PostgreSQL).

The methods are synchronous: the server calls them from one worker thread so
that a commit never blocks the event loop.  SQLite runs in WAL mode with
``synchronous=NORMAL``: a committed transaction survives the process being
killed.  PostgreSQL works the same way through psycopg 3.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from ...storage import data_dir

ACTIVE: Final = ("open", "playing")

_meta = sa.MetaData()
TABLES = sa.Table(
    "tables",
    _meta,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.Float),
    sa.Column("config", sa.Text),
    sa.Column("status", sa.String(16)),
    sa.Column("seq", sa.Integer),
    sa.Column("public", sa.Boolean),
    sa.Column("turn_deadline", sa.Float),
    sa.Column("updated_at", sa.Float),
)
SEATS = sa.Table(
    "seats",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32)),  # learned:NAME (0010)
    sa.Column("name", sa.String(64)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("account_id", sa.String(32)),  # the account sitting there (web/players/accounts.py)
)
EVENTS = sa.Table(
    "events",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16)),
    sa.Column("seat", sa.Integer),
    sa.Column("action_id", sa.String(64)),
    sa.Column("data", sa.Text),
    sa.Column("secret", sa.Text),
    sa.Column("created_at", sa.Float),
)
SERVER = sa.Table(
    "server", _meta, sa.Column("id", sa.Integer, primary_key=True), sa.Column("heartbeat", sa.Float)
)
#: Who owns a table when many processes share the database (web/cluster/lease.py): the owner,
#: when its lease runs out (the database's clock), and the lease's generation, one more at
#: every change of owner.  A commit of an owner's events checks its generation (``Append.fence``).
LEASES: Final = sa.Table(
    "leases",
    _meta,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("owner", sa.String(64)),
    sa.Column("expires_at", sa.Float),
    sa.Column("epoch", sa.Integer),
)


class LeaseLostError(Exception):
    """A commit was fenced off: another process took these tables' leases since this one did.

    Nothing of the group commit was written for them; the others' appends are written alone.
    """

    def __init__(self, tables: Sequence[str]) -> None:
        super().__init__(f"the lease of {len(tables)} table(s) has a newer owner")
        self.tables = tuple(tables)


def default_url() -> str:
    """The embedded SQLite file in the data folder (``$FOXTROT_HOME``)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.db'}"


@dataclasses.dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One row of the event log."""

    seq: int
    kind: str
    seat: int | None
    action_id: str | None
    data: dict[str, Any]
    secret: dict[str, Any] | None


@dataclasses.dataclass(slots=True)
class TableRow:
    """A table as stored: its configuration, status, seats and whole event log."""

    id: str
    config: dict[str, Any]
    status: str
    seq: int
    turn_deadline: float | None
    seats: list[tuple[str, str | None, str | None]]  # kind, name, token hash
    events: list[LoggedEvent]


@dataclasses.dataclass(frozen=True, slots=True)
class Append:
    """One table's events and new state, to commit together.

    ``seat`` sets one seat's name and token hash, and ``account`` the account sitting there
    (None: a guest, or nobody after a leave), in the transaction that logs the join: a seat
    and its account are never apart, and the database's unique index on a table's accounts
    (migration 0006) refuses one account in two seats of one table.  ``turn_deadline`` False
    leaves the stored deadline alone.  ``fence`` (many processes): the owner and the lease's
    generation this process holds; the commit is refused (``LeaseLostError``) unless the lease
    row still says so, so an owner that lost its table commits nothing more of it.
    """

    table_id: str
    events: tuple[LoggedEvent, ...]
    status: str | None = None
    seat: tuple[int, str | None, str | None] | None = None
    turn_deadline: float | bool | None = False
    account: str | None = None
    fence: tuple[str, int] | None = None


#: The unique index of an account's seat at a table (migration 0006).
SEAT_ACCOUNT_INDEX: Final = "uq_seats_table_account"


def seat_account_clash(error: BaseException) -> bool:
    """Whether a refused write is the unique index's: one account in two seats of a table.

    PostgreSQL names the index; SQLite names its columns.
    """
    text = str(error)
    return SEAT_ACCOUNT_INDEX in text or "seats.account_id" in text


_EVENT_COLUMNS: Final = (
    "table_id",
    "seq",
    "kind",
    "seat",
    "action_id",
    "data",
    "secret",
    "created_at",
)
#: Rows of one multi-row INSERT (8 parameters each, far below SQLite's 32766).
_CHUNK: Final = 500


def _insert_events(db: sa.Connection, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert event rows with one multi-row ``INSERT ... VALUES (...), (...)`` per chunk.

    One statement, not one per row: the driver releases and retakes the
    interpreter lock around every statement it runs, and each retake may wait
    for the event loop's thread to let go of it; a few hundred rows committed
    together then cost a handful of those waits, not hundreds.
    """
    mark = "?" if db.dialect.paramstyle == "qmark" else "%s"
    one = "(" + ", ".join([mark] * len(_EVENT_COLUMNS)) + ")"
    head = f"INSERT INTO events ({', '.join(_EVENT_COLUMNS)}) VALUES "
    for start in range(0, len(rows), _CHUNK):
        chunk = rows[start : start + _CHUNK]
        flat = tuple(value for row in chunk for value in row)
        db.exec_driver_sql(head + ", ".join([one] * len(chunk)), flat)


def _write_many(db: sa.Connection, batch: Sequence[Append], now: float) -> None:
    """Write many tables' appends: their events in one statement, then the few row changes.

    An ordinary action is one event row and nothing else; a table's row is
    updated (with its sequence number) only when its status, a seat or its
    turn deadline changes.  Fenced appends are checked first, in one statement that also
    locks their lease rows until the commit (a process taking a lease meanwhile waits for it,
    and then loads a log that holds these events).
    """
    fences = {item.table_id: item.fence for item in batch if item.fence is not None}
    if fences:
        kept = db.execute(
            LEASES.update()
            .where(
                sa.tuple_(LEASES.c.table_id, LEASES.c.owner, LEASES.c.epoch).in_(
                    [(table, owner, epoch) for table, (owner, epoch) in fences.items()]
                )
            )
            .values(epoch=LEASES.c.epoch)
            .returning(LEASES.c.table_id)
        ).all()
        lost = sorted(set(fences) - {row[0] for row in kept})
        if lost:
            raise LeaseLostError(lost)
    rows = [
        (
            item.table_id,
            e.seq,
            e.kind,
            e.seat,
            e.action_id,
            json.dumps(e.data),
            json.dumps(e.secret) if e.secret is not None else None,
            now,
        )
        for item in batch
        for e in item.events
    ]
    if rows:
        _insert_events(db, rows)
    for item in batch:
        if item.status is None and item.seat is None and item.turn_deadline is False:
            continue
        values: dict[str, Any] = {"updated_at": now}
        if item.events:
            values["seq"] = item.events[-1].seq
        if item.status is not None:
            values["status"] = item.status
        if item.turn_deadline is not False:
            values["turn_deadline"] = item.turn_deadline
        db.execute(TABLES.update().where(TABLES.c.id == item.table_id).values(**values))
        if item.seat is not None:
            number, name, token_hash = item.seat
            db.execute(
                SEATS.update()
                .where(SEATS.c.table_id == item.table_id, SEATS.c.seat == number)
                .values(name=name, token_hash=token_hash, account_id=item.account)
            )


def engine_for(url: str) -> sa.Engine:
    """An engine for ``url``; SQLite gets WAL mode, a busy timeout and durable commits."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi: Any, _record: Any) -> None:
            cursor = dbapi.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # Every statement here is a short one on a primary key: a parallel plan (workers
    # started for a read of a few rows, as PostgreSQL may choose for the followers'
    # many-table read) only adds their start-up time.
    options = {"options": "-c max_parallel_workers_per_gather=0"}
    return sa.create_engine(url, pool_pre_ping=True, connect_args=options)


def migrate(engine: sa.Engine) -> None:
    """Create or upgrade the schema to the newest migration."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together: one at a time
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(7142026)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The database of one server: tables, seats, the event log."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine = engine_for(self.url)
        migrate(self.engine)

    def close(self) -> None:
        """Release every connection."""
        self.engine.dispose()

    # ------------------------------------------------------------- writing

    def create_table(
        self, table_id: str, config: Mapping[str, Any], seats: Sequence[tuple[str, str | None]]
    ) -> None:
        """A new table with its seat plan (kind and, for a computer, its name)."""
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                TABLES.insert().values(
                    id=table_id,
                    created_at=now,
                    config=json.dumps(config),
                    status="open",
                    seq=0,
                    public=bool(config.get("public", True)),
                    turn_deadline=None,
                    updated_at=now,
                )
            )
            db.execute(
                SEATS.insert(),
                [
                    {"table_id": table_id, "seat": i, "kind": kind, "name": name}
                    for i, (kind, name) in enumerate(seats)
                ],
            )

    def append(
        self,
        table_id: str,
        events: Sequence[LoggedEvent],
        *,
        status: str | None = None,
        seat: tuple[int, str | None, str | None] | None = None,
        turn_deadline: float | bool | None = False,
    ) -> None:
        """Commit events (and the table's new state) in one transaction."""
        self.append_many([Append(table_id, tuple(events), status, seat, turn_deadline)])

    def append_many(self, batch: Sequence[Append]) -> None:
        """Commit appends of many tables in one transaction (a group commit)."""
        now = time.time()
        with self.engine.begin() as db:
            _write_many(db, batch, now)

    def set_deadline(self, table_id: str, deadline: float | None) -> None:
        """Store a table's turn deadline (None: no timer running)."""
        with self.engine.begin() as db:
            db.execute(
                TABLES.update().where(TABLES.c.id == table_id).values(turn_deadline=deadline)
            )

    def beat(self) -> float | None:
        """Record that the server is alive now; return the previous heartbeat."""
        now = time.time()
        with self.engine.begin() as db:
            previous = db.execute(sa.select(SERVER.c.heartbeat).where(SERVER.c.id == 1)).scalar()
            if previous is None:
                db.execute(SERVER.insert().values(id=1, heartbeat=now))
            else:
                db.execute(SERVER.update().where(SERVER.c.id == 1).values(heartbeat=now))
        return previous

    # ------------------------------------------------------------- reading

    def table_ids(self, statuses: Sequence[str] = ACTIVE) -> list[str]:
        """The ids of the tables in these statuses, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(TABLES.c.id)
                .where(TABLES.c.status.in_(statuses))
                .order_by(TABLES.c.created_at)
            )
            return [row[0] for row in rows]

    def events_after(self, table_id: str, seq: int) -> list[LoggedEvent]:
        """The events of a table after ``seq``, in order (a follower catching up)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(EVENTS)
                .where(EVENTS.c.table_id == table_id, EVENTS.c.seq > seq)
                .order_by(EVENTS.c.seq)
            ).all()
        return [_logged(e) for e in rows]

    def events_after_many(self, after: Mapping[str, int]) -> dict[str, list[LoggedEvent]]:
        """Each table's events after its own seq, in order: many followers in one statement.

        A process that shows many tables another process owns reads them all in
        one round trip, however many tables' wake-ups arrived together.  One
        ``UNION ALL`` arm per table, so each is a probe of the log's primary key
        (a join with a list of tables would scan the whole log), and plain SQL
        text, so nothing is compiled per read.
        """
        found: dict[str, list[LoggedEvent]] = {table: [] for table in after}
        items = list(after.items())
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        arm = (
            "SELECT table_id, seq, kind, seat, action_id, data, secret FROM events"
            f" WHERE table_id = {mark} AND seq > {mark}"
        )
        with self.engine.connect() as db:
            for start in range(0, len(items), _CHUNK):
                chunk = items[start : start + _CHUNK]
                rows = db.exec_driver_sql(
                    " UNION ALL ".join([arm] * len(chunk)) + " ORDER BY 1, 2",
                    tuple(value for pair in chunk for value in pair),
                ).all()
                for e in rows:
                    found[e.table_id].append(_logged(e))
        return found

    def deadline(self, table_id: str) -> float | None:
        """A table's stored turn deadline."""
        with self.engine.connect() as db:
            return db.execute(
                sa.select(TABLES.c.turn_deadline).where(TABLES.c.id == table_id)
            ).scalar()

    def account_seat(self, table_id: str, account_id: str) -> int | None:
        """The seat the account holds at this table, if any (a rated join's check)."""
        with self.engine.connect() as db:
            found = db.execute(
                sa.select(SEATS.c.seat).where(
                    SEATS.c.table_id == table_id, SEATS.c.account_id == account_id
                )
            ).scalar()
        return None if found is None else int(found)

    def seat_rows(self, table_id: str) -> list[tuple[str, str | None, str | None]]:
        """A table's seats: kind, name, token hash."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(SEATS.c.kind, SEATS.c.name, SEATS.c.token_hash)
                .where(SEATS.c.table_id == table_id)
                .order_by(SEATS.c.seat)
            ).all()
        return [(s.kind, s.name, s.token_hash) for s in rows]

    def load(self, table_id: str) -> TableRow | None:
        """A table with its seats and its whole event log, or None."""
        with self.engine.connect() as db:
            row = db.execute(sa.select(TABLES).where(TABLES.c.id == table_id)).first()
            if row is None:
                return None
            seats = db.execute(
                sa.select(SEATS.c.kind, SEATS.c.name, SEATS.c.token_hash)
                .where(SEATS.c.table_id == table_id)
                .order_by(SEATS.c.seat)
            ).all()
            events = db.execute(
                sa.select(EVENTS).where(EVENTS.c.table_id == table_id).order_by(EVENTS.c.seq)
            ).all()
        return TableRow(
            id=row.id,
            config=json.loads(row.config),
            status=row.status,
            seq=events[-1].seq if events else 0,
            turn_deadline=row.turn_deadline,
            seats=[(s.kind, s.name, s.token_hash) for s in seats],
            events=[_logged(e) for e in events],
        )


def _logged(e: Any) -> LoggedEvent:
    return LoggedEvent(
        e.seq,
        e.kind,
        e.seat,
        e.action_id,
        json.loads(e.data),
        json.loads(e.secret) if e.secret is not None else None,
    )
