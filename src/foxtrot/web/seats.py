"""The parts of a table the actor keeps: seats, log entries, fair-deal seeds, server hooks."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ..core import Event
from .bus import Connection
from .computer import Computers
from .store import Append, Store

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
