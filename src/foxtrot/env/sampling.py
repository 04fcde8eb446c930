"""``resample``: the hidden cards dealt at random, consistent with what one seat knows.

For research (determinization, belief sampling): from a seat's observation the
unseen cards are every card of the pack that the seat has neither seen (the
upturned card and every card played this deal) nor holds; they lie in the other
hands and in the stock, whose sizes are public.  ``resample`` deals them at
random into hands and stock of those sizes.  It reads only the observation (an
``Observation`` or its array), so it knows nothing the seat does not; the
actual deal is always one of its possible answers.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..core import Observation, TableOptions
from .encoding import CARD_KINDS, Array, encode

Counts = npt.NDArray[np.int64]


class Hidden(NamedTuple):
    """A sample of the hidden cards, as counts per card kind (card id order).

    ``hands[r]`` is the hand of the seat ``r`` places after the observer
    (``hands[0]`` is the observer's own, as known); ``stock`` the stock's cards
    (its order is not sampled: a shuffle of them is as likely as any other).
    """

    hands: Counts
    stock: Counts


def players_of(array: Array) -> int:
    """The number of players an observation array was made for (``210 + 7 * players``)."""
    players, rest = divmod(len(array) - 4 * CARD_KINDS - 2, 7)
    if rest or not 2 <= players <= 9:
        raise ValueError(f"an observation array of length {len(array)} fits no table of 2-9")
    return players


def resample(observation: Observation | Array, rng: random.Random | np.random.Generator) -> Hidden:
    """Deal the cards ``observation``'s seat cannot see at random (see the module doc).

    An array does not say its pack: it is read as the real game's.  Pass the
    ``Observation`` of a mini game, whose options say which cards are in the pack."""
    array = encode(observation) if isinstance(observation, Observation) else observation
    n = players_of(array)
    decks: Any = TableOptions(players=n).decks
    if isinstance(observation, Observation) and observation.options.is_mini:
        decks = np.array(observation.options.copies, dtype=np.int64)
    hand = array[:CARD_KINDS].astype(np.int64)
    at = 3 * CARD_KINDS + 2  # after hand, pile, top, pile size, stock
    stock_size = int(array[at - 1])
    sizes = array[at : at + n].astype(np.int64)
    seen_at = at + 5 * n
    seen = array[seen_at : seen_at + CARD_KINDS].astype(np.int64)
    unseen = decks - seen - hand
    if (unseen < 0).any() or unseen.sum() != sizes[1:].sum() + stock_size:
        raise ValueError("the observation is not consistent: its unseen cards do not fit")
    pool = np.repeat(np.arange(CARD_KINDS), unseen)
    if isinstance(rng, random.Random):
        order = list(pool)
        rng.shuffle(order)
        pool = np.array(order, dtype=np.int64)
    else:
        pool = rng.permutation(pool)
    hands = np.zeros((n, CARD_KINDS), dtype=np.int64)
    hands[0] = hand
    start = 0
    for rel in range(1, n):
        stop = start + int(sizes[rel])
        hands[rel] = np.bincount(pool[start:stop], minlength=CARD_KINDS)
        start = stop
    stock = np.bincount(pool[start:], minlength=CARD_KINDS)
    return Hidden(hands, stock)


__all__ = ["Hidden", "players_of", "resample"]
