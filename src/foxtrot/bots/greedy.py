"""The greedy bot (level ``medium``): the best immediate result, with a look at the next player.

Each legal action is applied to a copy of the table (the engine says what it
does: what is taken, whether it is a foxtrot) and valued as

    what it takes now  -  what it offers the next player.

What the next player can do is judged from the cards this seat has not seen:
the chance that a hand of that size holds a card of a given rank.  So greedy
takes piles worth points, makes foxtrots, avoids leaving a lone card the next
player can match, and avoids feeding or taking the Queen of spades.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ..core import (
    Action,
    Card,
    CardPlayed,
    Observation,
    PileTaken,
    PlayResult,
    Rank,
    SplitMix64,
    State,
    TakeRule,
)
from ..core.kernel import (
    DOUBLE_FOXTROT_BONUS,
    FOXTROT_BONUS,
    FOXTROT_BONUSES,
    RANKS,
    holds_chance,
)
from .values import CARD_VALUE, JACK_COST

_BONUS = {PlayResult.FOXTROT: FOXTROT_BONUS, PlayResult.DOUBLE_FOXTROT: DOUBLE_FOXTROT_BONUS}


@dataclasses.dataclass(frozen=True, slots=True)
class Effect:
    """What an action does at once: its result, the cards taken, and the pile left behind."""

    action: Action
    result: PlayResult | None  # None for taking the pile without playing
    taken: tuple[Card, ...]
    pile: tuple[Card, ...]

    @property
    def points(self) -> int:
        """Card points of the cards taken (rule P2)."""
        return sum(card.points for card in self.taken)

    @property
    def bonus(self) -> int:
        """Foxtrot bonus (rule P1)."""
        return _BONUS.get(self.result, 0) if self.result is not None else 0


def effects(obs: Observation) -> list[Effect]:
    """The immediate effect of every legal action, computed by the engine itself."""
    base = State.from_observation(obs, SplitMix64(0))
    found = []
    for action in obs.legal_actions:
        after = base.clone()
        result: PlayResult | None = None
        taken: tuple[Card, ...] = ()
        for event in after.apply(action):
            if isinstance(event, CardPlayed):
                result, taken = event.result, event.taken
            elif isinstance(event, PileTaken):
                taken = event.taken
        found.append(Effect(action, result, taken, after.pile if after.to_move is not None else ()))
    return found


class Odds:
    """Chances about the next player's hand, from the cards this seat has not seen."""

    def __init__(self, obs: Observation) -> None:
        unseen = obs.unseen_cards()
        self.by_rank = [0] * RANKS
        for card, count in unseen.items():
            self.by_rank[card.rank] += count
        self.pool = sum(self.by_rank)
        nxt = (obs.seat + 1) % obs.players
        self.hand = obs.hand_sizes[nxt]

    def holds(self, rank: int, minus: int = 0) -> float:
        """The chance that the next hand holds at least one card of ``rank`` (``minus`` fewer
        unseen), by the formula of the whole project (``kernel.holds_chance``)."""
        return holds_chance(max(0, self.by_rank[rank] - minus), self.pool, self.hand)


def exposure(effect: Effect, obs: Observation, odds: Odds) -> float:
    """What the pile left behind is worth to the next player, by the chance he can take it."""
    pile = effect.pile
    if not pile:
        return 0.0
    value = sum(card.points for card in pile) + CARD_VALUE * len(pile)
    if len(pile) == 1:
        card = pile[0]
        foxtrot = FOXTROT_BONUSES[card.id] + 2 * card.points + 2 * CARD_VALUE
        match = odds.holds(card.rank)
        jack = 0.0 if card.rank == Rank.JACK else odds.holds(Rank.JACK)
        return max(0.0, match * foxtrot) + max(0.0, (1 - match) * jack * (value - JACK_COST))
    if obs.options.take is TakeRule.ANY:
        return max(0.0, value)
    top = pile[-1]
    chance = odds.holds(Rank.JACK)
    if top.rank != Rank.JACK:
        chance = 1 - (1 - chance) * (1 - odds.holds(top.rank))
    return chance * max(0.0, value)


def value(effect: Effect, obs: Observation, odds: Odds) -> float:
    """Greedy's value of an action: gain now minus what it offers the next player."""
    gain = effect.points + effect.bonus + CARD_VALUE * len(effect.taken)
    card = effect.action.card
    if card is not None and card.rank == Rank.JACK and effect.result is PlayResult.TOOK:
        gain -= JACK_COST
    return gain - exposure(effect, obs, odds)


class GreedyBot:
    """Best immediate result (level ``medium``)."""

    name = "greedy"

    def values(self, obs: Observation) -> dict[Action, float]:
        """Greedy's value of every legal action."""
        odds = Odds(obs)
        return {effect.action: value(effect, obs, odds) for effect in effects(obs)}

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action of highest value; ties go to the lowest card, then ``take``."""
        if len(legal) == 1:
            return legal[0]
        values = self.values(obs)
        return max(legal, key=lambda action: (values[action], -action.code))


__all__ = ["Effect", "GreedyBot", "Odds", "effects", "exposure", "value"]
