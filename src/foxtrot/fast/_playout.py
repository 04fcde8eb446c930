"""The default policy on arrays: the compiled twin of ``bots.rollout`` (and a line of ``expert``).

**Written twice, and why.**  The expert's playouts run the default policy hundreds of
thousands of times a decision; numba cannot run the Python one, so it is written a second
time here, computing the same numbers in the same order (the jitter is drawn in the order
of the moves, so the order matters):

- ``move_values`` is ``rollout.move_values`` (what a move takes now minus what it offers
  the next player, by the odds), ``policy_move`` is ``rollout.policy_move`` (the best value
  with a little jitter; the forced foxtrot first, X4);
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
    odds = size == 0 or not take_any  # the values read the odds (``miss``) only then
    pool = 0
    held = 0
    no_jack = 1.0
    if odds:
        for r in range(u(len(unseen))):
            pool += unseen[r]
        held = min(next_size, pool)
        no_jack = miss[u(pool), u(held), u(unseen[JACK])]
    worth = 0
    for i in range(u(size)):
        worth += POINTS[u(pile[i])]
    n = 0
    if can_take(pile, take_any):
        codes[0] = TAKE_CODE
        vals[0] = worth + CARD_VALUE * size
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
        rank = card >> 2
        points = POINTS[u(card)]
        outcome = outcome_of(size, top, rank, take_match)
        if size == 0:
            match = 1.0 - miss[u(pool), u(held), u(unseen[u(rank)])]
            foxtrot = BONUSES[card] + 2 * points + 2 * CARD_VALUE
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
        codes[u(n)] = card
        vals[u(n)] = value
        n += 1
    return n


@inlined
def policy_move(  # noqa: PLR0917 - compiled code takes its arguments by position
    hands: Ints,
    sizes: Ints,
    pile: Ints,
    scalars: Ints,
    take_any: bool,
    forced: bool,
    unseen: Ints,
    miss: Floats,
    words: Words,
    drawn: Floats,
    cursor: Ints,
    work: Ints,
    codes: Ints,
    vals: Floats,
    tempo: float,
    weights: Weights,
) -> int:
    """``rollout.policy_move``: the default policy's code for the player to move.

    The position is ``hands``, ``sizes``, ``pile`` and ``scalars`` (``_rules.Position``'s
    fields); ``words``, ``drawn``, ``cursor`` are a ``Jitter``'s and ``work``, ``codes``,
    ``vals`` a ``Scratch``'s, passed one by one: called on every playout move, with the tuples
    numba's code ran the search 5-8 % slower (with a ``Position`` too, 12-46 %).  ``tempo`` is
    added to the moves that take the pile (the search passes it for its own seat's moves, 0
    for the others')."""
    mover = scalars[TO_MOVE]
    hand = hands[mover, : sizes[mover]]
    on = pile[: scalars[PILE_N]]
    if forced:
        card = foxtrot_card(hand, on)
        if card >= 0:
            return card
    nxt = mover + 1  # the next seat, without a division
    if nxt == len(sizes):
        nxt = 0
    own = mover == weights.own
    if weights.peek == 2.0 or (weights.peek == 1.0 and own):
        # the next hand of the sampled world as the whole pool: miss[k, k, r] is 0 or 1
        for r in range(len(work)):
            work[r] = 0
        for i in range(sizes[nxt]):
            work[hands[nxt, i] >> 2] += 1
    elif scalars[PILE_N] == 0 or not take_any:  # else move_values reads no odds (its ``odds``)
        copy(work, unseen, len(unseen))
        for i in range(len(hand)):
            work[hand[i] >> 2] -= 1
    n = move_values(hand, on, take_any, work, sizes[nxt], miss, codes, vals, weights)
    size = len(on)
    top = on[size - 1] >> 2 if size > 0 else -1
    best = TAKE_CODE
    best_value = -1e9
    for i in range(u(n)):
        if cursor[0] == cursor[1]:
            drawn[u(cursor[1])] = uniform(words)
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
        if not (weights.calm == 1.0 and not own):
            value += weights.noise * drawn[u(cursor[0])]
        cursor[0] += 1
        if value > best_value:
            best_value = value
            best = codes[i]
    return best


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
