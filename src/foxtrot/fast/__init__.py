"""The compiled search kernel (extra ``[fast]``): the expert's samples, many times faster.

``pip install 'foxtrot[fast]'`` adds numba, and the expert's search then runs its bulk —
resampling the hidden cards, the opponent model's likelihoods, the default policy's
playouts, the scores — as compiled code, with the same results to the last
bit: the same random numbers (the search's ``core.rng.SplitMix64`` stream), the same rules
(``core.kernel``'s own functions, compiled, and what numba cannot run written a second time:
``_rules``, the twin of ``State``'s move, redeal and deal end), the same arithmetic in the same
order (``_search``: the loop; ``_playout``: the default policy; ``_random``: the stream's
twin).  Each twin's docstring names its reference and the differential tests that hold
it equal (docs/library/fast.md).  The package imports nothing from ``foxtrot.bots``: the bots
hand their weights in (``Weights``).  The pure-Python search stays the readable reference and
the fallback; nothing here imports
numba until a search asks for it, so ``import foxtrot`` stays fast and free of third-party
packages.  The first search of a process compiles (or loads from numba's cache) the kernel,
unless ``warm_up()`` did it before.

``FOXTROT_FAST=0`` in the environment (or ``use(False)``) forces the pure path, to compare.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..core.kernel import CARD_POINTS, FOXTROT_BONUSES, RANKS, deal_order, miss_chances
from ..core.options import LeftoverPile, MostCardsTie
from ..core.outcome import Phase
from ..core.rng import SplitMix64
from .weights import Weights

if TYPE_CHECKING:
    from ..core import State

__all__ = ["Move", "Weights", "available", "enabled", "samples", "use", "warm_up"]


class Move(Protocol):
    """Another player's past move as the opponent model sees it (``bots.inference.Decision``
    has these fields): what he saw, what he chose, what he played since."""

    seat: int
    pile: list[int]
    code: int
    unseen: list[int]
    next_size: int
    later: list[int]


_forced: bool | None = None  # use(): None follows the environment
_kernel: Any = None  # the compiled module, once loaded
_miss: Any = None  # the table of kernel.miss_chances, grown as searches need
_warm = False  # warm_up() done


@functools.cache
def available() -> bool:
    """True if numba is installed (the ``[fast]`` extra)."""
    return importlib.util.find_spec("numba") is not None


def enabled() -> bool:
    """True if searches use the compiled kernel: installed, and not switched off by
    ``use(False)`` or ``FOXTROT_FAST=0``."""
    if _forced is not None:
        return _forced and available()
    return os.environ.get("FOXTROT_FAST", "1") not in ("0", "false", "no", "off") and available()


def use(on: bool | None) -> None:
    """Use the compiled kernel (``True``), the pure path (``False``), or as the environment
    says (``None``)."""
    global _forced  # noqa: PLW0603 - a process-wide switch, like the environment variable
    _forced = on


#: ``expert.tempering_power``'s default bisection steps, which the compiled weighting makes.
_TEMPERING_STEPS = 24


def _load() -> Any:
    global _kernel  # noqa: PLW0603 - loaded once, on the first search that needs it
    if _kernel is None:
        import numpy  # noqa: PLC0415 - numba's companion, loaded with the kernel only

        from . import _search  # noqa: PLC0415 - imports numba: only when used

        _kernel = (_search, numpy)
    return _kernel


def warm_up() -> bool:
    """Compile the kernel now (or load it from numba's cache) rather than in the first
    search: for a server or a match about to start.  True if the kernel is in use.

    (A search that finds the kernel cold warms it up first, and does not count that time
    against its budget: the first move of a process waits, but is not played weaker.)"""
    global _warm  # noqa: PLW0603 - once per process
    if not enabled():
        return False
    if not _warm:
        _warm = True
        from ..core import State, TableOptions  # noqa: PLC0415 - only for the warm-up

        state = State(TableOptions(), dealer=0)
        state.deal(SplitMix64(0))
        codes = [action.code for action in state.legal_actions()]
        rng = SplitMix64(0)
        samples(
            state,
            1,
            rng,
            codes,
            iterations=1,
            deadline=math.inf,
            resample=True,
            moves=(),
            horizon=1,
            weights=Weights(0.0, 0.0, 0.0, 0.0, 0.0),  # compiling needs the types only
            share=0.5,  # and the weighting
        )
    return True


def miss_table(pool: int, hand: int) -> Any:
    """``kernel.miss_chances(p, h)`` for every ``p <= pool``, ``h <= hand``, as an array
    ``[p, h, k]`` (``h`` clamped to ``p`` as ``miss_chances`` does): built once and grown."""
    global _miss  # noqa: PLW0603 - a cache of exact values, shared by every search
    _, np = _load()
    if _miss is None or _miss.shape[0] <= pool or _miss.shape[1] <= hand:
        pools = max(pool + 1, 0 if _miss is None else _miss.shape[0])
        hands = max(hand + 1, 17, 0 if _miss is None else _miss.shape[1])
        table = np.zeros((pools, hands, len(miss_chances(0, 0))), np.float64)
        for p in range(pools):
            for h in range(min(p, hands - 1) + 1):
                table[p, h] = miss_chances(p, h)
        _miss = table
    return _miss


def _usable(pool: int, weights: Weights) -> bool:
    # scores summed in any order are exact only for a card value that is a small binary
    # fraction (0.25)
    exact = (weights.card_value * 1024).is_integer()
    return pool >= 1 and exact and enabled()


def samples(
    root: State,
    seat: int,
    rng: SplitMix64,
    codes: Sequence[int],
    *,
    iterations: int,
    deadline: float,
    resample: bool,
    moves: Sequence[Move],
    horizon: int,
    weights: Weights,
    pool: int = 1,
    tempo: float = 0.0,
    share: float | None = None,
) -> tuple[list[float], list[list[list[float]]], list[float] | None]:
    """The samples of ``expert.search`` computed by the compiled kernel: per sample, the
    log-likelihood of the sampled deal and every seat's score after each action's playout
    (``expert.seat_scores``), drawing from ``rng``
    exactly as the pure loop does; at least 2 and at most ``iterations`` samples, stopping
    once ``time.perf_counter()`` passes ``deadline``.

    ``pool`` > 1: each sample is the pick of ``pool`` deals (``expert._pick``); ``tempo``: the
    seat's own playout moves that take the pile gain that much (``rollout.policy_move``);
    ``weights``: the bots' numbers the policy and the model use (``Weights``).
    ``share``: the samples are weighed here too, as ``expert.search`` weighs them for ``rival``
    0 and no ``stake`` (``temper(logs, share)``, then each action's weighted mean margin): the
    third value is those margins and the scores are not returned (an empty list); else it is
    None.  Empty lists (and None) when the kernel cannot be used (not installed, switched
    off, or a mini game: the kernel deals the real game's pack and hands only): the caller's
    pure loop then does the work."""
    if iterations <= 0 or not codes or root.options.is_mini or not _usable(pool, weights):
        return [], [], None
    if not _warm:
        start = time.perf_counter()
        warm_up()
        deadline += time.perf_counter() - start
    kernel, np = _load()
    args = _arrays(root, codes, moves, horizon)
    logs = np.empty(iterations, np.float64)
    scores = np.empty((iterations, len(codes), root.players), np.float64)
    state = np.array([rng.state], np.uint64)  # fast._random: the stream's one word
    # the kernel reads the clock after every sample: the deadline holds under any load
    limit = deadline if not math.isinf(deadline) else float(np.finfo(np.float64).max)
    done = int(
        kernel.search(
            state, iterations, seat, resample, pool, tempo, *args, logs, scores, limit, weights
        )
    )
    rng.state = int(state[0])
    if share is None:
        return logs[:done].tolist(), scores[:done].tolist(), None
    margins = np.empty(len(codes), np.float64)
    kernel.weigh(logs[:done], scores[:done], seat, share, _TEMPERING_STEPS, margins)
    return logs[:done].tolist(), [], margins.tolist()


def _arrays(
    root: State, codes: Sequence[int], moves: Sequence[Move], horizon: int
) -> tuple[Any, ...]:
    """The kernel's arguments after ``words, count, seat, resample, picks, tempo``: the
    table's ``rules`` row, the position (``_rules.Position``), the actions, the horizon, the
    others' past moves (``_search.History``) and the table of ``miss_chances``."""
    kernel, np = _load()
    options = root.options
    n = options.players
    deck = options.deck_size
    hands = np.zeros((n, deck), np.int64)
    sizes = np.zeros(n, np.int64)
    for s, hand in enumerate(root.hand_ids):
        hands[s, : len(hand)] = hand
        sizes[s] = len(hand)
    on_pile, in_stock = root.pile_ids, root.stock_ids
    pile = np.zeros(deck, np.int64)
    pile[: len(on_pile)] = on_pile
    stock = np.zeros(max(1, len(in_stock)), np.int64)
    stock[: len(in_stock)] = in_stock
    taken = root.taken_ids
    last = root.last_taker
    position = kernel.Position(
        hands,
        sizes,
        pile,
        stock,
        np.array([len(cards) for cards in taken], np.int64),
        np.array([sum(CARD_POINTS[c] for c in cards) for cards in taken], np.int64),
        np.array([sum(FOXTROT_BONUSES[c] for c in cards) for cards in root.foxtrot_ids], np.int64),
        np.array(  # _rules.TO_MOVE, LAST, PILE_N, STOCK_N, PLAYING
            [
                root.turn,
                -1 if last is None else last,
                len(on_pile),
                len(in_stock),
                root.phase is Phase.PLAYING,
            ],
            np.int64,
        ),
    )
    rules = np.array(  # _rules.MATCH, FORCED, LEFTOVER_TO_TAKER, TIE_ALL, then ORDER
        [
            root.take_match,
            options.forced_foxtrot,
            options.leftover_pile is LeftoverPile.LAST_TAKER,
            options.most_cards_tie is MostCardsTie.ALL,
            *deal_order(root.dealer, n),
        ],
        np.int64,
    )
    m = len(moves)
    piles = max([len(move.pile) for move in moves] + [1])
    later = max([len(move.later) for move in moves] + [1])
    history = kernel.History(
        np.array([move.seat for move in moves], np.int64),
        np.array([move.code for move in moves], np.int64),
        np.array([move.next_size for move in moves], np.int64),
        np.zeros((m, RANKS), np.int64),
        np.zeros((m, piles), np.int64),
        np.zeros(m, np.int64),
        np.zeros((m, later), np.int64),
        np.zeros(m, np.int64),
    )
    for i, move in enumerate(moves):
        history.unseen[i] = move.unseen
        history.pile[i, : len(move.pile)] = move.pile
        history.pile_size[i] = len(move.pile)
        history.later[i, : len(move.later)] = move.later
        history.later_size[i] = len(move.later)
    # the largest hand a move can face: a hand now and what the stock can add to it (R1)
    largest = max([len(hand) for hand in root.hand_ids] + [move.next_size for move in moves])
    largest += len(in_stock) // n
    miss = miss_table(deck, largest)
    return (rules, position, np.array(codes, np.int64), horizon, history, miss)
