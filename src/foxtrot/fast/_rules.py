"""The rules on arrays: the compiled twin of ``State``'s move, redeal and deal end.

**What is written twice, and why.**  numba compiles functions over numbers and arrays; it
cannot run ``State`` (a Python object of lists, enums and event values).  So the parts of the
rules that a playout or a batch step must run in compiled code are written a second time
here, on arrays, beside their reference:

============================  ===========================================  ==============
here                          the reference                                rules
============================  ===========================================  ==============
``legal_codes``               ``kernel.legal_codes``                       T3, T4, X4
``do_move``                   ``State.apply_code_unchecked``               T3a-T3e, T4,
                                                                           T5, X1-X3
``run_out``                   ``State._run_out``, ``kernel.deal_out``,     R1, R2, E1, E2,
                              ``scoring.score_deal``                       P1-P4, X5, X6
``fast.batch.deal``           ``State.deal``, ``dealing.shuffled_deck``    D2-D4
============================  ===========================================  ==============

What each card does on the pile, whether taking is allowed, the forced foxtrot, the size of
a redeal, a double foxtrot and the match's winner are *not* written twice: they are
``core.kernel``'s own functions compiled as they are (``outcome_of``, ``can_take``,
``foxtrot_card``, ``redeal_size``, ``is_double``, ``match_winner``), with its constants and
tables; the deal order is ``kernel.deal_order``'s, tabled by the caller.  A change to a rule
in ``State`` must be made here too: the differential tests named after the rule ids
(``tests/test_fast_kernel.py``: ``test_T3_T4_X4_...``, ``test_T3_T4_T5_R1_R2_E1_P1_P4_X5_X6_...``;
``tests/test_batch.py``: ``test_D2_D3_D4_T1_...``) compare both on thousands of positions and
fail until they agree.

**A position** is a ``Position``: a small struct of arrays, one game's.  Taken cards are
counted, not listed (their number and their points, and the foxtrot bonuses, per seat): that
is all the scores need.  ``rules`` is a row of table options (indexed by ``MATCH``,
``FORCED``, ``LEFTOVER_TO_TAKER``, ``TIE_ALL``), then the deal order from ``ORDER``.

**Indices are unsigned** in the loops of every move (``u``, NumPy's ``uint64``): numba wraps
a negative signed index around, a test and a select at every access, which also kept loops
from being vectorised; with unsigned indices the expert's search ran 7-9 % faster and the
batch's observation a tenth faster (2026-12-05).  The numbers computed are the same.

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core import kernel
from ..core.kernel import (
    CARD_POINTS,
    FOXTROT,
    FOXTROT_BONUSES,
    LAYS,
    MOST_CARDS_BONUS,
    TAKE_CODE,
)
from ._compile import hot, inlined

#: An array index as numba reads it fastest: unsigned (see the module's text).
u = np.uint64
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]

# The kernel's rules, compiled as written (here on arrays where the kernel says Sequence).
outcome_of: Callable[[int, int, int, bool], int] = hot(kernel.outcome_of)
can_take: Callable[[Ints, bool], bool] = cast(Any, hot(kernel.can_take))
foxtrot_card: Callable[[Ints, Ints], int] = cast(Any, hot(kernel.foxtrot_card))
redeal_size: Callable[[int, int], int] = hot(kernel.redeal_size)

POINTS = np.array(CARD_POINTS, dtype=np.int64)
BONUSES = np.array(FOXTROT_BONUSES, dtype=np.int64)

#: ``Position.scalars``: the player to move, the last taker (-1: none yet), the pile's and the
#: stock's sizes, 1 while the deal is in progress.
TO_MOVE, LAST, PILE_N, STOCK_N, PLAYING = 0, 1, 2, 3, 4
SCALARS = 5
#: ``rules``: take = match, forced_foxtrot, leftover_pile = last_taker, most_cards_tie = all;
#: then the deal order (``kernel.deal_order``), one seat an entry.
MATCH, FORCED, LEFTOVER_TO_TAKER, TIE_ALL, ORDER = 0, 1, 2, 3, 4


# Why ``do_move``, ``run_out`` and ``_playout.policy_move`` take a position's arrays one by one
# (its fields, in order) rather than a ``Position``: called on every playout move, with the
# tuple they ran the compiled search 12-46 % slower a playout, and with ``_playout``'s
# ``Jitter`` and ``Scratch`` tuples 5-8 % (``benchmarks/compare.py``, alternating slices, 2 and
# 4 players); flat, as fast as before the names.  The functions called once a sample take tuples.


class Position(NamedTuple):
    """One game's position as arrays: a small struct of arrays, with the names the compiled
    functions use for its fields."""

    hands: Ints
    """``[seat, i]``: each hand sorted, its first ``hand_sizes[seat]`` entries."""
    hand_sizes: Ints
    """``[seat]``: cards in each hand."""
    pile: Ints
    """Card ids, bottom first: the first ``scalars[PILE_N]``."""
    stock: Ints
    """Card ids, top **last**: the first ``scalars[STOCK_N]``."""
    taken_count: Ints
    """``[seat]``: cards taken this deal (P3)."""
    taken_points: Ints
    """``[seat]``: their card points (P2)."""
    bonuses: Ints
    """``[seat]``: foxtrot bonuses this deal (P1)."""
    scalars: Ints
    """``TO_MOVE``, ``LAST``, ``PILE_N``, ``STOCK_N``, ``PLAYING``."""


@hot
def legal_codes(hand: Ints, pile: Ints, take_any: bool, forced: bool, out: Ints) -> int:
    """``kernel.legal_codes`` into ``out`` (T3, T4, X4): how many codes were written."""
    n = 0
    if forced:
        card = foxtrot_card(hand, pile)
        if card >= 0:
            for c in hand:
                if c >> 2 == card >> 2 and not has(out, n, c):
                    out[n] = c
                    n += 1
            return n
    ordered = True  # a hand is sorted: a card seen is then the one before (no search)
    for h in range(len(hand)):
        c = hand[h]
        if h > 0:
            if hand[h - 1] == c:
                continue
            ordered = ordered and hand[h - 1] < c
            if not ordered and has(out, n, c):
                continue
        out[n] = c
        n += 1
    if can_take(pile, take_any):
        out[n] = TAKE_CODE
        n += 1
    return n


@hot
def copy(to: Ints, source: Ints, n: int) -> None:
    """The first ``n`` entries of ``source`` into ``to``."""
    for i in range(u(n)):
        to[i] = source[i]


@hot
def has(codes: Ints, n: int, code: int) -> bool:
    """``code in codes[:n]``."""
    for i in range(u(n)):  # noqa: SIM110 - a loop numba compiles
        if codes[i] == code:
            return True
    return False


@inlined
def ordered(a: int, b: int) -> tuple[int, int]:
    """``a`` and ``b``, the smaller first (a comparator of a sorting network: no branch)."""
    return min(a, b), max(a, b)


@inlined
def sort8(cards: Ints) -> tuple[int, int, int, int, int, int, int, int]:
    """The first 8 of ``cards``, in order, by a sorting network (19 comparators in 6 rounds,
    Knuth's TAOCP 5.3.4): an insertion sort's comparisons mispredict at random, and that
    took two thirds of a redeal."""
    c0, c1, c2, c3 = cards[0], cards[1], cards[2], cards[3]
    c4, c5, c6, c7 = cards[4], cards[5], cards[6], cards[7]
    c0, c2 = ordered(c0, c2)
    c1, c3 = ordered(c1, c3)
    c4, c6 = ordered(c4, c6)
    c5, c7 = ordered(c5, c7)
    c0, c4 = ordered(c0, c4)
    c1, c5 = ordered(c1, c5)
    c2, c6 = ordered(c2, c6)
    c3, c7 = ordered(c3, c7)
    c0, c1 = ordered(c0, c1)
    c2, c3 = ordered(c2, c3)
    c4, c5 = ordered(c4, c5)
    c6, c7 = ordered(c6, c7)
    c2, c4 = ordered(c2, c4)
    c3, c5 = ordered(c3, c5)
    c1, c4 = ordered(c1, c4)
    c3, c6 = ordered(c3, c6)
    c1, c2 = ordered(c1, c2)
    c3, c4 = ordered(c3, c4)
    c5, c6 = ordered(c5, c6)
    return c0, c1, c2, c3, c4, c5, c6, c7


@hot
def sort(cards: Ints, dealt: int) -> None:
    """``list.sort`` of a hand, in place, whose last ``dealt`` cards were just dealt (the
    cards before them are in order: a hand kept from before a redeal).

    A full hand dealt (8: every deal and redeal but the last) goes through ``sort8``, then
    is merged with the cards kept, from the back; other sizes: insertion.  The hand is the
    same as ``sorted`` gives: a card is a number, and equal cards are alike."""
    n = len(cards)
    if dealt == 8:  # the dealt cards are the hand's last 8
        merged = sort8(cards[n - 8 :])
        o = n - 1  # the merge, from the back: the dealt cards are in ``merged``
        i = n - 9
        for j in range(7, -1, -1):
            card = merged[j]
            while i >= 0 and cards[i] > card:
                cards[o] = cards[i]
                i -= 1
                o -= 1
            cards[o] = card
            o -= 1
        return
    for i in range(1, n):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@inlined
def do_move(  # noqa: PLR0917 - a Position's fields, flat (see Position)
    code: int,
    hands: Ints,
    sizes: Ints,
    pile: Ints,
    stock: Ints,
    count: Ints,
    points: Ints,
    bonuses: Ints,
    scalars: Ints,
    rules: Ints,
    scores: Ints,
    at: int = -1,
) -> None:
    """``State.apply_code_unchecked``: the move (T3a-T3e, T4, T5, X1-X3), then a redeal or the
    deal's end (``run_out``) if the next player holds no card; ``scores`` gets the deal's
    scores if it ends.  The caller plays a legal code, as ``State``'s caller does.  The
    arguments after ``code`` are a ``Position``'s fields in order (``do_move(code, *position,
    rules, scores)`` from Python); a caller that knows where the card is in the mover's hand
    says so in ``at`` (the playouts' policy does: looking for it again cost 7 % of the
    expert's search at 2 players, take = any)."""
    mover = scalars[TO_MOVE]
    size = scalars[PILE_N]
    if code == TAKE_CODE:  # T4: the whole pile, to the taker's cards (T5)
        for i in range(u(size)):
            points[mover] += POINTS[u(pile[i])]
        count[mover] += size
        scalars[PILE_N] = 0
        scalars[LAST] = mover
    else:
        hand = hands[mover]
        k = sizes[mover]
        i = at
        if i < 0:
            i = 0
            while i < k - 1 and hand[u(i)] != code:  # the caller plays a card held
                i += 1
        for j in range(u(i), u(k - 1)):
            hand[j] = hand[j + u(1)]
        sizes[mover] = k - 1
        top = pile[size - 1] >> 2 if size > 0 else -1
        outcome = outcome_of(size, top, code >> 2, rules[MATCH] != 0)
        if outcome == LAYS:  # T3e
            pile[size] = code
            scalars[PILE_N] = size + 1
        else:  # T3a-T3d: the pile and the card, to the taker's cards (T5)
            for i in range(u(size)):
                points[mover] += POINTS[u(pile[i])]
            points[mover] += POINTS[u(code)]
            count[mover] += size + 1
            scalars[PILE_N] = 0
            scalars[LAST] = mover
            if outcome == FOXTROT:  # T3b, X2
                bonuses[mover] += BONUSES[code]
    nxt = mover + 1
    if nxt == len(sizes):
        nxt = 0
    scalars[TO_MOVE] = nxt  # T1
    if sizes[nxt] == 0:
        run_out(hands, sizes, pile, stock, count, points, bonuses, scalars, rules, scores)


@hot
def run_out(  # noqa: PLR0917 - a Position's fields, flat (see Position)
    hands: Ints,
    sizes: Ints,
    pile: Ints,
    stock: Ints,
    count: Ints,
    points: Ints,
    bonuses: Ints,
    scalars: Ints,
    rules: Ints,
    scores: Ints,
) -> None:
    """``State._run_out``: the player to move has no cards, so the stock is dealt again, one
    card at a time in deal order (R1, ``kernel.deal_out``), or the deal ends (R2, E1) and
    ``scores`` gets every seat's deal score as ``score_deal`` counts it (P1-P4, E2, X5, X6).
    The arguments are a ``Position``'s fields in order, then ``rules`` and ``scores``."""
    n = len(sizes)
    each = redeal_size(scalars[STOCK_N], n)
    if each:
        for _ in range(each):
            for i in range(n):
                seat = rules[ORDER + i]
                scalars[STOCK_N] -= 1
                hands[seat, sizes[seat]] = stock[scalars[STOCK_N]]
                sizes[seat] += 1
        for seat in range(n):
            sort(hands[seat, : sizes[seat]], each)
        return
    last = scalars[LAST]
    if rules[LEFTOVER_TO_TAKER] and last >= 0:  # X5
        for i in range(scalars[PILE_N]):
            points[last] += POINTS[pile[i]]
        count[last] += scalars[PILE_N]
        scalars[PILE_N] = 0
    most = 0
    for seat in range(n):
        most = max(most, count[seat])
    leaders = 0
    for seat in range(n):
        if count[seat] == most:
            leaders += 1
    for seat in range(n):
        bonus = 0
        if count[seat] == most and most > 0 and (leaders == 1 or rules[TIE_ALL]):  # P3, X6
            bonus = MOST_CARDS_BONUS
        scores[seat] = bonuses[seat] + points[seat] + bonus  # P4
    scalars[PLAYING] = 0


__all__ = [
    "BONUSES",
    "FORCED",
    "LAST",
    "LEFTOVER_TO_TAKER",
    "MATCH",
    "ORDER",
    "PILE_N",
    "PLAYING",
    "POINTS",
    "SCALARS",
    "STOCK_N",
    "TIE_ALL",
    "TO_MOVE",
    "Floats",
    "Ints",
    "Position",
    "can_take",
    "copy",
    "do_move",
    "foxtrot_card",
    "has",
    "legal_codes",
    "outcome_of",
    "redeal_size",
    "run_out",
    "sort",
    "u",
]
