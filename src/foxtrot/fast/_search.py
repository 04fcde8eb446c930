"""The compiled search loop: per sample, a deal of the hidden cards, its likelihood, the playouts.

**Written twice, and why** (numba cannot run the Python objects of the pure search):
``search`` is ``bots.expert.search``'s sampling loop (the weighting of the samples stays in
Python), ``likelihood`` is ``bots.inference.log_likelihood`` and ``deal_hidden`` is
``State.resample``, over the arrays of ``_rules`` and ``_playout``; the random numbers are the
search's own ``SplitMix64`` stream's, drawn in the pure loop's order (``_random``).
``tests/test_fast_kernel.py`` holds both paths equal to the last bit.

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

import math
import sys
import time
from typing import NamedTuple

import numba
import numpy as np

from ..core.kernel import RANKS, TAKE_CODE
from ._compile import hot, jit
from ._playout import Jitter, Scratch, move_values, policy_move, seat_scores, total
from ._random import Words, next_word, seeded, shuffle, uniform
from ._rules import (
    FORCED,
    MATCH,
    PILE_N,
    PLAYING,
    STOCK_N,
    TO_MOVE,
    Floats,
    Ints,
    Position,
    copy,
    do_move,
    foxtrot_card,
    sort,
)
from .weights import Weights


class History(NamedTuple):
    """The other players' past moves the opponent model weighs (``inference.Decision``), one
    entry per move: ``pile[m, : pile_size[m]]`` and ``later[m, : later_size[m]]`` are lists."""

    seat: Ints
    code: Ints
    next_size: Ints
    unseen: Ints
    """``[m, rank]``: the cards of each rank the mover had not seen, his hand included."""
    pile: Ints
    pile_size: Ints
    later: Ints
    """The cards the mover played from that move on."""
    later_size: Ints


#: Python 3.12 made ``sum()`` of floats compensated (Neumaier); the twins follow the version.
_COMPENSATED = sys.version_info >= (3, 12)


@hot
def _float_sum(values: Floats, n: int) -> float:
    """Python's ``sum()`` of ``n`` floats, in this Python's way (compensated from 3.12)."""
    if n == 0:
        return 0.0
    total: float = 0.0 + values[0]
    if not _COMPENSATED:
        for i in range(1, n):
            total += values[i]
        return total
    c = 0.0
    for i in range(1, n):
        x = values[i]
        t = total + x
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
        total = t
    if c != 0.0 and math.isfinite(c):
        total += c
    return total


@hot
def likelihood(  # noqa: PLR0917 - compiled code takes its arguments by position
    hands: Ints,
    hand_sizes: Ints,
    take_any: bool,
    forced: bool,
    history: History,
    miss: Floats,
    scratch: Scratch,
    weights: Weights,
) -> float:
    """``inference.log_likelihood`` of the hands, for the moves of ``history``."""
    RATIONALITY = weights.rationality  # noqa: N806 - the names of bots.inference
    SURPRISE = weights.surprise  # noqa: N806
    hand, work, codes, vals, exps = (
        scratch.held,
        scratch.work,
        scratch.codes,
        scratch.vals,
        scratch.exps,
    )
    log = 0.0
    for m in range(len(history.seat)):
        seat = history.seat[m]
        k = hand_sizes[seat]
        later = history.later_size[m]
        copy(hand, hands[seat], k)
        copy(hand[k:], history.later[m], later)
        held = hand[: k + later]
        pile = history.pile[m, : history.pile_size[m]]
        if forced and foxtrot_card(held, pile) >= 0:
            continue
        copy(work, history.unseen[m], RANKS)
        for i in range(len(held)):
            work[held[i] >> 2] -= 1
        n = move_values(
            held, pile, take_any, work, history.next_size[m], miss, codes, vals, weights
        )
        if n < 2:
            continue
        best = vals[0]
        for i in range(1, n):
            best = max(best, vals[i])
        chosen = 0.0
        for i in range(n):
            exps[i] = math.exp(RATIONALITY * (vals[i] - best))
            if codes[i] == history.code[m]:
                chosen = exps[i]
        total = _float_sum(exps, n)
        chosen = chosen / total
        log += math.log(SURPRISE / n + (1 - SURPRISE) * chosen)
    return log


@hot
def deal_hidden(  # noqa: PLR0917 - compiled code takes its arguments by position
    words: Words,
    seat: int,
    root: Position,
    cards: Ints,
    out_hands: Ints,
    out_stock: Ints,
) -> None:
    """``State.resample``: the other hands and the stock, shuffled together with generator
    ``words`` and dealt again (hands sorted, sizes kept), into ``out_hands`` and ``out_stock``."""
    sizes = root.hand_sizes
    size = 0
    for s in range(len(sizes)):
        if s != seat:
            for i in range(sizes[s]):
                cards[size] = root.hands[s, i]
                size += 1
    for i in range(root.scalars[STOCK_N]):
        cards[size] = root.stock[i]
        size += 1
    shuffle(words, cards, size)
    at = 0
    for s in range(len(sizes)):
        if s != seat:
            copy(out_hands[s], cards[at:], sizes[s])
            sort(out_hands[s, : sizes[s]], sizes[s])
            at += sizes[s]
    copy(out_stock, cards[at:], size - at)


@hot
def playout(  # noqa: PLR0917 - the hot loop's arrays, flat (see _rules.Position)
    code: int,
    seat: int,
    tempo: float,
    horizon: int,
    take_any: bool,
    forced: bool,
    w_hands: Ints,
    hands: Ints,
    sizes: Ints,
    pile: Ints,
    taken_count: Ints,
    taken_points: Ints,
    bonuses: Ints,
    scalars: Ints,
    p_hands: Ints,
    p_sizes: Ints,
    p_pile: Ints,
    p_stock: Ints,
    p_count: Ints,
    p_points: Ints,
    p_bonuses: Ints,
    p_scalars: Ints,
    rules: Ints,
    deal_scores: Ints,
    unseen: Ints,
    after: Ints,
    miss: Floats,
    words: Words,
    drawn: Floats,
    cursor: Ints,
    work: Ints,
    weights: Weights,
) -> None:
    """One action's playout of a sample (``rollout.rollout`` after ``apply_code_unchecked``):
    the sampled world (``w_hands``, the root's other fields) copied into the ``p_`` arrays,
    ``code`` played, then the default policy to ``horizon`` more moves or the deal's end.

    A function of its own, compiled without numba's reference counting (``_compile.hot``):
    inlined in ``search``, every array of every call on every move was counted up and down
    (an atomic operation each), and that took 45 % of a decision's time."""
    n = len(sizes)
    for s in range(n):
        copy(p_hands[s], w_hands[s], sizes[s])
    copy(p_sizes, sizes, n)
    copy(p_pile, pile, scalars[PILE_N])
    copy(p_count, taken_count, n)
    copy(p_points, taken_points, n)
    copy(p_bonuses, bonuses, n)
    copy(p_scalars, scalars, len(scalars))
    do_move(
        code,
        p_hands,
        p_sizes,
        p_pile,
        p_stock,
        p_count,
        p_points,
        p_bonuses,
        p_scalars,
        rules,
        deal_scores,
    )
    copy(after, unseen, RANKS)
    pool = total(unseen)  # total(after), kept as the cards go
    if code != TAKE_CODE:
        after[code >> 2] -= 1
        pool -= 1
    cursor[0] = 0
    left = horizon
    while p_scalars[PLAYING] and left > 0:  # rollout.rollout
        own = p_scalars[TO_MOVE] == seat
        move, at = policy_move(
            p_hands,
            p_sizes,
            p_pile,
            p_scalars,
            take_any,
            forced,
            after,
            pool,
            miss,
            words,
            drawn,
            cursor,
            work,
            tempo if own else 0.0,
            weights,
        )
        if move != TAKE_CODE:
            after[move >> 2] -= 1
            pool -= 1
        do_move(
            move,
            p_hands,
            p_sizes,
            p_pile,
            p_stock,
            p_count,
            p_points,
            p_bonuses,
            p_scalars,
            rules,
            deal_scores,
            at,
        )
        left -= 1


@hot
def playouts(  # noqa: PLR0917 - compiled code takes its arguments by position
    actions: Ints,
    seat: int,
    tempo: float,
    horizon: int,
    take_any: bool,
    forced: bool,
    w_hands: Ints,
    root: Position,
    played: Position,
    rules: Ints,
    deal_scores: Ints,
    unseen: Ints,
    after: Ints,
    miss: Floats,
    jitter: Jitter,
    work: Ints,
    weights: Weights,
    out: Floats,
) -> None:
    """Every action's ``playout`` of a sample, and each seat's score after it into
    ``out[action, seat]`` (``seat_scores``).

    Without numba's reference counting, as ``playout`` is: called from ``search`` once an
    action, the arrays handed over were counted up and down each time, 4 % of a decision
    at 2 players; now once a sample."""
    for a in range(len(actions)):
        playout(
            actions[a],
            seat,
            tempo,
            horizon,
            take_any,
            forced,
            w_hands,
            root.hands,
            root.hand_sizes,
            root.pile,
            root.taken_count,
            root.taken_points,
            root.bonuses,
            root.scalars,
            played.hands,
            played.hand_sizes,
            played.pile,
            played.stock,
            played.taken_count,
            played.taken_points,
            played.bonuses,
            played.scalars,
            rules,
            deal_scores,
            unseen,
            after,
            miss,
            jitter.words,
            jitter.drawn,
            jitter.cursor,
            work,
            weights,
        )
        seat_scores(played, deal_scores, out[a], weights.card_value)


@jit
def search(  # noqa: PLR0917 - compiled code takes its arguments by position
    words: Words,
    count: int,
    seat: int,
    resample: bool,
    picks: int,
    tempo: float,
    rules: Ints,
    root: Position,
    actions: Ints,
    horizon: int,
    history: History,
    miss: Floats,
    logs: Floats,
    scores: Floats,
    deadline: float,
    weights: Weights,
) -> int:
    """Up to ``count`` samples of ``expert.search``: per sample, the likelihood of the sampled
    hands (``logs``) and every seat's score after each action's playout (``scores[sample,
    action, seat]``), drawing from generator ``words`` (the search's ``SplitMix64`` state)
    exactly as the pure search draws.  After the second sample it stops once
    ``time.perf_counter()`` has passed ``deadline``, as the pure loop does (the clock is read
    after every sample, so the cap holds however slow the machine is now); returns how many
    samples it made."""
    hands, sizes, pile, stock = root.hands, root.hand_sizes, root.pile, root.stock
    n = len(sizes)
    take_any = rules[MATCH] == 0
    forced = rules[FORCED] != 0
    # the sampled world, and the copy each action plays in
    w_hands = hands.copy()
    w_stock = stock.copy()
    played = Position(
        hands.copy(),
        sizes.copy(),
        np.empty(len(pile), np.int64),
        w_stock,
        root.taken_count.copy(),
        root.taken_points.copy(),
        root.bonuses.copy(),
        root.scalars.copy(),
    )
    deal_scores = np.zeros(n, np.int64)
    cards = np.empty(len(stock) + hands.size, np.int64)
    c_hands = np.zeros((max(picks, 1), *hands.shape), np.int64)  # the pool of expert._pick
    c_stock = np.zeros((max(picks, 1), len(stock)), np.int64)
    c_logs = np.zeros(max(picks, 1), np.float64)
    c_weights = np.zeros(max(picks, 1), np.float64)
    unseen = np.zeros(RANKS, np.int64)
    after = np.zeros(RANKS, np.int64)
    scratch = Scratch(
        np.zeros(RANKS, np.int64),
        np.empty(64, np.int64),
        np.empty(64, np.float64),
        np.empty(64, np.float64),
        np.empty(hands.shape[1] + history.later.shape[1], np.int64),
    )
    jitter = Jitter(
        np.empty(1, np.uint64),  # each sample's own stream, shared by its actions
        np.empty(2 * len(pile) * 64, np.float64),  # more than a deal's moves can draw
        np.zeros(2, np.int64),
    )
    cursor = jitter.cursor
    stock_n = root.scalars[STOCK_N]
    for s in range(n):  # rollout.unseen_by_rank: the same for every sample
        for i in range(sizes[s]):
            unseen[hands[s, i] >> 2] += 1
    for i in range(stock_n):
        unseen[stock[i] >> 2] += 1
    for sample in range(count):
        if resample and picks > 1 and len(history.seat) > 0:  # expert._pick: the pick of a pool
            for p in range(picks):
                deal_hidden(words, seat, root, cards, c_hands[p], c_stock[p])
                c_logs[p] = likelihood(
                    c_hands[p], sizes, take_any, forced, history, miss, scratch, weights
                )
            top = c_logs[0]
            for p in range(1, picks):
                top = max(top, c_logs[p])
            for p in range(picks):
                c_weights[p] = math.exp(1.0 * (c_logs[p] - top))
            total = _float_sum(c_weights, picks)
            point = uniform(words) * total
            chosen = picks - 1
            for p in range(picks):
                point -= c_weights[p]
                if point < 0:
                    chosen = p
                    break
            for s in range(n):
                if s != seat:
                    copy(w_hands[s], c_hands[chosen, s], sizes[s])
            copy(w_stock, c_stock[chosen], stock_n)
            logs[sample] = top + math.log(total / picks)
        elif resample:  # State.resample: the hidden hands and the stock, shuffled
            deal_hidden(words, seat, root, cards, w_hands, w_stock)
            logs[sample] = likelihood(
                w_hands, sizes, take_any, forced, history, miss, scratch, weights
            )
        else:
            logs[sample] = 0.0
        seeded(jitter.words, next_word(words))  # SplitMix64(rng.getrandbits(64)), every action's
        cursor[1] = 0
        playouts(
            actions,
            seat,
            tempo,
            horizon,
            take_any,
            forced,
            w_hands,
            root,
            played,
            rules,
            deal_scores,
            unseen,
            after,
            miss,
            jitter,
            scratch.work,
            weights,
            scores[sample],
        )
        if sample >= 1 and sample + 1 < count and _clock() >= deadline:
            return sample + 1
    return count


@hot
def _tempered(logs: Floats, power: float, out: Floats) -> None:
    """``expert.tempered`` into ``out``: ``exp(power * (log - max))``."""
    top = logs[0]
    for i in range(1, len(logs)):
        top = max(top, logs[i])
    for i in range(len(logs)):
        out[i] = math.exp(power * (logs[i] - top))


@hot
def _effective_size(weights: Floats, squares: Floats) -> float:
    """``expert.effective_size``: ``(sum w)^2 / sum w^2`` (``squares`` is scratch)."""
    n = len(weights)
    total = _float_sum(weights, n)
    for i in range(n):
        squares[i] = weights[i] * weights[i]
    square = _float_sum(squares, n)
    return total * total / square if square > 0 else 0.0


@jit
def weigh(  # noqa: PLR0917 - compiled code takes its arguments by position
    logs: Floats, scores: Floats, seat: int, share: float, steps: int, out: Floats
) -> None:
    """``expert.search``'s weighting of its samples, for ``rival`` 0 and no ``stake``: the
    weights ``temper(logs, share)`` (``tempering_power``'s bisection of ``steps``), then each
    action's weighted mean of ``margin_of(scores[sample, action], seat)`` into ``out``, in
    the same order of arithmetic.  In Python it cost a quarter of hard's decision at 4
    players."""
    n = len(logs)
    weights = np.empty(n, np.float64)
    scratch = np.empty(n, np.float64)
    floor = share * n
    power = 1.0
    _tempered(logs, 1.0, weights)
    if _effective_size(weights, scratch) < floor:
        low, high = 0.0, 1.0
        for _ in range(steps):
            mid = (low + high) / 2
            _tempered(logs, mid, weights)
            if _effective_size(weights, scratch) >= floor:
                low = mid
            else:
                high = mid
        power = low
    _tempered(logs, power, weights)
    total = _float_sum(weights, n)
    players = scores.shape[2]
    for a in range(scores.shape[1]):
        for k in range(n):
            row = scores[k, a]
            mine = row[seat]
            others = (_float_sum(row, players) - mine) / (players - 1)
            scratch[k] = weights[k] * (mine - others)
        out[a] = _float_sum(scratch, n) / total


@jit
def _clock() -> float:
    """``time.perf_counter()`` inside compiled code (numba has no clock of its own)."""
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now
