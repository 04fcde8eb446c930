"""The score sheet of a deal (rules P1-P4, X5, X6, X9).

Scores are always computed from the cards each player took and the foxtrots he
made, never kept as running totals, so a recomputation can only agree.  The
numbers of the rules (bonuses, card points, what a double is) are the kernel's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RecordError
from .kernel import (
    CARD_POINTS,
    DOUBLE_FOXTROT_BONUS,
    FOXTROT_BONUS,
    MOST_CARDS_BONUS,
    is_double,
)
from .options import MostCardsTie

__all__ = [
    "DOUBLE_FOXTROT_BONUS",
    "FOXTROT_BONUS",
    "MOST_CARDS_BONUS",
    "ScoreLine",
    "is_double",
    "score_deal",
]


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's score for one deal, part by part (rule P4, X9)."""

    foxtrots: int
    double_foxtrots: int
    cards: int
    card_points: int
    most_cards: int
    total: int

    def to_json(self) -> dict[str, int]:
        """The entry of ``scores`` in a G2 record."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoreLine:
        """Read an entry of ``scores``; every field must be a whole number."""
        if not isinstance(data, Mapping):
            raise RecordError(f"score entry must be an object, got {type(data).__name__}")
        values = {}
        for field in dataclasses.fields(cls):
            value = data.get(field.name)
            if type(value) is not int:
                raise RecordError(f"score entry: {field.name} is {value!r}, not a whole number")
            values[field.name] = value
        return cls(**values)


def score_deal(
    taken: Sequence[Sequence[int]],
    foxtrots: Sequence[Sequence[int]],
    most_cards_tie: MostCardsTie,
) -> tuple[ScoreLine, ...]:
    """Score every seat from its taken cards and its foxtrots (one card id per foxtrot)."""
    counts = [len(cards) for cards in taken]
    most = max(counts)
    leaders = counts.count(most)
    lines = []
    for cards, made in zip(taken, foxtrots, strict=True):
        doubles = sum(1 for card in made if is_double(card))
        singles = len(made) - doubles
        points = sum(map(CARD_POINTS.__getitem__, cards))
        bonus = 0
        if len(cards) == most and most > 0 and (leaders == 1 or most_cards_tie is MostCardsTie.ALL):
            bonus = MOST_CARDS_BONUS
        total = FOXTROT_BONUS * singles + DOUBLE_FOXTROT_BONUS * doubles + points + bonus
        lines.append(ScoreLine(singles, doubles, len(cards), points, bonus, total))
    return tuple(lines)
