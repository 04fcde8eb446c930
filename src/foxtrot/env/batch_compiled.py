"""The compiled engine of ``BatchedGames``: every game a row of arrays, stepped by ``fast.batch``.

``fast.batch.step`` moves every game in machine code (the move, redeals, the deal's end and
scores, the next deal, rewards, the observation and the mask).  What stays in Python is what
happens once a match: its seed, the call that draws lots for its first dealer (D1:
``fast.batch.lot``, the compiled twin of ``core.dealing.draw_lots``, drawing from the game's
``SplitMix64``, whose state the deals go on from), and an illegal action's error, which a
``State`` built from the game's arrays words as the engine does (``why_illegal``).

The games are seeded as the Python engine seeds them (``match_seed``), and the compiled
generator is the twin of ``core.rng.SplitMix64`` (``fast._random``), so both engines deal the
same cards and fill the same arrays.

This module imports numba (through ``fast.batch``): it is loaded only for a compiled batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import IllegalActionError, LeftoverPile, MostCardsTie, State, TakeRule
from ..core.cards import full_deck
from ..core.kernel import deal_order
from ..fast import batch as kernel
from .batch_arrays import BatchArrays, match_seed
from .encoding import CARD_KINDS, N_ACTIONS, layout
from .game import as_index, refusal

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
_REWARDS = {
    "deal": kernel.DEAL_REWARD,
    "match": kernel.MATCH_REWARD,
    "margin": kernel.MARGIN_REWARD,
}


class CompiledGames:
    """The arrays of every game of a batch, and the calls that step them (see the module doc)."""

    def __init__(self, batch: BatchArrays) -> None:
        self._batch = batch
        options = batch.options
        self._options = options
        games = len(batch)
        n = options.players
        cards = options.deck_size
        starts = {block.name: block.start for block in layout(options)}
        if sorted(starts) != sorted(kernel.BLOCKS):
            raise RuntimeError("the compiled encoder does not know the observation's blocks")
        at = np.array([starts[name] for name in kernel.BLOCKS], dtype=np.int64)
        orders = np.array([deal_order(dealer, n) for dealer in range(n)], dtype=np.int64)
        fresh = np.array(full_deck(options.decks), dtype=np.int64)

        def ints(*shape: int) -> Ints:
            return np.zeros(shape, dtype=np.int64)

        rules = ints(games, kernel.ORDER + n)
        rules[:, kernel.MATCH] = options.take is TakeRule.MATCH
        rules[:, kernel.FORCED] = options.forced_foxtrot
        rules[:, kernel.LEFTOVER_TO_TAKER] = options.leftover_pile is LeftoverPile.LAST_TAKER
        rules[:, kernel.TIE_ALL] = options.most_cards_tie is MostCardsTie.ALL
        #: What every game shares, every game's arrays, and what a step writes (``fast.batch``).
        self.table = kernel.Table(
            at=at,
            orders=orders,
            fresh=fresh,
            reward=_REWARDS[batch.reward],
            target=float(options.target),
        )
        self.games = kernel.Games(
            hands=ints(games, n, cards),
            hand_sizes=ints(games, n),
            pile=ints(games, cards),
            stock=ints(games, cards),
            taken_count=ints(games, n),
            taken_points=ints(games, n),
            bonuses=ints(games, n),
            scalars=ints(games, kernel.SCALARS),
            rules=rules,
            deal_scores=ints(games, n),
            singles=ints(games, n),
            doubles=ints(games, n),
            totals=ints(games, n),
            seen=np.zeros((games, CARD_KINDS), dtype=np.float32),
            dealer=ints(games),
            deals=ints(games),
            rewarded=ints(games, n),
            words=np.zeros((games, 1), np.uint64),  # each game's SplitMix64 state
        )
        self.outputs = kernel.Outputs(
            codes=ints(games, N_ACTIONS + 1),
            obs=batch.obs,
            mask=batch.mask,
            to_move=batch.to_move,
            rewards=batch.rewards,
            done=batch.done,
            deal_ended=batch.deal_ended,
            scores=batch.scores,
            winner=batch.winner,
            final_totals=batch.final_totals,
            final=batch.final,
        )
        # the structs as plain tuples, which numba's dispatcher types faster (fast.batch.step)
        self._plain = (tuple(self.table), tuple(self.games), tuple(self.outputs))
        self._picked = ints(games)
        self._lot = (ints(cards), ints(n), ints(n))  # the lot's scratch (fast.batch.lot)
        self._seed = 0
        self._started = 0
        self._previous: Floats | None = None  # the observations before a step ``into``

    def reset(self, seed: int) -> None:
        self._seed = seed
        self._started = 0
        self._previous = None  # every game's row is written
        for index in range(len(self._batch)):
            self._restart(index)
        self._clear(0)

    def restart(self, games: list[int]) -> None:
        for g in games:
            self._restart(g)

    def _restart(self, g: int) -> None:
        """A new match in game ``g``: its seed, the lot for the first dealer (D1), the deal."""
        seed = match_seed(self._seed, self._started)
        self._started += 1
        games = self.games
        words = games.words[g]
        words[0] = seed  # SplitMix64(seed), as env.game seeds a match; the lot (D1) is
        # dealing.draw_lots' compiled twin, and the deals go on from its stream
        games.dealer[g] = kernel.lot(words, self.table.fresh, self._options.players, *self._lot)
        games.deals[g] = 0
        games.totals[g] = 0
        kernel.start(g, *self._plain)

    def _clear(self, start: int) -> None:
        """This step's rewards and flags of the games from ``start`` on (which did not move)."""
        batch = self._batch
        batch.rewards[start:] = 0
        batch.done[start:] = False
        batch.deal_ended[start:] = False
        batch.winner[start:] = -1

    def step(self, actions: npt.ArrayLike) -> None:
        batch = self._batch
        previous, self._previous = self._previous, None
        stopped = 0
        try:
            codes, limit, error, shown = self._codes_of(actions)
            stopped = kernel.step(codes, limit, *self._plain)
        finally:  # after a step ``into``, the games that did not move show what they showed
            if previous is not None and stopped < len(batch):
                self.outputs.obs[stopped:] = previous[stopped:]
        if stopped < len(batch):
            self._clear(stopped)
        for g in np.flatnonzero(batch.done[:stopped]).tolist():
            self._restart(g)  # the match is over: a new one
        if stopped < limit:
            raise self._refused(stopped, int(codes[stopped]) if shown is None else shown[stopped])
        if error is not None:
            raise error

    def observe_into(self, into: Floats, previous: Floats) -> None:
        """The next step writes its observations into ``into`` (the batch keeps
        ``previous``): the games that move write their whole rows (``fast.batch.show``)."""
        self.outputs = self.outputs._replace(obs=into)
        self._plain = (self._plain[0], self._plain[1], tuple(self.outputs))
        self._previous = previous

    def _codes_of(
        self, actions: npt.ArrayLike
    ) -> tuple[Ints, int, IllegalActionError | None, list[int] | None]:
        """The actions as an array; how many games may move; the error of the first action
        that is not a whole number (as ``Game.play`` says it), if any; the actions as given
        where the array cannot hold them."""
        games = len(self._batch)
        array = np.asarray(actions)
        if array.ndim != 1 or len(array) != games:
            count = len(array) if array.ndim else 1
            raise ValueError(f"actions: {count} actions for {games} games")
        if array.dtype.kind in "iub":
            return array.astype(np.int64, copy=False), games, None, None
        given: list[Any] = array.tolist()
        shown: list[int] = []
        for index, value in enumerate(given):
            try:
                shown.append(value if type(value) is int else as_index(value))
            except IllegalActionError as error:
                wrapped = IllegalActionError(
                    error.code, error.seat, f"{error.action} in game {index}", error.reason
                )
                shown += [0] * (games - index)
                return _int64(shown), index, wrapped, shown
        return _int64(shown), games, None, shown

    def _refused(self, g: int, code: int) -> IllegalActionError:
        """The engine's error for game ``g``'s action, from a ``State`` of the game's position."""
        n = self._options.players
        games = self.games
        state = State.at_position(
            self._options,
            dealer=int(games.dealer[g]),
            turn=int(games.scalars[g, kernel.TO_MOVE]),
            hands=[games.hands[g, s, : games.hand_sizes[g, s]].tolist() for s in range(n)],
            pile=games.pile[g, : games.scalars[g, kernel.PILE_N]].tolist(),
        )
        error = refusal(state, code)
        return IllegalActionError(
            error.code, error.seat, f"{error.action} in game {g}", error.reason
        )

    def pick(self, draws: npt.NDArray[np.float64]) -> Ints:
        kernel.pick(self.outputs.codes, draws, self._picked)
        return self._picked.copy()


def _int64(codes: list[int]) -> Ints:
    """Action indices as an array; one the array cannot hold is -1 there (it is refused)."""
    return np.array([c if -1 <= c <= N_ACTIONS else -1 for c in codes], dtype=np.int64)


__all__ = ["CompiledGames"]
