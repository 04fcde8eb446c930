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
  events after its own seq from the log.  A lost message costs a read (the
  next message, or the sweep every ``ttl / 3`` seconds), never a lost or doubled
  event.
- The log's primary key (table, seq) is the guard: an owner that stalled past
  its lease and commits finds the number taken, becomes a follower and forwards.
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
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa

from .bus import Connection
from .lease import Leases
from .protocol import ActionIn, Code, ProtocolError, SeedIn
from .redis_bus import NoOwnerError, RedisBus
from .seats import token_hash
from .store import ACTIVE
from .tables import TableActor

if TYPE_CHECKING:
    from .lobby import Lobby

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
        self._behind: dict[str, asyncio.Event] = {}  # a follower's catch-up is due
        self._tasks: set[asyncio.Task[Any]] = set()
        self._keeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Listen on Redis, take the tables nobody owns, keep the leases from now on."""
        hooks = self.lobby.hooks
        hooks.after_commit = lambda table, seq: self._spawn(self.bus.table(table, "e", str(seq)))
        hooks.on_presence = self._presence_out
        hooks.lost = self._lost
        await self.bus.start(self._on_table, self._on_request)
        await self._keep_once()
        self._keeper = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        """Give up every lease at once (another process takes over without waiting)."""
        if self._keeper is not None:
            self._keeper.cancel()
        owned = [t for t, a in self.lobby.tables.items() if not a.follower]
        with contextlib.suppress(Exception):
            await self.lobby.db(self.leases.release, owned)
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ ownership

    async def claim(self, table_id: str) -> bool:
        """Try to take a table's lease."""
        won = bool(await self.lobby.db(self.leases.claim, table_id))
        if won:
            self._owners[table_id] = self.node
        return won

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._keep_once()
            except Exception as error:  # the database or Redis is away: try again
                self.lobby.log_warning("cluster", type(error).__name__)

    async def _keep_once(self) -> None:
        lobby = self.lobby
        owned = [t for t, a in lobby.tables.items() if not a.follower and a.status in ACTIVE]
        kept = await lobby.db(self.leases.renew, owned)
        for table_id in set(owned) - kept:
            self.demote(lobby.tables[table_id])
        others = [node for node in await lobby.db(self.leases.owners) if node != self.node]
        for dead in await self.bus.silent(others):
            self.lobby.log_info("dead", None, dead)
            await lobby.db(self.leases.expire, dead)
        await self._forget_dead_followers()
        for table_id in await lobby.db(self.leases.orphans):
            if await self.claim(table_id):
                await self.promote(table_id)
        for table_id, actor in list(lobby.tables.items()):
            if actor.follower:  # a missed wake-up costs a read here at the latest
                self.behind(table_id)

    async def _forget_dead_followers(self) -> None:
        """A process that died held connections for seats here: they count no longer."""
        owned = [a for a in self.lobby.tables.values() if not a.follower]
        nodes = {node for a in owned for seat in a.seats for node in seat.remote}
        dead = set(await self.bus.silent(sorted(nodes)))
        for actor in owned:
            for seat in actor.persons:
                for node in set(actor.seats[seat].remote) & dead:
                    payload = {"seat": seat, "node": node, "count": 0}
                    await self._remote_presence(actor, payload)
                    actor.seats[seat].remote.pop(node, None)

    async def promote(self, table_id: str) -> None:
        """This process owns the table now: rebuild it from the log, re-arm its wake-ups."""
        lobby = self.lobby
        actor = lobby.tables.get(table_id)
        if actor is None:
            row = await lobby.db(lobby.store.load, table_id)
            if row is None:
                return
            actor = TableActor.restore(row, lobby.hooks)
            lobby.tables[table_id] = actor
        else:
            await self.catch_up(actor)
            actor.turn_deadline = actor._stored_deadline = await lobby.db(
                lobby.store.deadline, table_id
            )
        async with actor.lock:
            actor.follower = False
            now = time.time()
            for i in actor.persons:
                info = actor.seats[i]
                info.remote.clear()
                if not info.here and info.away_since is None:
                    info.away_since = now
            actor.rearm(0.0)
            await actor._start_if_full()  # a table of computers its creator had no time to start
        await self.bus.table(table_id, "o", self.node)
        self.lobby.log_info("owner", table_id)

    def demote(self, actor: TableActor) -> None:
        """Another process owns the table: stop its wake-ups here, follow the log."""
        if actor.follower:
            return
        actor.follower = True
        if actor._task is not None:
            actor._task.cancel()
        for task in actor._grace.values():
            task.cancel()
        actor._grace.clear()
        self._owners.pop(actor.id, None)
        self.behind(actor.id)
        self.lobby.log_info("follower", actor.id)

    def _lost(self, actor: TableActor, error: BaseException) -> bool:
        """A commit refused by the log: another process committed that number first."""
        if not isinstance(error, sa.exc.IntegrityError):
            return False
        self.demote(actor)
        return True

    # ------------------------------------------------------------- following

    def behind(self, table_id: str) -> None:
        """Read the table's new events from the log soon (one reader per table)."""
        event = self._behind.get(table_id)
        if event is not None:
            event.set()
            return
        self._behind[table_id] = asyncio.Event()
        self._behind[table_id].set()
        self._spawn(self._follow(table_id))

    async def _follow(self, table_id: str) -> None:
        event = self._behind[table_id]
        try:
            while event.is_set():
                event.clear()
                actor = self.lobby.tables.get(table_id)
                if actor is None or not actor.follower:
                    return
                await self.catch_up(actor)
        finally:
            self._behind.pop(table_id, None)

    async def catch_up(self, actor: TableActor, until: int | None = None) -> None:
        """Adopt and show the events the log has after this copy's seq."""
        lobby = self.lobby
        async with actor.lock:
            if until is not None and actor.seq >= until:
                return
            events = await lobby.db(lobby.store.events_after, actor.id, actor.seq)
            reseat = False
            for logged in events:
                if logged.seq != actor.seq + 1:
                    break
                actor._adopt(logged, actor._compute(logged))
                actor._broadcast(actor.entries[-1])
                reseat = reseat or logged.kind in ("join", "leave", "start")
            if reseat:
                rows = await lobby.db(lobby.store.seat_rows, actor.id)
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
        if actor is None or not actor.follower:
            return
        if kind == "e" and int(rest) > actor.seq:
            self.behind(table_id)
        elif kind == "p":
            for conn in actor.connections():
                conn.put(rest)

    def _presence_out(self, table_id: str, text: str) -> None:
        actor = self.lobby.tables.get(table_id)
        if actor is not None and not actor.follower:
            self._spawn(self.bus.table(table_id, "p", text))

    async def owner_of(self, table_id: str, *, fresh: bool = False) -> str | None:
        """The table's owner (cached; ``fresh`` reads the lease row)."""
        if not fresh and table_id in self._owners:
            return self._owners[table_id]
        owner: str | None = await self.lobby.db(self.leases.owner, table_id)
        if owner is None:
            self._owners.pop(table_id, None)
        else:
            self._owners[table_id] = owner
        return owner

    async def forward(self, table_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Run a request at the table's owner, waiting through a fail-over."""
        payload = payload | {"table": table_id}
        deadline = time.monotonic() + FORWARD_WAIT
        fresh = False
        while time.monotonic() < deadline:
            owner = await self.owner_of(table_id, fresh=fresh)
            fresh = True
            if owner is None:
                await asyncio.sleep(0.1)
                continue
            if owner == self.node:
                result = await self._on_request(payload)
            else:
                try:
                    result = await self.bus.ask(owner, payload, timeout=5.0)
                except NoOwnerError:
                    await asyncio.sleep(0.1)
                    continue
            if isinstance(result, dict) and not result.get("moved"):
                return result
            await asyncio.sleep(0.05)
        raise ProtocolError(
            Code.UNAVAILABLE, "the table's server process does not answer: send again"
        )

    async def announce(self, actor: TableActor, seat: int) -> None:
        """Tell the owner how many connections this process has for a seat."""
        owner = await self.owner_of(actor.id)
        count = len(actor.seats[seat].conns)
        message = {"op": "presence", "table": actor.id, "seat": seat, "node": self.node}
        if owner is not None and owner != self.node:
            await self.bus.tell(owner, message | {"count": count})

    async def announce_all(self, actor: TableActor) -> None:
        """After an owner change: tell the new owner about every seat seen here."""
        for seat in actor.persons:
            if actor.seats[seat].conns:
                await self.announce(actor, seat)

    async def _on_request(self, payload: dict[str, Any]) -> Any:
        """A request forwarded to this process as the table's owner."""
        actor = self.lobby.tables.get(str(payload.get("table")))
        if actor is None or actor.follower:
            return {"moved": True}
        op = payload["op"]
        if op == "presence":
            await self._remote_presence(actor, payload)
            return None
        conn = Connection(_discard)
        conn.seat = payload.get("seat")
        try:
            if op == "act":
                return {"ok": await actor.act(conn, ActionIn(**payload["msg"]))}
            if op == "seed":
                await actor.add_seed(conn, SeedIn(**payload["msg"]))
                return {"ok": None}
            if op == "join":
                seat, _ = await actor.join(payload["name"], payload["want"], payload["hash"])
                return {"ok": seat}
            if op == "leave":
                return {"ok": await actor.leave("", payload["hash"])}
        except ProtocolError as error:
            if error.code is Code.MOVED:
                return {"moved": True}
            return {"error": {"code": error.code.value, "message": error.message}}
        return {"error": {"code": Code.UNKNOWN_TYPE.value, "message": f"no operation {op}"}}

    async def _remote_presence(self, actor: TableActor, payload: dict[str, Any]) -> None:
        seat = int(payload["seat"])
        async with actor.lock:
            info = actor.seats[seat]
            info.remote[str(payload["node"])] = int(payload["count"])
            if info.here:
                info.away_since = None
                info.replaced = False
                task = actor._grace.pop(seat, None)
                if task is not None:
                    task.cancel()
            elif info.kind == "person":
                info.away_since = time.time()
                if actor.status == "playing":
                    actor._watch_away(seat)
            actor._send_presence()
            actor._schedule()

    # ------------------------------------------------- what a follower forwards

    async def act(self, actor: TableActor, seat: int | None, msg: ActionIn) -> str:
        """A person's action at a follower: applied by the owner; the events shown first."""
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot act", msg.id)
        result = self._answer(
            await self.forward(actor.id, {"op": "act", "seat": seat, "msg": msg.model_dump()}),
            msg.id,
        )
        await self.catch_up(actor, until=int(json.loads(result)["seq"]))
        return str(result)

    async def add_seed(self, actor: TableActor, seat: int | None, msg: SeedIn) -> None:
        """A person's seed at a follower."""
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot add a seed")
        payload = {"op": "seed", "seat": seat, "msg": msg.model_dump()}
        self._answer(await self.forward(actor.id, payload), None)

    async def join(self, actor: TableActor, name: str, seat: int | None) -> tuple[int, str]:
        """A join at a follower: this process makes the token, the owner stores its hash."""
        token = secrets.token_urlsafe(32)
        payload = {"op": "join", "name": name, "want": seat, "hash": token_hash(token)}
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
