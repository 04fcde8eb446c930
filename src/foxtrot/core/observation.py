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
from .events import PlayResult
from .kernel import FOXTROT, LAYS, is_double, outcome_of
from .options import TableOptions, TakeRule
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

    def result_of(self, card: Card) -> PlayResult:
        """What playing ``card`` on this pile would do (rules T3a-T3e, X1-X3).

        Front ends mark the cards that take or make a foxtrot with it; the rule is
        the kernel's ``outcome_of``, the one ``State`` plays by, so it cannot differ.

        Examples:
            >>> import random
            >>> from foxtrot.core import Card, State, TableOptions
            >>> state = State(TableOptions(), dealer=0, names=["Ann", "Bob"])
            >>> _ = state.deal(random.Random(1))
            >>> obs = state.observation(state.to_move)
            >>> top = obs.pile[-1]
            >>> obs.result_of(Card.parse("J" + "SHDC"[(top.suit + 1) % 4])).value  # on a lone card
            'took'
            >>> obs.result_of(Card(top.rank, top.suit)).value in ("foxtrot", "double_foxtrot")
            True
        """
        top = self.pile[-1].rank if self.pile else -1
        outcome = outcome_of(len(self.pile), top, card.rank, self.options.take is TakeRule.MATCH)
        if outcome == LAYS:
            return PlayResult.LAID
        if outcome == FOXTROT:
            return PlayResult.DOUBLE_FOXTROT if is_double(card.id) else PlayResult.FOXTROT
        return PlayResult.TOOK

    @property
    def taken_counts(self) -> tuple[int, ...]:
        """How many cards each seat has taken this deal."""
        return tuple(len(cards) for cards in self.taken)

    def seen_counts(self) -> list[int]:
        """How many copies of each card kind (by id) were seen face up this deal: the
        upturned card and every card played (a list by id: cheaper than hashing cards).

        Examples:
            >>> import random
            >>> from foxtrot.core import State, TableOptions
            >>> state = State(TableOptions(), dealer=0)
            >>> _ = state.deal(random.Random(1))
            >>> obs = state.observation(state.to_move)
            >>> counts = obs.seen_counts()
            >>> sum(counts), counts[obs.upturned.id] >= 1  # the upturned card, before any play
            (1, True)
            >>> sum(obs.seen_cards().values()) + sum(obs.unseen_cards().values()) + len(obs.hand)
            104
        """
        counts = [0] * len(CARDS)
        if self.upturned is not None:
            counts[self.upturned.id] += 1
        for _, action in self.history:
            card = action.card
            if card is not None:
                counts[card.id] += 1
        return counts

    def seen_cards(self) -> Counter[Card]:
        """Every card of this deal seen face up: the upturned card and every card played."""
        return Counter({CARDS[i]: k for i, k in enumerate(self.seen_counts()) if k})

    def unseen_cards(self) -> Counter[Card]:
        """The cards this seat has not seen: they are in other hands or in the stock."""
        known = self.seen_counts()
        for card in self.hand:
            known[card.id] += 1
        copies = self.options.copies
        return Counter(
            {
                card: copies[card.id] - known[card.id]
                for card in CARDS
                if copies[card.id] > known[card.id]
            }
        )
