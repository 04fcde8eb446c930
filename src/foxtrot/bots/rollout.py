"""The fast default policy of search: greedy, on integers, a few microseconds a move.

It works on the engine's internal integer state (``State._hands``, ``._pile``,
``._do``) because a rollout is the hot loop of search; it lives in this
package, and every move it makes is one of ``legal_actions()`` (a property
test checks it).  It values each move as the greedy bot does — what it takes
now minus what it offers the next player, by the odds of what the next hand
holds (``move_values``) — and plays the best with a little random jitter.
"""

from __future__ import annotations

import random

from ..core import CARD_POINTS, Phase, Rank, State

_JACK = int(Rank.JACK)
_TEN = int(Rank.TEN)
_TAKE = 52
_PLAYING = Phase.PLAYING
CARD_VALUE = 0.25  # a taken card's share of the 5 points for most cards
JACK_COST = 2.0  # spending a Jack on a pile gives up a sure future take
NOISE = 0.5  # random jitter so that rollouts differ


def unseen_by_rank(state: State) -> list[int]:
    """Cards of each rank not seen face up this deal: those in hands and in the stock."""
    unseen = [0] * 13
    for hand in state._hands:
        for card in hand:
            unseen[card >> 2] += 1
    for card in state._stock:
        unseen[card >> 2] += 1
    return unseen


def move_values(
    hand: list[int], pile: list[int], take_any: bool, unseen: list[int], next_size: int
) -> dict[int, float]:
    """The default policy's value of every distinct move (action code -> points).

    A move is worth what it takes now minus what it offers the next player,
    judged by the odds: ``unseen`` counts, per rank, the cards the mover has
    not seen (his own hand excluded), ``next_size`` is the next hand's size.
    The opponent model of ``inference`` values past moves with this same function.
    """
    size = len(pile)
    top = pile[-1] >> 2 if pile else -1
    share = 1.0 / (sum(unseen) or 1)
    next_jack = 1.0 - (1.0 - unseen[_JACK] * share) ** next_size
    worth = 0
    for card in pile:
        worth += CARD_POINTS[card]
    values: dict[int, float] = {}
    if take_any and size:
        values[_TAKE] = worth + CARD_VALUE * size
    for card in hand:
        if card in values:
            continue
        rank = card >> 2
        points = CARD_POINTS[card]
        if size == 0:  # a lone card: the next player may foxtrot it, or take it
            match = 1.0 - (1.0 - unseen[rank] * share) ** next_size
            foxtrot = (20 if rank in (_TEN, _JACK) else 10) + 2 * points + 0.5
            if take_any:
                other = points + CARD_VALUE if points >= 0 else 0.0
            elif rank != _JACK and points > JACK_COST - CARD_VALUE:
                other = next_jack * (points + CARD_VALUE - JACK_COST)
            else:
                other = 0.0
            value = -(match * foxtrot if foxtrot > 0 else 0.0) - (1 - match) * other
        elif size == 1 and rank == top:  # foxtrot
            value = (20 if rank in (_TEN, _JACK) else 10) + worth + points + 2 * CARD_VALUE
        elif rank == _JACK or (rank == top and not take_any):  # takes the pile
            value = worth + points + CARD_VALUE * (size + 1) - (JACK_COST if rank == _JACK else 0)
        else:  # laid on the pile
            after = worth + points + CARD_VALUE * (size + 1)
            if after <= 0:
                value = 0.0
            elif take_any:
                value = -after
            else:
                miss = (1.0 - next_jack) * (1.0 - unseen[rank] * share) ** next_size
                value = -after * (1 - miss)
        values[card] = value
    return values


def policy_move(state: State, rng: random.Random, unseen: list[int]) -> int:
    """The default policy's action code for the player to move: the best ``move_values``,
    with a little jitter.

    The mover judges the next hand by the odds, from the cards he has not seen
    (``unseen`` counts the cards of each rank not seen face up), never by peeking.
    """
    hands = state._hands
    mover = state._to_move
    hand = hands[mover]
    pile = state._pile
    if len(pile) == 1 and state.options.forced_foxtrot:
        top = pile[0] >> 2
        for card in hand:
            if card >> 2 == top:
                return card
    unseen = unseen[:]
    for card in hand:
        unseen[card >> 2] -= 1
    values = move_values(hand, pile, not state._match, unseen, len(hands[(mover + 1) % len(hands)]))
    jitter = rng.random
    best, best_value = _TAKE, -1e9
    for code, value in values.items():
        value += NOISE * jitter()
        if value > best_value:
            best_value, best = value, code
    return best


def rollout(
    state: State, rng: random.Random, horizon: int = 1 << 30, unseen: list[int] | None = None
) -> None:
    """Play the deal in progress with the default policy, to its end or ``horizon`` moves.

    ``unseen`` (updated in place) saves recounting ``unseen_by_rank(state)`` when the
    caller has it."""
    do = state._do
    if unseen is None:
        unseen = unseen_by_rank(state)
    while state.phase is _PLAYING and horizon > 0:
        code = policy_move(state, rng, unseen)
        if code != _TAKE:
            unseen[code >> 2] -= 1
        do(code)
        horizon -= 1
