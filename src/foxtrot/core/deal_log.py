"""One deal as a record keeps it: who dealt, the deck, the actions and the scores.

It lives apart from ``State`` because readers of a state (``seat_views``, the records) name
it without needing the state's module.
"""

from __future__ import annotations

from typing import NamedTuple

from .scoring import ScoreLine

__all__ = ["DealLog"]


class DealLog(NamedTuple):
    """One deal as a record keeps it: dealer, deck (``None`` if unknown), actions, scores.

    An action is stored as ``seat << 6 | code``.

    >>> DealLog(0, None, (1 << 6 | 52,), None).actions
    (116,)
    """

    dealer: int
    deck: tuple[int, ...] | None
    actions: tuple[int, ...]
    scores: tuple[ScoreLine, ...] | None
