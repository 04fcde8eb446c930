"""The parts of a table the actor keeps: seats, log entries, fair-deal seeds, server hooks."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ...core import Event
from ..cluster.bus import Connection
from ..protocol import Presence, SeatPresence
from ..store.event_log import Append, Store
from .computer import Computers

Runner = Callable[..., Coroutine[Any, Any, Any]]


def token_hash(token: str) -> str:
    """How a seat token is stored: its SHA-256 (the token itself is never kept)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclasses.dataclass(slots=True)
class SeatInfo:
    """A seat at run time."""

    kind: str  # person, easy, medium, hard
    name: str | None
    token_hash: str | None
    conns: set[Connection] = dataclasses.field(default_factory=set)
    away_since: float | None = None
    replaced: bool = False  # the grace period ran out: a computer plays for him
    #: Connections of this seat at other server processes (process id -> count).
    remote: dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def here(self) -> bool:
        """Connected at this process or at another one."""
        return bool(self.conns) or any(self.remote.values())


@dataclasses.dataclass(slots=True)
class Entry:
    """An event of the log as kept in memory, with the engine events it produced."""

    seq: int
    kind: str
    data: dict[str, Any]
    events: tuple[Event, ...]


@dataclasses.dataclass(slots=True)
class DealSeeds:
    """The fair-deal data of one deal."""

    commitment: str
    seed: bytes
    player_seeds: list[str]
    dealt: bool = False


class Hooks:
    """What an actor needs from the server: the database thread, computers, metrics."""

    def __init__(
        self,
        store: Store,
        db: Runner,
        computers: Computers,
        append: Callable[[Append], Awaitable[None]],
    ) -> None:
        self.store = store
        self.db = db
        self.append = append
        self.computers = computers
        self.on_action: Callable[[str, float], None] = lambda source, seconds: None
        self.on_think: Callable[[float], None] = lambda seconds: None
        # Many processes (web/cluster/node.py): tell the others of an event, of presence, of a
        # quick reaction; a
        # commit refused by the log (another process owns the table now); the lease
        # generation a commit of a table's events is fenced by (None: one process).
        self.after_commit: Callable[[str, int], None] = lambda table, seq: None
        self.on_presence: Callable[[str, str], None] = lambda table, text: None
        self.on_reaction: Callable[[str, str], None] = lambda table, text: None
        self.lost: Callable[[Any, BaseException], bool] = lambda actor, error: False
        self.fence: Callable[[str], tuple[str, int] | None] = lambda table: None


def presence_text(
    seats: list[SeatInfo],
    grace: float,
    turn_deadline: float | None,
    spectators: int,
    pause: tuple[list[int], float | None] = ([], None),
) -> str:
    """The ``presence`` message: who is connected (here or at another process), who is away
    and until when, whose turn runs out when."""
    return Presence(
        seats=[
            SeatPresence(
                seat=i,
                kind=seat.kind,
                name=seat.name,
                connected=seat.here or seat.kind != "person",
                away_until=(
                    seat.away_since + grace
                    if seat.away_since is not None and seat.kind == "person" and not seat.replaced
                    else None
                ),
                computer_playing=seat.kind != "person" or seat.replaced,
            )
            for i, seat in enumerate(seats)
        ],
        turn_deadline=turn_deadline,
        spectators=spectators,
        next_deal_waits=pause[0],
        next_deal_at=pause[1],
    ).model_dump_json()
