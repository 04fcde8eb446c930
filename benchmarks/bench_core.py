"""The engine from Python, pure and compiled (mypyc), against an older tree and OpenSpiel's C++.

Run: ``python benchmarks/bench_core.py --base /tmp/base/src`` (``--compiled DIR/src`` for a
build made by ``tools/build-compiled DIR``; without it the script builds one in a temporary
folder; ``--rounds 7 --slice 1`` by default).  ``--base`` is the source tree of another
revision (``git worktree add --detach /tmp/base <commit>``) measured in the same run.

Every system runs in a worker process of its own (``PYTHONPATH`` set to its tree), all pinned
to one core, and is asked for one slice of CPU time after another, the systems in turn and
the order reversed every round; a figure is the median over the rounds, a ratio the median of
the rounds' ratios (this machine's speed drifts 2x between runs, and other jobs share it).

- ``fast``: whole 4-player matches (take = match) of uniformly random play, ``legal_actions``
  + ``apply_unchecked``, moves a second: ``bench_openspiel.py``'s fast loop;
- OpenSpiel ``crazy_eights`` and ``hearts`` (C++), driven by a uniform choice of
  ``legal_actions()`` (its faster loop, ``bench_openspiel.py``'s worker), players' moves a
  second;
- ``clone``: ``clone()`` of mid-deal 4-player states (30 moves in), clones a second;
- ``observation``: ``observation(0)`` of a state that never answered one (copies made
  beforehand, untimed), reads a second;
- ``server``: ``apply`` and then every seat's ``observation()`` after every action, as the
  server does, actions a second;
- ``clone_move_observe``: of a mid-deal state that has answered ``observation()``, a
  ``clone()``, one move on it and the next player's ``observation()`` (search's step in
  OpenSpiel's way), steps a second.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
from bench_openspiel import (  # noqa: E402
    DEFAULT_SPEC,
    DEFAULT_VENV,
    Worker,
    load_average,
    machine,
    openspiel_python,
)

clock = time.process_time
PLAYERS = 4
TASKS = ("fast", "clone", "observation", "server", "clone_move_observe")
SPIEL = ("crazy_eights", "hearts")

Slice = Callable[[float], float]  # seconds -> rate

# ------------------------------------------------------------------ the Foxtrot worker
# (runs with PYTHONPATH set to the tree it measures)


def _fast() -> Slice:
    from foxtrot import Phase, State, TableOptions  # noqa: PLC0415

    options = TableOptions(players=PLAYERS)
    rng = random.Random(2026)
    choice = rng.choice

    def run(seconds: float) -> float:
        moves = 0
        start = clock()
        while clock() - start < seconds:
            state = State(options, dealer=0)
            while not state.is_over:
                state.deal(rng)
                legal_actions, step = state.legal_actions, state.apply_unchecked
                while state.phase is Phase.PLAYING:
                    step(choice(legal_actions()))
                    moves += 1
        return moves / (clock() - start)

    return run


def _positions(count: int) -> list[Any]:
    """Mid-deal 4-player states, 30 random moves in."""
    from foxtrot import State, TableOptions  # noqa: PLC0415

    rng = random.Random(7)
    states = []
    for _ in range(count):
        state = State(TableOptions(players=PLAYERS), dealer=0)
        state.deal(rng)
        for _ in range(30):
            state.apply_unchecked(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def _clone() -> Slice:
    states = _positions(16)

    def run(seconds: float) -> float:
        calls = 0
        start = clock()
        while clock() - start < seconds:
            for state in states:
                for _ in range(50):
                    state.clone()
            calls += 50 * len(states)
        return calls / (clock() - start)

    return run


def _observation() -> Slice:
    states = _positions(16)

    def run(seconds: float) -> float:
        calls = 0
        spent = 0.0
        while spent < seconds:
            copies = [state.clone() for state in states for _ in range(50)]  # untimed
            start = clock()
            for copy in copies:
                copy.observation(0)
            spent += clock() - start
            calls += len(copies)
        return calls / spent

    return run


def _server() -> Slice:
    from foxtrot import Phase, State, TableOptions  # noqa: PLC0415

    options = TableOptions(players=PLAYERS)
    rng = random.Random(2026)
    choice = rng.choice
    seats = range(PLAYERS)

    def run(seconds: float) -> float:
        actions = 0
        start = clock()
        while clock() - start < seconds:
            state = State(options, dealer=0)
            while not state.is_over:
                state.deal(rng)
                while state.phase is Phase.PLAYING:
                    state.apply(choice(state.legal_actions()))
                    actions += 1
                    for seat in seats:
                        state.observation(seat)
        return actions / (clock() - start)

    return run


def _clone_move_observe() -> Slice:
    states = _positions(16)
    for state in states:
        state.observation(state.turn)
    moves = [state.legal_actions()[0] for state in states]

    def run(seconds: float) -> float:
        steps = 0
        start = clock()
        while clock() - start < seconds:
            for state, move in zip(states, moves, strict=True):
                copy = state.clone()
                copy.apply_unchecked(move)
                copy.observation(copy.turn)
            steps += len(states)
        return steps / (clock() - start)

    return run


MAKERS: dict[str, Callable[[], Slice]] = {
    "fast": _fast,
    "clone": _clone,
    "observation": _observation,
    "server": _server,
    "clone_move_observe": _clone_move_observe,
}


def worker() -> None:
    """Answer ``{"task": name, "seconds": s}`` a line with ``{"rate": r}``."""
    made: dict[str, Slice] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request["task"] == "where":
            from foxtrot.core import state  # noqa: PLC0415

            print(json.dumps({"file": state.__file__}), flush=True)
            continue
        name = request["task"]
        if name not in made:
            made[name] = MAKERS[name]()
        print(json.dumps({"rate": made[name](float(request["seconds"]))}), flush=True)


class TreeWorker(Worker):
    """A Foxtrot worker on one source tree."""

    def __init__(self, tree: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HERE), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(tree)),
        )


# -------------------------------------------------------------------------- the run


def build(folder: Path) -> Path:
    """The compiled build made in ``folder`` by ``tools/build-compiled``; its ``src``."""
    print(f"building the compiled engine in {folder} ...", file=sys.stderr)
    subprocess.run(
        [str(ROOT / "tools" / "build-compiled"), str(folder)],
        check=True,
        env=dict(os.environ, PYTHON=sys.executable),
    )
    return folder / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=False, help="another tree's src")
    parser.add_argument("--compiled", type=Path, help="a compiled build's src")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds of CPU a slice")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--spec", default=DEFAULT_SPEC)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, the workers too
    with tempfile.TemporaryDirectory() as scratch:
        compiled = args.compiled or build(Path(scratch) / "compiled")
        trees = {"pure": ROOT / "src", "compiled": compiled}
        if args.base:
            trees["base"] = args.base
        run(args, trees)


def run(args: argparse.Namespace, trees: dict[str, Path]) -> None:
    """Measure every tree and OpenSpiel in alternating slices; print the table."""
    workers: dict[str, Worker] = {name: TreeWorker(tree) for name, tree in trees.items()}
    spiel = Worker(openspiel_python(args.venv, args.spec))
    version = spiel.ask({"task": "version"})["version"]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    for name, path in trees.items():
        where = workers[name].ask({"task": "where"})["file"]
        print(f"{name}: {path} (foxtrot.core.state from {Path(where).name})")
    print(
        f"OpenSpiel {version}; median of {args.rounds} alternating slices of"
        f" {args.slice:g} s CPU time each"
    )
    systems = [(tree, task) for task in TASKS for tree in trees] + [("spiel", g) for g in SPIEL]
    for tree, task in systems:  # a short warm-up slice each, not counted
        (spiel if tree == "spiel" else workers[tree]).ask({"task": task, "seconds": 0.2})
    rates: dict[tuple[str, str], list[float]] = {system: [] for system in systems}
    for round_ in range(args.rounds):
        for tree, task in systems if round_ % 2 == 0 else systems[::-1]:
            ask = (spiel if tree == "spiel" else workers[tree]).ask
            rates[tree, task].append(ask({"task": task, "seconds": args.slice})["rate"])
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    for each in [*workers.values(), spiel]:
        each.close()
    print(f"load average at the end {load_average()}")
    report(list(trees), rates)


def _ratio(a: list[float], b: list[float]) -> str:
    ratios = sorted(x / y for x, y in zip(a, b, strict=True))
    return f"{statistics.median(ratios):.2f}× ({ratios[0]:.2f}–{ratios[-1]:.2f})"


def report(trees: list[str], rates: dict[tuple[str, str], list[float]]) -> None:
    """Medians per system, then the ratios the goals are stated in."""
    units = {
        "fast": "moves/s",
        "clone": "clones/s",
        "observation": "reads/s",
        "server": "act/s",
        "clone_move_observe": "steps/s",
    }
    print(f"\n{'figure':<28}" + "".join(f"{tree:>14}" for tree in trees))
    for task in TASKS:
        cells = "".join(f"{statistics.median(rates[tree, task]):>14,.0f}" for tree in trees)
        label = f"{task} ({units[task]})"
        print(f"{label:<28}{cells}")
    for game in SPIEL:
        label = f"OpenSpiel {game} (moves/s)"
        print(f"{label:<28}{statistics.median(rates['spiel', game]):>14,.0f}")
    print("\nratios (median of the rounds' ratios, min–max):")
    for tree in trees:
        for game in SPIEL:
            ratio = _ratio(rates[tree, "fast"], rates["spiel", game])
            print(f"  {tree} fast loop / OpenSpiel {game}: {ratio}")
    if "base" in trees:
        for tree in ("pure", "compiled"):
            for task in TASKS:
                print(f"  {tree} / base, {task}: {_ratio(rates[tree, task], rates['base', task])}")


if __name__ == "__main__":
    main()
