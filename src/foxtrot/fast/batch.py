"""Many matches stepped at once in compiled code: the engine of ``env.BatchedGames`` (``[fast]``).

Each game is a row of a set of arrays, and ``step`` moves every game once: the move, a
redeal, the deal's end and its scores, the match's end, the next deal, the rewards, and the
observation array and action mask of the seat to move, into the caller's arrays.

**What is written twice, and why.**  numba cannot run ``State``, so this engine runs the
rules' compiled twin (``_rules``, which says what it re-writes and which tests hold it equal):

- the move, a redeal (R1) and a deal's end with its scores (R2, E1, E2, P1-P4, X5, X6) are
  ``_rules.do_move`` and ``_rules.run_out`` (``State.apply_code_unchecked`` and
  ``State._run_out`` on arrays);
- ``deal`` here re-writes ``State.deal`` (D2-D4): the shuffle of a fresh pack, the stock as
  the deck reversed, then eight cards each as ``run_out``'s redeal from a full stock
  (``redeal_size`` of a full pack is ``HAND_SIZE`` at every table: D3), the upturned card,
  the first player (T1);
- the legal actions are ``_rules.legal_codes`` (``kernel.legal_codes`` re-written); the
  match's end is ``kernel.match_winner`` and a double foxtrot ``kernel.is_double``,
  compiled as they are; the deal order is ``kernel.deal_order``'s, tabled by the caller
  (``orders``);
- the shuffle is CPython's ``random.Random.shuffle`` over MT19937 (``_random``, itself a
  twin), so a game deals exactly the deals ``State.deal(random.Random(seed))`` deals.

The observation is ``env.encoding.encode`` of the seat to move (the offsets of its blocks are
given, ``at``), built from what that seat may see: its own hand and the public counts (V1,
V2).  The differential tests (tests/test_batch.py) hold all of it equal to the engine.

A game's arrays (``G`` games, ``n`` players, ``D`` cards): ``hands[G, n, D]`` (sorted,
``hand_sizes[G, n]`` cards), ``pile[G, D]`` (bottom first), ``stock[G, D]`` (top last), per
seat the cards taken ``taken_count``, their points ``taken_points``, the foxtrot bonuses
``bonuses``, the single and double foxtrots ``single``, ``double``, the deal scores
``dscore`` and match ``totals`` (all ``[G, n]``), ``scalars[G, 5]`` (``_rules.Position``'s
scalars), ``rules[G, 4 + n]`` (``_rules``'s rules row and the deal order), ``seen[G, 52]``
(cards seen this deal), ``meta[G, 2]`` (dealer, finished deals), ``running[G, n]`` (the margin
reward's points so far), ``words[G, 625]`` (each game's generator).  Row ``g`` of the first
eight is the position (``_rules.Position``'s fields) the rules' twin works on.

This module imports numba: it is loaded only when a compiled batch is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..core import kernel
from ..core.kernel import TAKE_CODE
from ._compile import hot
from ._random import seeded, shuffle
from ._rules import (
    FORCED,
    LAST,
    MATCH,
    ORDER,
    PILE_N,
    PLAYING,
    STOCK_N,
    TO_MOVE,
    do_move,
    legal_codes,
    run_out,
)

Ints = NDArray[np.int64]
Floats = NDArray[np.float32]
Flags = NDArray[np.bool_]
Mask = NDArray[np.int8]

is_double: Callable[[int], bool] = hot(kernel.is_double)
match_winner: Callable[[Ints, float], int] = cast(Any, hot(kernel.match_winner))

#: The blocks of the observation, in the order of ``at`` (names of ``env.encoding.layout``).
BLOCKS = (
    "hand",
    "pile",
    "top",
    "pile_size",
    "stock",
    "hand_sizes",
    "taken",
    "foxtrots",
    "double_foxtrots",
    "totals",
    "seen",
    "to_move",
    "dealer",
)
(HAND, PILE, TOP, PILE_SIZE, STOCK, SIZES, TAKEN, SINGLES, DOUBLES, TOTALS, SEEN, MOVER, DEALER) = (
    range(len(BLOCKS))
)
N_ACTIONS = TAKE_CODE + 1
KINDS = 52
#: The rewards (``env.game.REWARDS``), as numbers.
DEAL_REWARD, MATCH_REWARD, MARGIN_REWARD = 0, 1, 2
#: ``meta``: the dealer, the deals finished in this match.
DEALER_AT, DEALS_AT = 0, 1


@hot
def show(  # noqa: PLR0917 - compiled code takes its arrays by position
    g: int,
    at: Ints,
    hands: Ints,
    hand_sizes: Ints,
    pile: Ints,
    scalars: Ints,
    taken_count: Ints,
    single: Ints,
    double: Ints,
    totals: Ints,
    seen: Ints,
    meta: Ints,
    rules: Ints,
    codes: Ints,
    obs: Floats,
    mask: Mask,
    to_move: Ints,
) -> None:
    """Game ``g``'s seat to move, its observation array (``encode``) and its action mask."""
    n = hand_sizes.shape[1]
    seat = scalars[g, TO_MOVE]
    to_move[g] = seat
    out = obs[g]
    out[:] = 0
    hand = hands[g, seat, : hand_sizes[g, seat]]
    for c in hand:
        out[at[HAND] + c] += 1
    size = scalars[g, PILE_N]
    on = pile[g, :size]
    for c in on:
        out[at[PILE] + c] += 1
    if size > 0:
        out[at[TOP] + on[size - 1]] = 1
    out[at[PILE_SIZE]] = size
    out[at[STOCK]] = scalars[g, STOCK_N]
    for rel in range(n):  # seats in order relative to the observer
        s = seat + rel
        if s >= n:
            s -= n
        out[at[SIZES] + rel] = hand_sizes[g, s]
        out[at[TAKEN] + rel] = taken_count[g, s]
        out[at[SINGLES] + rel] = single[g, s]
        out[at[DOUBLES] + rel] = double[g, s]
        out[at[TOTALS] + rel] = totals[g, s]
        if s == meta[g, DEALER_AT]:
            out[at[DEALER] + rel] = 1
    out[at[MOVER]] = 1  # relative seat 0 is the seat to move
    for k in range(KINDS):
        out[at[SEEN] + k] = seen[g, k]
    flags = mask[g]
    flags[:] = 0
    row = codes[g]  # the legal actions in index order (a hand is sorted, take is last) ...
    count = legal_codes(hand, on, rules[g, MATCH] == 0, rules[g, FORCED] != 0, row)
    for i in range(count):
        flags[row[i]] = 1
    row[N_ACTIONS] = count  # ... and how many


@hot
def deal(  # noqa: PLR0917 - compiled code takes its arrays by position
    g: int,
    orders: Ints,
    fresh: Ints,
    hands: Ints,
    hand_sizes: Ints,
    pile: Ints,
    stock: Ints,
    taken_count: Ints,
    taken_points: Ints,
    bonuses: Ints,
    single: Ints,
    double: Ints,
    dscore: Ints,
    scalars: Ints,
    rules: Ints,
    seen: Ints,
    meta: Ints,
    running: Ints,
    words: Ints,
) -> None:
    """A new deal in game ``g`` by its dealer (``meta``), shuffled by its generator (D3, D4)."""
    n = hand_sizes.shape[1]
    dealer = meta[g, DEALER_AT]
    for i in range(n):
        rules[g, ORDER + i] = orders[dealer, i]
    cards = len(fresh)
    deck = stock[g]
    for i in range(cards):
        deck[i] = fresh[i]
    shuffle(words[g], deck, cards)  # the deck, index 0 the top (D4) ...
    for i in range(cards // 2):  # ... and the stock is the deck reversed: its top card last
        deck[i], deck[cards - 1 - i] = deck[cards - 1 - i], deck[i]
    for s in range(n):
        hand_sizes[g, s] = 0
        taken_count[g, s] = 0
        taken_points[g, s] = 0
        bonuses[g, s] = 0
        single[g, s] = 0
        double[g, s] = 0
        running[g, s] = 0
    scalars[g, STOCK_N] = cards
    scalars[g, PILE_N] = 0
    scalars[g, LAST] = -1
    scalars[g, PLAYING] = 1
    # eight cards each, one at a time in deal order: the redeal from a full stock (R1 = D3)
    run_out(
        hands[g],
        hand_sizes[g],
        pile[g],
        stock[g],
        taken_count[g],
        taken_points[g],
        bonuses[g],
        scalars[g],
        rules[g],
        dscore[g],
    )
    scalars[g, STOCK_N] -= 1
    upturned = stock[g, scalars[g, STOCK_N]]
    pile[g, 0] = upturned  # the upturned card is the pile (D3)
    scalars[g, PILE_N] = 1
    scalars[g, TO_MOVE] = orders[dealer, 0]  # the dealer's left plays first (T1)
    seen[g, :] = 0
    seen[g, upturned] = 1


@hot
def step(  # noqa: PLR0917 - compiled code takes its arrays by position
    actions: Ints,
    limit: int,
    reward: int,
    target: float,
    at: Ints,
    orders: Ints,
    fresh: Ints,
    hands: Ints,
    hand_sizes: Ints,
    pile: Ints,
    stock: Ints,
    taken_count: Ints,
    taken_points: Ints,
    bonuses: Ints,
    single: Ints,
    double: Ints,
    dscore: Ints,
    totals: Ints,
    scalars: Ints,
    rules: Ints,
    seen: Ints,
    meta: Ints,
    running: Ints,
    words: Ints,
    codes: Ints,
    obs: Floats,
    mask: Mask,
    to_move: Ints,
    rewards: Floats,
    done: Flags,
    ended: Flags,
    scores: Ints,
    winner: Ints,
    final: Ints,
) -> int:
    """One action in each of the first ``limit`` games; returns ``limit``, or the index of the
    first game whose action is not legal (that game and those after it have not moved).

    A game whose match ended is marked ``done`` and left for the caller to start anew."""
    n = hand_sizes.shape[1]
    for g in range(limit):
        code = actions[g]
        if code < 0 or code >= N_ACTIONS or mask[g, code] == 0:
            return g
        rewards[g, :] = 0
        done[g] = False
        ended[g] = False
        winner[g] = -1
        mover = scalars[g, TO_MOVE]
        bonus = bonuses[g, mover]
        do_move(
            code,
            hands[g],
            hand_sizes[g],
            pile[g],
            stock[g],
            taken_count[g],
            taken_points[g],
            bonuses[g],
            scalars[g],
            rules[g],
            dscore[g],
        )
        if code != TAKE_CODE:
            seen[g, code] += 1  # every card played is seen
            if bonuses[g, mover] != bonus:  # a foxtrot
                if is_double(code):
                    double[g, mover] += 1
                else:
                    single[g, mover] += 1
        if scalars[g, PLAYING]:
            if reward == MARGIN_REWARD:  # only the mover's points can have grown
                gain = taken_points[g, mover] + bonuses[g, mover] - running[g, mover]
                if gain != 0:
                    running[g, mover] += gain
                    for s in range(n):
                        rewards[g, s] = -gain / (n - 1)
                    rewards[g, mover] = gain
        elif _deal_ended(
            g,
            reward,
            target,
            taken_count,
            taken_points,
            bonuses,
            single,
            double,
            dscore,
            totals,
            meta,
            running,
            rewards,
            ended,
            scores,
            winner,
            final,
        ):
            done[g] = True
            continue
        else:
            meta[g, DEALER_AT] = (meta[g, DEALER_AT] + 1) % n  # the deal passes clockwise (D2)
            deal(
                g,
                orders,
                fresh,
                hands,
                hand_sizes,
                pile,
                stock,
                taken_count,
                taken_points,
                bonuses,
                single,
                double,
                dscore,
                scalars,
                rules,
                seen,
                meta,
                running,
                words,
            )
        show(
            g,
            at,
            hands,
            hand_sizes,
            pile,
            scalars,
            taken_count,
            single,
            double,
            totals,
            seen,
            meta,
            rules,
            codes,
            obs,
            mask,
            to_move,
        )
    return limit


@hot
def _deal_ended(  # noqa: PLR0917 - compiled code takes its arrays by position
    g: int,
    reward: int,
    target: float,
    taken_count: Ints,
    taken_points: Ints,
    bonuses: Ints,
    single: Ints,
    double: Ints,
    dscore: Ints,
    totals: Ints,
    meta: Ints,
    running: Ints,
    rewards: Floats,
    ended: Flags,
    scores: Ints,
    winner: Ints,
    final: Ints,
) -> bool:
    """The score sheet of the deal that ended (P4, X9), the rewards, the match totals; True if
    the match is won (M2)."""
    n = taken_count.shape[1]
    ended[g] = True
    gains = 0
    for s in range(n):
        line = scores[g, s]
        line[0] = single[g, s]
        line[1] = double[g, s]
        line[2] = taken_count[g, s]
        line[3] = taken_points[g, s]
        line[4] = dscore[g, s] - bonuses[g, s] - taken_points[g, s]  # the most-cards bonus (P3)
        line[5] = dscore[g, s]
        totals[g, s] += dscore[g, s]
        gains += dscore[g, s] - running[g, s]
    if reward == DEAL_REWARD:
        for s in range(n):
            rewards[g, s] = dscore[g, s]
    elif reward == MARGIN_REWARD:  # each seat's gain minus the mean of the others'
        for s in range(n):
            gain = dscore[g, s] - running[g, s]
            rewards[g, s] = gain - (gains - gain) / (n - 1)
    meta[g, DEALS_AT] += 1
    seat = match_winner(totals[g], target)
    if seat < 0:
        return False
    winner[g] = seat
    for s in range(n):
        final[g, s] = totals[g, s]
    if reward == MATCH_REWARD:
        rewards[g, seat] = 1
    return True


@hot
def pick(codes: Ints, draws: NDArray[np.float64], out: Ints) -> None:
    """In every game the legal action number ``int(draw * count)`` in index order
    (``BatchedGames``'s random action: uniform over the legal ones), from ``show``'s codes."""
    for g in range(len(out)):
        count = codes[g, N_ACTIONS]
        out[g] = codes[g, min(int(draws[g] * count), count - 1)]


__all__ = [
    "BLOCKS",
    "deal",
    "is_double",
    "match_winner",
    "pick",
    "seeded",
    "show",
    "shuffle",
    "step",
]
