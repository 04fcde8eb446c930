"""What the other players' choices say about their hands: a model of sensible opponents.

A player who lays a card on a pile he could have taken, or who leaves a lone
card the next player can easily match while holding a safer one, probably had
no better card.  The expert models every other player as choosing among his
moves with probability proportional to ``exp(RATIONALITY * value)``, where the
value is the default policy's (``rollout.move_values``: what the move takes
minus what it offers the next player) as that player saw it then: his hand,
and the odds from the cards he had not seen.  A sampled deal of the hidden
cards is weighted by the probability that players holding the sampled hands
would have made the moves they made.  Only the moves since a player's hand
was last refilled count: before that he held cards nobody saw.  Each move is
also given a small chance (``SURPRISE``) of being any move at all, since a
player may have reasons of his own: so no sampled deal is ever excluded, and
a player unlike the model (a beginner, a random bot) cannot make a few
unlikely moves outweigh everything else.

A move's hand is the sampled hand now plus every card the player played from
that move on: until the next redeal, his hand only loses cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core import Observation, TakeRule
from ..core.kernel import (
    LAYS,
    RANKS,
    SUITS,
    foxtrot_card,
    initial_stock,
    outcomes,
    redeal_size,
)
from .rollout import move_values

RATIONALITY = 3.0  # how sharply others are expected to prefer better moves, per point
SURPRISE = 0.1  # the share of a move's probability spread evenly over all moves


class Decision:
    """One move of another player: what he saw then, what he chose, what he played since."""

    __slots__ = ("code", "later", "next_size", "pile", "seat", "unseen")

    def __init__(
        self, seat: int, pile: list[int], code: int, unseen: list[int], next_size: int
    ) -> None:
        self.seat = seat
        self.pile = pile
        self.code = code
        self.unseen = unseen  # per rank: not seen face up by then (his own hand included)
        self.next_size = next_size
        self.later: list[int] = []  # the cards he played from this move on


def decisions(obs: Observation) -> list[Decision]:
    """The moves of the other seats since their hands were last refilled (rule R1).

    The deal is replayed from the public record with the engine's rules
    (``kernel``: what a card does to the pile, when the stock is dealt again).
    """
    return replay(obs)[0]


def replay(obs: Observation) -> tuple[list[Decision], list[Decision]]:
    """The other seats' moves this deal: those since their hands were last refilled
    (``decisions``), and those of the hands played out before (``revealed``), whose every
    card was laid face up: a closed hand's move has its whole hand in ``later``."""
    n = obs.players
    match = obs.options.take is TakeRule.MATCH
    copies = obs.options.copies  # SUITS copies of each rank a deck, fewer in a mini game
    unseen = [sum(copies[rank * SUITS : (rank + 1) * SUITS]) for rank in range(RANKS)]
    pile: list[int] = []
    if obs.upturned is not None:
        pile.append(obs.upturned.id)
        unseen[obs.upturned.rank] -= 1
    hand = obs.options.hand_size
    sizes = [hand] * n
    stock = initial_stock(obs.options.deck_size, n, hand)
    found: dict[int, list[Decision]] = {seat: [] for seat in range(n) if seat != obs.seat}
    closed: list[Decision] = []
    for seat, action in obs.history:
        if seat != obs.seat:
            found[seat].append(
                Decision(seat, pile[:], action.code, unseen[:], sizes[(seat + 1) % n])
            )
        if action.card is None:
            pile = []
        else:
            card = action.code
            rank = card >> 2
            unseen[rank] -= 1
            sizes[seat] -= 1
            for move in found.get(seat, ()):
                move.later.append(card)
            if outcomes(pile, match)[rank] == LAYS:
                pile.append(card)
            else:
                pile = []
        each = redeal_size(stock, n, hand) if sizes[(seat + 1) % n] == 0 else 0
        if each:  # a redeal: new cards nobody saw
            stock -= each * n
            sizes = [size + each for size in sizes]
            for moves in found.values():
                closed.extend(moves)
                moves.clear()
    return [move for seat in sorted(found) for move in found[seat]], closed


def revealed(obs: Observation) -> list[Decision]:
    """The other seats' moves from hands played out this deal (``replay``): every card such a
    hand held was later laid face up, so each move's hand is known (``later``), not inferred."""
    return replay(obs)[1]


def choice_values(
    hand: Sequence[int], move: Decision, take_any: bool, forced_foxtrot: bool
) -> dict[int, float] | None:
    """The default policy's value of every move the player had at ``move`` holding ``hand``
    (that hand then), or ``None`` when the move says nothing: a forced foxtrot, or one move."""
    pile = move.pile
    if forced_foxtrot and foxtrot_card(hand, pile) >= 0:
        return None  # the foxtrot was his only legal move: it says nothing
    unseen = move.unseen[:]
    for card in hand:
        unseen[card >> 2] -= 1
    values = move_values(hand, pile, take_any, unseen, move.next_size)
    return values if len(values) >= 2 else None


def choice_log(
    values: dict[int, float],
    code: int,
    rationality: float = RATIONALITY,
    surprise: float = SURPRISE,
) -> float:
    """The log of the model's probability of choosing ``code`` among moves of ``values``:
    ``surprise`` spread evenly, the rest in proportion to ``exp(rationality * value)``."""
    best = max(values.values())
    total = sum(math.exp(rationality * (value - best)) for value in values.values())
    chosen = math.exp(rationality * (values[code] - best)) / total
    return math.log(surprise / len(values) + (1 - surprise) * chosen)


def log_likelihood(
    hands: Sequence[Sequence[int]],
    moves: Sequence[Decision],
    take_any: bool,
    forced_foxtrot: bool,
    *,
    rationality: float = RATIONALITY,
    surprise: float = SURPRISE,
) -> float:
    """The log of the probability that players holding ``hands`` made ``moves`` (the model's
    ``rationality`` and ``surprise``: the module's, or a table's reading, ``styles``)."""
    log = 0.0
    for move in moves:
        values = choice_values([*hands[move.seat], *move.later], move, take_any, forced_foxtrot)
        if values is not None:
            log += choice_log(values, move.code, rationality, surprise)
    return log
