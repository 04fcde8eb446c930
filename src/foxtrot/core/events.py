"""Public events: what happened, for front ends to narrate (rule V1).

Every event carries only public information: cards that were seen face up,
counts, scores.  ``State.apply`` and ``State.deal`` return the events of their
step; nothing here ever holds a hidden card or a seed.
"""

from __future__ import annotations

import dataclasses
import enum

from .cards import Card
from .scoring import ScoreLine


class PlayResult(enum.StrEnum):
    """What playing a card did (rule T3)."""

    LAID = "laid"  # put on the pile (T3e)
    TOOK = "took"  # took the pile: a Jack (T3a, T3c) or a matching card (T3d)
    FOXTROT = "foxtrot"  # T3b
    DOUBLE_FOXTROT = "double_foxtrot"  # T3b, two tens or two Jacks


@dataclasses.dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal was dealt (D3): who dealt, the upturned card, who plays first."""

    deal: int
    dealer: int
    upturned: Card
    first: int
    stock: int


@dataclasses.dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``; ``taken`` are the cards he took with it (bottom first)."""

    seat: int
    card: Card
    result: PlayResult
    taken: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PileTaken:
    """``seat`` took the pile without playing (T4)."""

    seat: int
    taken: tuple[Card, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Redealt:
    """The stock was dealt out again, ``cards_each`` to every player (R1)."""

    cards_each: int
    stock: int


@dataclasses.dataclass(frozen=True, slots=True)
class DealEnded:
    """The deal ended (E1): scores, the match totals, where the leftover pile went."""

    deal: int
    scores: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    undealt: int
    leftover: tuple[Card, ...]
    leftover_to: int | None


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEnded:
    """Somebody reached the target and leads alone (M2)."""

    winner: int
    totals: tuple[int, ...]


Event = DealStarted | CardPlayed | PileTaken | Redealt | DealEnded | MatchEnded
