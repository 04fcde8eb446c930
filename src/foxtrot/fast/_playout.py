"""The compiled rules and default policy: legal moves, move values, a move, the deal's end.

Each function here is the twin of a pure-Python one, computing the same numbers in the same
order (the differential tests in ``tests/test_fast_kernel.py`` compare them on thousands of
positions, to the last bit):

- the rules are ``core.kernel``'s own functions, compiled as they are (``outcome_of``,
  ``can_take``, ``foxtrot_card``, ``redeal_size``; ``deal_order`` is run by the caller), with
  its named constants and tables; ``do_move`` is ``State._do`` and ``_run_out`` on arrays,
  scoring at the deal's end as ``score_deal`` does;
- ``move_values`` and ``policy_move`` are ``bots.rollout``'s, ``seat_scores`` is
  ``bots.expert``'s (the search loop is in ``_search``);
- random numbers are Python's (``_random``): the caller's generator is advanced exactly as
  the pure search advances it.

A position is a set of arrays: ``hands[seat, i]`` (sorted, ``hn[seat]`` cards), ``pile``
(bottom first), ``stock`` (top last), per seat the cards taken ``tn``, their points ``tp``
and the foxtrot bonuses ``fb``, and ``sc`` (the player to move, the last taker, the pile's
and the stock's sizes, whether the deal is in progress).  ``rules`` holds the table options
and the weights the numbers below need.  Taken cards are counted, not listed: a seat's score
so far is their points plus ``CARD_VALUE`` each, exact in binary for any order of summation
(``fast.usable`` checks that ``CARD_VALUE`` is a small binary fraction).

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..core import kernel
from ..core.kernel import (
    CARD_POINTS,
    FOXTROT,
    FOXTROT_BONUSES,
    JACK,
    LAYS,
    MOST_CARDS_BONUS,
    TAKE_CODE,
    TAKES,
)
from ._compile import hot
from ._random import uniform
from .weights import Weights

Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


# The kernel's rules, compiled as written (here on arrays where the kernel says Sequence).
outcome_of: Callable[[int, int, int, bool], int] = hot(kernel.outcome_of)
can_take: Callable[[Ints, bool], bool] = cast(Any, hot(kernel.can_take))
foxtrot_card: Callable[[Ints, Ints], int] = cast(Any, hot(kernel.foxtrot_card))
redeal_size: Callable[[int, int], int] = hot(kernel.redeal_size)

_POINTS = np.array(CARD_POINTS, dtype=np.int64)
_BONUSES = np.array(FOXTROT_BONUSES, dtype=np.int64)

# sc: the scalars of a position
TO_MOVE, LAST, PILE_N, STOCK_N, PLAYING = 0, 1, 2, 3, 4
# rules: the table
MATCH, FORCED, LEFTOVER_TO_TAKER, TIE_ALL, ORDER = 0, 1, 2, 3, 4  # then the deal order


@hot
def legal_codes(hand: Ints, pile: Ints, take_any: bool, forced: bool, out: Ints) -> int:
    """``kernel.legal_codes`` into ``out``: how many codes were written."""
    n = 0
    if forced:
        card = foxtrot_card(hand, pile)
        if card >= 0:
            for c in hand:
                if c >> 2 == card >> 2 and not _has(out, n, c):
                    out[n] = c
                    n += 1
            return n
    for c in hand:
        if not _has(out, n, c):
            out[n] = c
            n += 1
    if can_take(pile, take_any):
        out[n] = TAKE_CODE
        n += 1
    return n


@hot
def _copy(to: Ints, source: Ints, n: int) -> None:
    for i in range(n):
        to[i] = source[i]


@hot
def _has(codes: Ints, n: int, code: int) -> bool:
    for i in range(n):  # noqa: SIM110 - a loop numba compiles
        if codes[i] == code:
            return True
    return False


@hot
def move_values(  # noqa: PLR0917 - compiled code takes its arrays by position
    hand: Ints,
    pile: Ints,
    take_any: bool,
    unseen: Ints,
    next_size: int,
    miss: Floats,
    codes: Ints,
    vals: Floats,
    weights: Weights,
) -> int:
    """``rollout.move_values`` into ``codes``/``vals`` (its order): how many moves.

    ``miss[pool, hand]`` is ``kernel.miss_chances(pool, hand)``, tabled by the caller;
    ``weights`` are the bots' (``bots.values``), handed in by the search."""
    CARD_VALUE = weights.card_value  # noqa: N806 - the names of bots.values, as rollout reads them
    JACK_COST = weights.jack_cost  # noqa: N806
    size = len(pile)
    take_match = not take_any
    top = pile[size - 1] >> 2 if size > 0 else -1
    odds = size == 0 or not take_any
    pool = 0
    for r in range(len(unseen)):
        pool += unseen[r]
    held = min(next_size, pool)
    no_jack = miss[pool, held, unseen[JACK]] if odds else 1.0
    worth = 0
    for i in range(size):
        worth += _POINTS[pile[i]]
    n = 0
    if can_take(pile, take_any):
        codes[0] = TAKE_CODE
        vals[0] = worth + CARD_VALUE * size
        n = 1
    for h in range(len(hand)):
        card = hand[h]
        if _has(codes, n, card):
            continue
        rank = card >> 2
        points = _POINTS[card]
        outcome = outcome_of(size, top, rank, take_match)
        if size == 0:
            match = 1.0 - miss[pool, held, unseen[rank]]
            foxtrot = _BONUSES[card] + 2 * points + 2 * CARD_VALUE
            if take_any:
                other = points + CARD_VALUE if points >= 0 else 0.0
            elif rank != JACK and points > JACK_COST - CARD_VALUE:
                other = (1.0 - no_jack) * (points + CARD_VALUE - JACK_COST)
            else:
                other = 0.0
            value = -(match * foxtrot if foxtrot > 0 else 0.0) - (1 - match) * other
        elif outcome == FOXTROT:
            value = _BONUSES[card] + worth + points + 2 * CARD_VALUE
        elif outcome == TAKES:
            value = worth + points + CARD_VALUE * (size + 1) - (JACK_COST if rank == JACK else 0)
        else:
            after = worth + points + CARD_VALUE * (size + 1)
            if after <= 0:
                value = 0.0
            elif take_any:
                value = -after
            else:
                value = -after * (1 - no_jack * miss[pool, held, unseen[rank]])
        codes[n] = card
        vals[n] = value
        n += 1
    return n


@hot
def policy_move(  # noqa: PLR0917 - compiled code takes its arrays by position
    hands: Ints,
    hn: Ints,
    pile: Ints,
    sc: Ints,
    take_any: bool,
    forced: bool,
    unseen: Ints,
    miss: Floats,
    mt: Ints,
    drawn: Floats,
    cursor: Ints,
    work: Ints,
    codes: Ints,
    vals: Floats,
    tempo: float,
    weights: Weights,
) -> int:
    """``rollout.policy_move``: the default policy's code for the player to move.

    Its jitter is the stream of ``random()`` of generator ``mt``, kept in ``drawn`` (``cursor``:
    the next position, and how many are drawn): the actions of a sample play with the same
    seed, so each number is drawn once for all of them.  ``tempo`` is added to the moves that
    take the pile (the search passes it for its own seat's moves, 0 for the others')."""
    mover = sc[TO_MOVE]
    hand = hands[mover, : hn[mover]]
    on = pile[: sc[PILE_N]]
    if forced:
        card = foxtrot_card(hand, on)
        if card >= 0:
            return card
    _copy(work, unseen, len(unseen))
    for i in range(len(hand)):
        work[hand[i] >> 2] -= 1
    nxt = (mover + 1) % len(hn)
    n = move_values(hand, on, take_any, work, hn[nxt], miss, codes, vals, weights)
    size = len(on)
    top = on[size - 1] >> 2 if size > 0 else -1
    best = TAKE_CODE
    best_value = -1e9
    for i in range(n):
        if cursor[0] == cursor[1]:
            drawn[cursor[1]] = uniform(mt)
            cursor[1] += 1
        value = vals[i]
        if (
            tempo != 0.0
            and size > 0
            and (
                codes[i] == TAKE_CODE or outcome_of(size, top, codes[i] >> 2, not take_any) != LAYS
            )
        ):
            value += tempo
        value += weights.noise * drawn[cursor[0]]
        cursor[0] += 1
        if value > best_value:
            best_value = value
            best = codes[i]
    return best


@hot
def do_move(  # noqa: PLR0917 - compiled code takes its arrays by position
    code: int,
    hands: Ints,
    hn: Ints,
    pile: Ints,
    stock: Ints,
    tn: Ints,
    tp: Ints,
    fb: Ints,
    sc: Ints,
    rules: Ints,
    totals: Ints,
) -> None:
    """``State._do`` and ``_run_out``: the move, a redeal (R1) or the deal's end and scores."""
    mover = sc[TO_MOVE]
    size = sc[PILE_N]
    if code == TAKE_CODE:
        for i in range(size):
            tp[mover] += _POINTS[pile[i]]
        tn[mover] += size
        sc[PILE_N] = 0
        sc[LAST] = mover
    else:
        k = hn[mover]
        i = 0
        while i < k - 1 and hands[mover, i] != code:  # the caller plays a card held
            i += 1
        for j in range(i, k - 1):
            hands[mover, j] = hands[mover, j + 1]
        hn[mover] = k - 1
        top = pile[size - 1] >> 2 if size > 0 else -1
        outcome = outcome_of(size, top, code >> 2, rules[MATCH] != 0)
        if outcome == LAYS:
            pile[size] = code
            sc[PILE_N] = size + 1
        else:
            for i in range(size):
                tp[mover] += _POINTS[pile[i]]
            tp[mover] += _POINTS[code]
            tn[mover] += size + 1
            sc[PILE_N] = 0
            sc[LAST] = mover
            if outcome == FOXTROT:
                fb[mover] += _BONUSES[code]
    n = len(hn)
    nxt = mover + 1
    if nxt == n:
        nxt = 0
    sc[TO_MOVE] = nxt
    if hn[nxt] == 0:
        _run_out(hands, hn, pile, stock, tn, tp, fb, sc, rules, totals)


@hot
def _sort(cards: Ints) -> None:
    """``list.sort`` of a hand, in place (insertion: a hand is short)."""
    for i in range(1, len(cards)):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@hot
def _run_out(  # noqa: PLR0917 - compiled code takes its arrays by position
    hands: Ints,
    hn: Ints,
    pile: Ints,
    stock: Ints,
    tn: Ints,
    tp: Ints,
    fb: Ints,
    sc: Ints,
    rules: Ints,
    totals: Ints,
) -> None:
    n = len(hn)
    each = redeal_size(sc[STOCK_N], n)
    if each:  # kernel.deal_out: one card at a time from the top, in deal order, then sort
        for _ in range(each):
            for i in range(n):
                seat = rules[ORDER + i]
                sc[STOCK_N] -= 1
                hands[seat, hn[seat]] = stock[sc[STOCK_N]]
                hn[seat] += 1
        for seat in range(n):
            _sort(hands[seat, : hn[seat]])
        return
    last = sc[LAST]
    if rules[LEFTOVER_TO_TAKER] and last >= 0:  # X5
        for i in range(sc[PILE_N]):
            tp[last] += _POINTS[pile[i]]
        tn[last] += sc[PILE_N]
        sc[PILE_N] = 0
    most = 0
    for seat in range(n):
        most = max(most, tn[seat])
    leaders = 0
    for seat in range(n):
        if tn[seat] == most:
            leaders += 1
    for seat in range(n):
        bonus = 0
        if tn[seat] == most and most > 0 and (leaders == 1 or rules[TIE_ALL]):
            bonus = MOST_CARDS_BONUS
        totals[seat] = fb[seat] + tp[seat] + bonus
    sc[PLAYING] = 0


@hot
def seat_scores(  # noqa: PLR0917 - compiled code takes its arrays by position
    tn: Ints, tp: Ints, fb: Ints, sc: Ints, totals: Ints, out: Floats, card_value: float
) -> None:
    """``expert.seat_scores`` into ``out``: the deal scores once the deal is over, else the
    points taken so far (a taken card counting ``card_value`` towards most cards)."""
    for s in range(len(tn)):
        if sc[PLAYING]:
            out[s] = tp[s] + card_value * tn[s] + fb[s]
        else:
            out[s] = totals[s]
