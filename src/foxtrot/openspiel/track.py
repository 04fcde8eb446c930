"""What the OpenSpiel wrapper remembers of each deal: the deck dealt so far, who was dealt
which cards in which dealing round (private to that seat), and every move (public).

The core ``State`` keeps the position; the OpenSpiel game also needs the history a
player remembers (perfect recall: ``information_state_string``) and enough structure to
deal a new deck consistent with one player's knowledge (``resample_from_infostate``).
Both are here, built from the core's public reads only (``hand``, ``deal_logs``).

``Episode`` names what the observer and the resampler read of a ``game.FoxtrotState``, so
that they need not import the game's module (which makes them: no circle).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Protocol

from ..core import State, TableOptions
from ..core.kernel import deal_order, redeal_size


class Episode(Protocol):
    """A ``FoxtrotState`` as its readers see it: the table, the core state and the deals."""

    @property
    def options(self) -> TableOptions: ...
    @property
    def core(self) -> State | None: ...
    @property
    def tracks(self) -> list[DealTrack]: ...


@dataclasses.dataclass(slots=True)
class Move:
    """One player's action: seat, action code (0..52), dealing round it was made in."""

    seat: int
    code: int
    round: int


@dataclasses.dataclass(slots=True)
class DealTrack:
    """One deal as the wrapper remembers it (see the module doc)."""

    dealer: int
    deck: list[int] = dataclasses.field(default_factory=list)  # chance outcomes, top first
    start: int = 0  # index in the OpenSpiel history of the deal's first card
    rounds: list[int] = dataclasses.field(default_factory=list)  # cards each seat got, per round
    received: list[list[list[int]]] = dataclasses.field(default_factory=list)  # [seat][round]
    moves: list[Move] = dataclasses.field(default_factory=list)
    upturned: int = -1
    scores: tuple[int, ...] | None = None  # each seat's deal score once it ended

    def __deepcopy__(self, memo: dict[int, Any]) -> DealTrack:
        """``copy()``: what a state's clone needs (the moves are never changed)."""
        return self.copy()

    def copy(self) -> DealTrack:
        """An independent copy (the lists are copied; ints are shared)."""
        return DealTrack(
            self.dealer,
            self.deck[:],
            self.start,
            self.rounds[:],
            [[cards[:] for cards in seat] for seat in self.received],
            self.moves[:],
            self.upturned,
            self.scores,
        )

    def dealt(self, state: State) -> None:
        """The deck is complete and ``state`` has dealt it: record the first round."""
        n = state.players
        hand = state.options.hand_size
        self.rounds = [hand]
        self.received = [[[card.id for card in state.hand(seat)]] for seat in range(n)]
        self.upturned = self.deck[hand * n]

    def moved(self, seat: int, code: int, before: list[tuple[int, ...]], state: State) -> None:
        """Record a move in a deal that goes on; if the hands grew (a redeal, rule R1),
        record what each seat was dealt.  ``before``: every hand before the move."""
        self.moves.append(Move(seat, code, len(self.rounds) - 1))
        after = [[card.id for card in state.hand(s)] for s in range(len(before))]
        played = 0 if code == TAKE else 1
        if sum(map(len, after)) <= sum(map(len, before)) - played:
            return
        got = []
        for s, cards in enumerate(after):
            old = Counter(before[s])
            if s == seat and played:
                old[code] -= 1
            got.append(sorted((Counter(cards) - old).elements()))
        self.rounds.append(len(got[0]))
        for s, cards in enumerate(got):
            self.received[s].append(cards)


TAKE = 52


def positions(options: TableOptions, dealer: int, rounds: int) -> list[list[list[int]]]:
    """``[seat][round]``: the deck positions (0 = top) dealt to each seat in each of the
    first ``rounds`` dealing rounds (D3, R1: the dealer's left first, one card at a time;
    the upturned card is position ``hand_size * players``)."""
    n = options.players
    hand = options.hand_size
    order = deal_order(dealer, n)
    out: list[list[list[int]]] = [[] for _ in range(n)]
    at = 0
    stock = options.deck_size - hand * n - 1
    each = hand
    for r in range(rounds):
        got: list[list[int]] = [[] for _ in range(n)]
        for _ in range(each):
            for seat in order:
                got[seat].append(at)
                at += 1
        if r == 0:
            at += 1  # the upturned card
        else:
            stock -= each * n
        for seat in range(n):
            out[seat].append(got[seat])
        each = redeal_size(stock, n, hand)
    return out


def max_rounds(options: TableOptions) -> int:
    """The most dealing rounds a deal can have: the first deal, then every redeal (R1)."""
    n = options.players
    hand = options.hand_size
    stock = options.deck_size - hand * n - 1
    rounds = 1
    while redeal_size(stock, n, hand):
        stock -= redeal_size(stock, n, hand) * n
        rounds += 1
    return rounds


__all__ = ["DealTrack", "Move", "max_rounds", "positions"]
