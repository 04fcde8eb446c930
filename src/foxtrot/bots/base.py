"""The bot interface: a bot sees one seat's observation, the legal actions and its own
random generator, and returns one of the legal actions.

A bot cannot reach hidden state: ``Observation`` holds only what the seat may
know (rules V1-V3).  The one exception, ``CheatingBot`` (the oracle), takes the
whole ``State`` and is used only to measure what the honest bots leave on the
table.  It is a different type with its own factory (``make_oracle``) and its
own entry point (``decide_oracle``, which hands it a clone), so that nothing
that seats an opponent for a person (``make_bot``, ``decide``) can take it.
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


def _checked(name: str, state: State, action: Action) -> Action:
    error = state.why_illegal(action)
    if error is not None:
        raise ValueError(f"bot {name!r} chose an illegal action: {error}")
    return action


def decide(player: Bot, state: State, rng: random.Random) -> Action:
    """Ask an honest ``player`` for the move of the seat to move, from its observation only.

    Raises ``ValueError`` for the oracle (it is never seated this way) and when the
    bot answers with an illegal action.
    """
    if isinstance(player, CheatingBot) or not isinstance(player, Bot):
        raise ValueError(
            f"{getattr(player, 'name', player)!r} is not an honest bot: only decide_oracle,"
            " for measurement, may ask the oracle"
        )
    seat = state.to_move
    if seat is None:
        raise ValueError("no seat is to move")
    obs = state.observation(seat)
    return _checked(player.name, state, player.choose(obs, obs.legal_actions, rng))


def decide_oracle(oracle: CheatingBot, state: State, rng: random.Random) -> Action:
    """Ask the oracle for the move of the seat to move; it gets a clone of the whole state."""
    if not isinstance(oracle, CheatingBot):
        raise ValueError(f"{getattr(oracle, 'name', oracle)!r} is not the oracle")
    if state.to_move is None:
        raise ValueError("no seat is to move")
    return _checked(oracle.name, state, oracle.choose_with_state(state.clone(), rng))
