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

``--only batch`` measures the compiled batch and the vector environment alone (made by
``gymnasium.make_vec``, as a learner makes it, and directly).  ``--against TREE`` measures the
same systems of another checkout of Foxtrot in the same run, alternating slices: a worker
process (this file, ``--worker``) imports ``TREE/src`` and answers one slice at a time, and
each system's median per-round ratio, this tree over that one, is printed, so that the next
regression of the batch shows (for example ``git worktree add /tmp/old b5263e2``, then
``--against /tmp/old``).  Pin the run to one core (``taskset -c 1``) so that both sides see
the same core.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from foxtrot.env import BatchedGames, env, raw_env

try:  # an older tree measured by --against may have no vector environment
    from foxtrot.env import FoxtrotVectorEnv
except ImportError:  # pragma: no cover - only in a worker on such a tree
    FoxtrotVectorEnv = None  # type: ignore[assignment,misc]

HERE = Path(__file__).resolve()

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


def vector_slice(vector: Any, seconds: float, rng: np.random.Generator) -> float:
    """Table steps per second of the vector environment (every table moves once per call)."""
    calls = 0
    start = clock()
    while clock() - start < seconds:
        vector.step(vector.batch.random_actions(rng))
        calls += 1
    return float(calls * vector.num_envs / (clock() - start))


def batch_systems(
    players: int, take: str, games: int = 256, *, make_vec: bool = True
) -> dict[str, Callable[[float, np.random.Generator], float]]:
    """The compiled batch (the base of the ratios) and the vector environments over it:
    made by ``gymnasium.make_vec`` (if ``make_vec``) and directly."""
    found: dict[str, Callable[[float, np.random.Generator], float]] = {}
    batch = BatchedGames(games, players=players, take=take, compiled=True)
    batch.reset(0)
    batch.step(batch.random_actions(np.random.default_rng(0)))  # compiled before timing
    found[f"foxtrot BatchedGames({games}) compiled {players}p"] = functools.partial(
        batch_slice, batch
    )
    if make_vec:
        import gymnasium  # noqa: PLC0415 - the [rl] extra, imported with foxtrot.env

        made: Any = gymnasium.make_vec(
            "foxtrot/Foxtrot-v0",
            num_envs=games,
            vectorization_mode="vector_entry_point",
            players=players,
            take=take,
        )
        made.reset(seed=0)
        found[f"foxtrot make_vec({games}) {players}p"] = functools.partial(vector_slice, made)
    for label, deals, pad_to in (("", 0, None), (" deals=1 pad_to=9", 1, 9)):
        if FoxtrotVectorEnv is None:
            break
        vector = FoxtrotVectorEnv(games, players=players, take=take, deals=deals, pad_to=pad_to)
        vector.reset(seed=0)
        found[f"foxtrot FoxtrotVectorEnv({games}){label} {players}p"] = functools.partial(
            vector_slice, vector
        )
    return found


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


def worker() -> None:
    """Answer one JSON request a line (``--worker``): ``{"players", "take", "games"}`` first
    (the systems of the tree this interpreter imports), then ``{"name", "seconds"}`` ->
    ``{"rate": steps/s}``; the names are printed first as ``{"names": [...]}``."""
    found: dict[str, Callable[[float, np.random.Generator], float]] = {}
    rng = np.random.default_rng(2026)
    for line in sys.stdin:
        request = json.loads(line)
        if "players" in request:
            found = batch_systems(
                request["players"], request["take"], request["games"], make_vec=False
            )
            answer: dict[str, Any] = {"names": list(found)}
        else:
            answer = {"rate": found[request["name"]](float(request["seconds"]), rng)}
        print(json.dumps(answer), flush=True)


class Against:
    """Another tree's systems, measured by a worker process that imports that tree."""

    def __init__(self, tree: Path, players: int, take: str, games: int) -> None:
        source = tree / "src"
        if not (source / "foxtrot").is_dir():
            raise SystemExit(f"--against: no foxtrot package under {source}")
        environ = dict(os.environ, PYTHONPATH=str(source))
        self.process = subprocess.Popen(
            [sys.executable, str(HERE), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environ,
            cwd=str(tree),
        )
        self.names: list[str] = self.ask({"players": players, "take": take, "games": games})[
            "names"
        ]

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the other tree's worker stopped (see its error above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def slice(self, name: str, seconds: float) -> float:
        return float(self.ask({"name": name, "seconds": seconds})["rate"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main() -> None:
    """Measure and print a table of medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slice", type=float, default=0.5, help="seconds per slice")
    parser.add_argument("--rounds", type=int, default=5, help="slices per system")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--take", choices=["any", "match"], default="any")
    parser.add_argument("--games", type=int, default=256, help="games of the batches")
    parser.add_argument(
        "--only", choices=["batch"], help="the compiled batch and the vector environments only"
    )
    parser.add_argument(
        "--against", type=Path, help="another checkout of Foxtrot, measured in the same run"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.only == "batch" or args.against is not None:
        found = batch_systems(args.players, args.take, args.games)
    else:
        found = systems(args.players, args.take, args.games)
    other = Against(args.against, args.players, args.take, args.games) if args.against else None
    theirs: dict[str, list[float]] = {name: [] for name in other.names} if other else {}
    rng = np.random.default_rng(2026)
    measured: dict[str, list[float]] = {name: [] for name in found}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, run in found.items():
            measured[name].append(run(args.slice, rng))
            if other is not None and name in theirs:
                theirs[name].append(other.slice(name, args.slice))
    load = (load + os.getloadavg()[0]) / 2
    if other is not None:
        other.close()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.processor() or '?'},"
        f" {os.cpu_count()} cores; Python {platform.python_version()};"
        f" median of {args.rounds} slices of {args.slice:g} s, alternating;"
        f" load average {load:.1f} (1 min, start and end)"
    )
    width = max(map(len, measured))
    base = next(iter(measured.values()))  # env(), or the compiled batch
    base_name = "env()" if "env()" in next(iter(measured)) else "the batch"
    for name, rates in measured.items():
        ratio = statistics.median(r / b for r, b in zip(rates, base, strict=True))
        low, high = min(rates), max(rates)
        print(
            f"{name:<{width}}  {statistics.median(rates):>12,.0f} steps/s"
            f"  {f'({low:,.0f}-{high:,.0f})':<24} {ratio:>7.2f}x {base_name}"
        )
    for name, rates in theirs.items():
        ratios = [a / b for a, b in zip(measured[name], rates, strict=True)]
        print(
            f"{name} in {args.against}: {statistics.median(rates):,.0f} steps/s; this tree"
            f" {statistics.median(ratios):.2f}x that one"
            f" (rounds {min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
