"""The PettingZoo environments: ``raw_env`` (AEC), ``env`` (wrapped), ``parallel_env``.

``env(players=4, take="any", forced_foxtrot=True, reward="deal")`` is a whole
match for 2-9 players under any rule option (every ``TableOptions`` field is a
keyword; ``options=`` takes a ``TableOptions``).  Agents are ``player_0`` ..
``player_{n-1}``, one per seat; the agent to act is the seat to move.  Each
observation is ``{"observation": float32 array, "action_mask": int8 array}``
(layout: ``docs/env.md``); the mask is all 0 for an agent that is not to move.

Rewards: with ``reward="deal"`` every seat is rewarded its deal score when a
deal ends; with ``reward="match"`` the winner gets 1 and the others 0 when the
match ends; ``reward="margin"`` is dense (see ``game.REWARDS``): a deal's
rewards add up to the seat's deal score minus the others' mean.  The episode
is the match (every agent terminates when it is won), or with ``deals=k`` that many
deals (``deals=1``: one deal; every agent terminates when the k-th deal ends, or when
the match is won before).  ``max_steps=N`` truncates the episode after N actions: every
agent is truncated (not terminated).  ``pad_to=9`` lays the observation out for 9 seats
whatever the number of players (``encoding.padded_options``; docs/env.md).
An illegal action raises ``IllegalActionError`` and changes nothing; with
``illegal="substitute"`` (for samplers that ignore the mask, such as PettingZoo's
``parallel_seed_test``) it is replaced by the lowest legal action instead, and the acting
agent's info says so: ``{"substituted": True, "asked": ..., "played": ...}``
(``{"substituted": False}`` after a legal action).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

# pettingzoo ships no type information (no py.typed): its names are Any to mypy (see the
# override in pyproject.toml)
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from ..core import TableOptions
from .encoding import N_ACTIONS, padded_bounds
from .game import Game, check_max_steps, table_options
from .render import RENDER_FPS, RENDER_MODES, check_render_mode, render

ObsDict = dict[str, Any]


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (AECEnv is untyped; PettingZoo's name)
    """A match of Foxtrot as a PettingZoo AEC environment (see the module doc)."""

    metadata = {  # noqa: RUF012 (PettingZoo reads a plain class attribute)
        "name": "foxtrot_v0",
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        options: TableOptions | None = None,
        *,
        reward: str = "deal",
        deals: int = 0,
        max_steps: int | None = None,
        pad_to: int | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        **changes: Any,
    ) -> None:
        super().__init__()
        if illegal not in ("raise", "substitute"):
            raise ValueError(f"illegal: {illegal!r} is not allowed (expected raise or substitute)")
        self.illegal = illegal
        self.table = table_options(options, changes)
        self.game = Game(self.table, reward, deals=deals, pad_to=pad_to)
        self.max_steps = check_max_steps(max_steps)
        self._steps = 0
        self.render_mode = check_render_mode(render_mode)
        n = self.table.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = padded_bounds(self.table, pad_to)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(N_ACTIONS)
        self._np_random, _ = seeding.np_random(None)
        self.agents: list[str] = []
        self._rewarded = False

    @functools.cache  # noqa: B019 (one env, a few agents: PettingZoo's advice)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._observation_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(53)``: card ids 0..51 (``rank * 4 + suit``), then 52 = take."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; ``seed`` makes it (and every later ``reset()``) reproducible."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game.reset(int(self._np_random.integers(2**63)))
        self.agents = self.possible_agents[:]
        self._rewarded = False
        self._steps = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        to_move = self.game.to_move
        assert to_move is not None
        self.agent_selection = self.agents[to_move]

    def observe(self, agent: str) -> ObsDict:
        """The agent's observation array and action mask."""
        seat = self._seat[agent]
        game = self.game
        mask = game.mask() if game.mover == seat else np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": game.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent plays ``action``; an illegal one raises and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a terminated agent")
        game = self.game
        if self.illegal == "substitute":
            info: dict[str, Any] = {"substituted": False}
            if action not in game.legal_codes:
                info = {"substituted": True, "asked": action, "played": game.legal_codes[0]}
                action = game.legal_codes[0]
            self.infos[agent] = info
        game.play(action)  # raises on an illegal action before anything changes
        self._cumulative_rewards[agent] = 0.0
        if game.rewarded or self._rewarded:  # this step's rewards, or clear the last ones
            self._rewarded = game.rewarded
            for seat, name in enumerate(self.agents):
                self.rewards[name] = game.rewards[seat]
            self._accumulate_rewards()
        to_move = game.mover
        self._steps += 1
        if to_move is None:  # the episode is over: the match won, or its deals played
            for name in self.agents:
                self.terminations[name] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        else:
            self.agent_selection = self.agents[to_move]
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> Any:
        """The table from the acting seat's observation: text (``render_mode="ansi"``) or an
        RGB array (``"rgb_array"``, drawn with matplotlib)."""
        seat = self._seat.get(self.agent_selection, 0)
        return render(self.game.state.observation(seat), self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class _Ordered(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's order checks, with ``last()`` asked of the environment directly.

    The inherited ``last()`` reads five attributes through the wrapper's
    ``__getattr__``, which costs a third of a step; the checks stay the same.
    """

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        """The acting agent's observation, reward, termination, truncation and info."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Any, ...] = self.env.last(observe)
        return result

    def step(self, action: int | None) -> None:
        """The inherited checks, with the agents asked of the environment directly.

        (The inherited ``step`` reads ``agents`` through ``__getattr__`` and calls
        the environment through one more wrapper layer.)
        """
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def env(options: TableOptions | None = None, **kwargs: Any) -> Any:
    """``raw_env`` with PettingZoo's order checks (the usual entry point).

    No bounds wrapper: ``raw_env`` refuses an action outside 0..52 itself, with a
    clear ``IllegalActionError``, and the wrapper would halve the speed.
    """
    return _Ordered(raw_env(options, **kwargs))


def parallel_env(options: TableOptions | None = None, **kwargs: Any) -> Any:
    """The turn-based parallel version: every step takes the acting agent's action only."""
    return turn_based_aec_to_parallel(env(options, **kwargs))


__all__ = ["env", "parallel_env", "raw_env"]
