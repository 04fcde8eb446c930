"""The bot interface: a bot sees one seat's observation, the legal actions and its own
random generator, and returns one of the legal actions.

A bot cannot reach hidden state: ``Observation`` holds only what the seat may
know (rules V1-V3).  The one exception, ``CheatingBot`` (the oracle), takes the
whole ``State`` and is used only to measure what the honest bots leave on the
table; it is never offered as an opponent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..core import Action, Observation, State


@runtime_checkable
class Bot(Protocol):
    """An honest player: reads an observation, returns a legal action."""

    name: str

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal``; the same observation and generator state give the same action."""
        ...


@runtime_checkable
class CheatingBot(Protocol):
    """A player that sees every card (for measurement only)."""

    name: str

    def choose_with_state(self, state: State, rng: random.Random) -> Action:
        """One of ``state.legal_actions()``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action (level ``easy``)."""

    name = "random"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return legal[rng.randrange(len(legal))]


def decide(player: Bot | CheatingBot, state: State, rng: random.Random) -> Action:
    """Ask ``player`` for the move of the seat to move; an honest bot gets only the observation.

    Raises ``ValueError`` if the bot answers with an illegal action.
    """
    seat = state.to_move
    if seat is None:
        raise ValueError("no seat is to move")
    if isinstance(player, CheatingBot) and not isinstance(player, Bot):
        action = player.choose_with_state(state, rng)
    else:
        obs = state.observation(seat)
        action = player.choose(obs, obs.legal_actions, rng)
    error = state.why_illegal(action)
    if error is not None:
        raise ValueError(f"bot {player.name!r} chose an illegal action: {error}")
    return action
