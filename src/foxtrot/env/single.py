"""The Gymnasium environment: one learning seat, our bots in the other seats.

``gymnasium.make("foxtrot/Foxtrot-v0", players=2, opponents="medium")`` (registered
when ``foxtrot.env`` is imported).  The observation is the seat's array of
``docs/env.md`` (``Box``, float32), the action an index of ``Discrete(53)``; the
legal actions are in ``info["action_mask"]`` and ``env.action_masks()`` (what
sb3-contrib's ``ActionMasker`` and ``MaskablePPO`` read).  ``opponents`` is one
bot name or level for every other seat (``"medium"``), or a list, one per
other seat in seat order.  The opponents read only their observations
(``foxtrot.bots.decide``); their generators come from the environment's seed.

Rewards and episode as in the AEC environment: the seat's deal scores (or 1 for
a match won with ``reward="match"``), one episode per match, or per ``deals`` deals
(``deals=1``: one deal).  ``max_steps=N`` truncates the episode after the seat's N-th
action (``truncated``, not ``terminated``); ``pad_to=9`` lays the observation out for 9
seats whatever the number of players (docs/env.md).

Illegal actions (``illegal=``): with ``"substitute"`` (the default, so that an
agent without masks, and Gymnasium's checker, can step it) an illegal action is
replaced by the legal action with the lowest index: ``info["substituted"]`` is then
True (a flag, False otherwise), ``info["asked"]`` the action asked for and ``info["played"]``
the one played; with ``"raise"`` it raises
``IllegalActionError``.  Either way the state is never corrupted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, decide, make_bot
from ..core import ACTIONS, SplitMix64, TableOptions
from .encoding import N_ACTIONS, Array, Mask, padded_bounds
from .game import Game, check_max_steps, table_options
from .render import RENDER_FPS, RENDER_MODES, check_render_mode, render

ENV_ID = "foxtrot/Foxtrot-v0"


class FoxtrotEnv(gym.Env[Array, int]):
    """A match of Foxtrot from one seat, against bots (see the module doc)."""

    #: Gymnasium reads a plain class attribute
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        options: TableOptions | None = None,
        *,
        opponents: str | Sequence[str] = "medium",
        seat: int = 0,
        reward: str = "deal",
        illegal: str = "substitute",
        deals: int = 0,
        max_steps: int | None = None,
        pad_to: int | None = None,
        render_mode: str | None = None,
        **changes: Any,
    ) -> None:
        if illegal not in ("substitute", "raise"):
            raise ValueError(f"illegal: {illegal!r} is not allowed (expected substitute or raise)")
        self.illegal = illegal
        self.table = table_options(options, changes)
        n = self.table.players
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: {len(names)} bots for the {n - 1} other seats")
        self.opponents: list[Bot] = [make_bot(name) for name in names]
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat: {seat!r} is not a seat (0 to {n - 1})")
        self.seat = seat
        self.render_mode = check_render_mode(render_mode)
        self.game = Game(self.table, reward, deals=deals, pad_to=pad_to)
        self.max_steps = check_max_steps(max_steps)
        self._steps = 0
        low, high = padded_bounds(self.table, pad_to)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(N_ACTIONS)  # type: ignore[assignment]  # ints
        self._bots: list[Bot | None] = []
        self._rngs: list[random.Random] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """A new match; ``reset(seed=s)`` and the ``reset()`` calls after it are reproducible."""
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2**63))
        self.game.reset(match_seed)
        self._steps = 0
        others = iter(self.opponents)
        self._bots = [None if s == self.seat else next(others) for s in range(self.table.players)]
        self._rngs = [
            SplitMix64(f"foxtrot-env:{match_seed}:{s}") for s in range(self.table.players)
        ]
        self._others()  # no deal can end before the seat's first turn: no reward is lost
        return self._obs(), {"action_mask": self.game.mask()}

    def _others(self) -> float:
        """Let the bots move until it is the seat's turn or the match is over."""
        game = self.game
        gained = 0.0
        while not game.over and game.to_move != self.seat:
            mover = game.to_move
            assert mover is not None
            bot = self._bots[mover]
            assert bot is not None
            action = decide(bot, game.state, self._rngs[mover])
            game.play(action.code)
            gained += game.rewards[self.seat]
        return gained

    def _obs(self) -> Array:
        return self.game.observe(self.seat)

    def step(self, action: int) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index of ``Discrete(53)``), then the bots until the seat's turn."""
        game = self.game
        info: dict[str, Any] = {"substituted": False}
        if self.illegal == "substitute" and action not in game.legal_codes and not game.over:
            info |= {"substituted": True, "asked": action, "played": game.legal_codes[0]}
            action = game.legal_codes[0]
        game.play(action)  # raises on an illegal action before anything changes
        reward = game.rewards[self.seat] + self._others()
        self._steps += 1
        info["action_mask"] = game.mask()
        outcome = game.state.outcome
        if outcome is not None:
            info["winner"] = outcome.winner
            info["won"] = outcome.winner == self.seat
        truncated = not game.over and self.max_steps is not None and self._steps >= self.max_steps
        return self._obs(), float(reward), game.over, truncated, info

    def action_masks(self) -> Mask:
        """The legal actions of the seat (for ``MaskablePPO``); all 0 once the match is over."""
        return self.game.mask()

    def render(self) -> Any:
        """The table as the seat sees it: text (``render_mode="ansi"``) or an RGB array
        (``"rgb_array"``, drawn with matplotlib)."""
        return render(self.game.state.observation(self.seat), self.render_mode)


def action_name(index: int) -> str:
    """The action with this index in the notation of rule C4 (``QS``, ``take``)."""
    return str(ACTIONS[index])


__all__ = ["ENV_ID", "FoxtrotEnv", "action_name"]
