"""OpenSpiel's tensors of ``python_foxtrot``: the state's methods against the numpy observer.

    python benchmarks/bench_openspiel_tensors.py

``state.information_state_tensor(player)`` (and ``observation_tensor``) go through pyspiel's
C++ bridge, which builds a fresh initial state and copies the tensor into a new list at every
call.  OpenSpiel's Python observation API, ``open_spiel.python.observation.make_observation``,
fills one numpy array in place (``FoxtrotObserver.set_from``; ``observer.tensor`` is a view).
The observer also keeps the last 256 tensors by history and player (``observer.CACHED``), so a
position asked again costs a copy.  For the positions of two random deals (every decision,
the player to move), seven alternating slices (the state's method; a fresh observer over
every position; the same observer over them again) give each one's median time a call and
the median of the slices' ratios; only the ratios of one run are comparable (the machine is
shared).

``--against TREE`` also times the state's methods of another checkout (a worker process that
imports ``TREE/src`` and replays the same positions), in slices alternating with this tree's,
and prints the numpy observer's ratios to them: how much faster a tensor is than it was
there (for example ``git worktree add /tmp/before 0a66aa1``, the tree before the observer
was made fast, then ``--against /tmp/before``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python.observation import make_observation

import foxtrot.openspiel  # noqa: F401 (registers python_foxtrot)

SLICES = 7


def positions(game: Any, deals: int, seed: int) -> list[Any]:
    """Clones of every decision's state in ``deals`` episodes of random play."""
    rng = random.Random(seed)
    found = []
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def replay(game: Any, histories: list[list[int]]) -> list[Any]:
    """The states reached by each history's actions."""
    states = []
    for history in histories:
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        states.append(state)
    return states


def worker() -> None:
    """The other tree's side of ``--against``: replays the positions sent, then times a
    slice of a state's method for each request (one JSON line in, one out)."""
    game = pyspiel.load_game("python_foxtrot", {"deals": 1})
    states = replay(game, json.loads(sys.stdin.readline()))
    for line in sys.stdin:
        kind = json.loads(line)["kind"]
        seconds = timed(lambda state, player, kind=kind: getattr(state, kind)(player), states)
        print(json.dumps({"seconds": seconds}), flush=True)


class Against:
    """Another tree's state methods, timed by a worker process that imports that tree."""

    def __init__(self, tree: Path, states: list[Any]) -> None:
        source = tree / "src"
        if not (source / "foxtrot" / "openspiel").is_dir():
            raise SystemExit(f"--against: no foxtrot.openspiel under {source}")
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(source)),
            cwd=str(tree),
        )
        self._send([state.history() for state in states])

    def _send(self, request: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()

    def slice(self, kind: str) -> float:
        """Seconds a call of ``kind`` on the other tree, one slice."""
        self._send({"kind": kind})
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the other tree's worker stopped (see its error above)")
        return float(json.loads(line)["seconds"])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def timed(call: Any, states: list[Any]) -> float:
    """Seconds a call of ``call(state, player)`` over every state."""
    start = time.perf_counter()
    for state in states:
        call(state, state.current_player())
    return (time.perf_counter() - start) / len(states)


def main() -> None:
    """Print both tensors' figures (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout, timed in the same run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    game = pyspiel.load_game("python_foxtrot", {"deals": 1})
    states = positions(game, 2, 1)
    other = Against(args.against, states) if args.against else None
    print(f"load average {os.getloadavg()[0]:.1f}; {len(states)} positions, 2 players, one deal")
    for kind, recall in (("information_state_tensor", True), ("observation_tensor", False)):
        kind_of = pyspiel.IIGObservationType(perfect_recall=recall)

        def method(state: Any, player: int, kind: str = kind) -> Any:
            return getattr(state, kind)(player)

        first = states[0]
        check = make_observation(game, kind_of)
        check.set_from(first, first.current_player())
        assert list(method(first, first.current_player())) == list(check.tensor)
        slow, cold, warm, there = [], [], [], []
        for _ in range(SLICES):
            if other is not None:
                there.append(other.slice(kind))
            observer = make_observation(game, kind_of)  # a fresh cache every slice

            def numpy_way(state: Any, player: int, observer: Any = observer) -> Any:
                observer.set_from(state, player)
                return observer.tensor

            slow.append(timed(method, states))
            cold.append(timed(numpy_way, states))  # every position new to the observer
            warm.append(timed(numpy_way, states))  # every position asked again
        for name, times in (("first ask", cold), ("asked again", warm)):
            ratio = statistics.median(a / b for a, b in zip(slow, times, strict=True))
            print(
                f"{kind}: state method {statistics.median(slow) * 1e6:.0f} us a call;"
                f" numpy observer, {name}, {statistics.median(times) * 1e6:.0f} us;"
                f" ratio {ratio:.1f}"
            )
            if other is not None:
                ratio = statistics.median(a / b for a, b in zip(there, times, strict=True))
                print(
                    f"  against {args.against}: its state method"
                    f" {statistics.median(there) * 1e6:.0f} us; ratio {ratio:.1f}"
                )
    if other is not None:
        other.close()
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
