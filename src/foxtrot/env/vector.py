"""A Gymnasium ``VectorEnv`` over ``BatchedGames``: self-play at the compiled batch's speed.

``gymnasium.make_vec("foxtrot/Foxtrot-v0", num_envs=64, vectorization_mode="vector_entry_point",
players=2)`` (the default mode for this id), or ``FoxtrotVectorEnv(64, players=2)``.

Each sub-environment is one table in self-play: the agent plays every seat in turn.  The
observation is the array of the seat to move (docs/env.md), the action an index of
``Discrete(53)``; ``info["action_mask"]`` holds every sub-environment's legal actions
(int8, ``num_envs x 53``) and ``info["seat"]`` the seat each observation belongs to.

- **Reward**: the reward of the seat that acted at this step (``reward=`` as in the AEC
  environment: deal scores, match result or margin).  A deal's end rewards every seat;
  ``info["rewards"]`` (``num_envs x players``) has every seat's reward of the step, so
  that a learner can credit each seat's trajectory with its own.  Summed over an episode
  ``reward`` mixes the seats: a single-agent learner uses the single-seat environment
  (``vectorization_mode="sync"`` or ``"async"``: ``FoxtrotEnv``, whose reward is its seat's).
- **Episodes**: the whole match (``deals=0``, the default) or ``deals=k`` deals
  (terminated), cut at ``max_steps`` steps (truncated, not terminated; ``max_episode_steps``
  is the same, Gymnasium's name).
- **Autoreset**: same-step (``metadata["autoreset_mode"]``): when an episode ends the
  observation returned is already the first one of the next episode (a new match), and
  ``info["final_obs"]`` (an object array, set where ``info["_final_obs"]``) holds the last
  one: for a terminated episode the final position as the seat that made the last move
  sees it (the observation ``encode(state.observation(seat))`` of the position where the
  deal ended: its score sheet in ``taken``, ``foxtrots`` and ``double_foxtrots``, the match
  totals after the deal, nobody to move), so that this step's reward and final
  observation belong to the same seat; for a truncated episode the observation reached
  (the seat to move there, as ``step`` would have returned it; to bootstrap from).
  ``info["final_info"]["winner"]`` is the winner of a match that was won (-1 for an
  episode of deals that ended first).
- **Speed**: 2-3 million table-steps a second at 256 tables on one loaded core, 0.6-0.7 of
  the batch's (``benchmarks/bench_env.py --only batch``; docs/reports/benchmarks.md).
- **Illegal actions** raise ``IllegalActionError`` naming the sub-environment, before any
  sub-environment moves.  ``pad_to=9`` pads the observation to 9 seats (docs/env.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import ACTIONS, IllegalActionError, TableOptions
from ..core.actions import TAKE_CODE
from .batch import SCORE_FIELDS, BatchedGames
from .encoding import CARD_KINDS, N_ACTIONS, Array, layout, pad_index, padded_bounds, padded_options
from .game import check_deals, check_max_steps, check_reward

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Any_ = npt.NDArray[Any]  # Gymnasium's one array type of rewards, terminations, truncations


class FoxtrotVectorEnv(VectorEnv[Array, Ints, Any_]):
    """``num_envs`` self-play tables stepped at once (see the module doc)."""

    metadata = {  # noqa: RUF012 (Gymnasium reads a class attribute)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        options: TableOptions | None = None,
        *,
        reward: str = "deal",
        deals: int = 0,
        max_steps: int | None = None,
        max_episode_steps: int | None = None,
        pad_to: int | None = None,
        compiled: bool | None = None,
        render_mode: str | None = None,
        **changes: Any,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs: {num_envs!r} is not a positive whole number")
        if "opponents" in changes:
            raise ValueError(
                "opponents: the vector environment is self-play (the agent plays every seat);"
                " for one seat against bots use vectorization_mode='sync'"
            )
        if render_mode is not None:
            raise ValueError(f"render_mode: {render_mode!r} is not allowed (no rendering)")
        if max_steps is not None and max_episode_steps is not None:
            raise ValueError("max_steps and max_episode_steps are the same limit: give one")
        self.deals = check_deals(deals)
        check_reward(reward, self.deals)
        self.max_steps = check_max_steps(max_steps if max_steps is not None else max_episode_steps)
        self.batch = BatchedGames(num_envs, options, reward=reward, compiled=compiled, **changes)
        self.options = self.batch.options
        padded_options(self.options, pad_to)  # refuses a bad pad_to
        self.pad_to = pad_to
        self.num_envs = num_envs
        self.render_mode = render_mode
        low, high = padded_bounds(self.options, pad_to)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._steps: Ints = np.zeros(num_envs, dtype=np.int64)
        self._deals: Ints = np.zeros(num_envs, dtype=np.int64)
        self._obs: Array = np.zeros((num_envs, low.shape[0]), dtype=np.float32)
        # the padded arrays are written into one buffer: its padding columns stay 0
        self._padded: Array = np.zeros((num_envs, low.shape[0]), dtype=np.float32)
        self._pad_index = None if pad_to is None else pad_index(self.options, pad_to)
        self._started = False
        self._all = np.arange(num_envs)
        self._final = FinalView(self.options)
        # read-only constants every step hands out (Gymnasium's "everywhere" masks, and no
        # truncation without max_steps): made once, since a step's own numpy calls cost as much
        # as the batch's move of 256 tables
        self._everywhere = np.ones(num_envs, dtype=np.bool_)
        self._never = np.zeros(num_envs, dtype=np.bool_)
        self._everywhere.flags.writeable = False
        self._never.flags.writeable = False
        self._first_illegal: Any = None  # the compiled batch's check: one call, not six
        if self.batch.compiled:
            from ..fast import batch as kernel  # noqa: PLC0415 - numba, for a compiled batch only

            self._first_illegal = kernel.first_illegal

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """New matches in every table; ``reset(seed=s)`` and what follows are reproducible."""
        if isinstance(seed, list):
            raise ValueError("seed: one seed for the whole batch (its tables are seeded from it)")
        if options:
            raise ValueError(f"options: reset takes no options, got {sorted(options)}")
        super().reset(seed=seed)
        self.batch.reset(int(self.np_random.integers(2**63)))
        self._steps[:] = 0
        self._deals[:] = 0
        self._started = True
        self._obs = self._view()
        return self._obs.copy(), self._info()

    def _view(self) -> Array:
        """The batch's observations, padded if asked (a new array)."""
        if self._pad_index is None:
            return self.batch.obs.copy()
        self._padded[:, self._pad_index] = self.batch.obs
        return self._padded.copy()

    def _unpadded(self, rows: Array) -> Array:
        """Observations as the batch lays them out (without the padding)."""
        if self._pad_index is None:
            return rows
        out: Array = rows[:, self._pad_index]
        return out

    def _pad_views(self, views: Array) -> Array:
        """Observations, padded as the environment's are (a new array)."""
        if self._pad_index is None:
            return views
        out: Array = np.zeros((len(views), self._padded.shape[1]), dtype=np.float32)
        out[:, self._pad_index] = views
        return out

    def _info(self) -> dict[str, Any]:
        batch = self.batch
        everywhere = self._everywhere
        return {
            "action_mask": batch.mask.copy(),
            "_action_mask": everywhere,
            "seat": batch.to_move.copy(),
            "_seat": everywhere,
        }

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Any_, Any_, Any_, dict[str, Any]]:
        """One action in every table (for its seat to move); see the module doc."""
        if not self._started:
            raise IllegalActionError("no_deal", -1, "step", "call reset() first")
        codes = self._checked(actions)
        batch = self.batch
        acting = batch.to_move.copy()
        before = self._obs  # what each seat moves from (as returned; for final views)
        batch.step(codes)
        rewards = batch.rewards.copy()
        reward: Array = rewards[self._all, acting].astype(np.float32)
        terminated: Flags = batch.done.copy()
        if self.max_steps is not None:  # the steps are counted for the truncation alone
            self._steps += 1
        if self.deals:
            self._deals += batch.deal_ended
            terminated |= self._deals >= self.deals
        truncated: Flags = self._never
        if self.max_steps is not None:
            truncated = ~terminated & (self._steps >= self.max_steps)
        ended = terminated | truncated if self.max_steps is not None else terminated
        reached = self._view()
        info = self._info()
        if ended.any():
            winner = batch.winner.copy()  # before a restart below
            final = np.full(self.num_envs, None, dtype=object)
            for g in np.flatnonzero(truncated).tolist():
                final[g] = reached[g].copy()
            over = np.flatnonzero(terminated)
            if len(over):
                views = self._final.views(
                    self._unpadded(before[over]), codes[over], batch.scores[over], acting[over]
                )
                for g, view in zip(over.tolist(), self._pad_views(views), strict=True):
                    final[g] = view
            cut = ended & ~batch.done  # episodes the batch would go on with: a new match
            if cut.any():
                batch.restart(np.flatnonzero(cut))
                reached = self._view()
                info = self._info()
            self._steps[ended] = 0
            self._deals[ended] = 0
            info["final_obs"] = final
            info["_final_obs"] = ended.copy()
            info["final_info"] = {"winner": winner, "_winner": ended.copy()}
            info["_final_info"] = ended.copy()
        info["rewards"] = rewards
        info["_rewards"] = self._everywhere
        self._obs = reached
        return reached.copy(), reward, terminated, truncated, info

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as indices, if each is legal in its table; else a clear error."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions: expected {self.num_envs} actions, got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise IllegalActionError(
                "bad_action", -1, f"do {array.tolist()!r}", "actions are whole numbers 0 to 52"
            )
        codes = array.astype(np.int64, copy=False)
        if self._first_illegal is not None:
            if self._first_illegal(codes, self.batch.mask) < 0:
                return codes  # the usual case: every action legal
        elif (
            codes.min() >= 0 and codes.max() < N_ACTIONS and self.batch.mask[self._all, codes].all()
        ):
            return codes
        outside = (codes < 0) | (codes >= N_ACTIONS)
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        inside = ~outside
        legal[inside] = self.batch.mask[self._all[inside], codes[inside]] == 1
        if not legal.all():
            g = int(np.flatnonzero(~legal)[0])
            code = int(codes[g])
            seat = int(self.batch.to_move[g])
            if outside[g]:
                raise IllegalActionError(
                    "bad_action", seat, f"do action {code} in table {g}", "actions are 0 to 52"
                )
            raise IllegalActionError(
                "not_legal",
                seat,
                f"do {ACTIONS[code]} in table {g}",
                "it is not a legal action there (info['action_mask'], rule T7)",
            )
        return codes

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every table's legal actions, as booleans (``num_envs x 53``)."""
        mask: npt.NDArray[np.bool_] = self.batch.mask.astype(np.bool_)
        return mask

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


class FinalView:
    """The observation of the position where a deal ended, as the seat that ended it sees
    it, from the observation it moved from, its action and the deal's score sheet.

    Why not from the engine: both engines deal the next deal (or start the next match) in
    the same call that ends one, and the compiled one keeps no ``State``.  Nothing here
    decides a rule: the played card leaves the hand and is seen; ``taken``, ``foxtrots``
    and ``double_foxtrots`` are the score sheet's (which counts a leftover pile given to
    the last taker, E2); the totals grow by the sheet's totals; nobody is to move; and the
    pile is what the count of the cards leaves of it (every card is in a hand, the stock,
    a seat's taken cards or the pile): the pile with the card laid on it, or nothing.
    tests/test_env_final.py holds it equal to ``encode(state.observation(seat))`` at the
    end of deals under every rule option, with either engine.
    """

    def __init__(self, options: TableOptions) -> None:
        n = options.players
        self.players = n
        self.deck_size = options.deck_size
        at = {block.name: block.start for block in layout(options)}
        self.hand, self.seen, self.top, self.pile = at["hand"], at["seen"], at["top"], at["pile"]
        self.sizes, self.stock, self.pile_size = at["hand_sizes"], at["stock"], at["pile_size"]
        self.to_move = slice(at["to_move"], at["to_move"] + n)
        seats = np.arange(n)
        # the columns the sheet fills (taken, foxtrots, double_foxtrots, totals), by seat
        self.sheet_columns = np.concatenate(
            [at[name] + seats for name in ("taken", "foxtrots", "double_foxtrots", "totals")]
        )
        self.fields = [SCORE_FIELDS.index(name) for name in ("cards", "foxtrots")]
        self.fields += [SCORE_FIELDS.index(name) for name in ("double_foxtrots", "total")]
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
                row[self.sizes] -= 1
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


__all__ = ["FinalView", "FoxtrotVectorEnv"]
