"""Every table of one server: creating, finding, booting, closing idle ones; records and replays.

The lobby owns the database thread (one worker: commits are serialized and never
block the event loop), the computers' workers and the table actors.  On boot it
rebuilds every open or playing table from its event log and re-arms its
wake-ups; a turn deadline gets the time the server was down added to it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from ..core import Phase, RecordError, TableOptions, replay, to_record
from ..i18n import LANGUAGES, catalog, computer_name
from . import fair
from .cluster.bus import Connection
from .protocol import (
    ActionIn,
    Code,
    CreateTable,
    Goodbye,
    NextDealIn,
    OptionsIn,
    ProtocolError,
    SeedIn,
)
from .store.event_log import Append, Store
from .table.actor import TableActor
from .table.computer import Computers
from .table.learned import is_learned
from .table.seats import Hooks, SeatInfo
from .table.views import narration, seat_view, spectator_view

log = logging.getLogger("foxtrot.web")
HEARTBEAT = 2.0
#: Seconds a follower copy nobody is connected to is kept (many processes): a person who
#: joined here and connects a moment later, or reconnects, finds it ready, not reloaded.
FOLLOWER_KEEP = 60.0


#: Defaults of the limits on tables of computers only (docs/protocol.md, Limits).
COMPUTER_TABLES = 20
COMPUTER_TABLES_PER_ADDRESS = 2
#: Open tables with an expert seat one client address may have (an expert thinks up to 5 s of
#: a worker's CPU a move, so a client could otherwise claim the server's computers for itself).
EXPERT_TABLES_PER_ADDRESS = 3
UNWATCHED_SECONDS = 600.0


class BusHooks(Protocol):
    """The callbacks the metrics set on the cluster's bus (web/cluster/redis_bus.py)."""

    on_error: Callable[[str], None]
    on_answer: Callable[[float], None]


class ClusterLink(Protocol):
    """What the lobby and the metrics ask of this process's part in a cluster
    (``web/cluster/node.py``'s ``Cluster``): declared here, so that the cluster depends on
    the lobby and never the lobby on the cluster."""

    node: str
    on_forward: Callable[[str, float], None]
    on_retry: Callable[[str], None]
    on_read: Callable[[int, float], None]
    on_wait: Callable[[float], None]

    @property
    def bus(self) -> BusHooks: ...
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def claim(self, table_id: str) -> bool: ...
    async def catch_up(self, actor: TableActor, until: int | None = None) -> None: ...
    async def resync(self, actor: TableActor) -> None: ...
    async def act(self, actor: TableActor, seat: int | None, msg: ActionIn) -> str: ...
    async def add_seed(self, actor: TableActor, seat: int | None, msg: SeedIn) -> None: ...
    async def next_deal(self, actor: TableActor, seat: int | None, msg: NextDealIn) -> None: ...
    async def forward_op(
        self, actor: TableActor, seat: int | None, op: str, msg: dict[str, Any]
    ) -> None: ...
    async def join(
        self, actor: TableActor, name: str, seat: int | None, account: str | None = None
    ) -> tuple[int, str]: ...
    async def leave(self, actor: TableActor, token: str) -> int: ...
    async def announce(self, actor: TableActor, seat: int | None) -> None: ...


class Lobby:
    """The tables of a server and the machinery they share."""

    def __init__(
        self,
        store: Store,
        *,
        idle_seconds: float = 86400.0,
        computers: Computers | None = None,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.store = store
        self.idle_seconds = idle_seconds
        self.heartbeat = heartbeat
        self.computers = computers or Computers()
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="foxtrot-db")
        self.hooks = Hooks(store, self.db, self.computers, self.append)
        self._batch: list[tuple[Append, asyncio.Future[None]]] = []
        #: Told the size and seconds of every group commit (the metrics).
        self.on_commit: Callable[[int, float], None] = lambda size, seconds: None
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None
        self.tables: dict[str, TableActor] = {}
        self._rematch_lock = asyncio.Lock()  # one rematch table per finished table
        #: Tables of computers only: at most so many at once, per client address, and closed
        #: once nobody has watched them for so long (their records stay).
        self.computer_tables = COMPUTER_TABLES
        self.computer_tables_per_address = COMPUTER_TABLES_PER_ADDRESS
        self.expert_tables_per_address = EXPERT_TABLES_PER_ADDRESS
        self.unwatched_seconds = UNWATCHED_SECONDS
        #: The loads in progress of tables not in memory: one per table, shared (``get``).
        self._loading: dict[str, asyncio.Future[TableActor]] = {}
        #: Set for many processes (``--bus``): leases, forwarding, followers (web/cluster/node.py).
        self.cluster: ClusterLink | None = None
        #: Every open WebSocket of this server (the web routes add and remove them).
        self.connections: set[Connection] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self.ready = False

    async def db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    async def append(self, item: Append) -> None:
        """Commit one table's events; appends that arrive together share one commit."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((item, future))
        if not self._flushing:
            self._flushing = True
            self._flusher = asyncio.create_task(self._flush())
        await future

    async def _flush(self) -> None:
        try:
            while self._batch:
                batch, self._batch = self._batch, []
                start = time.perf_counter()
                try:
                    await self.db(self.store.append_many, [item for item, _ in batch])
                    self.on_commit(len(batch), time.perf_counter() - start)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:  # one bad append must not fail the others: one by one
                    results = []
                    for item, _ in batch:
                        try:
                            await self.db(self.store.append_many, [item])
                            results.append(None)
                        except Exception as error:
                            results.append(error)
                for (_, future), failure in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if failure is None:
                        future.set_result(None)
                    else:
                        future.set_exception(failure)
        finally:
            self._flushing = False

    # ---------------------------------------------------------------- life

    async def boot(self) -> None:
        """Rebuild every active table from the log, re-arm its timers, start housekeeping."""
        if self.cluster is not None:  # the tables nobody owns are claimed, not all of them
            await self.cluster.start()
            self._tasks.append(asyncio.create_task(self._housekeeping()))
            self.ready = True
            return
        previous = await self.db(self.store.beat)
        downtime = max(0.0, time.time() - previous) if previous is not None else 0.0
        for table_id in await self.db(self.store.table_ids):
            row = await self.db(self.store.load, table_id)
            if row is None:
                continue
            actor = TableActor.restore(row, self.hooks)
            self.tables[table_id] = actor
            async with actor.lock:
                actor.rearm(downtime)
        log.info("booted", extra={"table": None, "seat": None, "action": f"{len(self.tables)}"})
        self._tasks.append(asyncio.create_task(self._housekeeping()))
        self.ready = True

    async def goodbye(self, wait: float = 3.0) -> None:
        """Stop the tables' wake-ups, tell every socket goodbye and close it (1001).

        Called first when the server stops, before the web server drops the
        sockets itself: each client gets a ``goodbye`` message and a clean
        close, and knows to reconnect.  Returns once every socket closed, or
        after ``wait`` seconds.  Nothing accepted is lost: it is in the log.
        """
        self.ready = False
        for actor in self.tables.values():
            actor.stop(close_connections=False)
        for conn in list(self.connections):
            conn.goodbye(Goodbye(text=catalog(conn.lang).text("web_goodbye")).model_dump_json())
        deadline = time.monotonic() + wait
        while self.connections and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    async def shutdown(self) -> None:
        """Stop every wake-up and worker; everything accepted is already in the log.

        Never blocks the event loop: the commit in flight finishes, then the
        database thread is joined from another thread.
        """
        await self.goodbye()
        for task in self._tasks:
            task.cancel()
        for actor in self.tables.values():
            actor.stop()
        # a task cancelled in a commit finishes that commit first: wait for them all, so that
        # no commit reaches the database after its thread stopped
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=10)
        for actor in list(self.tables.values()):
            await actor.wait_stopped(timeout=10)
        if self._flusher is not None and not self._flusher.done():
            await asyncio.wait([self._flusher], timeout=10)
        if self.cluster is not None:  # after the last commit: the next owner reads it all
            await self.cluster.stop()
        self.computers.close()
        await asyncio.to_thread(self._db.shutdown, wait=True)
        await asyncio.to_thread(self.store.close)
        log.info("stopped", extra={"table": None, "seat": None, "action": f"{len(self.tables)}"})

    async def _housekeeping(self) -> None:
        """Heartbeat (for the downtime after a crash) and closing tables every person left."""
        while True:
            await asyncio.sleep(self.heartbeat)
            if self.cluster is None:
                await self.db(self.store.beat)
            now = time.time()
            for actor in list(self.tables.values()):
                if actor.follower:  # the owner closes it; a copy nobody watched for a while goes
                    if actor.connections():
                        actor.left_at = now
                    elif now - actor.left_at > FOLLOWER_KEEP:
                        self.tables.pop(actor.id, None)
                    continue
                if actor.connections():
                    actor.left_at = now
                elif (
                    actor.status == "playing"
                    and self_playing(actor)
                    and now - actor.left_at >= self.unwatched_seconds
                ):
                    where = {"table": actor.id, "seat": None, "action": "close"}
                    log.info("unwatched", extra=where)
                    await actor.close("nobody watched")
                if actor.status == "playing" and actor.persons:
                    seats = [actor.seats[i] for i in actor.persons]
                    if all(
                        not s.conns
                        and s.away_since is not None
                        and now - s.away_since >= self.idle_seconds
                        for s in seats
                    ):
                        log.info("idle", extra={"table": actor.id, "seat": None, "action": "close"})
                        await actor.close("every person left")
                if actor.status in ("over", "closed") and not actor.connections():
                    self.tables.pop(actor.id, None)

    # -------------------------------------------------------------- tables

    async def create(
        self, request: CreateTable, client: str | None = None, daily: dict[str, str] | None = None
    ) -> TableActor:
        """A new table from its creation request; ``client``: the address that asked (for the
        limit of tables of computers only); ``daily``: a deal of the day's name and seed
        (web/daily/), kept in the table's configuration on the server only."""
        try:
            options = TableOptions(**request.options.model_dump())
        except ValueError as error:
            raise ProtocolError(Code.BAD_OPTIONS, str(error)) from None
        plan = request.seats or []
        if plan and len(plan) != options.players:
            raise ProtocolError(
                Code.BAD_OPTIONS, f"seats: {len(plan)} seats planned for {options.players} players"
            )
        kinds = [seat.kind for seat in plan] or ["person"] * options.players
        names = [
            (seat.name or computer_name(i, seat.kind)) if seat.kind != "person" else None
            for i, seat in enumerate(plan)
        ] or [None] * options.players
        if request.first_dealer is not None and request.first_dealer >= options.players:
            raise ProtocolError(Code.BAD_OPTIONS, "first_dealer: not a seat")
        for kind in dict.fromkeys(kind for kind in kinds if is_learned(kind)):
            try:  # offered only at the sizes a policy is shipped or given for
                self.computers.learned.check(kind, options.players)
            except ValueError as error:
                raise ProtocolError(Code.BAD_OPTIONS, f"seats: {error}") from None
        self._computers_only_allowed(client, computers_only="person" not in kinds)
        if "expert" in kinds:
            self._expert_allowed(client)
        table_id = secrets.token_urlsafe(16)
        config = request.model_dump(exclude={"seats", "options"})
        if daily is not None:
            config["daily"] = daily
        config["options"] = {
            key: value for key, value in options.to_json().items() if key != "decks"
        }
        plan_rows = list(zip(kinds, names, strict=True))
        await self.db(self.store.create_table, table_id, config, plan_rows)
        won = self.cluster is None or await self.cluster.claim(table_id)
        seats = [SeatInfo(kind, name, None) for kind, name in plan_rows]
        actor = TableActor(table_id, config, seats, self.hooks)
        actor.creator = client
        if not won:  # another process's scan took the new table first: it starts it
            actor.follower = True
        self.tables[table_id] = actor
        await actor.start_if_full()
        log.info("created", extra={"table": table_id, "seat": None, "action": "create"})
        return actor

    def _computers_only_allowed(self, client: str | None, *, computers_only: bool) -> None:
        """Refuse (``busy``) a table beyond the limits on tables that play by themselves.

        Such a table costs the server computer moves as fast as they are thought, and nobody
        plays in it: a table of computers only, or a started table with a person's seat nobody
        is connected to (its person played for by a computer, ``grace_seconds: 0`` at once).
        A table of computers only is refused past the server's and the address's limits; a
        table with a person's seat past the address's limit only (it plays by itself only if
        its person never comes), so one address cannot start many of either kind.
        """
        running = [
            actor
            for actor in self.tables.values()
            if not actor.follower
            and actor.status in ("open", "playing")
            and (not actor.persons or (actor.status == "playing" and self_playing(actor)))
        ]
        if computers_only and len(running) >= self.computer_tables:
            raise ProtocolError(
                Code.BUSY, f"this server plays {len(running)} tables of computers only already"
            )
        mine = sum(1 for actor in running if actor.creator == client)
        if client is not None and mine >= self.computer_tables_per_address:
            raise ProtocolError(
                Code.BUSY,
                f"your address has {mine} tables playing by themselves already"
                " (of computers only, or nobody connected to a person's seat)",
            )

    def _expert_allowed(self, client: str | None) -> None:
        """Refuse (``busy``) a table with an expert seat past the address's limit."""
        if client is None:
            return
        mine = sum(
            1
            for actor in self.tables.values()
            if actor.creator == client
            and not actor.follower
            and actor.status in ("open", "playing")
            and any(seat.kind == "expert" for seat in actor.seats)
        )
        if mine >= self.expert_tables_per_address:
            raise ProtocolError(
                Code.BUSY, f"your address has {mine} tables with an expert computer already"
            )

    async def get(self, table_id: str) -> TableActor:
        """A table by id, loaded from the database if it is not in memory.

        Callers that ask at once for a table this process has no copy of share one
        load and get the same copy (``_loading``): two copies would each be given
        sockets, and the one replaced in ``tables`` would never send another event.
        """
        actor = self.tables.get(table_id)
        if actor is not None and actor.follower and self.cluster is not None:
            await self.cluster.catch_up(actor)  # a copy answers with the log's newest state
        if actor is not None:
            return actor
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda done: self._forget_load(table_id, done))
        # shielded: a caller that is cancelled (its socket closed) leaves the load to the others
        return await asyncio.shield(pending)

    def _forget_load(self, table_id: str, done: asyncio.Future[TableActor]) -> None:
        if self._loading.get(table_id) is done:
            del self._loading[table_id]
        if not done.cancelled():
            done.exception()  # retrieved: a refusal nobody waits for any more is not an error

    async def _load(self, table_id: str) -> TableActor:
        """Build the table's copy from the log; an active table is kept (owner or follower).

        A copy that appeared in ``tables`` while this one awaited (the cluster took the
        table over, ``Cluster.promote``) is the one returned: a kept copy is never replaced.
        """
        row = await self.db(self.store.load, table_id) if len(table_id) <= 64 else None
        if row is None:
            raise ProtocolError(Code.NO_TABLE, "there is no such table")
        actor = self.tables.get(table_id) or TableActor.restore(row, self.hooks)
        if actor.status not in ("open", "playing") or table_id in self.tables:
            return actor
        owner = self.cluster is None or await self.cluster.claim(table_id)
        kept = self.tables.get(table_id)
        if kept is not None:
            return kept
        self.tables[table_id] = actor
        if not owner:
            actor.follower = True  # another process owns it: a copy to show it
            return actor
        async with actor.lock:
            actor.rearm(0.0)
        return actor

    # ------------------------------------ what a client asks of a table (owner or not)

    async def act(self, actor: TableActor, conn: Connection, msg: ActionIn) -> str:
        """A person's action: applied here, or forwarded to the process that owns the table."""
        if self.cluster is not None and actor.follower:
            return await self.cluster.act(actor, conn.seat, msg)
        try:
            return await actor.act(conn, msg)
        except ProtocolError as error:
            if self.cluster is None:
                raise
            if error.code is Code.STALE_SEQ and msg.seq > actor.seq:
                # the person saw events this copy has not: the log is ahead of it, so
                # another process owns the table; it follows the log and hands the action on
                await self.cluster.resync(actor)
                if not actor.follower:
                    raise
            elif error.code is not Code.MOVED:
                raise
            return await self.cluster.act(actor, conn.seat, msg)

    async def add_seed(self, actor: TableActor, conn: Connection, msg: SeedIn) -> None:
        """A person's seed for the coming deal, here or at the owner."""
        if self.cluster is not None and actor.follower:
            await self.cluster.add_seed(actor, conn.seat, msg)
        else:
            await actor.add_seed(conn, msg)

    async def next_deal(self, actor: TableActor, conn: Connection, msg: NextDealIn) -> None:
        """A person's Next deal after a deal's score sheet, here or at the owner."""
        if self.cluster is not None and actor.follower:
            await self.cluster.next_deal(actor, conn.seat, msg)
        else:
            await actor.next_deal(conn, msg)

    async def undo(self, actor: TableActor, conn: Connection) -> None:
        """A person's undo, here or at the owner."""
        if self.cluster is not None and actor.follower:
            await self.cluster.forward_op(actor, conn.seat, "undo", {})
        else:
            await actor.undo(conn)

    async def rematch(
        self,
        actor: TableActor,
        token: str,
        created: Callable[[TableActor], Awaitable[None]] | None = None,
        account: str | None = None,
    ) -> tuple[TableActor, int, str]:
        """The rematch of a finished table: the first to ask creates it (same seats and
        options, computers in their seats) and the old table's log says where it is; each
        person then joins it in the seat he had. Returns the new table, the seat, its token.

        ``created`` is awaited with the new table before anybody sits in it (a rated table's
        rematch is marked rated there, web/players/rated.py); ``account``: the account the
        new seat is linked to, in the join's transaction."""
        seat = actor.seat_of(token)
        if seat is None:
            raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat of this table")
        if actor.status != "over":
            raise ProtocolError(Code.NOT_FINISHED, "a rematch is for a finished match")
        async with self._rematch_lock:
            if actor.rematch is None:
                new = await self.create(rematch_request(actor))
                if created is not None:
                    await created(new)
                if self.cluster is not None and actor.follower:
                    data = {"kind": "rematch", "data": {"table": new.id, "seat": seat}}
                    await self.cluster.forward_op(actor, seat, "note", data)
                else:
                    await actor.note("rematch", {"table": new.id, "seat": seat})
            else:
                new = await self.get(actor.rematch)
        joined, new_token = await self.join(new, actor.seats[seat].name or "", seat, account)
        return new, joined, new_token

    async def join(
        self, actor: TableActor, name: str, seat: int | None, account: str | None = None
    ) -> tuple[int, str]:
        """Sit a person, here or at the owner; the seat and its token.  ``account``: the
        account the seat is linked to in the same transaction (a rated table)."""
        if self.cluster is not None and actor.follower:
            return await self.cluster.join(actor, name, seat, account)
        return await actor.join(name, seat, account=account)

    async def leave(self, actor: TableActor, token: str) -> int:
        """A person leaves before the start, here or at the owner."""
        if self.cluster is not None and actor.follower:
            return await self.cluster.leave(actor, token)
        return await actor.leave(token)

    async def connect(
        self, actor: TableActor, conn: Connection, seat: int | None, last_seq: int | None
    ) -> None:
        """Seat a connection; at a follower, the owner learns the seat is connected."""
        await actor.connect(conn, seat, last_seq)
        if self.cluster is not None and actor.follower:
            await self.cluster.announce(actor, seat)

    async def disconnect(self, actor: TableActor, conn: Connection) -> None:
        """A connection closed; at a follower, the owner learns of it."""
        await actor.disconnect(conn)
        if self.cluster is not None and actor.follower:
            await self.cluster.announce(actor, conn.seat)

    def log_info(self, event: str, table: str | None, action: str | None = None) -> None:
        """One structured log line (table, seat, action only)."""
        log.info(event, extra={"table": table, "seat": None, "action": action})

    def log_warning(self, event: str, action: str) -> None:
        """One structured warning (what failed, never a message's content)."""
        log.warning(event, extra={"table": None, "seat": None, "action": action})

    def public_tables(self) -> list[dict[str, Any]]:
        """The public tables with a free seat."""
        listed = []
        for actor in self.tables.values():
            if actor.status != "open" or not actor.config.get("public", True):
                continue
            free = [i for i in actor.persons if actor.seats[i].token_hash is None]
            if free:
                listed.append(summary(actor) | {"free": free})
        return listed


def self_playing(actor: TableActor) -> bool:
    """Whether the table plays by itself: no person's seat connected (here or at another
    process of a cluster).  Such a table counts against the limits on tables of computers
    only and is closed once nobody has watched it for ``Lobby.unwatched_seconds``."""
    return not any(actor.seats[i].here for i in actor.persons)


def rematch_request(actor: TableActor) -> CreateTable:
    """The creation request of a table like ``actor``: its options, seats and settings."""
    config = {k: v for k, v in actor.config.items() if k not in ("options", "daily")}
    options = {k: v for k, v in actor.config["options"].items() if k in OptionsIn.model_fields}
    seats = [{"kind": s.kind, "name": s.name if s.kind != "person" else None} for s in actor.seats]
    return CreateTable.model_validate({**config, "options": options, "seats": seats})


def summary(actor: TableActor) -> dict[str, Any]:
    """A table as anyone may see it: options, seats, status; no token, no card."""
    return {
        "table": actor.id,
        "invite": f"/t/{actor.id}",
        "status": actor.status,
        "seq": actor.seq,
        "options": actor.options.to_json(),
        "seats": [
            {"seat": i, "kind": seat.kind, "name": seat.name, "taken": seat.token_hash is not None}
            for i, seat in enumerate(actor.seats)
        ],
        "grace_seconds": actor.config["grace_seconds"],
        "turn_seconds": actor.config.get("turn_seconds"),
        "public": actor.config.get("public", True),
        "rematch": actor.rematch,
        "rated": bool(actor.config.get("rated")),  # no help before its end (players/rated.py)
        "daily": actor.config["daily"]["day"] if "daily" in actor.config else None,
    }


def server_record(actor: TableActor) -> dict[str, Any]:
    """The G2 record of a finished (or closed) table, with the fair-deal keys (docs/fair.md)."""
    if actor.status not in ("over", "closed"):
        raise ProtocolError(Code.NOT_FINISHED, "the record is served once the match is over")
    state = actor.state
    if state is None:
        raise ProtocolError(Code.NOT_FINISHED, "the match never started")
    record = to_record(state)
    record["table"] = actor.fair_name  # the name its decks were shuffled with (``verify``)
    for index, deal in enumerate(record["deals"]):
        seeds = actor.fair[index]
        deal["fair"] = fair.fair_entry(seeds.commitment, seeds.player_seeds, seeds.seed)
    return record


def seat_replay(actor: TableActor, seat: int | None, lang: str = "en") -> dict[str, Any]:
    """The match so far as ``seat`` saw it (its own hands only), or the public replay.

    Every deal and step carries ``view``, the table after it as that seat (or a
    spectator) saw it then (``views``; without the history and score sheets the
    replay itself holds), ``text``, its narration in ``lang``, and ``spoken``, the same lines
    with the cards in words, each in its sentence's case (for a screen reader).
    """
    if lang not in LANGUAGES:
        raise ProtocolError(Code.BAD_SCHEMA, f"language {lang[:10]!r} is not en, ru or uk")
    state = actor.state
    if state is None:
        return {"table": actor.id, "seat": seat, "deals": []}
    try:
        record = to_record(state)
    except RecordError:
        return {"table": actor.id, "seat": seat, "deals": []}
    deals: list[dict[str, Any]] = []
    for step in replay(record):
        obs = step.state.observation(seat if seat is not None else 0)
        view = seat_view(obs) if seat is not None else spectator_view(obs)
        del view["history"], view["deal_scores"]
        text = narration(step.events, obs.names, lang)
        spoken = narration(step.events, obs.names, lang, words=True)
        if step.action is None:
            deals.append(
                {
                    "dealer": obs.dealer,
                    "upturned": str(obs.upturned),
                    "hand": [str(c) for c in obs.hand] if seat is not None else None,
                    "view": view,
                    "text": text,
                    "spoken": spoken,
                    "steps": [],
                }
            )
        else:
            entry: dict[str, Any] = {"seat": step.seat, "action": str(step.move)}
            if seat is not None:
                entry["hand"] = [str(c) for c in obs.hand]
            entry["view"], entry["text"], entry["spoken"] = view, text, spoken
            deals[-1]["steps"].append(entry)
        if step.state.phase is not Phase.PLAYING and obs.deal_scores:
            deals[-1]["scores"] = [line.to_json() for line in obs.deal_scores[-1]]
    return {"table": actor.id, "seat": seat, "deals": deals}
