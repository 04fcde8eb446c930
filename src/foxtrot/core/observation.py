"""What one seat may know: ``State.observation(seat)`` (rules V1-V3).

An observation holds the public information of V1 and the seat's own hand
(V2), and nothing of V3: other hands, the stock order, the undealt cards and
any seed are not in it, so a bot or a front end that reads only observations
cannot cheat.  The cards each seat took are in it: every one of them was seen
face up when it was played.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from .actions import Action
from .cards import CARDS, Card
from .options import TableOptions
from .outcome import Phase
from .scoring import ScoreLine


@dataclasses.dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the table.  ``history`` is the current deal's actions, in order."""

    seat: int
    options: TableOptions
    names: tuple[str, ...]
    phase: Phase
    deal: int
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...]
    pile: tuple[Card, ...]
    stock: int
    hand_sizes: tuple[int, ...]
    taken: tuple[tuple[Card, ...], ...]
    foxtrots: tuple[tuple[Card, ...], ...]
    last_taker: int | None
    totals: tuple[int, ...]
    upturned: Card | None
    history: tuple[tuple[int, Action], ...]
    legal_actions: tuple[Action, ...]
    deal_scores: tuple[tuple[ScoreLine, ...], ...]
    winner: int | None

    @property
    def players(self) -> int:
        """Number of players at the table."""
        return self.options.players

    @property
    def top(self) -> Card | None:
        """The top card of the pile, if any."""
        return self.pile[-1] if self.pile else None

    @property
    def taken_counts(self) -> tuple[int, ...]:
        """How many cards each seat has taken this deal."""
        return tuple(len(cards) for cards in self.taken)

    def seen_cards(self) -> Counter[Card]:
        """Every card of this deal seen face up: the upturned card and every card played."""
        seen: Counter[Card] = Counter()
        if self.upturned is not None:
            seen[self.upturned] += 1
        for _, action in self.history:
            if action.card is not None:
                seen[action.card] += 1
        return seen

    def unseen_cards(self) -> Counter[Card]:
        """The cards this seat has not seen: they are in other hands or in the stock."""
        unseen: Counter[Card] = Counter({card: self.options.decks for card in CARDS})
        unseen.subtract(self.seen_cards())
        unseen.subtract(Counter(self.hand))
        return +unseen
