"""The distilled player's time a move, against greedy's on the same positions.

    python benchmarks/bench_learned.py [POLICY.npz ...]      # default: the shipped policies

For each policy: positions from deals of random play at its table, then alternating slices
(the learned bot on every position, then greedy on every position, seven times over); it
prints each bot's median time a move over the slices and the median of the slices' ratios.
The machine is shared and its speed drifts, so only the ratio of one run is comparable; the
absolute times are what the machine gave at the time (printed with the load average).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

from foxtrot.bots import GreedyBot
from foxtrot.core import Observation, Phase, SplitMix64, State, TableOptions
from foxtrot.learn.policy import ArrayPolicy, LearnedBot

SHIPPED = Path(__file__).resolve().parents[1] / "src" / "foxtrot" / "data" / "learned"
SLICES = 7


def positions(options: TableOptions, deals: int, seed: int) -> list[Observation]:
    """The observations of the seat to move in ``deals`` deals of random play."""
    rng = SplitMix64(seed)
    found = []
    for _ in range(deals):
        state = State(options, rng=rng)
        state.deal(rng)
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            found.append(state.observation(seat))
            state.apply(rng.choice(state.legal_actions()))
    return found


def per_move(bot: LearnedBot | GreedyBot, found: list[Observation]) -> float:
    """Seconds a move of ``bot`` over every position."""
    rng = random.Random(0)
    start = time.perf_counter()
    for obs in found:
        bot.choose(obs, obs.legal_actions, rng)
    return (time.perf_counter() - start) / len(found)


def main(paths: list[str]) -> None:
    """Print one line per policy (see the module doc)."""
    targets = paths or [str(path) for path in sorted(SHIPPED.glob("*.npz"))]
    print(f"load average {os.getloadavg()[0]:.1f}")
    for path in targets:
        options = ArrayPolicy(path).options
        found = positions(options, 3, 1)
        learned, greedy = LearnedBot(path), GreedyBot()
        ours, theirs = [], []
        for _ in range(SLICES):
            ours.append(per_move(learned, found))
            theirs.append(per_move(greedy, found))
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        print(
            f"{Path(path).name}: {options.players} players, {len(found)} positions;"
            f" learned {statistics.median(ours) * 1e3:.3f} ms a move,"
            f" greedy {statistics.median(theirs) * 1e3:.3f} ms; learned / greedy {ratio:.2f}"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
