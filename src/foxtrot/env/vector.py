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
- **Speed**: about 4 million table-steps a second at 256 tables on one quiet core, 0.84-0.86
  of the batch's (``benchmarks/bench_env.py --only batch``; docs/reports/benchmarks.md): the
  observations returned are the array the batch wrote, never written again (no copy).
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
from .batch import BatchedGames
from .encoding import N_ACTIONS, Array, pad_index, padded_bounds, padded_options
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
        # the padded arrays are written into one buffer: its padding columns stay 0
        self._padded: Array = np.zeros((num_envs, low.shape[0]), dtype=np.float32)
        self._pad_index = None if pad_to is None else pad_index(self.options, pad_to)
        self._started = False
        self._all = np.arange(num_envs)
        self._seat_zero = self._all * self.options.players  # seat 0's place in rewards.ravel()
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
        self.batch.reset(int(self.np_random.integers(2**63)), into=self._fresh())
        self._steps[:] = 0
        self._deals[:] = 0
        self._started = True
        return self._view(), self._info()

    def _fresh(self) -> Array | None:
        """A new array for the batch's next observations, where they are handed out as they
        are (unpadded): the batch never writes an array again once it wrote the next one."""
        return None if self._pad_index is not None else np.empty_like(self.batch.obs)

    def _view(self) -> Array:
        """The batch's observations, padded if asked: an array nothing writes again."""
        if self._pad_index is None:
            return self.batch.obs
        self._padded[:, self._pad_index] = self.batch.obs
        return self._padded.copy()

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
        batch.step(codes, into=self._fresh())
        rewards = batch.rewards.copy()
        reward: Array = rewards.ravel()[self._seat_zero + acting]  # each acting seat's
        terminated: Flags = batch.done.copy()
        if self.deals:
            self._deals += batch.deal_ended
            terminated |= self._deals >= self.deals
        truncated: Flags = self._never
        if self.max_steps is not None:  # the steps are counted for the truncation alone
            self._steps += 1
            truncated = ~terminated & (self._steps >= self.max_steps)
        reached = self._view()
        info = self._info()
        info["rewards"] = rewards
        info["_rewards"] = self._everywhere
        if terminated.any() or (self.max_steps is not None and truncated.any()):
            reached = self._end(info, reached, terminated, truncated)
        return reached, reward, terminated, truncated, info

    def _end(
        self, info: dict[str, Any], reached: Array, terminated: Flags, truncated: Flags
    ) -> Array:
        """The final observations and infos of the episodes that ended at this step, a new
        match where the batch would go on with an episode cut short; what ``step`` returns."""
        batch = self.batch
        ended = terminated | truncated
        final = np.empty(self.num_envs, dtype=object)  # None where no episode ended
        info["final_obs"] = final
        info["_final_obs"] = ended
        info["final_info"] = {"winner": batch.winner.copy(), "_winner": ended.copy()}
        info["_final_info"] = ended.copy()
        over = np.flatnonzero(terminated)
        if len(over):
            views = batch.final[over]
            for g, view in zip(over.tolist(), self._pad_views(views), strict=True):
                final[g] = view
        if not self.deals and self.max_steps is None:
            return reached  # whole matches: the batch has started the new ones
        for g in np.flatnonzero(truncated).tolist():
            final[g] = reached[g].copy()
        self._steps[ended] = 0
        self._deals[ended] = 0
        cut = ended & ~batch.done  # episodes the batch would go on with: a new match
        if not cut.any():
            return reached
        batch.restart(np.flatnonzero(cut))  # into the array ``reached`` (or copied into it)
        info.update(self._info())
        return self._view()

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as indices, if each is legal in its table; else a clear error."""
        array = actions if type(actions) is np.ndarray else np.asarray(actions)
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


__all__ = ["FoxtrotVectorEnv"]
