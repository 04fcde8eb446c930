"""Environment speed on one core: steps/s with observation encoding, beside PettingZoo's cards.

Run: ``python benchmarks/bench_env.py`` (needs ``foxtrot[rl]``; the PettingZoo card
games need ``pip install 'pettingzoo[classic]' rlcard``, a benchmark-only install).

A step is what a learner pays for one move: ``last()`` (the observation dict of
the agent to act, mask included), a uniformly random legal action from the
mask, ``step(action)``; a finished episode is reset (not counted).  Every
environment is the one its maker recommends: ``env()``, wrapped by PettingZoo's
order and bounds checks.  ``raw_env`` is ours without those wrappers;
``BatchedGames`` steps 256 self-play matches per call into preallocated arrays
(a step is one move in one game, its random legal action drawn by
``random_actions``), once with the compiled engine (``compiled=True``, the
``[fast]`` extra) and once with the Python one (``compiled=False``).
``FoxtrotVectorEnv`` is the Gymnasium vector environment over the compiled batch
(whole matches, and one-deal episodes padded to 9 seats: ``deals=1, pad_to=9``).

Machine speed drifts up to 2x from minute to minute, so the systems are
measured in alternating slices in one run and each figure is the median of its
slices; the ratio to ``env()`` is the median of the rounds' ratios.  Times are
the CPU time of this process (``time.process_time``), so other jobs sharing the
cores do not count (on an idle machine: the wall clock); they still slow it
through the shared caches, so quote the ratios, with the load average printed.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from foxtrot.env import BatchedGames, FoxtrotVectorEnv, env, raw_env

clock = time.process_time
_CHECK = 50  # steps between two readings of the clock


def aec_slice(environment: Any, seconds: float, rng: np.random.Generator) -> float:
    """Steps per second of an AEC environment for ``seconds``.

    The clock is read every ``_CHECK`` steps (reading the CPU clock costs a few
    microseconds, as much as a step), and the random legal action is drawn with
    ``random.random`` (numpy's ``Generator.integers`` costs more than a step).
    """
    draw = random.Random(int(rng.integers(2**31))).random
    steps = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(_CHECK):
            obs, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.reset(seed=int(rng.integers(2**31)))
                continue
            legal = np.flatnonzero(obs["action_mask"])
            environment.step(int(legal[int(draw() * len(legal))]))
            steps += 1
    return steps / (clock() - start)


def batch_slice(batch: BatchedGames, seconds: float, rng: np.random.Generator) -> float:
    """Game steps per second of a batch (every game moves once per call)."""
    calls = 0
    start = clock()
    while clock() - start < seconds:
        batch.step(batch.random_actions(rng))
        calls += 1
    return calls * len(batch) / (clock() - start)


def vector_slice(vector: FoxtrotVectorEnv, seconds: float, rng: np.random.Generator) -> float:
    """Table steps per second of the vector environment (every table moves once per call)."""
    calls = 0
    start = clock()
    while clock() - start < seconds:
        vector.step(vector.batch.random_actions(rng))
        calls += 1
    return calls * vector.num_envs / (clock() - start)


def systems(
    players: int, take: str, games: int = 256
) -> dict[str, Callable[[float, np.random.Generator], float]]:
    """The systems to measure: name -> one timed slice (``env()`` first: the ratios' base)."""
    found: dict[str, Callable[[float, np.random.Generator], float]] = {}

    def add_aec(name: str, environment: Any) -> None:
        environment.reset(seed=0)
        found[name] = lambda seconds, rng: aec_slice(environment, seconds, rng)

    add_aec(f"foxtrot env() {players}p take={take}", env(players=players, take=take))
    add_aec(f"foxtrot raw_env {players}p take={take}", raw_env(players=players, take=take))
    for compiled in (True, False):
        try:
            batch = BatchedGames(games, players=players, take=take, compiled=compiled)
        except ValueError as error:  # no numba: the compiled batch is not measured
            print(f"(compiled BatchedGames not measured: {error})")
            continue
        batch.reset(0)
        batch.step(batch.random_actions(np.random.default_rng(0)))  # compiled before timing
        kind = "compiled" if compiled else "Python"
        found[f"foxtrot BatchedGames({games}) {kind} {players}p"] = functools.partial(
            batch_slice, batch
        )
        if compiled:
            for label, deals, pad_to in (("", 0, None), (" deals=1 pad_to=9", 1, 9)):
                vector = FoxtrotVectorEnv(
                    games, players=players, take=take, deals=deals, pad_to=pad_to
                )
                vector.reset(seed=0)
                found[f"foxtrot FoxtrotVectorEnv({games}){label} {players}p"] = functools.partial(
                    vector_slice, vector
                )
    try:
        from pettingzoo.classic import (  # noqa: PLC0415
            hanabi_v5,
            leduc_holdem_v4,
            texas_holdem_no_limit_v6,
            texas_holdem_v4,
        )
    except ImportError as error:  # the comparison is optional: say why it is missing
        print(f"(PettingZoo classic card games not measured: {error})")
        return found
    for name, module in (
        ("pettingzoo leduc_holdem_v4", leduc_holdem_v4),
        ("pettingzoo texas_holdem_v4", texas_holdem_v4),
        ("pettingzoo texas_holdem_no_limit_v6", texas_holdem_no_limit_v6),
        ("pettingzoo hanabi_v5", hanabi_v5),
    ):
        add_aec(name, module.env())
    return found


def main() -> None:
    """Measure and print a table of medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slice", type=float, default=0.5, help="seconds per slice")
    parser.add_argument("--rounds", type=int, default=5, help="slices per system")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--take", choices=["any", "match"], default="any")
    parser.add_argument("--games", type=int, default=256, help="games of the batches")
    args = parser.parse_args()
    found = systems(args.players, args.take, args.games)
    rng = np.random.default_rng(2026)
    measured: dict[str, list[float]] = {name: [] for name in found}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, run in found.items():
            measured[name].append(run(args.slice, rng))
    load = (load + os.getloadavg()[0]) / 2
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.processor() or '?'},"
        f" {os.cpu_count()} cores; Python {platform.python_version()};"
        f" median of {args.rounds} slices of {args.slice:g} s, alternating;"
        f" load average {load:.1f} (1 min, start and end)"
    )
    width = max(map(len, measured))
    base = next(iter(measured.values()))  # env()
    for name, rates in measured.items():
        ratio = statistics.median(r / b for r, b in zip(rates, base, strict=True))
        low, high = min(rates), max(rates)
        print(
            f"{name:<{width}}  {statistics.median(rates):>12,.0f} steps/s"
            f"  {f'({low:,.0f}-{high:,.0f})':<24} {ratio:>7.2f}x env()"
        )


if __name__ == "__main__":
    main()
