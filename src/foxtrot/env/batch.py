"""Many matches stepped at once, into preallocated numpy arrays (self-play, every seat).

``BatchedGames(64, players=2, take="any")`` holds 64 matches.  ``reset(seed)``
and ``step(actions)`` fill ``obs`` (games x observation size, float32: the
array of the seat to move), ``mask`` (games x 53, int8), ``to_move`` (the seat
whose array it is), ``rewards`` (games x players, this step's rewards of every
seat) and ``done`` (a match ended at this step: the game was started anew,
and ``obs`` already shows the new match).  The arrays are allocated once, and
one call steps every game, which is what a batched policy wants.

Each game's seeds come from ``seed`` and a counter, so a batch is reproducible.
An illegal action raises ``IllegalActionError`` naming the game; the games
before it in the batch have moved (the arrays show them), the one that refused and
those after it have not (call ``step`` again with a legal action for them).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import IllegalActionError, TableOptions
from .encoding import N_ACTIONS, Array, Mask, buffer_size, observation_size
from .game import Game, table_options


class BatchedGames:
    """A batch of matches for self-play (see the module doc).

    The games' trackers keep their absolute buffers as the rows of one array,
    so that every game's observation (the seat to move's view) is gathered by
    one ``numpy.take`` and every mask is written by one scatter: per game and
    step, only the engine's move and the tracker's few writes run in Python.
    """

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
        length = buffer_size(self.options)
        self._buffers: Array = np.zeros((games, length), dtype=np.float32)
        self.games = [Game(self.options, reward, self._buffers[i]) for i in range(games)]
        size = observation_size(self.options)
        players = self.options.players
        self.obs: Array = np.zeros((games, size), dtype=np.float32)
        self.mask: Mask = np.zeros((games, N_ACTIONS), dtype=np.int8)
        self.to_move: npt.NDArray[np.int64] = np.zeros(games, dtype=np.int64)
        self.rewards: Array = np.zeros((games, players), dtype=np.float32)
        self.done: npt.NDArray[np.bool_] = np.zeros(games, dtype=np.bool_)
        self._index = self.games[0].tracker.index  # (seat, observation index) -> buffer index
        self._row_start = (np.arange(games, dtype=np.intp) * length)[:, None]
        self._gather_at = np.zeros((games, size), dtype=np.intp)
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
        self._show()

    def _restart(self, index: int) -> None:
        game = self.games[index]
        game.reset(hash((self._seed, self._started)) & (2**63 - 1))
        self._started += 1

    def _show(self) -> None:
        """Fill ``to_move``, ``obs`` and ``mask`` from every game."""
        seats: list[int] = []
        flags: list[int] = []
        for index, game in enumerate(self.games):
            assert game.mover is not None
            seats.append(game.mover)
            start = index * N_ACTIONS
            flags += [start + code for code in game._codes]
        self._fill(seats, flags)

    def _fill(self, seats: list[int], flags: list[int]) -> None:
        """Write the seats to move, gather every observation, scatter every mask: vectorized."""
        self.to_move[:] = seats
        at = self._gather_at
        self._index.take(self.to_move, axis=0, out=at)
        at += self._row_start
        self._buffers.take(at, out=self.obs)
        mask = self.mask.reshape(-1)
        mask[:] = 0
        mask[flags] = 1

    def step(self, actions: npt.ArrayLike) -> None:
        """One action in every game (for its seat to move); the arrays are filled anew."""
        codes = np.asarray(actions).tolist()
        if len(codes) != len(self.games):
            raise ValueError(f"actions: {len(codes)} actions for {len(self.games)} games")
        rewards = self.rewards
        done = self.done
        rewards[:] = 0
        done[:] = False
        seats: list[int] = []
        flags: list[int] = []
        start = 0
        for index, game in enumerate(self.games):
            try:
                game.play(codes[index])
            except IllegalActionError as error:
                self._show()  # the games that moved show their new positions
                raise IllegalActionError(
                    error.code, error.seat, f"{error.action} in game {index}", error.reason
                ) from None
            if game.rewarded:  # else every reward of the step is 0
                rewards[index] = game.rewards
            if game.mover is None:  # the match is over: a new one
                done[index] = True
                self._restart(index)
            assert game.mover is not None
            seats.append(game.mover)
            flags += [start + code for code in game._codes]
            start += N_ACTIONS
        self._fill(seats, flags)

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action in every game (a baseline, and for benchmarks)."""
        noise = rng.random(self.mask.shape) * self.mask
        return np.asarray(noise.argmax(axis=1), dtype=np.int64)


__all__ = ["BatchedGames"]
