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

import numpy as np
import numpy.typing as npt

from ..core import State, TableOptions
from ..core.kernel import deal_order, redeal_size

Floats = npt.NDArray[np.float32]


class Episode(Protocol):
    """A ``FoxtrotState`` as its readers see it: the table, the core state and the deals."""

    @property
    def options(self) -> TableOptions: ...
    @property
    def core(self) -> State | None: ...
    @property
    def tracks(self) -> list[DealTrack]: ...
    @property
    def trail(self) -> bytes: ...


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
    # every move's action code, in order: what the tensors read at once (``numpy.frombuffer``)
    codes: bytearray = dataclasses.field(default_factory=bytearray)
    # by seat, the dealt cards counted by round and card (``dealt_counts``): made once per
    # dealing round, never written after, so that copies share them
    _counts: dict[int, Floats] = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.codes) != len(self.moves):
            self.codes = bytearray(move.code for move in self.moves)

    def __deepcopy__(self, memo: dict[int, Any]) -> DealTrack:
        """``copy()``: what a state's clone needs (the moves are never changed)."""
        return self.copy()

    def copy(self) -> DealTrack:
        """An independent copy (the lists are copied; ints and the dealt counts are shared)."""
        return DealTrack(
            self.dealer,
            self.deck[:],
            self.start,
            self.rounds[:],
            [[cards[:] for cards in seat] for seat in self.received],
            self.moves[:],
            self.upturned,
            self.scores,
            self.codes[:],
            dict(self._counts),
        )

    def add(self, move: Move) -> None:
        """Record a move."""
        self.moves.append(move)
        self.codes.append(move.code)

    def dealt_counts(self, seat: int, rounds: int) -> Floats:
        """``[rounds * 52]``: how many of each card ``seat`` was dealt in each dealing round
        so far (row-major by round; ``rounds`` at least the deal's).  Read-only."""
        got = self.received[seat] if seat < len(self.received) else []
        found = self._counts.get(seat)
        if found is None or found.shape[0] != rounds * 52 + 1 or found[-1] != len(got):
            counts = np.zeros(rounds * 52 + 1, dtype=np.float32)
            for rnd, cards in enumerate(got):
                for card in cards:
                    counts[rnd * 52 + card] += 1
            counts[-1] = len(got)  # the rounds counted: a redeal makes them anew
            counts.flags.writeable = False
            self._counts[seat] = found = counts
        return found[:-1]

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
        self.add(Move(seat, code, len(self.rounds) - 1))
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
