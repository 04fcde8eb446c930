"""What the public history says about the other hands: passed-up takes (for the expert).

When a player lays a card on a pile he could have taken with a Jack (or, under
``take = match``, with a card of the top card's rank), or passes up a foxtrot,
he most likely held no such card.  Until the next redeal his hand only loses
cards, so the inference holds for his hand now.  The expert weighs each
sampled deal of the hidden cards by how well it fits these inferences; it never
excludes a deal, since a player may have had reasons of his own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import CARD_POINTS, Observation, Rank, TakeRule

WORTH_TAKING = 1.5  # a pile worth this much (points and cards) is one a player would take
_JACK = int(Rank.JACK)
_CARD_VALUE = 0.25


def passed_up(obs: Observation) -> list[tuple[int, frozenset[int]]]:
    """For each other seat, the ranks it has shown it probably lacks since its last redeal."""
    n = obs.players
    match = obs.options.take is TakeRule.MATCH
    pile = [obs.upturned.id] if obs.upturned is not None else []
    sizes = [8] * n
    stock = obs.options.deck_size - 8 * n - 1
    found: dict[int, set[int]] = {}
    for seat, action in obs.history:
        if action.card is None:
            pile = []
        else:
            card = action.card.id
            rank = card >> 2
            sizes[seat] -= 1
            if seat != obs.seat and pile:
                worth = sum(CARD_POINTS[c] for c in pile) + _CARD_VALUE * len(pile)
                lacks = set()
                if worth >= WORTH_TAKING:
                    lacks.add(_JACK)
                    if match:
                        lacks.add(pile[-1] >> 2)
                if len(pile) == 1 and worth + 10 > 0:
                    lacks.add(pile[0] >> 2)  # passed up a foxtrot
                lacks.discard(rank)
                if lacks:
                    found.setdefault(seat, set()).update(lacks)
            top = pile[-1] >> 2 if pile else -1
            single = len(pile) == 1 and pile[0] >> 2 == rank
            if pile and (single or rank == _JACK or (match and top == rank)):
                pile = []
            else:
                pile.append(card)
        nxt = (seat + 1) % n
        if sizes[nxt] == 0 and stock >= n:  # a redeal (R1): new cards, old inferences void
            each = min(8, stock // n)
            stock -= each * n
            sizes = [size + each for size in sizes]
            found.clear()
    return [(seat, frozenset(ranks)) for seat, ranks in sorted(found.items())]


def likelihood(hands: Sequence[Sequence[int]], lacks: list[tuple[int, frozenset[int]]],
               penalty: float) -> float:
    """How well sampled hands fit the inferences: ``penalty`` per contradicted rank."""
    weight = 1.0
    for seat, ranks in lacks:
        for card in hands[seat]:
            if card >> 2 in ranks:
                weight *= penalty
                break
    return weight
