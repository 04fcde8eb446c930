"""One actor per table: every change goes through its lock, one at a time, through the engine.

A change is computed on a clone of the state, committed to the event log, and
only then adopted and broadcast; if the commit fails nothing changed.  The
same ``_adopt`` replays the log when the server starts, so a table comes back
exactly where it was.  The actor also schedules what happens without a person
acting: the fair deal (commit, seeds, deal), computer seats, the grace period
of a person who is away, and the turn timer.
"""

from __future__ import annotations

import asyncio
import hmac
import random
import secrets
import time
from collections.abc import Coroutine
from typing import Any

import sqlalchemy as sa

from ...core import Event, Phase, State, TableOptions
from .. import fair
from ..cluster.bus import Connection
from ..logs import cause, log
from ..protocol import Ack, ActionIn, Code, NextDealIn, ProtocolError, SeedIn, Snapshot
from ..store.event_log import Append, LoggedEvent, TableRow, seat_account_clash
from .events_in import checked_action, next_state
from .pause import DealPause
from .seats import DealSeeds, Entry, Hooks, SeatInfo, presence_text, token_hash
from .views import Texts, event_json, view_of

#: Missed events a reconnecting client is sent one by one; further behind, a snapshot.
CATCHUP_LIMIT = 500
#: The action ids kept to answer a resent action with its first answer (resends come within
#: seconds; an id older than these is refused as ``stale_seq``, never played twice).
ACCEPTED_KEPT = 500
#: A wake-up that failed (the database, a worker process) starts again after this many
#: seconds, doubled after each failure in a row up to ``RETRY_MAX``: a table never stops.
RETRY_FIRST = 1.0
RETRY_MAX = 60.0


class TableActor:
    """A table: its seats, state, log in memory, connections and scheduled wake-ups."""

    def __init__(self, table_id: str, config: dict[str, Any], seats: list[SeatInfo], hooks: Hooks):
        self.id = table_id
        self.config = config
        self.options = TableOptions(**config["options"])
        self.seats = seats
        self.hooks = hooks
        self.status = "open"
        self.seq = 0
        self.state_seq = 0  # the last event that changed the game (an action sent after is fresh)
        self.state: State | None = None
        self.entries: list[Entry] = []
        self.fair: dict[int, DealSeeds] = {}
        self.accepted: dict[tuple[int, str], int] = {}  # (seat, action id) -> seq
        self.refused: dict[tuple[int, str], ProtocolError] = {}
        self.spectators: set[Connection] = set()
        self.turn_deadline: float | None = None
        self._stored_deadline: float | None = None
        self.lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._failures = 0  # wake-ups that failed in a row (``_woke``)
        self._grace: dict[int, asyncio.Task[None]] = {}
        self.left_at = time.time()  # when it was last watched or left
        self.creator: str | None = None  # the address that created it (the lobby's limits)
        self.stopped = False  # the server is stopping: no new wake-up may start
        self.follower = False  # another process owns the table: this one only shows it
        #: Many processes: at the owner, the spectators connected to each other process; at
        #: a follower, the owner's last presence (only the owner knows who is where).
        self.remote_spectators: dict[str, int] = {}
        self.owner_presence: str | None = None
        self.pause = DealPause()  # after a deal, until every person presses Next deal
        self.rematch: str | None = None  # the table of the rematch, once someone asked for it

    # ------------------------------------------------------------ restoring

    @classmethod
    def restore(cls, row: TableRow, hooks: Hooks) -> TableActor:
        """Rebuild a table from its stored row and event log."""
        seats = [SeatInfo(kind, name, hashed) for kind, name, hashed in row.seats]
        actor = cls(row.id, row.config, seats, hooks)
        for logged in row.events:
            actor._adopt(logged, actor._compute(logged))
        actor.status = row.status
        actor.turn_deadline = actor._stored_deadline = row.turn_deadline
        now = time.time()
        for seat in actor.seats:
            if seat.kind == "person":
                seat.away_since = now
        return actor

    @property
    def persons(self) -> list[int]:
        """The seats of people."""
        return [i for i, seat in enumerate(self.seats) if seat.kind == "person"]

    def seat_of(self, token: str, hashed: str | None = None) -> int | None:
        """The seat whose token this is (or whose token has this hash), or None."""
        hashed = hashed or token_hash(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, hashed):
                return i
        return None

    # ------------------------------------------- computing, committing, adopting

    def _compute(self, logged: LoggedEvent) -> tuple[State | None, tuple[Event, ...]]:
        """The state after ``logged`` and its engine events (events_in.py)."""
        return next_state(self.state, logged, self.seats, self.fair, self.fair_name, self.options)

    @property
    def fair_name(self) -> str:
        """The table name its decks are shuffled with: its id, or a deal of the day's name
        (web/daily/decks.py), the same for everyone who plays that day's deck."""
        daily = self.config.get("daily")
        return str(daily["name"]) if isinstance(daily, dict) else self.id

    def _adopt(self, logged: LoggedEvent, computed: tuple[State | None, tuple[Event, ...]]) -> None:
        """Make a committed event part of the table in memory."""
        state, events = computed
        data = logged.data
        self.seq = logged.seq
        if state is not self.state:
            self.state_seq = logged.seq
        self.state = state
        if logged.kind == "join":
            self.seats[int(data["seat"])].name = str(data["name"])
        elif logged.kind == "leave":
            seat = self.seats[int(data["seat"])]
            seat.name, seat.token_hash = None, None
            for conn in seat.conns:
                conn.close()
            seat.conns.clear()
        elif logged.kind == "start":
            self.status = "playing"
        elif logged.kind == "commit":
            assert logged.secret is not None
            self.fair[int(data["deal"])] = DealSeeds(
                str(data["commitment"]),
                bytes.fromhex(str(logged.secret["server_seed"])),
                [""] * self.options.players,
            )
        elif logged.kind == "seed":
            self.fair[int(data["deal"])].player_seeds[int(data["seat"])] = str(data["seed"])
        elif logged.kind == "deal":
            self.fair[int(data["deal"])].dealt = True
        elif logged.kind == "action":
            if logged.action_id is not None and logged.seat is not None:
                self.accepted[(logged.seat, logged.action_id)] = logged.seq
                if len(self.accepted) > 2 * ACCEPTED_KEPT:  # an older id is refused as stale
                    self.accepted = dict(list(self.accepted.items())[-ACCEPTED_KEPT:])
            if self.state is not None and self.state.is_over:
                self.status = "over"
        elif logged.kind == "close":
            self.status = "closed"
        elif logged.kind == "rematch":
            self.rematch = str(data["table"])
        elif logged.kind in ("replaced", "returned"):  # a rated table logs them (``back``)
            self.seats[int(data["seat"])].replaced = logged.kind == "replaced"
        self.entries.append(Entry(logged.seq, logged.kind, data, events))
        if len(self.entries) > 2 * CATCHUP_LIMIT:  # only the last ones are ever sent again
            del self.entries[:-CATCHUP_LIMIT]

    async def _commit(
        self,
        kind: str,
        data: dict[str, Any],
        *,
        seat: int | None = None,
        action_id: str | None = None,
        secret: dict[str, Any] | None = None,
        seat_row: tuple[int, str | None, str | None] | None = None,
        account: str | None = None,
    ) -> tuple[State | None, tuple[Event, ...]]:
        """Compute, commit to the log, then adopt and broadcast one event.

        Cancelling the caller (its socket task ended, a wake-up was replaced)
        must not cut this in two: an event handed to the group commit may be
        committed anyway, and a table that did not adopt it would give the
        next event the same sequence number (refused by the log) and differ
        from its own log.  So the commit-and-adopt runs as its own task, and
        the caller waits for it to finish, holding the lock, before the
        cancellation goes on.
        """
        inner = asyncio.ensure_future(
            self._commit_now(kind, data, seat, action_id, secret, (seat_row, account))
        )
        cancelled = False
        while not inner.done():
            try:
                await asyncio.shield(inner)
            except asyncio.CancelledError:
                if inner.cancelled():
                    raise
                cancelled = True
        if cancelled:
            raise asyncio.CancelledError
        return inner.result()

    async def _commit_now(  # noqa: PLR0917 (the private half of _commit, same arguments)
        self,
        kind: str,
        data: dict[str, Any],
        seat: int | None,
        action_id: str | None,
        secret: dict[str, Any] | None,
        seat_write: tuple[tuple[int, str | None, str | None] | None, str | None],
    ) -> tuple[State | None, tuple[Event, ...]]:
        seat_row, account = seat_write
        logged = LoggedEvent(self.seq + 1, kind, seat, action_id, data, secret)
        computed = self._compute(logged)
        state = computed[0]
        if kind == "action" and state is not None and state.phase is not Phase.PLAYING:
            deal = state.deal_number - 1
            data["reveal"] = {"deal": deal, "server_seed": self.fair[deal].seed.hex()}
        status = {"start": "playing", "close": "closed"}.get(kind)
        if state is not None and state.is_over:
            status = "over"
        # An action ends the turn's timer: the stored deadline is cleared (a write
        # of the table's row) only when there is one.
        clears_timer = kind in ("action", "undo", "close")
        deadline: float | bool | None = False
        if clears_timer and (self._stored_deadline is not None or kind == "close"):
            deadline = None
        try:
            fence = self.hooks.fence(self.id)
            await self.hooks.append(
                Append(self.id, (logged,), status, seat_row, deadline, account, fence)
            )
        except Exception as error:  # another process owns the table now: the log refused
            if self.hooks.lost(self, error):
                raise ProtocolError(Code.MOVED, "the table moved: send again", action_id) from None
            raise
        if clears_timer:
            self.turn_deadline = self._stored_deadline = None
        self._adopt(logged, computed)
        self._broadcast(self.entries[-1])
        self.hooks.after_commit(self.id, logged.seq)
        log.debug("event", extra={"table": self.id, "seat": seat, "action": kind})
        return computed

    # ----------------------------------------------------------- broadcasting

    def connections(self) -> list[Connection]:
        """Every open connection of this table."""
        conns = [conn for seat in self.seats for conn in seat.conns]
        return conns + list(self.spectators)

    def _broadcast(self, entry: Entry) -> None:
        cache: dict[tuple[int | None, str], str] = {}
        texts: Texts = {}
        for conn in self.connections():
            key = (conn.seat, conn.lang)
            if key not in cache:
                cache[key] = event_json(entry, self.state, self.seats, *key, texts, catchup=False)
            conn.put(cache[key])

    def presence(self) -> str:
        """Who is connected, who is away and until when, whose turn runs out when."""
        grace = float(self.config["grace_seconds"])
        watching = len(self.spectators) + sum(self.remote_spectators.values())
        return presence_text(self.seats, grace, self.turn_deadline, watching, self.pause.presence())

    def _send_presence(self) -> None:
        if self.follower:  # the owner tells (it hears of this process's connections)
            return
        text = self.presence()
        self.hooks.on_presence(self.id, text)
        for conn in self.connections():
            conn.put(text)

    # ----------------------------------------------------------- connections

    async def connect(self, conn: Connection, seat: int | None, last_seq: int | None) -> None:
        """Seat (or seat as a spectator) a connection; send missed events or a snapshot."""
        async with self.lock:
            conn.seat = seat
            conn.table = self.id
            if seat is None:
                self.spectators.add(conn)
            else:
                self.seats[seat].conns.add(conn)
            behind = self.seq - last_seq if last_seq is not None else None
            if behind is not None and 0 <= behind <= CATCHUP_LIMIT:
                for entry in self.entries[len(self.entries) - behind :]:
                    conn.put(
                        event_json(entry, self.state, self.seats, seat, conn.lang, {}, catchup=True)
                    )
            alone = seat is not None and self.persons == [seat]
            view = view_of(self.state, seat, undo=alone) or {}
            conn.put(Snapshot(seq=self.seq, view=view).model_dump_json())
            if self.follower and self.owner_presence is not None:
                conn.put(self.owner_presence)  # until the owner's next word, with this one
            if seat is not None:  # after the catch-up: a ``returned`` event comes next
                await self.back(seat)
            self._send_presence()
            self._schedule()

    async def back(self, seat: int) -> None:
        """A person's seat is connected again, here or elsewhere (called with the lock held).

        His countdown stops and nobody plays for him.  At a rated table a return during the
        match is logged (``returned``), as his replacement was (``replaced``): the rating
        sweep reads from the log who finished the match away (web/players/ratings.py).
        """
        info = self.seats[seat]
        info.away_since = None
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        if info.replaced:
            info.replaced = False
            log.info("returned", extra={"table": self.id, "seat": seat})
            if self.config.get("rated") and self.status == "playing" and not self.follower:
                await self._commit("returned", {"seat": seat}, seat=seat)

    async def disconnect(self, conn: Connection) -> None:
        """A connection closed; a person away longer than the grace period is played for."""
        async with self.lock:
            self.spectators.discard(conn)
            if conn.seat is None:
                self._send_presence()
                return
            info = self.seats[conn.seat]
            info.conns.discard(conn)
            if not info.here and info.kind == "person":
                info.away_since = time.time()
                if self.status == "playing":
                    self._watch_away(conn.seat)
            self._send_presence()

    async def _grace_ends(self, seat: int) -> None:
        await asyncio.sleep(float(self.config["grace_seconds"]))
        async with self.lock:
            info = self.seats[seat]
            if info.here or info.away_since is None:
                return
            info.replaced = True
            self._grace.pop(seat, None)
            log.info("replaced", extra={"table": self.id, "seat": seat})
            if self.config.get("rated") and self.status == "playing":  # see ``back``
                await self._commit("replaced", {"seat": seat}, seat=seat)
            self._send_presence()
            self._schedule()

    # --------------------------------------------------------------- actions

    async def act(self, conn: Connection, msg: ActionIn) -> str:
        """Check (token, seat, resend, sequence, turn, legality) and apply a person's action."""
        start = time.perf_counter()
        seat = conn.seat
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot act", msg.id)
        if msg.seat is not None and msg.seat != seat:
            raise ProtocolError(
                Code.WRONG_SEAT, f"this connection sits in seat {seat}, not {msg.seat}", msg.id
            )
        async with self.lock:
            key = (seat, msg.id)
            if key in self.accepted:
                return Ack(id=msg.id, seq=self.accepted[key]).model_dump_json()
            if key in self.refused:
                raise self.refused[key]
            try:
                text = await self._act(seat, msg)
            except ProtocolError as error:
                if len(self.refused) > 1000:
                    self.refused.clear()
                self.refused[key] = error
                raise
        self.hooks.on_action("person", time.perf_counter() - start)
        return text

    async def _act(self, seat: int, msg: ActionIn) -> str:
        action = checked_action(self.state, self.status, (self.state_seq, self.seq), seat, msg)
        await self._commit(
            "action", {"seat": seat, "action": str(action)}, seat=seat, action_id=msg.id
        )
        self._schedule()
        return Ack(id=msg.id, seq=self.seq).model_dump_json()

    async def add_seed(self, conn: Connection, msg: SeedIn) -> None:
        """A person's own seed for the coming deal (logged publicly)."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator cannot add a seed")
        if "daily" in self.config:  # everyone plays the same committed deck
            raise ProtocolError(Code.SEED_CLOSED, "the deal of the day takes no player's seed")
        try:
            seed = fair.check_player_seed(msg.seed)
        except fair.FairError as error:
            raise ProtocolError(Code.BAD_SEED, str(error)) from None
        async with self.lock:
            pending = self.fair.get(msg.deal)
            if pending is None or pending.dealt or pending.player_seeds[seat]:
                raise ProtocolError(
                    Code.SEED_CLOSED, f"deal {msg.deal} takes no seed from seat {seat} now"
                )
            await self._commit("seed", {"deal": msg.deal, "seat": seat, "seed": seed}, seat=seat)
            self._schedule()

    async def next_deal(self, conn: Connection, msg: NextDealIn) -> None:
        """A person pressed Next deal after deal ``msg.deal`` (0-based: the deal just ended)."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator does not start deals")
        async with self.lock:
            state = self.state
            if state is not None and state.deal_number == msg.deal + 1 and self.pause.press(seat):
                self._send_presence()  # else pressed twice, or after the pause: nothing to do

    async def undo(self, conn: Connection) -> None:
        """Take back this person's last move and the computers' replies (``take_back``)."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError(Code.SPECTATOR, "a spectator has no move to take back")
        async with self.lock:
            if self.config.get("rated") and self.status not in ("over", "closed"):
                raise ProtocolError(  # a rating measures the moves a person stands by
                    Code.NO_UNDO, "undo: not at a rated table", reason="rated"
                )
            if self.persons != [seat]:
                raise ProtocolError(
                    Code.NO_UNDO, "undo: only a person playing against computers", reason="hot_seat"
                )
            await self._commit("undo", {"seat": seat}, seat=seat)
            self._schedule()

    async def note(self, kind: str, data: dict[str, Any]) -> None:
        """Log a fact about the table that changes no game state (``rematch``) and tell all."""
        async with self.lock:
            await self._commit(kind, data)

    # ------------------------------------------------------------- scheduling

    def _schedule(self) -> None:
        """Start the one wake-up the table waits for now (called with the lock held)."""
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = None
        state = self.state
        if self.stopped or self.follower or self.status != "playing" or state is None:
            return
        for seat in self.persons:
            self._watch_away(seat)
        if state.phase is Phase.AWAITING_DEAL:
            self._task = self._wake(self._deal_due(self.seq))
            return
        mover = state.to_move
        assert mover is not None
        info = self.seats[mover]
        if info.kind != "person" or info.replaced:
            self._task = self._wake(self._computer_turn(self.seq, mover))
        elif self.config.get("turn_seconds"):
            self._task = self._wake(self._turn_timer(self.seq, mover))

    def _wake(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Start the table's wake-up ``work``, watched by ``_woke``."""
        task = asyncio.create_task(work)
        task.add_done_callback(self._woke)
        return task

    def _woke(self, task: asyncio.Task[None]) -> None:
        """A wake-up ended.  One that failed (a commit the database refused, a computer's
        worker process that died) is logged, and the table's wake-up starts again a moment
        later: nothing else would start it before someone acts, and it is a computer's turn."""
        if task.cancelled():
            return
        error = task.exception()
        if error is None or self.stopped or self.follower:  # a table that moved: no failure
            self._failures = 0
            return
        delay = min(RETRY_MAX, RETRY_FIRST * 2**self._failures)
        self._failures += 1
        log.warning(
            "a wake-up failed",
            extra={"table": self.id, "seat": None, "cause": cause(error), "retry_seconds": delay},
        )
        if self._task is task:
            self._task = asyncio.create_task(self._retry(self.seq, delay))

    async def _retry(self, seq: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            if seq == self.seq:  # nothing has happened since: no other wake-up was started
                self._schedule()

    def _watch_away(self, seat: int) -> None:
        """Start the grace period of a person who is not connected, once."""
        info = self.seats[seat]
        if self.stopped or self.follower or info.here or info.replaced or seat in self._grace:
            return
        if info.away_since is None:
            info.away_since = time.time()
        self._grace[seat] = asyncio.create_task(self._grace_ends(seat))

    async def _deal_due(self, seq: int) -> None:
        async with self.lock:
            state = self.state
            if seq != self.seq or state is None or state.phase is not Phase.AWAITING_DEAL:
                return
            deal = state.deal_number
            daily = self.config.get("daily")
            if isinstance(daily, dict) and deal >= 1:  # the deal of the day is one deal
                await self._commit("close", {"reason": "daily"})
                self.stop(close_connections=False)
                return
            if deal not in self.fair:
                seed = bytes.fromhex(daily["seed"]) if isinstance(daily, dict) else fair.new_seed()
                await self._commit(
                    "commit",
                    {"deal": deal, "commitment": fair.commitment(seed)},
                    secret={"server_seed": seed.hex()},
                )
            pending = self.fair[deal]
            # deal 1 waits for every person's seed: at the start nobody may be connected yet
            people = [i for i in self.persons if self.seats[i].here or deal == 0]
            complete = all(pending.player_seeds[i] for i in people)
            seats = self.seats
            readers = {i for i in self.persons if seats[i].here and not seats[i].replaced}
            if self.pause.begin(deal, float(self.config.get("deal_pause_seconds", 0)), readers):
                self._send_presence()
        if self.pause.waiting:
            await self.pause.wait()
            async with self.lock:
                self._send_presence()
                people = [i for i in self.persons if self.seats[i].here]
                complete = all(pending.player_seeds[i] for i in people)
        if not complete:
            await asyncio.sleep(float(self.config["seed_seconds"]))
        async with self.lock:
            if pending.dealt or self.state is not state:
                return
            await self._commit("deal", {"deal": deal, "player_seeds": list(pending.player_seeds)})
            self._schedule()

    async def _turn_timer(self, seq: int, seat: int) -> None:
        if self.turn_deadline is None:
            self.turn_deadline = time.time() + float(self.config["turn_seconds"])
        if self.turn_deadline != self._stored_deadline:
            self._stored_deadline = self.turn_deadline
            await self.hooks.db(self.hooks.store.set_deadline, self.id, self.turn_deadline)
            self._send_presence()
        await asyncio.sleep(max(0.0, self.turn_deadline - time.time()))
        log.info("turn timer ran out", extra={"table": self.id, "seat": seat})
        await self._computer_turn(seq, seat, delay=False)

    async def _computer_turn(self, seq: int, seat: int, *, delay: bool = True) -> None:
        if delay:
            await asyncio.sleep(float(self.config["bot_delay"]))
        state = self.state
        if seq != self.seq or state is None:
            return
        info = self.seats[seat]
        level = info.kind if info.kind != "person" else str(self.config["replacement"])
        watched = any(self.seats[i].here for i in self.persons)
        action, seconds = await self.hooks.computers.choose(
            level, state.observation(seat), table=self.id, watched=watched
        )
        self.hooks.on_think(seconds)
        start = time.perf_counter()
        async with self.lock:
            if seq != self.seq:
                return
            await self._commit("action", {"seat": seat, "action": action}, seat=seat)
            self._schedule()
        self.hooks.on_action("computer", time.perf_counter() - start)

    def rearm(self, downtime: float) -> None:
        """After a restart: a stored turn deadline gets the downtime added; wake-ups restart."""
        if self.turn_deadline is not None:
            self.turn_deadline += downtime
        self._schedule()

    # ------------------------------------------ ownership, when many processes share the log

    def restore_deadline(self, deadline: float | None) -> None:
        """The turn deadline as the database holds it (a copy that becomes the owner)."""
        self.turn_deadline = self._stored_deadline = deadline

    async def take_ownership(self) -> None:
        """This process owns the table from now: every seat's presence is learned anew from
        the processes that show it, and the table's wake-ups are armed (a table of computers
        its creator had no time to start starts)."""
        async with self.lock:
            self.follower = False
            self.owner_presence = None
            self.remote_spectators.clear()  # the processes that show it tell again
            now = time.time()
            for i in self.persons:
                info = self.seats[i]
                info.remote.clear()
                if not info.here and info.away_since is None:
                    info.away_since = now
            self.rearm(0.0)
            await self._start_if_full()

    def follow(self) -> None:
        """Another process owns the table: no wake-up of this copy's fires any more."""
        self.follower = True
        if self._task is not None:
            self._task.cancel()
        for task in self._grace.values():
            task.cancel()
        self._grace.clear()

    def adopt_logged(self, logged: LoggedEvent) -> None:
        """An event another process committed, read from the log: adopted and shown here
        (called with the lock held, in the log's order)."""
        self._adopt(logged, self._compute(logged))
        self._broadcast(self.entries[-1])

    async def remote_presence(self, node: str, seat: int | None, count: int) -> None:
        """Another process's connections for ``seat`` (None: its spectators) are ``count``."""
        async with self.lock:
            if seat is None:
                self.remote_spectators[node] = count
                self._send_presence()
                return
            info = self.seats[seat]
            info.remote[node] = count
            if info.here:
                await self.back(seat)
            elif info.kind == "person" and info.away_since is None:  # the countdown starts
                info.away_since = time.time()
                if self.status == "playing":
                    self._watch_away(seat)
            self._send_presence()
            self._schedule()

    def stop(self, *, close_connections: bool = True) -> None:
        """Cancel every wake-up (the server is stopping; the log holds everything).

        A connection that ends after this must not arm a new grace timer:
        nothing would cancel it, and the server's shutdown would wait for it.
        """
        self.stopped = True
        if self._task is not None:
            self._task.cancel()
        for task in self._grace.values():
            task.cancel()
        if close_connections:
            for conn in self.connections():
                conn.close()

    async def wait_stopped(self, timeout: float) -> None:
        """After ``stop``: wait (``timeout`` seconds at most) until every wake-up has ended.
        A wake-up cancelled while it committed first finishes the commit it started
        (``_commit``), so that the server stops its database after it, not before."""
        tasks = [task for task in (self._task, *self._grace.values()) if task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def close(self, reason: str) -> None:
        """Close the table for good (its log and record stay)."""
        async with self.lock:
            if self.status in ("playing", "open"):
                await self._commit("close", {"reason": reason})
            self.stop()

    # ----------------------------------------------------------------- seats

    async def join(
        self, name: str, seat: int | None, hashed: str | None = None, account: str | None = None
    ) -> tuple[int, str]:
        """Sit a person in a free seat; the secret token is returned once and stored hashed.

        ``hashed``: the hash of a token another process made (it keeps the token).
        ``account``: the account taking the seat (a rated table).  One account, one seat per
        table: the check that it sits nowhere here yet and the seat's link to it are made
        under the table's lock, and the link is written in the join's own transaction;
        the database's unique index refuses a second seat whatever reaches it.
        """
        async with self.lock:
            if account is not None:
                elsewhere = await self.hooks.db(self.hooks.store.account_seat, self.id, account)
                if elsewhere is not None:
                    raise ProtocolError(Code.SEAT_TAKEN, "this account already sits at this table")
            if self.status != "open":
                raise ProtocolError(Code.STARTED, "the match has started: no seat is free")
            free = [i for i in self.persons if self.seats[i].token_hash is None]
            if seat is None:
                if not free:
                    raise ProtocolError(Code.NO_SEAT, "no seat is free")
                seat = free[0]
            elif seat >= len(self.seats) or self.seats[seat].kind != "person":
                raise ProtocolError(Code.NO_SEAT, f"seat {seat} is not a person's seat")
            elif seat not in free:
                raise ProtocolError(Code.SEAT_TAKEN, f"seat {seat} is taken")
            token = secrets.token_urlsafe(32) if hashed is None else ""
            hashed = hashed or token_hash(token)
            try:
                await self._commit(
                    "join",
                    {"seat": seat, "name": name},
                    seat=seat,
                    seat_row=(seat, name, hashed),
                    account=account,
                )
            except sa.exc.IntegrityError as error:
                if not seat_account_clash(error):
                    raise
                raise ProtocolError(
                    Code.SEAT_TAKEN, "this account already sits at this table"
                ) from None
            self.seats[seat].token_hash = hashed
            await self._start_if_full()
            return seat, token

    async def leave(self, token: str, hashed: str | None = None) -> int:
        """A person leaves before the start; his seat is free again."""
        async with self.lock:
            seat = self.seat_of(token, hashed)
            if seat is None:
                raise ProtocolError(Code.BAD_TOKEN, "the token is not a seat's token at this table")
            if self.status != "open":
                raise ProtocolError(Code.STARTED, "the match has started: a seat cannot be left")
            name = self.seats[seat].name
            await self._commit(
                "leave", {"seat": seat, "name": name}, seat=seat, seat_row=(seat, None, None)
            )
            return seat

    async def start_if_full(self) -> None:
        """Start the match if every seat is filled (a table of computers starts at once)."""
        async with self.lock:
            await self._start_if_full()

    async def _start_if_full(self) -> None:
        if (
            self.follower
            or self.status != "open"
            or any(self.seats[i].token_hash is None for i in self.persons)
        ):
            return
        dealer = self.config.get("first_dealer")
        if dealer is None:
            dealer = random.SystemRandom().randrange(self.options.players)
        await self._commit("start", {"first_dealer": dealer})
        self._schedule()
