"""Train a small Foxtrot agent with masked PPO, on the CPU, in a few minutes.

    pip install -e '.[train]'          # torch 2.13.0 (CPU build), sb3-contrib, gymnasium
    python examples/train_ppo.py --steps 200000 --out agent.zip
    foxtrot tournament --bots policy:agent.zip,random --players 2 --matches 200 --jobs 2

The agent sits in seat 0 of ``foxtrot/Foxtrot-v0`` against the random bot (the
first dealer is drawn by lot, so it plays both positions), sees the documented
observation array scaled to about [-1, 1] (``foxtrot.env.encoding.scale``),
chooses among the legal actions only (sb3-contrib's ``ActionMasker`` and
``MaskablePPO``), and is rewarded densely (``reward="margin"``: the points it
takes minus the points the other takes, which add up to the deal scores'
margin).  One torch thread: the network is small, the environment is the
bottleneck.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, cast

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecNormalize

import foxtrot.env  # registers foxtrot/Foxtrot-v0
from foxtrot.core import TableOptions
from foxtrot.env import FoxtrotEnv
from foxtrot.env.encoding import scale
from foxtrot.env.policy import save_policy


def make_env(
    players: int = 2, opponents: str = "random", **options: Any
) -> gymnasium.Env[Any, Any]:
    """The training environment: scaled observations, masks for MaskablePPO."""
    base = gymnasium.make(foxtrot.env.ENV_ID, players=players, opponents=opponents, **options)
    table = base.unwrapped.table  # type: ignore[attr-defined]
    divisor = scale(table)
    low = base.observation_space.low / divisor  # type: ignore[attr-defined]
    high = base.observation_space.high / divisor  # type: ignore[attr-defined]
    space = gymnasium.spaces.Box(low, high, dtype=np.float32)
    scaled = gymnasium.wrappers.TransformObservation(base, lambda obs: obs / divisor, space)
    return ActionMasker(scaled, _action_masks)


def _action_masks(env: gymnasium.Env[Any, Any]) -> np.ndarray:
    """The legal-action mask of the Foxtrot environment under the wrappers."""
    return cast(FoxtrotEnv, env.unwrapped).action_masks()


def train(steps: int, seed: int = 0, players: int = 2, **options: Any) -> MaskablePPO:
    """A ``MaskablePPO`` trained for ``steps`` environment steps (reproducible with ``seed``)."""
    torch.set_num_threads(1)
    # 8 matches side by side: the network then decides 8 moves per forward pass
    env: VecEnv = DummyVecEnv(
        [lambda: make_env(players, reward="margin", **options) for _ in range(8)]
    )
    # rewards of tens of points: scaled to about unit size for the value network
    env = VecNormalize(env, norm_obs=False, norm_reward=True, gamma=0.9)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=1e-3,
        n_steps=256,
        batch_size=256,
        n_epochs=10,
        gamma=0.9,  # most of what a card earns comes within a few turns
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    # without a logger of its own, every learn() leaves an empty SB3-<date> folder in /tmp
    model.set_logger(Logger(folder=None, output_formats=[]))
    if steps > 0:
        model.learn(total_timesteps=steps)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--take", choices=["any", "match"], default=None)
    parser.add_argument("--out", type=Path, default=Path("agent.zip"))
    args = parser.parse_args()
    options = {} if args.take is None else {"take": args.take}
    start = time.perf_counter()
    model = train(args.steps, args.seed, args.players, **options)
    path = save_policy(model, args.out, TableOptions(players=args.players, **options))
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s; saved {path}")


if __name__ == "__main__":
    main()
