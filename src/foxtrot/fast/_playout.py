"""The default policy on arrays: the compiled twin of ``bots.rollout`` (and a line of ``expert``).

**Written twice, and why.**  The expert's playouts run the default policy hundreds of
thousands of times a decision; numba cannot run the Python one, so it is written a second
time here, computing the same numbers in the same order (the jitter is drawn in the order
of the moves, so the order matters):

- ``move_values`` is ``rollout.move_values`` (what a move takes now minus what it offers
  the next player, by the odds), ``policy_move`` is ``rollout.policy_move`` (the best value
  with a little jitter; the forced foxtrot first, X4); both value a move with
  ``take_value`` and ``card_value``, after ``odds_of`` and ``pile_worth``;
- ``seat_scores`` is ``expert.seat_scores``.

The bots' weights are handed in (``Weights``): this package imports nothing from the bots.
``tests/test_fast_kernel.py`` holds both equal to the last bit, on thousands of positions.
The rules the policy plays by are ``_rules``'s (``do_move``); the search loop is ``_search``.

Taken cards are counted, not listed: a seat's score so far is their points plus
``card_value`` each, exact in binary for any order of summation (``fast.samples`` checks that
``card_value`` is a small binary fraction).

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.kernel import FOXTROT, JACK, LAYS, TAKE_CODE, TAKES
from ._compile import hot, inlined
from ._random import Words, uniform
from ._rules import (  # the rules' row layout re-exported, for env.batch_compiled
    BONUSES,
    FORCED,
    LEFTOVER_TO_TAKER,
    MATCH,
    ORDER,
    PILE_N,
    PLAYING,
    POINTS,
    STOCK_N,
    TIE_ALL,
    TO_MOVE,
    Floats,
    Ints,
    Position,
    can_take,
    copy,
    foxtrot_card,
    has,
    outcome_of,
    u,
)
from .weights import Weights


class Scratch(NamedTuple):
    """Buffers a decision writes into (allocated once per search, reused by every move)."""

    work: Ints
    """Per rank: the cards the mover has not seen."""
    codes: Ints
    """The moves ``move_values`` found, in its order."""
    vals: Floats
    """Their values."""
    exps: Floats
    """The opponent model's ``exp`` of each value (``_search.likelihood``)."""
    held: Ints
    """A past move's hand (``_search.likelihood``)."""


class Jitter(NamedTuple):
    """The policy's random jitter: the ``random()`` stream of generator ``words``, memoised in
    ``drawn`` so that every action of a sample plays with the same numbers (``policy_move``
    takes the fields one by one).  ``cursor[0]``
    is the next number to read, ``cursor[1]`` how many are drawn."""

    words: Words
    drawn: Floats
    cursor: Ints


@inlined
def total(counts: Ints) -> int:
    """The sum of ``counts``."""
    n = 0
    for r in range(u(len(counts))):
        n += counts[r]
    return n


@inlined
def odds_of(pool: int, unseen: Ints, next_size: int, miss: Floats) -> tuple[int, float]:
    """What ``rollout.move_values`` reads of the odds before its loop, on an empty pile or
    under take = match: how many of the ``pool`` cards unseen the next hand holds (``held``),
    and the chance that it holds no Jack."""
    held = min(next_size, pool)
    return held, miss[u(pool), u(held), u(unseen[JACK])]


@inlined
def pile_worth(pile: Ints) -> int:
    """The card points of ``pile``."""
    worth = 0
    for i in range(u(len(pile))):
        worth += POINTS[u(pile[i])]
    return worth


@inlined
def take_value(worth: int, size: int, weights: Weights) -> float:
    """``rollout.move_values``' value of taking a pile of ``size`` cards worth ``worth``."""
    return worth + weights.card_value * size


@inlined
def card_value(  # noqa: PLR0917 - compiled code takes its arguments by position
    card: int,
    size: int,
    top: int,
    worth: int,
    take_any: bool,
    unseen: Ints,
    miss: Floats,
    pool: int,
    held: int,
    no_jack: float,
    weights: Weights,
) -> tuple[float, int]:
    """``rollout.move_values``' value of playing ``card`` on a pile of ``size`` cards (top rank
    ``top``, ``worth`` points), and what the card does there (``outcome_of``)."""
    CARD_VALUE = weights.card_value  # noqa: N806 - the names of bots.values, as rollout reads them
    JACK_COST = weights.jack_cost  # noqa: N806
    rank = card >> 2
    points = POINTS[u(card)]
    outcome = outcome_of(size, top, rank, not take_any)
    if size == 0:
        match = 1.0 - miss[u(pool), u(held), u(unseen[u(rank)])]
        foxtrot = BONUSES[u(card)] + 2 * points + 2 * CARD_VALUE
        if take_any:
            other = points + CARD_VALUE if points >= 0 else 0.0
        elif rank != JACK and points > JACK_COST - CARD_VALUE:
            other = (1.0 - no_jack) * (points + CARD_VALUE - JACK_COST)
        else:
            other = 0.0
        value = -(match * foxtrot if foxtrot > 0 else 0.0) - (1 - match) * other
    elif outcome == FOXTROT:
        value = BONUSES[u(card)] + worth + points + 2 * CARD_VALUE
    elif outcome == TAKES:
        value = worth + points + CARD_VALUE * (size + 1) - (JACK_COST if rank == JACK else 0)
    else:
        after = worth + points + CARD_VALUE * (size + 1)
        if after <= 0:
            value = 0.0
        elif take_any:
            value = -after
        else:
            value = -after * (1 - no_jack * miss[u(pool), u(held), u(unseen[u(rank)])])
    return value, outcome


@inlined
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
    ``weights`` are the bots' (``bots.values``), handed in by the search.  ``policy_move``
    walks the same moves in the same order (``odds_of``, ``pile_worth``, ``take_value``,
    ``card_value``) without writing them down."""
    size = len(pile)
    top = pile[size - 1] >> 2 if size > 0 else -1
    pool = 0
    held = 0
    no_jack = 1.0
    if size == 0 or not take_any:  # the values read the odds only then
        pool = total(unseen)
        held, no_jack = odds_of(pool, unseen, next_size, miss)
    worth = pile_worth(pile)
    n = 0
    if can_take(pile, take_any):
        codes[0] = TAKE_CODE
        vals[0] = take_value(worth, size, weights)
        n = 1
    ordered = True  # a hand is sorted (the others' past hands need not be: _search.likelihood)
    for h in range(u(len(hand))):
        card = hand[h]
        if h > 0:  # dict.fromkeys(hand): in a sorted hand a card seen is the one before
            if hand[h - u(1)] == card:
                continue
            ordered = ordered and hand[h - u(1)] < card
            if not ordered and has(codes, n, card):
                continue
        value, _ = card_value(
            card, size, top, worth, take_any, unseen, miss, pool, held, no_jack, weights
        )
        codes[u(n)] = card
        vals[u(n)] = value
        n += 1
    return n


@inlined
def jittered(  # noqa: PLR0917 - compiled code takes its arguments by position
    value: float,
    takes: bool,
    tempo: float,
    noisy: bool,
    words: Words,
    drawn: Floats,
    cursor: Ints,
    noise: float,
) -> float:
    """``rollout._choose``'s value of the next move: ``tempo`` added if it ``takes`` the
    pile, then the next jitter (drawn only the first time a sample reads it)."""
    if cursor[0] == cursor[1]:
        drawn[u(cursor[1])] = uniform(words)
        cursor[1] += 1
    if tempo != 0.0 and takes:
        value += tempo
    if noisy:
        value += noise * drawn[u(cursor[0])]
    cursor[0] += 1
    return value


@inlined
def policy_move(  # noqa: PLR0917 - compiled code takes its arguments by position
    hands: Ints,
    sizes: Ints,
    pile: Ints,
    scalars: Ints,
    take_any: bool,
    forced: bool,
    unseen: Ints,
    unseen_n: int,
    miss: Floats,
    words: Words,
    drawn: Floats,
    cursor: Ints,
    work: Ints,
    tempo: float,
    weights: Weights,
) -> tuple[int, int]:
    """``rollout.policy_move``: the default policy's code for the player to move, and where
    the card is in the hand (-1: not said).

    The position is ``hands``, ``sizes``, ``pile`` and ``scalars`` (``_rules.Position``'s
    fields); ``unseen_n`` is the sum of ``unseen`` (the playout keeps it as cards are
    played); ``words``, ``drawn``, ``cursor`` are a ``Jitter``'s and ``work`` a ``Scratch``'s,
    passed one by one: called on every playout move, with the tuples numba's code ran the
    search 5-8 % slower (with a ``Position`` too, 12-46 %).  ``tempo`` is added to the moves
    that take the pile (the search passes it for its own seat's moves, 0 for the others').

    The moves are ``move_values``' in its order, each judged as it is valued (``card_value``,
    ``jittered``): writing the values down and reading them back cost 12 % of the search at
    2 players under take = any."""
    mover = scalars[TO_MOVE]
    hand = hands[mover, : sizes[mover]]
    on = pile[: scalars[PILE_N]]
    if forced:
        card = foxtrot_card(hand, on)
        if card >= 0:
            return card, -1
    nxt = mover + 1  # the next seat, without a division
    if nxt == len(sizes):
        nxt = 0
    own = mover == weights.own
    size = scalars[PILE_N]
    odds = size == 0 or not take_any  # else the values read no odds (``move_values``)
    pool = 0
    if weights.peek == 2.0 or (weights.peek == 1.0 and own):
        # the next hand of the sampled world as the whole pool: miss[k, k, r] is 0 or 1
        for r in range(len(work)):
            work[r] = 0
        for i in range(sizes[nxt]):
            work[hands[nxt, i] >> 2] += 1
        pool = sizes[nxt]
    elif odds:
        copy(work, unseen, len(unseen))
        for i in range(len(hand)):
            work[hand[i] >> 2] -= 1
        pool = unseen_n - len(hand)  # total(work), not read back from the cards just written
    held = 0
    no_jack = 1.0
    if odds:
        held, no_jack = odds_of(pool, work, sizes[nxt], miss)
    noisy = not (weights.calm == 1.0 and not own)
    noise = weights.noise
    top = on[size - 1] >> 2 if size > 0 else -1
    worth = pile_worth(on)
    best = TAKE_CODE
    best_at = -1
    best_value = -1e9
    if can_take(on, take_any):
        value = jittered(
            take_value(worth, size, weights), True, tempo, noisy, words, drawn, cursor, noise
        )
        best_value = max(best_value, value)
    for h in range(len(hand)):  # signed, for ``best_at``; the reads are unsigned
        card = hand[u(h)]
        if h > 0 and hand[u(h - 1)] == card:  # a position's hands are sorted
            continue
        value, outcome = card_value(
            card, size, top, worth, take_any, work, miss, pool, held, no_jack, weights
        )
        value = jittered(value, outcome != LAYS, tempo, noisy, words, drawn, cursor, noise)
        if value > best_value:
            best_value = value
            best = card
            best_at = h
    return best, best_at


@hot
def seat_scores(at: Position, scores: Ints, out: Floats, card_value: float) -> None:
    """``expert.seat_scores`` into ``out``: the deal ``scores`` once the deal is over, else the
    points taken so far (a taken card counting ``card_value`` towards most cards)."""
    for s in range(len(out)):
        if at.scalars[PLAYING]:
            out[s] = at.taken_points[s] + card_value * at.taken_count[s] + at.bonuses[s]
        else:
            out[s] = scores[s]


__all__ = [
    "FORCED",
    "LEFTOVER_TO_TAKER",
    "MATCH",
    "ORDER",
    "PILE_N",
    "STOCK_N",
    "TIE_ALL",
    "TO_MOVE",
    "Jitter",
    "Scratch",
    "move_values",
    "policy_move",
    "seat_scores",
]
