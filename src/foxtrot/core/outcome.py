"""Where a match stands: its phase, and its outcome once it is won (rules M1, M2, X8)."""

from __future__ import annotations

import dataclasses
import enum


class Phase(enum.IntEnum):
    """The phase of a match: waiting for the next deal to be dealt, in a deal, or over."""

    AWAITING_DEAL = 0
    PLAYING = 1
    OVER = 2


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: the winner, the final totals and how many deals were played."""

    winner: int
    totals: tuple[int, ...]
    deals: int

    def returns(self) -> tuple[float, ...]:
        """1 for the winner, 0 for everyone else (for search and learning)."""
        return tuple(1.0 if seat == self.winner else 0.0 for seat in range(len(self.totals)))
