"""The fast default policy of search: greedy, on integers, a few microseconds a move.

It works on the engine's internal integer state (``State._hands``, ``._pile``,
``._do``) because a rollout is the hot loop of search; it lives in this
package, and every move it makes is one of ``legal_actions()`` (a property
test checks it).  It values each move as the greedy bot does — what it takes
now minus what it leaves the next player — but, inside a determinization, it
looks at the next player's (sampled) hand instead of at the odds.
"""

from __future__ import annotations

import random

from ..core import CARD_POINTS, Phase, Rank, State

_JACK = int(Rank.JACK)
_TEN = int(Rank.TEN)
_QS = 4 * int(Rank.QUEEN)  # the Queen of spades (suit 0)
_TAKE = 52
_PLAYING = Phase.PLAYING
CARD_VALUE = 0.25  # a taken card's share of the 5 points for most cards
JACK_COST = 2.0  # spending a Jack on a pile gives up a sure future take
NOISE = 0.5  # random jitter so that rollouts differ


def seen_by_rank(state: State) -> list[int]:
    """Cards of each rank seen face up this deal (the same for every seat)."""
    seen = [4 * state.options.decks] * 13
    for hand in state._hands:
        for card in hand:
            seen[card >> 2] -= 1
    for card in state._stock:
        seen[card >> 2] -= 1
    return seen


def policy_move(state: State, rng: random.Random, seen: list[int]) -> int:
    """The default policy's action code for the player to move.

    The mover judges the next hand by the odds, from the cards he has not seen
    (``seen`` counts the cards of each rank seen face up), never by peeking.
    """
    hands = state._hands
    mover = state._to_move
    hand = hands[mover]
    pile = state._pile
    take_any = not state._match
    size = len(pile)
    top = pile[-1] >> 2 if pile else -1
    if size == 1 and state.options.forced_foxtrot:
        for card in hand:
            if card >> 2 == top:
                return card
    unseen = [4 * state.options.decks - count for count in seen]
    for card in hand:
        unseen[card >> 2] -= 1
    pool = sum(unseen) or 1
    h = len(hands[(mover + 1) % len(hands)])

    def odds(rank: int) -> float:
        return 1.0 - (1.0 - unseen[rank] / pool) ** h

    next_jack = odds(_JACK)
    worth = 0
    for card in pile:
        worth += CARD_POINTS[card]
    best = _TAKE
    best_value = worth + CARD_VALUE * size if (take_any and size) else -1e9
    jitter = rng.random
    last = -1
    for card in hand:
        if card == last:
            continue
        last = card
        rank = card >> 2
        points = CARD_POINTS[card]
        if size == 0:  # a lone card: the next player may foxtrot it, or take it
            match = odds(rank)
            foxtrot = (20 if rank in (_TEN, _JACK) else 10) + 2 * points + 0.5
            if take_any:
                other = max(0.0, points + CARD_VALUE)
            elif rank != _JACK:
                other = next_jack * max(0.0, points + CARD_VALUE - JACK_COST)
            else:
                other = 0.0
            value = -(match * max(foxtrot, 0.0) + (1 - match) * other)
        elif size == 1 and rank == top:  # foxtrot
            value = (20 if rank in (_TEN, _JACK) else 10) + worth + points + 2 * CARD_VALUE
        elif rank == _JACK or (not take_any and rank == top):  # takes the pile
            value = worth + points + CARD_VALUE * (size + 1) - (JACK_COST if rank == _JACK else 0)
        else:  # laid on the pile
            after = max(0.0, worth + points + CARD_VALUE * (size + 1))
            chance = 1.0 if take_any else 1 - (1 - next_jack) * (1 - odds(rank))
            value = -after * chance
        value += NOISE * jitter()
        if value > best_value:
            best_value, best = value, card
    return best


def rollout(state: State, rng: random.Random, horizon: int = 1 << 30) -> None:
    """Play the deal in progress with the default policy, to its end or ``horizon`` moves."""
    do = state._do
    seen = seen_by_rank(state)
    while state.phase is _PLAYING and horizon > 0:
        code = policy_move(state, rng, seen)
        if code != _TAKE:
            seen[code >> 2] += 1
        do(code)
        horizon -= 1
