"""Reinforcement-learning environments for Foxtrot (extra ``[rl]``: pettingzoo, gymnasium, numpy).

- ``env(players=4, take="any", ...)``, ``raw_env``, ``parallel_env``: the
  PettingZoo AEC environment (every seat an agent) and its turn-based parallel
  form;
- ``gymnasium.make("foxtrot/Foxtrot-v0", players=2, opponents="medium")``: one
  seat against our bots (registered when this package is imported);
  ``gymnasium.make_vec("foxtrot/Foxtrot-v0", num_envs=64)``: ``FoxtrotVectorEnv``,
  self-play tables stepped at once by ``BatchedGames`` (the id's vector entry point);
- ``BatchedGames``: many self-play matches stepped at once into numpy arrays (in
  compiled code with the ``[fast]`` extra, else by the Python engine: the same arrays);
- ``encode(observation)``, ``layout``: the observation arrays (``docs/env.md``);
- ``resample(observation, rng)``: the hidden cards dealt at random, consistent
  with what the seat knows.

Without PettingZoo and Gymnasium (numpy alone) the arrays, ``BatchedGames`` and
``resample`` still import; the environments then raise an ``ImportError`` naming the
``rl`` extra.

Every array is computed from ``State.observation(seat)`` or proven equal to it
(tests/env): no hidden card reaches an agent.
"""

from __future__ import annotations

from .batch import BatchedGames
from .encoding import N_ACTIONS, Block, action_mask, bounds, encode, layout, observation_size
from .sampling import Hidden, resample

_missing: ImportError | None = None
try:  # the environments need the rl extra; the arrays (numpy only) do not
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as error:  # numpy alone: a learned policy still encodes and plays
    _missing = error
else:
    from .aec import env, parallel_env, raw_env
    from .single import ENV_ID, FoxtrotEnv
    from .vector import FoxtrotVectorEnv

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="foxtrot.env.single:FoxtrotEnv",
            vector_entry_point="foxtrot.env.vector:FoxtrotVectorEnv",
        )


def __getattr__(name: str) -> object:
    """Say which extra an environment needs when PettingZoo or Gymnasium is missing."""
    if _missing is not None and name in __all__:
        raise ImportError(
            f"foxtrot.env.{name} needs the rl extra (pip install 'foxtrot[rl]'): {_missing}"
        )
    raise AttributeError(f"module 'foxtrot.env' has no attribute {name!r}")


__all__ = [
    "ENV_ID",
    "N_ACTIONS",
    "BatchedGames",
    "Block",
    "FoxtrotEnv",
    "FoxtrotVectorEnv",
    "Hidden",
    "action_mask",
    "bounds",
    "encode",
    "env",
    "layout",
    "observation_size",
    "parallel_env",
    "raw_env",
    "resample",
]
