"""Many matches stepped at once, into preallocated numpy arrays (self-play, every seat).

``BatchedGames(64, players=2, take="any")`` holds 64 matches.  ``reset(seed)``
and ``step(actions)`` fill ``obs`` (games x observation size, float32: the
array of the seat to move), ``mask`` (games x 53, int8), ``to_move`` (the seat
whose array it is), ``rewards`` (games x players, this step's rewards of every
seat) and ``done`` (a match ended at this step: the game was started anew,
and ``obs`` already shows the new match).  Nothing is allocated per step, and
one call steps every game, which is what a batched policy wants.

Each game's seeds come from ``seed`` and a counter, so a batch is reproducible.
An illegal action raises ``IllegalActionError`` naming the game; the games
before it in the batch have moved, the one that refused and those after it have
not (call ``step`` again with a legal action for them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import IllegalActionError, TableOptions
from .encoding import N_ACTIONS, Array, Mask, observation_size
from .game import Game, table_options


class BatchedGames:
    """A batch of matches for self-play (see the module doc)."""

    def __init__(
        self,
        games: int,
        options: TableOptions | None = None,
        *,
        reward: str = "deal",
        **changes: Any,
    ) -> None:
        if type(games) is not int or games < 1:
            raise ValueError(f"games: {games!r} is not a positive whole number")
        self.options = table_options(options, changes)
        self.games = [Game(self.options, reward) for _ in range(games)]
        size = observation_size(self.options)
        players = self.options.players
        self.obs: Array = np.zeros((games, size), dtype=np.float32)
        self.mask: Mask = np.zeros((games, N_ACTIONS), dtype=np.int8)
        self.to_move: npt.NDArray[np.int64] = np.zeros(games, dtype=np.int64)
        self.rewards: Array = np.zeros((games, players), dtype=np.float32)
        self.done: npt.NDArray[np.bool_] = np.zeros(games, dtype=np.bool_)
        self._seed = 0
        self._started = 0

    def __len__(self) -> int:
        return len(self.games)

    def reset(self, seed: int = 0) -> None:
        """Start every match anew from ``seed``."""
        self._seed = seed
        self._started = 0
        for index in range(len(self.games)):
            self._restart(index)
        self.rewards[:] = 0
        self.done[:] = False

    def _restart(self, index: int) -> None:
        game = self.games[index]
        game.reset(hash((self._seed, self._started)) & (2**63 - 1))
        self._started += 1
        self._show(index)

    def _show(self, index: int) -> None:
        game = self.games[index]
        seat = game.to_move
        assert seat is not None
        self.to_move[index] = seat
        game.tracker.observe_into(seat, self.obs[index])
        self.mask[index] = game._mask

    def step(self, actions: npt.ArrayLike) -> None:
        """One action in every game (for its seat to move); the arrays are filled anew."""
        codes = np.asarray(actions).tolist()
        if len(codes) != len(self.games):
            raise ValueError(f"actions: {len(codes)} actions for {len(self.games)} games")
        rewards = self.rewards
        done = self.done
        for index, game in enumerate(self.games):
            try:
                game.play(codes[index])
            except IllegalActionError as error:
                raise IllegalActionError(
                    error.code, error.seat, f"{error.action} in game {index}", error.reason
                ) from None
            rewards[index] = game.rewards
            over = game.over
            done[index] = over
            if over:
                self._restart(index)
            else:
                self._show(index)

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game (a baseline, and for benchmarks)."""
        noise = rng.random(self.mask.shape) * self.mask
        return np.asarray(noise.argmax(axis=1), dtype=np.int64)


__all__ = ["BatchedGames"]
