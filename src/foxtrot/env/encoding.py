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
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..core import ACTIONS, Observation, PlayResult, State, TableOptions
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


def padded_options(options: TableOptions, pad_to: int | None) -> TableOptions:
    """The table whose layout a padded array follows: ``pad_to`` seats (``None``: none).

    ``pad_to`` seats (``options.players`` to 9) fix the length of the array for every
    player count up to it: each per-seat block has ``pad_to`` entries, the seats beyond
    the table's are 0, and every index means the same thing at every table size.
    """
    if pad_to is None:
        return options
    if type(pad_to) is not int or not options.players <= pad_to <= 9:
        raise ValueError(
            f"pad_to: {pad_to!r} is not allowed (a number of seats from {options.players} to 9)"
        )
    return TableOptions(players=pad_to)


@functools.cache
def pad_index(options: TableOptions, pad_to: int) -> npt.NDArray[np.intp]:
    """Where each index of the table's array goes in the array padded to ``pad_to`` seats."""
    wide = {block.name: block.start for block in layout(padded_options(options, pad_to))}
    index = np.zeros(observation_size(options), dtype=np.intp)
    for block in layout(options):
        span = np.arange(block.stop - block.start)
        index[block.start : block.stop] = wide[block.name] + span
    return index


def pad(array: Array, options: TableOptions, pad_to: int | None) -> Array:
    """``array`` (or a batch of arrays, one per row) laid out for ``pad_to`` seats."""
    if pad_to is None:
        return array
    size = observation_size(padded_options(options, pad_to))
    out: Array = np.zeros((*array.shape[:-1], size), dtype=np.float32)
    out[..., pad_index(options, pad_to)] = array
    return out


def padded_bounds(options: TableOptions, pad_to: int | None) -> tuple[Array, Array]:
    """``bounds(options)`` laid out for ``pad_to`` seats; an index of the padding (always 0)
    takes the bounds of the ``pad_to``-seat table's same index, so that no index has equal
    bounds (Gymnasium's checker refuses a ``Box`` whose minimum equals its maximum)."""
    low, high = bounds(options)
    if pad_to is None:
        return low, high
    wide_low, wide_high = bounds(padded_options(options, pad_to))
    index = pad_index(options, pad_to)
    wide_low[index], wide_high[index] = low, high
    return wide_low, wide_high


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


_ENCODED: Final = (
    "hand", "pile", "top", "pile_size", "stock", "hand_sizes", "taken", "foxtrots",
    "double_foxtrots", "totals", "to_move", "dealer", "seen",
)  # fmt: skip


@functools.cache
def _starts(options: TableOptions) -> tuple[int, ...]:
    """Where ``encode``'s blocks start, in the order it writes them (``_ENCODED``)."""
    at = {block.name: block.start for block in layout(options)}
    return tuple(at[name] for name in _ENCODED)


def encode(
    obs: Observation, out: Array | None = None, *, seen: npt.NDArray[Any] | None = None
) -> Array:
    """The observation array of ``obs`` (the reference encoding: reads only ``obs``).

    ``out``: a contiguous array of zeros to fill in place (an observer's own tensor) rather
    than a new one; the writes go through a ``memoryview``, a third of numpy's cost each.
    ``seen``: ``obs.seen_counts()`` as an array, from a caller that counts them faster (the
    OpenSpiel observer, from its record of the deal's moves).
    """
    options = obs.options
    n = options.players
    (
        hand,
        pile,
        top,
        pile_size,
        stock,
        sizes,
        taken,
        singles,
        doubles_at,
        totals,
        to_move,
        dealer,
        start,
    ) = _starts(options)
    if out is None:
        out = np.zeros(observation_size(options), dtype=np.float32)
    mv = out.data
    for card in obs.hand:
        mv[hand + card.id] += 1
    cards = obs.pile
    for card in cards:
        mv[pile + card.id] += 1
    if cards:
        mv[top + cards[-1].id] = 1
    mv[pile_size] = len(cards)
    mv[stock] = obs.stock
    me = obs.seat
    held, taken_cards, foxtrots, scores = obs.hand_sizes, obs.taken, obs.foxtrots, obs.totals
    for rel in range(n):
        seat = me + rel
        if seat >= n:
            seat -= n
        mv[sizes + rel] = held[seat]
        mv[taken + rel] = len(taken_cards[seat])
        made = foxtrots[seat]
        if made:
            doubles = sum(1 for card in made if is_double(card.id))
            mv[singles + rel] = len(made) - doubles
            mv[doubles_at + rel] = doubles
        mv[totals + rel] = scores[seat]
    if obs.to_move is not None:
        mv[to_move + (obs.to_move - me) % n] = 1
    mv[dealer + (obs.dealer - me) % n] = 1
    if seen is not None:
        out[start : start + CARD_KINDS] = seen
        return out
    for card_id, count in enumerate(obs.seen_counts()):
        if count:
            mv[start + card_id] = count
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
    ``step(state, mover, code, result, nxt)`` after each move within a deal that
    goes on: action ``code`` by ``mover``, ``result`` what the engine's move
    returned (``State.apply_code_unchecked``: the ``PlayResult`` of a card, ``None`` for a take),
    ``nxt`` the seat to move now.
    ``observe(seat)`` is then ``encode(state.observation(seat))`` (checked by a
    property test).

    The absolute buffer holds every hand (``n * 52``) followed by the public
    part in absolute seat order; ``observe`` picks a seat's hand and rotates the
    per-seat blocks with one precomputed index array (``index[seat]``).  Writes
    go through a ``memoryview`` of the buffer: a scalar write there costs a third
    of numpy's.  ``BatchedGames`` passes each tracker a row of one 2-D array
    (``buffer``) and gathers every game's observation with one ``numpy.take``.
    """

    __slots__ = (
        "_at",
        "_bytes",
        "_double",
        "_hand_sizes",
        "_move",
        "_mv",
        "_n",
        "_pile",
        "_pile_size",
        "_pile_size_at",
        "_rows",
        "_seen",
        "_single",
        "_sizes",
        "_stock",
        "_taken",
        "_top",
        "_topat",
        "buffer",
        "index",
        "size",
    )

    def __init__(self, options: TableOptions, buffer: Array | None = None) -> None:
        n = options.players
        self._n = n
        self.size = observation_size(options)
        blocks = layout(options)
        # buffer: hands (n * 52), then the public blocks with per-seat blocks in absolute order
        public = CARD_KINDS * n
        self._at = {b.name: public + b.start - CARD_KINDS for b in blocks if b.name != "hand"}
        length = buffer_size(options)
        if buffer is None:
            buffer = np.zeros(length, dtype=np.float32)
        elif buffer.shape != (length,) or buffer.dtype != np.float32:
            raise ValueError(f"buffer: expected a float32 array of {length}")
        self.buffer = buffer
        self._mv = buffer.data  # a memoryview of a C-contiguous float32 vector (a batch row)
        self._bytes = self._mv.cast("B")
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
        self.index = index
        self._rows = list(index)
        self._hand_sizes = [0] * n
        self._top = -1
        self._pile_size = 0
        at = self._at  # the offsets of the hot blocks, as attributes
        self._taken, self._sizes, self._seen = at["taken"], at["hand_sizes"], at["seen"]
        self._pile, self._topat, self._pile_size_at = at["pile"], at["top"], at["pile_size"]
        self._single, self._double = at["foxtrots"], at["double_foxtrots"]
        self._move, self._stock = at["to_move"], at["stock"]

    def observe(self, seat: int) -> Array:
        """The observation array of ``seat`` (a new array)."""
        out: Array = self.buffer.take(self._rows[seat])
        return out

    def observe_into(self, seat: int, out: Array) -> None:
        """Write the observation array of ``seat`` into ``out`` (for batches)."""
        self.buffer.take(self._rows[seat], out=out)

    def sync(self, state: State) -> None:
        """Rebuild everything from the state's public reads (a deal started, or ended)."""
        n = self._n
        mv = self._mv
        at = self._at
        self._bytes[:] = bytes(len(self._bytes))
        for seat in range(n):
            hand = state.hand(seat)
            self._hand_sizes[seat] = len(hand)
            for card in hand:
                mv[seat * CARD_KINDS + card.id] += 1
        obs = state.observation(0)  # the public part is the same for every seat
        pile = obs.pile
        for card in pile:
            mv[at["pile"] + card.id] += 1
        self._top = pile[-1].id if pile else -1
        if pile:
            mv[at["top"] + self._top] = 1
        mv[at["pile_size"]] = self._pile_size = len(pile)
        mv[at["stock"]] = obs.stock
        for seat in range(n):
            mv[at["hand_sizes"] + seat] = obs.hand_sizes[seat]
            mv[at["taken"] + seat] = len(obs.taken[seat])
            doubles = sum(1 for card in obs.foxtrots[seat] if is_double(card.id))
            mv[at["foxtrots"] + seat] = len(obs.foxtrots[seat]) - doubles
            mv[at["double_foxtrots"] + seat] = doubles
            mv[at["totals"] + seat] = obs.totals[seat]
        for card_id, count in enumerate(obs.seen_counts()):
            if count:
                mv[at["seen"] + card_id] = count
        if obs.to_move is not None:
            mv[at["to_move"] + obs.to_move] = 1
        mv[at["dealer"] + obs.dealer] = 1

    def step(
        self, state: State, mover: int, code: int, result: PlayResult | None, nxt: int
    ) -> None:
        """Follow one move within a deal that goes on (see the class doc)."""
        mv = self._mv
        sizes = self._hand_sizes
        if result is None:  # took the pile without playing
            mv[self._taken + mover] += self._pile_size
            self._clear_pile()
        else:
            mv[mover * CARD_KINDS + code] -= 1
            size = sizes[mover] = sizes[mover] - 1
            mv[self._sizes + mover] = size
            mv[self._seen + code] += 1
            if result is _LAID:
                mv[self._pile + code] += 1
                top = self._top
                if top >= 0:
                    mv[self._topat + top] = 0
                mv[self._topat + code] = 1
                self._top = code
                size = self._pile_size = self._pile_size + 1
                mv[self._pile_size_at] = size
            else:  # took the pile with it, perhaps as a foxtrot
                mv[self._taken + mover] += self._pile_size + 1
                self._clear_pile()
                if result is _FOXTROT:
                    mv[self._single + mover] += 1
                elif result is _DOUBLE_FOXTROT:
                    mv[self._double + mover] += 1
        mv[self._move + mover] = 0
        mv[self._move + nxt] = 1
        if sizes[nxt] == 0:  # the stock was dealt out again (R1): every hand grew
            each = len(state.hand(nxt))
            for seat in range(self._n):
                base = seat * CARD_KINDS
                self._bytes[base * 4 : (base + CARD_KINDS) * 4] = _ZERO_KINDS
                for card in state.hand(seat):
                    mv[base + card.id] += 1
                sizes[seat] += each
                mv[self._sizes + seat] = sizes[seat]
            mv[self._stock] -= each * self._n

    def _clear_pile(self) -> None:
        start = self._pile * 4
        self._bytes[start : start + CARD_KINDS * 4] = _ZERO_KINDS
        if self._top >= 0:
            self._mv[self._topat + self._top] = 0
            self._top = -1
        self._pile_size = 0
        self._mv[self._pile_size_at] = 0


_ZERO_KINDS: Final = bytes(CARD_KINDS * 4)  # one block of 52 float32 zeros
_LAID: Final = PlayResult.LAID
_FOXTROT: Final = PlayResult.FOXTROT
_DOUBLE_FOXTROT: Final = PlayResult.DOUBLE_FOXTROT


def buffer_size(options: TableOptions) -> int:
    """Length of a ``Tracker``'s absolute buffer: every hand, then the public part."""
    return CARD_KINDS * options.players + observation_size(options) - CARD_KINDS


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
    "buffer_size",
    "describe",
    "encode",
    "layout",
    "legal_mask",
    "mask_of",
    "observation_size",
    "pad",
    "pad_index",
    "padded_bounds",
    "padded_options",
    "scale",
]
