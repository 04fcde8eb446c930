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
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..core import Phase, RecordError, TableOptions, replay, to_record
from . import fair
from .computer import Computers
from .protocol import Code, CreateTable, ProtocolError
from .seats import Hooks, SeatInfo
from .store import Append, Store
from .tables import TableActor

log = logging.getLogger("foxtrot.web")
HEARTBEAT = 2.0


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
        self._flushing = False
        self._flusher: asyncio.Task[None] | None = None
        self.tables: dict[str, TableActor] = {}
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
                try:
                    await self.db(self.store.append_many, [item for item, _ in batch])
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

    async def shutdown(self) -> None:
        """Stop every wake-up and worker; everything accepted is already in the log."""
        self.ready = False
        for task in self._tasks:
            task.cancel()
        for actor in self.tables.values():
            actor.stop()
        self.computers.close()
        self._db.shutdown(wait=True)
        self.store.close()
        log.info("stopped", extra={"table": None, "seat": None, "action": f"{len(self.tables)}"})

    async def _housekeeping(self) -> None:
        """Heartbeat (for the downtime after a crash) and closing tables every person left."""
        while True:
            await asyncio.sleep(self.heartbeat)
            await self.db(self.store.beat)
            now = time.time()
            for actor in list(self.tables.values()):
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

    async def create(self, request: CreateTable) -> TableActor:
        """A new table from its creation request."""
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
            (seat.name or f"Computer {i + 1} ({seat.kind})") if seat.kind != "person" else None
            for i, seat in enumerate(plan)
        ] or [None] * options.players
        if request.first_dealer is not None and request.first_dealer >= options.players:
            raise ProtocolError(Code.BAD_OPTIONS, "first_dealer: not a seat")
        table_id = secrets.token_urlsafe(16)
        config = request.model_dump(exclude={"seats", "options"})
        config["options"] = {
            key: value for key, value in options.to_json().items() if key != "decks"
        }
        plan_rows = list(zip(kinds, names, strict=True))
        await self.db(self.store.create_table, table_id, config, plan_rows)
        seats = [SeatInfo(kind, name, None) for kind, name in plan_rows]
        actor = TableActor(table_id, config, seats, self.hooks)
        self.tables[table_id] = actor
        await actor.start_if_full()
        log.info("created", extra={"table": table_id, "seat": None, "action": "create"})
        return actor

    async def get(self, table_id: str) -> TableActor:
        """A table by id, loaded from the database if it is not in memory."""
        actor = self.tables.get(table_id)
        if actor is None:
            row = await self.db(self.store.load, table_id) if len(table_id) <= 64 else None
            if row is None:
                raise ProtocolError(Code.NO_TABLE, "there is no such table")
            actor = TableActor.restore(row, self.hooks)
            if actor.status in ("open", "playing"):
                self.tables[table_id] = actor
                async with actor.lock:
                    actor.rearm(0.0)
        return actor

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
    }


def server_record(actor: TableActor) -> dict[str, Any]:
    """The G2 record of a finished (or closed) table, with the fair-deal keys (docs/fair.md)."""
    if actor.status not in ("over", "closed"):
        raise ProtocolError(Code.NOT_FINISHED, "the record is served once the match is over")
    state = actor.state
    if state is None:
        raise ProtocolError(Code.NOT_FINISHED, "the match never started")
    record = to_record(state)
    record["table"] = actor.id
    for index, deal in enumerate(record["deals"]):
        seeds = actor.fair[index]
        deal["fair"] = fair.fair_entry(seeds.commitment, seeds.player_seeds, seeds.seed)
    return record


def seat_replay(actor: TableActor, seat: int | None) -> dict[str, Any]:
    """The match so far as ``seat`` saw it (its own hands only), or the public replay."""
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
        if step.action is None:
            deals.append(
                {
                    "dealer": obs.dealer,
                    "upturned": str(obs.upturned),
                    "hand": [str(c) for c in obs.hand] if seat is not None else None,
                    "steps": [],
                }
            )
        else:
            entry: dict[str, Any] = {"seat": step.seat, "action": str(step.move)}
            if seat is not None:
                entry["hand"] = [str(c) for c in obs.hand]
            deals[-1]["steps"].append(entry)
        if step.state.phase is not Phase.PLAYING and obs.deal_scores:
            deals[-1]["scores"] = [line.to_json() for line in obs.deal_scores[-1]]
    return {"table": actor.id, "seat": seat, "deals": deals}
