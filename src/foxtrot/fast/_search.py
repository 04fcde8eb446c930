"""The compiled search loop: per sample, a deal of the hidden cards, its likelihood, the playouts.

``search`` is ``bots.expert.search``'s sampling loop (the weighting of the samples stays in
Python), ``likelihood`` is ``bots.inference.log_likelihood`` and ``_deal_hidden`` is
``State.resample``, over the arrays of ``_playout``; the random numbers are the caller's
generator's, drawn in the pure loop's order.

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

import math
import sys
import time

import numba
import numpy as np

from ..core.kernel import RANKS, TAKE_CODE
from ._compile import hot, jit
from ._playout import (
    FORCED,
    MATCH,
    PILE_N,
    PLAYING,
    STOCK_N,
    TO_MOVE,
    Floats,
    Ints,
    _copy,
    _sort,
    do_move,
    foxtrot_card,
    move_values,
    policy_move,
    seat_scores,
)
from ._random import next_word, seeded, shuffle, uniform
from .weights import Weights

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
def likelihood(  # noqa: PLR0917 - compiled code takes its arrays by position
    hands: Ints,
    hn: Ints,
    take_any: bool,
    forced: bool,
    m_seat: Ints,
    m_code: Ints,
    m_next: Ints,
    m_unseen: Ints,
    m_pile: Ints,
    m_pn: Ints,
    m_later: Ints,
    m_ln: Ints,
    miss: Floats,
    hand: Ints,
    work: Ints,
    codes: Ints,
    vals: Floats,
    exps: Floats,
    weights: Weights,
) -> float:
    """``inference.log_likelihood`` of the hands, for the moves given as arrays."""
    RATIONALITY = weights.rationality  # noqa: N806 - the names of bots.inference
    SURPRISE = weights.surprise  # noqa: N806
    log = 0.0
    for m in range(len(m_seat)):
        seat = m_seat[m]
        k = hn[seat]
        _copy(hand, hands[seat], k)
        _copy(hand[k:], m_later[m], m_ln[m])
        held = hand[: k + m_ln[m]]
        pile = m_pile[m, : m_pn[m]]
        if forced and foxtrot_card(held, pile) >= 0:
            continue
        _copy(work, m_unseen[m], RANKS)
        for i in range(len(held)):
            work[held[i] >> 2] -= 1
        n = move_values(held, pile, take_any, work, m_next[m], miss, codes, vals, weights)
        if n < 2:
            continue
        best = vals[0]
        for i in range(1, n):
            best = max(best, vals[i])
        chosen = 0.0
        for i in range(n):
            exps[i] = math.exp(RATIONALITY * (vals[i] - best))
            if codes[i] == m_code[m]:
                chosen = exps[i]
        total = _float_sum(exps, n)
        chosen = chosen / total
        log += math.log(SURPRISE / n + (1 - SURPRISE) * chosen)
    return log


@hot
def _deal_hidden(  # noqa: PLR0917 - compiled code takes its arrays by position
    rng: Ints,
    seat: int,
    hands: Ints,
    hn: Ints,
    stock: Ints,
    stock_n: int,
    cards: Ints,
    out_hands: Ints,
    out_stock: Ints,
) -> None:
    """``State.resample``: the other hands and the stock, shuffled together and dealt again
    (hands sorted, sizes kept), into ``out_hands`` and ``out_stock``."""
    n = len(hn)
    size = 0
    for s in range(n):
        if s != seat:
            for i in range(hn[s]):
                cards[size] = hands[s, i]
                size += 1
    for i in range(stock_n):
        cards[size] = stock[i]
        size += 1
    shuffle(rng, cards, size)
    at = 0
    for s in range(n):
        if s != seat:
            _copy(out_hands[s], cards[at:], hn[s])
            _sort(out_hands[s, : hn[s]])
            at += hn[s]
    _copy(out_stock, cards[at:], size - at)


@jit
def search(  # noqa: PLR0917 - compiled code takes its arrays by position
    rng: Ints,
    count: int,
    seat: int,
    resample: bool,
    picks: int,
    tempo: float,
    rules: Ints,
    hands: Ints,
    hn: Ints,
    pile: Ints,
    stock: Ints,
    tn: Ints,
    tp: Ints,
    fb: Ints,
    sc: Ints,
    actions: Ints,
    horizon: int,
    m_seat: Ints,
    m_code: Ints,
    m_next: Ints,
    m_unseen: Ints,
    m_pile: Ints,
    m_pn: Ints,
    m_later: Ints,
    m_ln: Ints,
    miss: Floats,
    logs: Floats,
    scores: Floats,
    deadline: float,
    weights: Weights,
) -> int:
    """Up to ``count`` samples of ``expert.search``: per sample, the likelihood of the sampled
    hands (``logs``) and every seat's score after each action's playout (``scores[sample,
    action, seat]``), drawing from ``rng`` (the caller's generator state) exactly as the pure
    search draws. After the second sample it stops once ``time.perf_counter()`` has passed
    ``deadline``, as the pure loop does (the clock is read after every sample, so the cap
    holds however slow the machine is now); returns how many samples it made."""
    n = len(hn)
    take_any = rules[MATCH] == 0
    forced = rules[FORCED] != 0
    # the sampled world, and the copy each action plays in
    w_hands = hands.copy()
    w_stock = stock.copy()
    p_hands = hands.copy()
    p_hn = hn.copy()
    p_pile = np.empty(len(pile), np.int64)
    p_tn = tn.copy()
    p_tp = tp.copy()
    p_fb = fb.copy()
    p_sc = sc.copy()
    totals = np.zeros(n, np.int64)
    cards = np.empty(len(stock) + hands.size, np.int64)
    c_hands = np.zeros((max(picks, 1), *hands.shape), np.int64)  # the pool of expert._pick
    c_stock = np.zeros((max(picks, 1), len(stock)), np.int64)
    c_logs = np.zeros(max(picks, 1), np.float64)
    c_weights = np.zeros(max(picks, 1), np.float64)
    unseen = np.zeros(RANKS, np.int64)
    after = np.zeros(RANKS, np.int64)
    work = np.zeros(RANKS, np.int64)
    codes = np.empty(64, np.int64)
    vals = np.empty(64, np.float64)
    exps = np.empty(64, np.float64)
    held = np.empty(hands.shape[1] + m_later.shape[1], np.int64)
    playout_rng = np.empty(625, np.int64)
    drawn = np.empty(2 * len(pile) * 64, np.float64)  # more than a deal's moves can draw
    cursor = np.zeros(2, np.int64)
    model = (m_seat, m_code, m_next, m_unseen, m_pile, m_pn, m_later, m_ln, miss)
    buffers = (held, work, codes, vals, exps, weights)
    stock_n = sc[STOCK_N]
    for s in range(n):  # rollout.unseen_by_rank: the same for every sample
        for i in range(hn[s]):
            unseen[hands[s, i] >> 2] += 1
    for i in range(stock_n):
        unseen[stock[i] >> 2] += 1
    for sample in range(count):
        if resample and picks > 1 and len(m_seat) > 0:  # expert._pick: the pick of a pool
            for p in range(picks):
                _deal_hidden(rng, seat, hands, hn, stock, stock_n, cards, c_hands[p], c_stock[p])
                c_logs[p] = likelihood(c_hands[p], hn, take_any, forced, *model, *buffers)
            top = c_logs[0]
            for p in range(1, picks):
                top = max(top, c_logs[p])
            for p in range(picks):
                c_weights[p] = math.exp(1.0 * (c_logs[p] - top))
            total = _float_sum(c_weights, picks)
            point = uniform(rng) * total
            chosen = picks - 1
            for p in range(picks):
                point -= c_weights[p]
                if point < 0:
                    chosen = p
                    break
            for s in range(n):
                if s != seat:
                    _copy(w_hands[s], c_hands[chosen, s], hn[s])
            _copy(w_stock, c_stock[chosen], stock_n)
            logs[sample] = top + math.log(total / picks)
        elif resample:  # State.resample: the hidden hands and the stock, shuffled
            _deal_hidden(rng, seat, hands, hn, stock, stock_n, cards, w_hands, w_stock)
            logs[sample] = likelihood(w_hands, hn, take_any, forced, *model, *buffers)
        else:
            logs[sample] = 0.0
        low = next_word(rng)  # rng.getrandbits(64), low word first
        high = next_word(rng)
        seeded(playout_rng, low, high)  # random.Random(seed), shared by every action
        cursor[1] = 0
        for a in range(len(actions)):
            code = actions[a]
            for s in range(n):
                _copy(p_hands[s], w_hands[s], hn[s])
            _copy(p_hn, hn, n)
            _copy(p_pile, pile, sc[PILE_N])
            _copy(p_tn, tn, n)
            _copy(p_tp, tp, n)
            _copy(p_fb, fb, n)
            _copy(p_sc, sc, len(sc))
            do_move(code, p_hands, p_hn, p_pile, w_stock, p_tn, p_tp, p_fb, p_sc, rules, totals)
            _copy(after, unseen, RANKS)
            if code != TAKE_CODE:
                after[code >> 2] -= 1
            cursor[0] = 0
            left = horizon
            while p_sc[PLAYING] and left > 0:  # rollout.rollout
                move = policy_move(
                    p_hands,
                    p_hn,
                    p_pile,
                    p_sc,
                    take_any,
                    forced,
                    after,
                    miss,
                    playout_rng,
                    drawn,
                    cursor,
                    work,
                    codes,
                    vals,
                    tempo if p_sc[TO_MOVE] == seat else 0.0,
                    weights,
                )
                if move != TAKE_CODE:
                    after[move >> 2] -= 1
                do_move(move, p_hands, p_hn, p_pile, w_stock, p_tn, p_tp, p_fb, p_sc, rules, totals)
                left -= 1
            seat_scores(p_tn, p_tp, p_fb, p_sc, totals, scores[sample, a], weights.card_value)
        if sample >= 1 and sample + 1 < count and _clock() >= deadline:
            return sample + 1
    return count


@jit
def _clock() -> float:
    """``time.perf_counter()`` inside compiled code (numba has no clock of its own)."""
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now
