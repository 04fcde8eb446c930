"""Observations as arrays: the layout, the reference encoder and the fast incremental one.

The layout is documented index by index in ``docs/env.md``; ``layout(players)``
gives the same table as ``(name, start, stop)`` slices.  Seats are in seat order
*relative to the observer*: position 0 is the observer, 1 the next player
clockwise, and so on, so that one policy can sit in any seat.

- ``encode(obs)`` is the reference: it reads nothing but an ``Observation``
  (rules V1-V3), so it cannot leak a hidden card.
- ``Tracker`` is the fast path used by the environments.  It keeps one
  absolute buffer up to date from the actions applied and a few public reads
  of the state, and builds a seat's array with one ``numpy.take``.  A property
  test (tests/env) checks that it equals ``encode(state.observation(seat))`` for
  every seat at every step of random matches under every rule option.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Final

import numpy as np
import numpy.typing as npt

from ..core import ACTIONS, Observation, Phase, State, TableOptions
from ..core.actions import TAKE_CODE
from ..core.kernel import is_double

#: One action per distinct card (its id, ``rank * 4 + suit``), then take (52).
N_ACTIONS: Final = TAKE_CODE + 1
CARD_KINDS: Final = 52

Array = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclasses.dataclass(frozen=True, slots=True)
class Block:
    """A named run of indices of the observation array, with its value bounds."""

    name: str
    start: int
    stop: int
    low: float
    high: float
    meaning: str


@functools.cache
def layout(options: TableOptions) -> tuple[Block, ...]:
    """The blocks of the observation array, in order (the table of docs/env.md)."""
    n = options.players
    decks = float(options.decks)
    size = float(options.deck_size)
    inf = float(np.finfo(np.float32).max)  # unbounded, but finite: a Box checks better
    spec = (
        ("hand", CARD_KINDS, 0.0, decks, "own hand: copies of each card kind (card id order)"),
        ("pile", CARD_KINDS, 0.0, decks, "the pile: copies of each card kind"),
        ("top", CARD_KINDS, 0.0, 1.0, "top card of the pile, one-hot (all 0: empty pile)"),
        ("pile_size", 1, 0.0, size, "cards in the pile"),
        ("stock", 1, 0.0, size, "cards in the stock"),
        ("hand_sizes", n, 0.0, size, "cards in each hand, relative seat order"),
        ("taken", n, 0.0, size, "cards each seat took this deal"),
        ("foxtrots", n, 0.0, size, "single foxtrots of each seat this deal"),
        ("double_foxtrots", n, 0.0, size, "double foxtrots of each seat this deal"),
        ("totals", n, -inf, inf, "match totals before this deal"),
        ("seen", CARD_KINDS, 0.0, decks, "cards seen this deal: the upturned card and every play"),
        ("to_move", n, 0.0, 1.0, "whose turn, one-hot (all 0 once the match is over)"),
        ("dealer", n, 0.0, 1.0, "the dealer, one-hot"),
    )
    blocks = []
    start = 0
    for name, width, low, high, meaning in spec:
        blocks.append(Block(name, start, start + width, low, high, meaning))
        start += width
    return tuple(blocks)


def observation_size(options: TableOptions) -> int:
    """Length of the observation array: ``210 + 7 * players``."""
    return layout(options)[-1].stop


def bounds(options: TableOptions) -> tuple[Array, Array]:
    """Lowest and highest value of every index (for a ``gymnasium.spaces.Box``)."""
    size = observation_size(options)
    low = np.zeros(size, dtype=np.float32)
    high = np.zeros(size, dtype=np.float32)
    for block in layout(options):
        low[block.start : block.stop] = block.low
        high[block.start : block.stop] = block.high
    return low, high


def scale(options: TableOptions) -> Array:
    """A divisor for every index that brings the array to about [-1, 1] (see ``_scale``)."""
    return _scale(options).copy()


@functools.cache
def _scale(options: TableOptions) -> Array:
    """A divisor for every index that brings the array to about [-1, 1] (for a network).

    Copies by ``decks``, sizes and counts by the deck size, totals by the target,
    one-hots by 1.  The raw array stays the documented one; learners multiply by
    ``1 / scale(options)`` (the training example and the ``policy:`` bot do).
    """
    out = np.ones(observation_size(options), dtype=np.float32)
    for block in layout(options):
        if block.name == "totals":
            out[block.start : block.stop] = float(options.target)
        elif block.high > 1:
            out[block.start : block.stop] = block.high
    return out


@functools.cache
def _offsets(options: TableOptions) -> dict[str, int]:
    return {block.name: block.start for block in layout(options)}


def encode(obs: Observation) -> Array:
    """The observation array of ``obs`` (the reference encoding: reads only ``obs``)."""
    n = obs.players
    at = _offsets(obs.options)
    out = np.zeros(observation_size(obs.options), dtype=np.float32)
    for card in obs.hand:
        out[at["hand"] + card.id] += 1
    for card in obs.pile:
        out[at["pile"] + card.id] += 1
    if obs.pile:
        out[at["top"] + obs.pile[-1].id] = 1
    out[at["pile_size"]] = len(obs.pile)
    out[at["stock"]] = obs.stock
    for rel in range(n):
        seat = (obs.seat + rel) % n
        out[at["hand_sizes"] + rel] = obs.hand_sizes[seat]
        out[at["taken"] + rel] = len(obs.taken[seat])
        doubles = sum(1 for card in obs.foxtrots[seat] if is_double(card.id))
        out[at["foxtrots"] + rel] = len(obs.foxtrots[seat]) - doubles
        out[at["double_foxtrots"] + rel] = doubles
        out[at["totals"] + rel] = obs.totals[seat]
        out[at["to_move"] + rel] = 1 if obs.to_move == seat else 0
        out[at["dealer"] + rel] = 1 if obs.dealer == seat else 0
    for card, count in obs.seen_cards().items():
        out[at["seen"] + card.id] = count
    return out


def action_mask(obs: Observation) -> Mask:
    """1 for every legal action of ``obs`` (all 0 when the seat is not to move)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    for action in obs.legal_actions:
        mask[action.code] = 1
    return mask


class Tracker:
    """The observation arrays of every seat of one ``State``, kept up to date incrementally.

    Call ``sync(state)`` after a deal starts (and whenever in doubt), and
    ``step(state, mover, code, deal)`` after each ``apply`` of action ``code``
    by ``mover`` in deal number ``deal``.  ``observe(seat)``
    is then ``encode(state.observation(seat))`` (checked by a property test).

    The absolute buffer holds every hand (``n * 52``) followed by the public
    part in absolute seat order; ``observe`` picks a seat's hand and rotates the
    per-seat blocks with one precomputed index array.
    """

    __slots__ = (
        "_at",
        "_buf",
        "_double",
        "_hand_sizes",
        "_index",
        "_made",
        "_move",
        "_n",
        "_pile",
        "_pile_size",
        "_pile_size_at",
        "_seen",
        "_single",
        "_sizes",
        "_taken",
        "_top",
        "_topat",
        "size",
    )

    def __init__(self, options: TableOptions) -> None:
        n = options.players
        self._n = n
        self.size = observation_size(options)
        blocks = layout(options)
        # buffer: hands (n * 52), then the public blocks with per-seat blocks in absolute order
        public = CARD_KINDS * n
        self._at = {b.name: public + b.start - CARD_KINDS for b in blocks if b.name != "hand"}
        self._buf = np.zeros(public + self.size - CARD_KINDS, dtype=np.float32)
        per_seat = {"hand_sizes", "taken", "foxtrots", "double_foxtrots", "totals"}
        per_seat |= {"to_move", "dealer"}
        index = np.zeros((n, self.size), dtype=np.intp)
        for seat in range(n):
            for block in blocks:
                span = np.arange(block.stop - block.start)
                if block.name == "hand":
                    index[seat, block.start : block.stop] = seat * CARD_KINDS + span
                elif block.name in per_seat:
                    index[seat, block.start : block.stop] = self._at[block.name] + (
                        (seat + span) % n
                    )
                else:
                    index[seat, block.start : block.stop] = self._at[block.name] + span
        self._index = index
        self._hand_sizes = [0] * n
        self._made = [0] * n  # foxtrots of each seat, single and double
        self._top = -1
        self._pile_size = 0
        at = self._at  # the offsets of the hot blocks, as attributes
        self._taken, self._sizes, self._seen = at["taken"], at["hand_sizes"], at["seen"]
        self._pile, self._topat, self._pile_size_at = at["pile"], at["top"], at["pile_size"]
        self._single, self._double = at["foxtrots"], at["double_foxtrots"]
        self._move = at["to_move"]

    def observe(self, seat: int) -> Array:
        """The observation array of ``seat`` (a new array)."""
        out: Array = self._buf.take(self._index[seat])
        return out

    def observe_into(self, seat: int, out: Array) -> None:
        """Write the observation array of ``seat`` into ``out`` (for batches)."""
        self._buf.take(self._index[seat], out=out)

    def sync(self, state: State) -> None:
        """Rebuild everything from the state's public reads (a deal started, or ended)."""
        n = self._n
        buf = self._buf
        at = self._at
        buf[:] = 0
        for seat in range(n):
            hand = state.hand(seat)
            self._hand_sizes[seat] = len(hand)
            for card in hand:
                buf[seat * CARD_KINDS + card.id] += 1
        obs = state.observation(0)  # the public part is the same for every seat
        pile = obs.pile
        for card in pile:
            buf[at["pile"] + card.id] += 1
        self._top = pile[-1].id if pile else -1
        if pile:
            buf[at["top"] + self._top] = 1
        buf[at["pile_size"]] = self._pile_size = len(pile)
        buf[at["stock"]] = obs.stock
        for seat in range(n):
            buf[at["hand_sizes"] + seat] = obs.hand_sizes[seat]
            buf[at["taken"] + seat] = len(obs.taken[seat])
            doubles = sum(1 for card in obs.foxtrots[seat] if is_double(card.id))
            buf[at["foxtrots"] + seat] = len(obs.foxtrots[seat]) - doubles
            buf[at["double_foxtrots"] + seat] = doubles
            self._made[seat] = len(obs.foxtrots[seat])
            buf[at["totals"] + seat] = obs.totals[seat]
        for card, count in obs.seen_cards().items():
            buf[at["seen"] + card.id] = count
        if obs.to_move is not None:
            buf[at["to_move"] + obs.to_move] = 1
        buf[at["dealer"] + obs.dealer] = 1

    def step(self, state: State, mover: int, code: int, deal: int) -> None:
        """Follow one applied action (``deal``: the deal number before it)."""
        if state.phase is not Phase.PLAYING or state.deal_number != deal:
            self.sync(state)  # the deal ended: scores, totals, perhaps a new deal
            return
        buf = self._buf
        pile_before = self._pile_size
        sizes = self._hand_sizes
        if code == TAKE_CODE:
            buf[self._taken + mover] += pile_before
            self._clear_pile()
        else:
            buf[mover * CARD_KINDS + code] -= 1
            sizes[mover] -= 1
            buf[self._sizes + mover] = sizes[mover]
            buf[self._seen + code] += 1
            if len(state.pile) > pile_before:  # laid on the pile
                buf[self._pile + code] += 1
                if self._top >= 0:
                    buf[self._topat + self._top] = 0
                buf[self._topat + code] = 1
                self._top = code
                self._pile_size = pile_before + 1
                buf[self._pile_size_at] = pile_before + 1
            else:  # took the pile with it, perhaps as a foxtrot
                buf[self._taken + mover] += pile_before + 1
                self._clear_pile()
                if len(state.foxtrots(mover)) > self._made[mover]:
                    self._made[mover] += 1
                    buf[(self._double if is_double(code) else self._single) + mover] += 1
        nxt = state.to_move
        assert nxt is not None
        buf[self._move + mover] = 0
        buf[self._move + nxt] = 1
        if sizes[nxt] == 0:  # the stock was dealt out again (R1): every hand grew
            each = len(state.hand(nxt))
            for seat in range(self._n):
                base = seat * CARD_KINDS
                buf[base : base + CARD_KINDS] = 0
                for card in state.hand(seat):
                    buf[base + card.id] += 1
                sizes[seat] += each
                buf[self._sizes + seat] = sizes[seat]
            buf[self._at["stock"]] -= each * self._n

    def _clear_pile(self) -> None:
        self._buf[self._pile : self._pile + CARD_KINDS] = 0
        if self._top >= 0:
            self._buf[self._topat + self._top] = 0
            self._top = -1
        self._pile_size = 0
        self._buf[self._pile_size_at] = 0


def mask_of(codes: tuple[int, ...]) -> Mask:
    """The action mask of these legal action codes (a new array)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask[list(codes)] = 1
    return mask


def legal_mask(state: State) -> Mask:
    """The action mask of the player to move (all 0 when nobody is)."""
    return mask_of(tuple(action.code for action in state.legal_actions()))


def describe(code: int) -> str:
    """The action with this index, in the notation of rule C4 (``QS``, ``take``)."""
    return str(ACTIONS[code])


__all__ = [
    "CARD_KINDS",
    "N_ACTIONS",
    "Block",
    "Tracker",
    "action_mask",
    "bounds",
    "describe",
    "encode",
    "layout",
    "legal_mask",
    "mask_of",
    "observation_size",
    "scale",
]
