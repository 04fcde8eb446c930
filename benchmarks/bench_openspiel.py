"""Foxtrot against OpenSpiel in one interleaved run: alternating 1-second slices, median ratios.

Run: ``python benchmarks/bench_openspiel.py`` (``--rounds`` slices per system, default 7;
``--slice`` seconds, default 1).

OpenSpiel is not a dependency of Foxtrot: the first run makes a virtual
environment of its own (``~/.cache/foxtrot-bench/openspiel``, or ``--venv``) and
installs ``open_spiel`` there from the package index (``--spec``, default
``open_spiel==2.0.2``); later runs reuse it.  The OpenSpiel side runs in that
interpreter as a worker process (this same file, ``--worker``), the Foxtrot side
in this one; the parent asks for one slice at a time, alternating, so that both
see the same machine.  Each slice is timed by the CPU time of the process that
does the work (``time.process_time``): other jobs sharing the cores do not count,
and the ratio of two slices of one round is what machine drift cannot move much.
Every figure printed is the median over the rounds; every ratio is the median of
the per-round ratios.

Random play (moves per second: the players' moves; dealing is timed but not
counted, on both sides; OpenSpiel deals and draws as chance actions, one card
each, so its rate with those counted as actions is printed too):

- OpenSpiel ``crazy_eights`` and ``hearts`` (C++ games) driven by a plain Python
  loop: ``legal_actions()``, a uniformly random choice, ``apply_action()``; chance
  nodes sampled from ``chance_outcomes()``;
- Foxtrot's fast loop (``legal_actions()``, ``apply_unchecked()``: what search
  does) and its checked loop (``apply()``, which checks and returns events: what
  a front end does), 4 players (as hearts), take = match (the default rule), whole
  matches.

Search (simulations per second, on mid-game positions):

- OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``) and its Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``) on hearts, random-rollout evaluator
  (one rollout, to the end of the game), 1,000 and 100 simulations a move;
- Foxtrot's expert (``ExpertBot.analyse``, as ``benchmarks/bench_expert.py``
  measures it) at 4 players, take = match, from positions reached by greedy play:
  simulations to the expert's horizon (what ``hard`` does) and to the end of the
  deal.
"""

from __future__ import annotations

import argparse
import importlib
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

clock = time.process_time
HERE = Path(__file__).resolve()
DEFAULT_VENV = Path.home() / ".cache" / "foxtrot-bench" / "openspiel"
DEFAULT_SPEC = "open_spiel==2.0.2"
PLAYERS = 4  # Foxtrot's table for the comparison: hearts is a 4-player game

Slice = Callable[[float], dict[str, float]]  # seconds -> {"rate": r} (and more figures)

# ------------------------------------------------------------------ OpenSpiel side
# (runs in the benchmark's own interpreter, which has open_spiel and not foxtrot)


def _module(name: str) -> Any:
    """An OpenSpiel module (only in the worker's interpreter; untyped)."""
    return importlib.import_module(name)


def _openspiel_random_play(name: str) -> Slice:
    pyspiel = _module("pyspiel")
    game = pyspiel.load_game(name)
    rng = random.Random(2026)

    def run(seconds: float) -> dict[str, float]:
        moves = chance = 0
        start = clock()
        while clock() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    moves += 1
        elapsed = clock() - start
        return {"rate": moves / elapsed, "all": (moves + chance) / elapsed}

    return run


def _hearts_positions(count: int) -> list[Any]:
    """Mid-game hearts positions: after the pass, 4 to 30 random moves in, a choice to make."""
    game = _module("pyspiel").load_game("hearts")
    rng = random.Random(7)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        target = 3 * game.num_players() + rng.randrange(4, 30)  # 3 cards passed by each
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if moves >= target and len(state.legal_actions()) > 1:
                found.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return found


def _openspiel_search(kind: str) -> Slice:
    pyspiel = _module("pyspiel")
    random_state = _module("numpy").random.RandomState
    game = pyspiel.load_game("hearts")
    states = _hearts_positions(20)
    simulations = 1000 if kind == "cpp" else 100
    if kind == "cpp":
        bot = pyspiel.ISMCTSBot(
            1,
            pyspiel.RandomRolloutEvaluator(1, 1),
            2.0,
            simulations,
            -1,
            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
            False,
            False,
        )
    else:
        ismcts = _module("open_spiel.python.algorithms.ismcts")
        mcts = _module("open_spiel.python.algorithms.mcts")
        evaluator = mcts.RandomRolloutEvaluator(1, random_state(1))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=random_state(2))
    turn = [0]

    def run(seconds: float) -> dict[str, float]:
        done = 0
        start = clock()
        while clock() - start < seconds:
            bot.step(states[turn[0] % len(states)])
            turn[0] += 1
            done += simulations
        return {"rate": done / (clock() - start)}

    return run


def _openspiel_version() -> str:
    from importlib.metadata import version  # noqa: PLC0415

    return version("open_spiel")


OPENSPIEL: dict[str, tuple[str, Callable[[], Slice]]] = {
    "crazy_eights": (
        "OpenSpiel crazy_eights, Python loop",
        lambda: _openspiel_random_play("crazy_eights"),
    ),
    "hearts": ("OpenSpiel hearts, Python loop", lambda: _openspiel_random_play("hearts")),
    "ismcts_cpp": ("OpenSpiel C++ ISMCTS, hearts", lambda: _openspiel_search("cpp")),
    "ismcts_python": ("OpenSpiel Python ISMCTS, hearts", lambda: _openspiel_search("python")),
}


def worker() -> None:
    """Answer one JSON request a line: ``{"task": name, "seconds": s}`` -> ``{"rate": r}``."""
    made: dict[str, Slice] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("task") == "version":
            answer: dict[str, Any] = {"version": _openspiel_version()}
        else:
            name = request["task"]
            if name not in made:
                made[name] = OPENSPIEL[name][1]()
            answer = made[name](float(request["seconds"]))
        print(json.dumps(answer), flush=True)


class Worker:
    """The OpenSpiel interpreter, asked for one slice at a time."""

    def __init__(self, python: Path) -> None:
        self.process = subprocess.Popen(
            [str(python), str(HERE), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the OpenSpiel worker stopped (see its error above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def openspiel_python(venv: Path, spec: str) -> Path:
    """The benchmark environment's interpreter, made (and ``spec`` installed) if needed."""
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import pyspiel"]
    if python.exists() and subprocess.run(probe, capture_output=True, check=False).returncode == 0:
        return python
    print(f"making {venv} and installing {spec} there (once) ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", spec], check=True)
    subprocess.run(probe, check=True)
    return python


# -------------------------------------------------------------------- Foxtrot side


def _foxtrot_random_play(checked: bool) -> Slice:
    from foxtrot import Phase, State, TableOptions  # noqa: PLC0415

    options = TableOptions(players=PLAYERS)
    rng = random.Random(2026)

    def run(seconds: float) -> dict[str, float]:
        moves = 0
        start = clock()
        while clock() - start < seconds:
            state = State(options, dealer=0)
            step: Callable[..., object] = state.apply if checked else state.apply_unchecked
            while not state.is_over:
                state.deal(rng)
                while state.phase is Phase.PLAYING:
                    step(rng.choice(state.legal_actions()))
                    moves += 1
        return {"rate": moves / (clock() - start)}

    return run


def _foxtrot_search(full_deal: bool) -> Slice:
    sys.path.insert(0, str(HERE.parent))
    from bench_expert import positions  # noqa: PLC0415
    from foxtrot import TakeRule  # noqa: PLC0415
    from foxtrot.bots import ExpertBot  # noqa: PLC0415

    states = positions(PLAYERS, TakeRule.MATCH, 20)
    bot = ExpertBot(iterations=60, seconds=None, horizon=(1 << 30) if full_deal else None)
    observations = [state.observation(state.to_move) for state in states]  # type: ignore[arg-type]
    turn = [0]

    def run(seconds: float) -> dict[str, float]:
        rollouts = 0
        start = clock()
        while clock() - start < seconds:
            obs = observations[turn[0] % len(observations)]
            rollouts += bot.analyse(obs, random.Random(turn[0])).rollouts
            turn[0] += 1
        return {"rate": rollouts / (clock() - start)}

    return run


FOXTROT: dict[str, tuple[str, Callable[[], Slice]]] = {
    "fast": (f"Foxtrot fast loop, {PLAYERS} players", lambda: _foxtrot_random_play(False)),
    "checked": (f"Foxtrot checked loop, {PLAYERS} players", lambda: _foxtrot_random_play(True)),
    "expert": (f"Foxtrot expert, {PLAYERS} players, horizon", lambda: _foxtrot_search(False)),
    "expert_full": (
        f"Foxtrot expert, {PLAYERS} players, full deal",
        lambda: _foxtrot_search(True),
    ),
}

#: The comparisons: (Foxtrot system, OpenSpiel system) pairs, in print order.
PAIRS = (
    ("fast", "crazy_eights"),
    ("fast", "hearts"),
    ("checked", "crazy_eights"),
    ("checked", "hearts"),
    ("expert", "ismcts_cpp"),
    ("expert", "ismcts_python"),
    ("expert_full", "ismcts_cpp"),
    ("expert_full", "ismcts_python"),
)


def machine() -> str:
    """The CPU model, cores and load, and the Python version."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{model}, {os.cpu_count()} cores, load average {load:.1f};"
        f" Python {platform.python_version()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="slices per system")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per slice")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV)
    parser.add_argument("--spec", default=DEFAULT_SPEC, help="what pip installs there")
    parser.add_argument("--only", choices=["play", "search"], help="one half of the table")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, the worker too
    pairs = [
        (fox, spiel)
        for fox, spiel in PAIRS
        if args.only is None or (args.only == "search") == fox.startswith("expert")
    ]
    spiel = Worker(openspiel_python(args.venv, args.spec))
    version = spiel.ask({"task": "version"})["version"]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    print(
        f"OpenSpiel {version} in {args.venv}; median of {args.rounds} alternating slices"
        f" of {args.slice:g} s CPU time each"
    )
    foxtrot = {name: FOXTROT[name][1]() for name in dict.fromkeys(f for f, _ in pairs)}
    names = list(foxtrot) + list(dict.fromkeys(s for _, s in pairs))
    for name in names:  # a short warm-up slice each, not counted (first calls, caches)
        if name in foxtrot:
            foxtrot[name](0.2)
        else:
            spiel.ask({"task": name, "seconds": 0.2})
    rates: dict[str, list[float]] = {name: [] for name in names}
    every: dict[str, list[float]] = {name: [] for name in names}  # chance actions counted too
    for round_ in range(args.rounds):
        order = names if round_ % 2 == 0 else names[::-1]
        for name in order:
            if name in foxtrot:
                figures = foxtrot[name](args.slice)
            else:
                figures = spiel.ask({"task": name, "seconds": args.slice})
            rates[name].append(figures["rate"])
            every[name].append(figures.get("all", figures["rate"]))
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    spiel.close()
    labels = {name: label for name, (label, _) in (FOXTROT | OPENSPIEL).items()}
    width = max(len(labels[name]) for name in names)
    for name in names:
        unit = "simulations/s" if name.startswith(("expert", "ismcts")) else "moves/s"
        line = f"{labels[name]:<{width}}  {statistics.median(rates[name]):>10,.0f} {unit}"
        if every[name] != rates[name]:
            line += f" ({statistics.median(every[name]):,.0f} actions/s with chance actions)"
        print(line)
    for fox, other in pairs:
        ratios = [a / b for a, b in zip(rates[fox], rates[other], strict=True)]
        line = (
            f"{labels[fox]} / {labels[other]}: x{statistics.median(ratios):.2f}"
            f" (rounds {min(ratios):.2f}-{max(ratios):.2f})"
        )
        if every[other] != rates[other]:
            alls = [a / b for a, b in zip(rates[fox], every[other], strict=True)]
            line += f"; x{statistics.median(alls):.2f} against its actions with chance ones"
        print(line)


if __name__ == "__main__":
    main()
