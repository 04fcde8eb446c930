"""Many matches stepped at once, into preallocated numpy arrays (self-play, every seat).

``BatchedGames(64, players=2, take="any")`` holds 64 matches.  ``reset(seed)``
and ``step(actions)`` fill ``obs`` (games x observation size, float32: the
array of the seat to move), ``mask`` (games x 53, int8), ``to_move`` (the seat
whose array it is), ``rewards`` (games x players, this step's rewards of every
seat) and ``done`` (a match ended at this step: the game was started anew,
and ``obs`` already shows the new match).  Where a deal ended at this step
``deal_ended`` is set and ``scores`` holds its score sheet (games x players x 6:
``SCORE_FIELDS``, as ``ScoreLine``) and ``final`` the observation of the position where it
ended as the seat that ended it sees it (the sheet's counts, the totals after the deal,
nobody to move); where a match ended, ``winner`` is its winner (else -1) and
``final_totals`` its final totals.  The arrays are allocated once,
and one call steps every game, which is what a batched policy wants.

Two engines fill the same arrays with the same numbers (tests/test_batch*.py):

- compiled (``[fast]`` extra, numba; the default when ``foxtrot.fast.enabled()``):
  ``fast.batch`` steps every game in machine code, built on the search kernel's
  compiled rules (``env.batch_compiled``);
- Python (``compiled=False``, or without numba, or ``FOXTROT_FAST=0``): each game is
  a ``Game`` stepped by the engine, ``State``.

Each game's seeds come from ``seed`` and a counter, so a batch is reproducible (and
both engines deal the same cards).
An illegal action raises ``IllegalActionError`` naming the game; the games
before it in the batch have moved (the arrays show them), the one that refused and
those after it have not (call ``step`` again with a legal action for them).  A ``step``
before the first ``reset`` raises ``IllegalActionError`` too.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from ..core import IllegalActionError, ScoreLine, TableOptions
from ..core.actions import TAKE_CODE
from .batch_arrays import Ints, match_seed
from .encoding import CARD_KINDS, N_ACTIONS, Array, Mask, buffer_size, layout, observation_size
from .game import Game, check_reward, table_options

#: The columns of ``scores``: the fields of ``ScoreLine``, in order (rule X9).
SCORE_FIELDS: Final = tuple(field.name for field in dataclasses.fields(ScoreLine))
_LINE: Final = attrgetter(*SCORE_FIELDS)


class _Engine(Protocol):
    def reset(self, seed: int) -> None: ...

    def restart(self, games: list[int]) -> None: ...

    def step(self, actions: npt.ArrayLike) -> None: ...

    def observe_into(self, into: Array, previous: Array) -> None: ...

    def pick(self, draws: npt.NDArray[np.float64]) -> Ints: ...


class BatchedGames:
    """A batch of matches for self-play (see the module doc)."""

    def __init__(
        self,
        games: int,
        options: TableOptions | None = None,
        *,
        reward: str = "deal",
        compiled: bool | None = None,
        **changes: Any,
    ) -> None:
        """``games`` matches of ``options`` (or the keyword options); ``compiled``: the
        compiled engine (``True``, needs numba), the Python one (``False``), or the compiled
        one if ``foxtrot.fast.enabled()`` (``None``)."""
        if type(games) is not int or games < 1:
            raise ValueError(f"games: {games!r} is not a positive whole number")
        self.options = table_options(options, changes)
        self.reward = check_reward(reward)
        self.compiled = _compiled(compiled, self.options)
        size = observation_size(self.options)
        players = self.options.players
        self.obs: Array = np.zeros((games, size), dtype=np.float32)
        self.mask: Mask = np.zeros((games, N_ACTIONS), dtype=np.int8)
        self.to_move: Ints = np.zeros(games, dtype=np.int64)
        self.rewards: Array = np.zeros((games, players), dtype=np.float32)
        self.done: npt.NDArray[np.bool_] = np.zeros(games, dtype=np.bool_)
        self.deal_ended: npt.NDArray[np.bool_] = np.zeros(games, dtype=np.bool_)
        self.scores: Ints = np.zeros((games, players, len(SCORE_FIELDS)), dtype=np.int64)
        self.winner: Ints = np.full(games, -1, dtype=np.int64)
        self.final_totals: Ints = np.zeros((games, players), dtype=np.int64)
        self.final: Array = np.zeros((games, size), dtype=np.float32)
        self._size = games
        self._ready = False  # reset() was called: every game is in a match
        self._engine: _Engine
        if self.compiled:
            from .batch_compiled import CompiledGames  # noqa: PLC0415 - imports numba

            self._engine = CompiledGames(self)
        else:
            self._engine = PythonGames(self)

    def __len__(self) -> int:
        return self._size

    @property
    def games(self) -> list[Game]:
        """The ``Game`` of every match (the Python engine only: the compiled one keeps arrays)."""
        if not isinstance(self._engine, PythonGames):
            raise AttributeError("games: a compiled batch keeps its matches as arrays")
        return self._engine.games

    def reset(self, seed: int = 0, *, into: Array | None = None) -> None:
        """Start every match anew from ``seed`` (``into``: as for ``step``)."""
        if into is not None:
            self._observe_into(into)
        self._engine.reset(seed)
        self._ready = True

    def restart(self, games: npt.ArrayLike) -> None:
        """Start a new match in each of ``games`` (indices), as if theirs had ended.

        For episodes shorter than a match (the vector environment's ``deals`` and
        ``max_steps``).  The new matches take the next seeds in order, as matches that end
        do; only ``obs``, ``mask`` and ``to_move`` of those games change.
        """
        if not self._ready:
            raise IllegalActionError(
                "no_deal", -1, "restart", "no match has started: call reset(seed) first"
            )
        indices = np.asarray(games).ravel().tolist()
        for index in indices:
            if type(index) is not int or not 0 <= index < self._size:
                raise ValueError(f"games: {index!r} is not a game (0 to {self._size - 1})")
        if indices:
            self._engine.restart(indices)

    def step(self, actions: npt.ArrayLike, *, into: Array | None = None) -> None:
        """One action in every game (for its seat to move); the arrays are filled anew.

        ``into``: an array of ``obs``'s shape and type that this step's observations are
        written into and that becomes ``obs``; the array ``obs`` was is not written again.
        A caller who hands each step's observations on (the vector environment) gives a new
        array every step instead of copying ``obs``.
        """
        if not self._ready:
            raise IllegalActionError(
                "no_deal", -1, "step", "no match has started: call reset(seed) first"
            )
        if into is not None:
            self._observe_into(into)
        self._engine.step(actions)

    def _observe_into(self, into: Array) -> None:
        previous = self.obs
        if into is previous or into.shape != previous.shape or into.dtype != previous.dtype:
            raise ValueError(
                f"into: a new array of shape {previous.shape} and type {previous.dtype}"
            )
        self.obs = into
        self._engine.observe_into(into, previous)

    def random_actions(self, rng: np.random.Generator) -> Ints:
        """A uniformly random legal action in every game (a baseline, and for benchmarks):
        of the ``count`` legal actions (in index order) the one numbered
        ``int(rng.random() * count)``, one draw per game."""
        return self._engine.pick(rng.random(self._size))


def _compiled(compiled: bool | None, options: TableOptions) -> bool:
    """Whether to use the compiled engine.  It plays the real game's pack only: a mini
    game (``TableOptions.is_mini``) runs on the Python engine, or is refused if asked."""
    from .. import fast  # noqa: PLC0415 - numba itself is imported only by the compiled engine

    if options.is_mini:
        if compiled:
            raise ValueError(
                "compiled: the compiled batch plays the real game's pack only; a mini game"
                " (packs, ranks, suits, hand_size) runs with compiled=False"
            )
        return False
    if compiled is None:
        return fast.enabled()
    if compiled and not fast.available():
        raise ValueError("compiled: the compiled batch needs numba (pip install 'foxtrot[fast]')")
    return bool(compiled)


class PythonGames:
    """The Python engine: every game a ``Game`` (the engine's ``State``).

    The games' trackers keep their absolute buffers as the rows of one array,
    so that every game's observation (the seat to move's view) is gathered by
    one ``numpy.take`` and every mask is written by one scatter: per game and
    step, only the engine's move and the tracker's few writes run in Python.
    """

    def __init__(self, batch: BatchedGames) -> None:
        self._batch = batch
        games = len(batch)
        length = buffer_size(batch.options)
        self._buffers: Array = np.zeros((games, length), dtype=np.float32)
        self.games = [Game(batch.options, batch.reward, self._buffers[i]) for i in range(games)]
        self._index = self.games[0].tracker.index  # (seat, observation index) -> buffer index
        self._row_start = (np.arange(games, dtype=np.intp) * length)[:, None]
        self._gather_at = np.zeros(batch.obs.shape, dtype=np.intp)
        self._final = FinalView(batch.options)
        self._seed = 0
        self._started = 0

    def reset(self, seed: int) -> None:
        self._seed = seed
        self._started = 0
        for index in range(len(self.games)):
            self._restart(index)
        batch = self._batch
        batch.rewards[:] = 0
        batch.done[:] = False
        batch.deal_ended[:] = False
        batch.winner[:] = -1
        self._show()

    def _restart(self, index: int) -> None:
        self.games[index].reset(match_seed(self._seed, self._started))
        self._started += 1

    def restart(self, games: list[int]) -> None:
        for index in games:
            self._restart(index)
        self._show()

    def _show(self) -> None:
        """Fill ``to_move``, ``obs`` and ``mask`` from every game."""
        seats: list[int] = []
        flags: list[int] = []
        for index, game in enumerate(self.games):
            assert game.mover is not None
            seats.append(game.mover)
            start = index * N_ACTIONS
            flags += [start + code for code in game.legal_codes]
        self._fill(seats, flags)

    def _fill(self, seats: list[int], flags: list[int]) -> None:
        """Write the seats to move, gather every observation, scatter every mask: vectorized."""
        batch = self._batch
        batch.to_move[:] = seats
        at = self._gather_at
        self._index.take(batch.to_move, axis=0, out=at)
        at += self._row_start
        self._buffers.take(at, out=batch.obs)
        mask = batch.mask.reshape(-1)
        mask[:] = 0
        mask[flags] = 1

    def step(self, actions: npt.ArrayLike) -> None:
        codes = np.asarray(actions).tolist()
        if len(codes) != len(self.games):
            raise ValueError(f"actions: {len(codes)} actions for {len(self.games)} games")
        batch = self._batch
        # what every seat to move sees, from the games' own buffers: for the deals that end
        before = self._buffers.take(self._gather_at)
        movers = batch.to_move.copy()
        rewards = batch.rewards
        done = batch.done
        rewards[:] = 0
        done[:] = False
        batch.deal_ended[:] = False
        batch.winner[:] = -1
        seats: list[int] = []
        flags: list[int] = []
        start = 0
        for index, game in enumerate(self.games):
            try:
                ended = game.play(codes[index])
            except IllegalActionError as error:
                self._show()  # the games that moved show their new positions
                raise IllegalActionError(
                    error.code, error.seat, f"{error.action} in game {index}", error.reason
                ) from None
            if game.rewarded:  # else every reward of the step is 0
                rewards[index] = game.rewards
            if ended:
                batch.deal_ended[index] = True
                batch.scores[index] = [_LINE(line) for line in game.scores]
            if game.mover is None:  # the match is over: a new one
                outcome = game.state.outcome
                assert outcome is not None
                batch.winner[index] = outcome.winner
                batch.final_totals[index] = outcome.totals
                done[index] = True
                self._restart(index)
            assert game.mover is not None
            seats.append(game.mover)
            flags += [start + code for code in game.legal_codes]
            start += N_ACTIONS
        self._fill(seats, flags)
        over: Ints = np.flatnonzero(batch.deal_ended)
        if len(over):
            batch.final[over] = self._final.views(
                before[over], _int64s(codes, over), batch.scores[over], movers[over]
            )

    def observe_into(self, into: Array, previous: Array) -> None:
        """``into`` starts as a copy of ``previous``: a step that refuses its actions' count
        writes no row (cheap beside the games' moves in Python)."""
        np.copyto(into, previous)

    def pick(self, draws: npt.NDArray[np.float64]) -> Ints:
        mask = self._batch.mask
        counts = mask.sum(axis=1)
        number = np.minimum((draws * counts).astype(np.int64), counts - 1)
        chosen: Ints = (mask.cumsum(axis=1) > number[:, None]).argmax(axis=1).astype(np.int64)
        return chosen


def _int64s(values: list[int], at: Ints) -> Ints:
    """The values at ``at``, as an array."""
    return np.array([values[i] for i in at.tolist()], dtype=np.int64)


class FinalView:
    """The observation of the position where a deal ended, as the seat that ended it sees
    it, from the observation it moved from, its action and the deal's score sheet.

    The Python engine's ``batch.final``.  Why not from the engine: a ``Game`` deals the
    next deal (or starts the next match) in the same call that ends one.  (The compiled
    engine writes the final observation from its arrays before it deals: ``fast.batch``.)
    Nothing here decides a rule: the played card leaves the hand and is seen; ``taken``,
    ``foxtrots`` and ``double_foxtrots`` are the score sheet's (which counts a leftover pile
    given to the last taker, E2); the totals grow by the sheet's totals; nobody is to move;
    and the pile is what the count of the cards leaves of it (every card is in a hand, the
    stock, a seat's taken cards or the pile): the pile with the card laid on it, or nothing.
    tests/test_env_final.py holds it equal to ``encode(state.observation(seat))`` at the
    end of deals under every rule option, and the compiled engine's equal to it.
    """

    def __init__(self, options: TableOptions) -> None:
        n = options.players
        self.players = n
        self.deck_size = options.deck_size
        at = {block.name: block.start for block in layout(options)}
        self.hand, self.seen, self.top, self.pile = at["hand"], at["seen"], at["top"], at["pile"]
        # the mover's hand size (relative seat 0), the stock, the pile's size
        self.mover_size, self.stock, self.pile_size = at["hand_sizes"], at["stock"], at["pile_size"]
        self.to_move = slice(at["to_move"], at["to_move"] + n)
        seats = np.arange(n)
        # the columns the sheet fills (taken, foxtrots, double_foxtrots, totals), by seat
        self.sheet_columns = np.concatenate(
            [at[name] + seats for name in ("taken", "foxtrots", "double_foxtrots", "totals")]
        )
        self.fields = [
            SCORE_FIELDS.index(name) for name in ("cards", "foxtrots", "double_foxtrots", "total")
        ]
        self.taken = slice(at["taken"], at["taken"] + n)
        self.hand_sizes = slice(at["hand_sizes"], at["hand_sizes"] + n)
        self.totals = slice(at["totals"], at["totals"] + n)
        self.seats = seats

    def views(self, before: Array, codes: Ints, sheets: Ints, seats: Ints) -> Array:
        """The final observation of each of ``seats``, which moved from its row of
        ``before`` with its action of ``codes`` (``sheets``: each deal's score sheet, rows x
        players x ``SCORE_FIELDS``, absolute seats)."""
        n = self.players
        rows = np.arange(len(codes))
        rel = (seats[:, None] + self.seats) % n  # relative order -> absolute seat
        # rows x fields x players (relative): taken, foxtrots, double foxtrots, deal total
        sheet = sheets[rows[:, None, None], rel[:, None, :], np.array(self.fields)[:, None]]
        out = before.copy()
        totals = out[:, self.totals] + sheet[:, 3]
        out[:, self.sheet_columns] = sheet.reshape(len(codes), 4 * n)
        out[:, self.totals] = totals
        out[:, self.to_move] = 0
        for r, code in enumerate(codes.tolist()):
            row = out[r]
            if code != TAKE_CODE:
                row[self.hand + code] -= 1
                row[self.mover_size] -= 1
                row[self.seen + code] += 1
            held = int(row[self.hand_sizes].sum() + row[self.stock] + row[self.taken].sum())
            pile = self.deck_size - held
            size = int(row[self.pile_size])
            if pile == 0:
                row[self.pile : self.pile + CARD_KINDS] = 0
                row[self.top : self.top + CARD_KINDS] = 0
                row[self.pile_size] = 0
            elif code != TAKE_CODE and pile == size + 1:
                row[self.pile + code] += 1
                row[self.top : self.top + CARD_KINDS] = 0
                row[self.top + code] = 1
                row[self.pile_size] = pile
            elif pile != size:
                raise RuntimeError(f"the deal's end leaves {pile} cards in a pile of {size}")
        return out


__all__ = ["SCORE_FIELDS", "BatchedGames", "FinalView", "match_seed"]
