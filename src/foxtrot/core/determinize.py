"""A full position consistent with what one seat sees: the determinization of search.

A seat's ``Observation`` tells every public fact and its own hand; the other hands and the
stock are hidden.  ``sampled`` deals the cards the seat has not seen at random into the hidden
places, keeping every size, and returns the position as a ``Snapshot``;
``State.from_observation`` builds a state from it.

>>> import random
>>> from foxtrot.core import State, TableOptions
>>> state = State(TableOptions(), dealer=0)
>>> _ = state.deal(random.Random(7))
>>> obs = state.observation(0)
>>> guess = sampled(obs, random.Random(1))
>>> guess.hands[0] == tuple(card.id for card in obs.hand), len(guess.stock) == obs.stock
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .cards import Card
from .errors import OptionsError
from .observation import Observation
from .outcome import Phase
from .snapshot import Snapshot

__all__ = ["sampled"]


def sampled(
    obs: Observation, rng: random.Random, shown: Mapping[int, Sequence[Card]] = {}
) -> Snapshot:
    """A position agreeing with ``obs``, its unseen cards dealt at random with ``rng``.

    ``shown`` gives other seats' hands as known too (a measuring device: the oracle that
    sees some hidden cards, ``bots.OracleBot``); the rest is dealt from what is left, in
    the same order whatever those hands are.
    """
    if obs.phase is not Phase.PLAYING:
        raise OptionsError("from_observation: only a deal in progress can be sampled")
    n = obs.options.players
    unseen = obs.unseen_cards()
    for s, hand in shown.items():
        if s == obs.seat or not 0 <= s < n or len(hand) != obs.hand_sizes[s]:
            raise OptionsError(f"from_observation: shown seat {s} is not another seat's hand")
        unseen.subtract(hand)
    if min(unseen.values(), default=0) < 0:
        raise OptionsError("from_observation: the shown hands hold cards the seat has seen")
    pool = [card.id for card, count in unseen.items() for _ in range(count)]
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for s in range(n):
        if s == obs.seat:
            hands.append(tuple(card.id for card in obs.hand))
        elif s in shown:
            hands.append(tuple(sorted(card.id for card in shown[s])))
        else:
            size = obs.hand_sizes[s]
            hands.append(tuple(sorted(pool[:size])))
            del pool[:size]
    return Snapshot(
        options=obs.options,
        names=obs.names,
        phase=Phase.PLAYING,
        dealer=obs.dealer,
        to_move=obs.to_move if obs.to_move is not None else 0,
        hands=tuple(hands),
        pile=tuple(card.id for card in obs.pile),
        stock=tuple(pool),
        taken=tuple(tuple(card.id for card in cards) for cards in obs.taken),
        foxtrots=tuple(tuple(card.id for card in cards) for cards in obs.foxtrots),
        last_taker=obs.last_taker,
        upturned=obs.upturned.id if obs.upturned is not None else None,
        actions=tuple(seat << 6 | action.code for seat, action in obs.history),
        deal_scores=obs.deal_scores,
        totals=obs.totals,
        winner=None,
    )
