"""Many server processes on one PostgreSQL and one Redis (``foxtrot serve --bus redis://...``).

Design (docs/cluster.md):

- Each table has one owner at a time, the process holding its lease row
  (``lease.py``), renewed with all its others every ``ttl / 3`` seconds.  The
  owner alone applies the table's actions and runs its computers, seeds and
  timers: the table stays one serialized actor, as in one process.
- Every other process that shows the table (it holds a connection for it) keeps
  a follower copy rebuilt from the log.  A client's action, seed, join or leave
  that reaches a follower is forwarded to the owner over Redis and answered from
  there; the follower then reads the new events from the log before it passes
  the answer on, so its client sees the event before the acknowledgement.
- After each commit the owner publishes only (table, seq); a follower reads the
  events after its own seq from the log: one reader per process, every table that
  is due in one statement, on a database thread of its own.  A lost message costs
  a read (the next message, or the sweep every ``ttl / 3`` seconds), never a lost
  or doubled event.
- Presence is the owner's: every process tells it its connections per seat and
  its spectators; its ``presence`` goes to every process, which shows it.
- A quick reaction is not an event (never logged): the process its player is
  connected to shows it to its own connections and publishes it; every other
  process that shows the table passes it to its connections, once.
- The log's primary key (table, seq) is the guard: an owner that stalled past
  its lease and commits finds the number taken, becomes a follower and forwards.
- The renewal of the leases is a task of its own on a database thread of its
  own: a busy process must not lose its tables because a renewal waited.
- Fail-over: every ``ttl / 3`` seconds each process ends the leases of owners
  that no longer listen on Redis (dead: Redis drops a closed connection's
  subscriptions at once), looks for tables whose lease ran out and claims
  them; the winner rebuilds the table from the log and re-arms its computers
  and timers.  A forwarded request waits for the
  new owner (the same action id makes a resend harmless).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa

from ..protocol import ActionIn, Code, NextDealIn, ProtocolError, SeedIn
from ..store.event_log import ACTIVE, LeaseLostError, seat_account_clash
from ..table.actor import TableActor
from ..table.seats import token_hash
from .bus import Connection
from .lease import Leases
from .redis_bus import NoOwnerError, RedisBus

if TYPE_CHECKING:
    from ..lobby import Lobby

#: How long a forwarded request waits for an owner (through a fail-over) before it fails.
FORWARD_WAIT: Final = 20.0


async def _discard(_text: str) -> None:
    return None


class Cluster:
    """This process's part in a cluster: its leases, its followers, forwarding."""

    def __init__(self, lobby: Lobby, bus_url: str, ttl: float = 3.0) -> None:
        self.lobby = lobby
        self.node = secrets.token_hex(8)
        self.ttl = ttl
        self.leases = Leases(lobby.store, self.node, ttl)
        self.bus = RedisBus(bus_url, self.node)
        self._owners: dict[str, str] = {}  # table -> owner, as last learned
        self._epochs: dict[str, int] = {}  # table -> the lease generation this process won
        self._stand_ins: dict[int | None, Connection] = {}
        #: Followed tables to read from the log at the next batched read, with who waits.
        self._due: dict[str, list[asyncio.Future[None]]] = {}
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._keeper: asyncio.Task[None] | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        # The leases have their own database thread: a renewal never waits behind the
        # commits and reads of a busy process (it would lose its tables, and its
        # peers would then all move tables about).
        self._control = ThreadPoolExecutor(max_workers=1, thread_name_prefix="foxtrot-lease")
        # The followers' reads too: a burst of them never delays this process's commits.
        self._reads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="foxtrot-follow")
        #: Told of each forwarded request (its op and seconds), each resend (why), each
        #: batched read of the log (its tables and seconds): the metrics.
        self.on_forward: Callable[[str, float], None] = lambda op, seconds: None
        self.on_retry: Callable[[str], None] = lambda reason: None
        self.on_read: Callable[[int, float], None] = lambda tables, seconds: None
        self.on_wait: Callable[[float], None] = lambda seconds: None  # ack waits for the read

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Listen on Redis, take the tables nobody owns, keep the leases from now on."""
        hooks = self.lobby.hooks
        hooks.after_commit = lambda table, seq: self.bus.table(table, "e", str(seq))
        hooks.on_presence = self._presence_out
        hooks.on_reaction = lambda table, text: self.bus.table(table, "r", f"{self.node} {text}")
        hooks.lost = self._lost
        hooks.fence = self.fence
        self._reader = asyncio.create_task(self._read_forever())
        await self.bus.start(self._on_table, self._on_request)
        await self._watch_once()
        self._renewer = asyncio.create_task(self._every_while(self._renew))
        self._keeper = asyncio.create_task(self._every_while(self._watch_once))

    async def stop(self) -> None:
        """Give up every lease at once (another process takes over without waiting)."""
        for task in (self._renewer, self._keeper, self._reader):
            if task is not None:
                task.cancel()
        for futures in self._due.values():  # nobody reads for them any more
            for future in futures:
                future.cancel()
        owned = [t for t, a in self.lobby.tables.items() if not a.follower]
        with contextlib.suppress(Exception):
            await self.lease(self.leases.release, owned)
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()
        await asyncio.to_thread(self._control.shutdown, wait=True)
        await asyncio.to_thread(self._reads.shutdown, wait=True)

    async def lease(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a lease call on the leases' own database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._control, fn, *args)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ ownership

    async def claim(self, table_id: str) -> bool:
        """Try to take a table's lease; its generation fences this process's commits."""
        epoch = await self.lease(self.leases.claim, table_id)
        if epoch is None:
            return False
        self._owners[table_id] = self.node
        self._epochs[table_id] = epoch
        return True

    def fence(self, table_id: str) -> tuple[str, int] | None:
        """What a commit of this process's events of ``table_id`` must find in the lease row."""
        epoch = self._epochs.get(table_id)
        return None if epoch is None else (self.node, epoch)

    async def _every_while(self, job: Callable[[], Any]) -> None:
        """Run ``job`` every ``ttl / 3`` seconds for as long as the process lives."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await job()
            except Exception as error:  # the database or Redis is away: try again
                self.lobby.log_warning("cluster", type(error).__name__)

    async def _renew(self) -> None:
        """Extend this process's leases: a task of its own, on the leases' own thread.

        Nothing else waits in front of it: a renewal that came late because the
        process was busy claiming and rebuilding other tables would lose its
        own tables, and a busy cluster would then move tables about for ever.
        """
        lobby = self.lobby
        owned = [t for t, a in lobby.tables.items() if not a.follower and a.status in ACTIVE]
        kept = await self.lease(self.leases.renew, owned)
        for table_id in set(owned) - kept:
            actor = lobby.tables.get(table_id)
            if actor is not None:
                self.demote(actor)

    async def _watch_once(self) -> None:
        """Notice dead processes, take the tables whose lease ran out, sweep the followers."""
        lobby = self.lobby
        others = [node for node in await self.lease(self.leases.owners) if node != self.node]
        for dead in await self.bus.silent(others):
            self.lobby.log_info("dead", None, dead)
            await self.lease(self.leases.expire, dead)
        await self._forget_dead_followers()
        for table_id in await self.lease(self.leases.orphans):
            if await self.claim(table_id):
                await self.promote(table_id)
        for table_id, actor in list(lobby.tables.items()):
            if actor.follower:  # a missed wake-up costs a read here at the latest (one
                self.behind(table_id)  # statement for all of them)

    async def _forget_dead_followers(self) -> None:
        """A process that died held connections for seats here: they count no longer."""
        owned = [a for a in self.lobby.tables.values() if not a.follower]
        nodes = {node for a in owned for seat in a.seats for node in seat.remote}
        nodes |= {node for a in owned for node in a.remote_spectators}
        if not nodes:
            return
        dead = set(await self.bus.silent(sorted(nodes)))
        for actor in owned:
            for seat in actor.persons:
                for node in set(actor.seats[seat].remote) & dead:
                    await actor.remote_presence(node, seat, 0)
                    actor.seats[seat].remote.pop(node, None)
            for node in set(actor.remote_spectators) & dead:
                await actor.remote_presence(node, None, 0)
                actor.remote_spectators.pop(node, None)

    async def promote(self, table_id: str) -> None:
        """This process owns the table now: rebuild it from the log, re-arm its wake-ups."""
        lobby = self.lobby
        actor = lobby.tables.get(table_id)
        if actor is None:
            row = await lobby.db(lobby.store.load, table_id)
            if row is None:
                return
            # a request's load (``Lobby.get``) may have kept a copy meanwhile: that one stays
            actor = lobby.tables.setdefault(table_id, TableActor.restore(row, lobby.hooks))
        else:
            await self.catch_up(actor)
            actor.restore_deadline(await lobby.db(lobby.store.deadline, table_id))
        await actor.take_ownership()
        self.bus.table(table_id, "o", self.node)
        self.lobby.log_info("owner", table_id)

    def demote(self, actor: TableActor) -> None:
        """Another process owns the table: stop its wake-ups here, follow the log."""
        self._epochs.pop(actor.id, None)
        if actor.follower:
            return
        actor.follow()
        self._owners.pop(actor.id, None)
        self.behind(actor.id)
        self.lobby.log_info("follower", actor.id)

    def _lost(self, actor: TableActor, error: BaseException) -> bool:
        """A commit refused: another process holds the table's lease now (``LeaseLostError``),
        or committed that number first (the log's key, the last guard)."""
        if isinstance(error, sa.exc.IntegrityError) and seat_account_clash(error):
            return False  # one account in two seats is refused, not a lost table
        if not isinstance(error, LeaseLostError | sa.exc.IntegrityError):
            return False
        self.demote(actor)
        return True

    # ------------------------------------------------------------- following

    def behind(self, table_id: str) -> None:
        """Read the table's new events from the log at the next batched read."""
        self._due.setdefault(table_id, [])
        self._wake.set()

    async def catch_up(self, actor: TableActor, until: int | None = None) -> None:
        """Adopt and show the events the log has after this copy's seq (up to ``until``).

        The read is one of the batched reads (``_read_forever``): it starts after
        this call, so it sees every event committed before it.
        """
        for _ in range(3):
            if until is not None and actor.seq >= until:
                return
            future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._due.setdefault(actor.id, []).append(future)
            self._wake.set()
            await future
            if until is None:
                return

    async def resync(self, actor: TableActor) -> None:
        """A copy that thought it owned the table is behind the log (a person saw newer
        events): another process committed them, so this one steps down and catches up."""
        newer = await asyncio.get_running_loop().run_in_executor(
            self._reads, self.lobby.store.events_after, actor.id, actor.seq
        )
        if newer:
            self.lobby.log_warning("behind", actor.id)
            self.demote(actor)
            await self.catch_up(actor)

    async def _read_forever(self) -> None:
        """One reader per process: every followed table that is due, in one statement.

        However many wake-ups arrive while a read is in flight, they cost one
        more read, not one each: the number of reads a second stays bounded by
        the database's answer time, not by the number of tables or events.
        """
        while True:
            await self._wake.wait()
            self._wake.clear()
            due, self._due = self._due, {}
            try:
                await self._read(due)
            except Exception as error:  # the database is away: the waiters learn it
                self.lobby.log_warning("follow", type(error).__name__)
                for futures in due.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(error)
                await asyncio.sleep(0.2)
                continue
            for futures in due.values():
                for future in futures:
                    if not future.done():
                        future.set_result(None)

    async def _read(self, due: dict[str, list[asyncio.Future[None]]]) -> None:
        lobby = self.lobby
        actors = {t: a for t in due if (a := lobby.tables.get(t)) is not None and a.follower}
        if not actors:
            return
        after = {table_id: actor.seq for table_id, actor in actors.items()}
        start = time.perf_counter()
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self._reads, lobby.store.events_after_many, after)
        self.on_read(len(after), time.perf_counter() - start)
        reseat = []
        for table_id, events in found.items():
            actor = actors[table_id]
            async with actor.lock:
                for logged in events:
                    if logged.seq <= actor.seq:  # adopted meanwhile
                        continue
                    if logged.seq != actor.seq + 1:
                        break
                    actor.adopt_logged(logged)
                    if logged.kind in ("join", "leave", "start"):
                        reseat.append(actor)
        for actor in dict.fromkeys(reseat):
            rows = await loop.run_in_executor(self._reads, lobby.store.seat_rows, actor.id)
            for info, (_kind, name, hashed) in zip(actor.seats, rows, strict=True):
                info.name, info.token_hash = name, hashed

    # ------------------------------------------------------------ the bus

    def _on_table(self, table_id: str, kind: str, rest: str) -> None:
        actor = self.lobby.tables.get(table_id)
        if kind == "o":
            self._owners[table_id] = rest
            if actor is not None and rest != self.node:
                self.demote(actor)
                self._spawn(self.announce_all(actor))
            return
        if kind == "r":  # a reaction sent at another process: to this one's connections
            sender, _, text = rest.partition(" ")
            if actor is not None and sender != self.node:
                for conn in actor.connections():
                    conn.put(text)
            return
        if actor is None or not actor.follower:
            return
        if kind == "e" and int(rest) > actor.seq:
            self.behind(table_id)
        elif kind == "p":
            actor.owner_presence = rest
            for conn in actor.connections():
                conn.put(rest)

    def _presence_out(self, table_id: str, text: str) -> None:
        actor = self.lobby.tables.get(table_id)
        if actor is not None and not actor.follower:
            self.bus.table(table_id, "p", text)

    async def owner_of(self, table_id: str, *, fresh: bool = False) -> str | None:
        """The table's owner (cached; ``fresh`` reads the lease row)."""
        if not fresh and table_id in self._owners:
            return self._owners[table_id]
        owner: str | None = await self.lease(self.leases.owner, table_id)
        if owner is None:
            self._owners.pop(table_id, None)
        else:
            self._owners[table_id] = owner
        return owner

    async def forward(self, table_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Run a request at the table's owner, waiting through a fail-over."""
        payload = payload | {"table": table_id}
        start = time.monotonic()
        deadline = start + FORWARD_WAIT
        fresh = False
        while time.monotonic() < deadline:
            owner = await self.owner_of(table_id, fresh=fresh)
            fresh = True
            if owner is None:
                self.on_retry("no_owner")
                await asyncio.sleep(0.1)
                continue
            if owner == self.node:
                result = await self._on_request(payload)
            else:
                try:
                    result = await self.bus.ask(owner, payload, timeout=5.0)
                except NoOwnerError:
                    self.on_retry("no_answer")
                    await asyncio.sleep(0.1)
                    continue
            if isinstance(result, dict) and not result.get("moved"):
                self.on_forward(str(payload["op"]), time.monotonic() - start)
                return result
            self.on_retry("moved")
            await asyncio.sleep(0.05)
        raise ProtocolError(
            Code.UNAVAILABLE, "the table's server process does not answer: send again"
        )

    async def announce(self, actor: TableActor, seat: int | None) -> None:
        """Tell the owner how many connections this process has for a seat (None: spectators)."""
        owner = await self.owner_of(actor.id)
        count = len(actor.seats[seat].conns) if seat is not None else len(actor.spectators)
        message = {"op": "presence", "table": actor.id, "seat": seat, "node": self.node}
        if owner is not None and owner != self.node:
            self.bus.tell(owner, message | {"count": count})

    async def announce_all(self, actor: TableActor) -> None:
        """After an owner change: tell the new owner about every seat and spectator seen here."""
        for seat in actor.persons:
            if actor.seats[seat].conns:
                await self.announce(actor, seat)
        if actor.spectators:
            await self.announce(actor, None)

    async def _on_request(self, payload: dict[str, Any]) -> Any:
        """A request forwarded to this process as the table's owner."""
        actor = self.lobby.tables.get(str(payload.get("table")))
        if actor is None or actor.follower:
            return {"moved": True}
        op = payload["op"]
        if op == "presence":
            seat = payload["seat"]
            await actor.remote_presence(
                str(payload["node"]), None if seat is None else int(seat), int(payload["count"])
            )
            return None
        conn = self._stand_in(payload.get("seat"))
        try:
            if op == "act":
                return {"ok": await actor.act(conn, ActionIn(**payload["msg"]))}
            if op == "seed":
                await actor.add_seed(conn, SeedIn(**payload["msg"]))
                return {"ok": None}
            if op == "next_deal":
                await actor.next_deal(conn, NextDealIn(**payload["msg"]))
                return {"ok": None}
            if op == "undo":
                await actor.undo(conn)
                return {"ok": None}
            if op == "note":
                await actor.note(payload["msg"]["kind"], payload["msg"]["data"])
                return {"ok": None}
            if op == "join":
                seat, _ = await actor.join(
                    payload["name"], payload["want"], payload["hash"], payload.get("account")
                )
                return {"ok": seat}
            if op == "leave":
                return {"ok": await actor.leave("", payload["hash"])}
        except ProtocolError as error:
            if error.code is Code.MOVED:
                return {"moved": True}
            return {"error": {"code": error.code.value, "message": error.message}}
        return {"error": {"code": Code.UNKNOWN_TYPE.value, "message": f"no operation {op}"}}

    def _stand_in(self, seat: int | None) -> Connection:
        """The connection a forwarded request acts through: only its seat is read.

        One per seat number, made once: nothing is ever sent on it (the answer goes
        back over Redis), and making a connection (its queue) per request is not free.
        """
        conn = self._stand_ins.get(seat)
        if conn is None:
            conn = self._stand_ins[seat] = Connection(_discard)
            conn.seat = seat
        return conn

    # ------------------------------------------------- what a follower forwards

    async def act(self, actor: TableActor, seat: int | None, msg: ActionIn) -> str:
        """A person's action at a follower: applied by the owner; the events shown first."""
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot act", msg.id)
        result = self._answer(
            await self.forward(actor.id, {"op": "act", "seat": seat, "msg": msg.model_dump()}),
            msg.id,
        )
        start = time.monotonic()
        await self.catch_up(actor, until=int(json.loads(result)["seq"]))
        self.on_wait(time.monotonic() - start)
        return str(result)

    async def add_seed(self, actor: TableActor, seat: int | None, msg: SeedIn) -> None:
        """A person's seed at a follower."""
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot add a seed")
        payload = {"op": "seed", "seat": seat, "msg": msg.model_dump()}
        self._answer(await self.forward(actor.id, payload), None)

    async def next_deal(self, actor: TableActor, seat: int | None, msg: NextDealIn) -> None:
        """A person's Next deal at a follower."""
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator does not start deals")
        await self.forward_op(actor, seat, "next_deal", msg.model_dump())

    async def forward_op(
        self, actor: TableActor, seat: int | None, op: str, msg: dict[str, Any]
    ) -> None:
        """Ask the owner of ``actor``'s table to do ``op`` (undo, note) for ``seat``."""
        self._answer(await self.forward(actor.id, {"op": op, "seat": seat, "msg": msg}), None)

    async def join(
        self, actor: TableActor, name: str, seat: int | None, account: str | None = None
    ) -> tuple[int, str]:
        """A join at a follower: this process makes the token, the owner stores its hash
        (and links the seat to ``account``, checked under the owner's lock)."""
        token = secrets.token_urlsafe(32)
        payload = {
            "op": "join",
            "name": name,
            "want": seat,
            "hash": token_hash(token),
            "account": account,
        }
        number = int(self._answer(await self.forward(actor.id, payload), None))
        await self.catch_up(actor)
        return number, token

    async def leave(self, actor: TableActor, token: str) -> int:
        """A leave at a follower."""
        payload = {"op": "leave", "hash": token_hash(token)}
        number = int(self._answer(await self.forward(actor.id, payload), None))
        await self.catch_up(actor)
        return number

    @staticmethod
    def _answer(result: dict[str, Any], action_id: str | None) -> Any:
        if "error" in result:
            error = result["error"]
            raise ProtocolError(Code(error["code"]), str(error["message"]), action_id)
        return result.get("ok")
