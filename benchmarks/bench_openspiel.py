"""Foxtrot against OpenSpiel in one interleaved run: alternating 1-second slices, median ratios.

Run: ``python benchmarks/bench_openspiel.py`` (``--rounds`` slices per system, default 7;
``--slice`` seconds, default 1; ``--only play`` or ``--only search`` for half the table;
``--only chance`` for OpenSpiel's hearts loop against two slower ways of picking a chance
outcome).  Not under ``nice``: the slices count CPU time, and the load average is printed
at the start and at the end.

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

Random play (per move: the players' moves a second; dealing is timed but not
counted, on both sides; OpenSpiel deals and draws as chance actions, one card
each, so the ratio to its actions with those counted is printed too):

- OpenSpiel ``crazy_eights`` and ``hearts`` (C++ games) driven by a plain Python
  loop, as a careful user writes it: ``legal_actions()``, a uniformly random choice,
  ``apply_action()``, at chance nodes too (there ``legal_actions()`` are the chance
  outcomes, all equally likely in these two games: checked before the first slice);
- Foxtrot at 4 players (as hearts), take = match (the default rule), whole matches:
  its code loop (``legal_codes()``, ``apply_code_unchecked()``: what search does),
  its fast loop (``legal_actions()``, ``apply_unchecked()``) and its checked loop
  (``apply()``, which checks and returns events: what a front end does).

Search, on mid-game positions, per simulation (one sampled deal of the hidden
cards played out) and per playout move (the moves those simulations play: nearer to
equal work, since the two games' playouts differ in length; Foxtrot's default policy
weighs each move, ISMCTS's rollout picks at random):

- OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``) and its Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``) on hearts, random-rollout evaluator
  (one rollout, to the end of the game), 1,000 and 100 simulations a move; a
  simulation plays every move left in the game (counted exactly per position);
- Foxtrot's expert (``ExpertBot.analyse``) at 4 players, take = match, from
  positions reached by greedy play (``bench_expert.positions``): ``hard`` as it
  ships with the compiled kernel (its 1,500 samples a move, each simulation to the
  end of the deal; no wall-clock cap, so that a slice counts samples), and 60
  samples to the horizon (three rounds: the pure-Python ``hard``'s depth, run here
  by the kernel); a simulation's moves are measured per position by
  ``playout_moves`` (the same policy, in Python, on resampled deals).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
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

Slice = Callable[[float], dict[str, Any]]  # seconds -> {"rate": r} (and more figures)

# ------------------------------------------------------------------ OpenSpiel side
# (runs in the benchmark's own interpreter, which has open_spiel and not foxtrot)


def _module(name: str) -> Any:
    """An OpenSpiel module (only in the worker's interpreter; untyped)."""
    return importlib.import_module(name)


def _check_uniform_chance(game: Any, games: int = 50) -> None:
    """Refuse a game whose chance outcomes are not all equally likely in ``games`` random games.

    The loops below pick a chance outcome as a careful user of OpenSpiel would for these
    games, with one uniform choice over ``legal_actions()`` (at a chance node, the outcomes'
    actions): 1.4-2.6 times as fast as ``random.choices`` over ``chance_outcomes()``, and
    right only where every outcome is equally likely, as in ``hearts`` and ``crazy_eights``
    (every card of the stock or the undealt deck).  This check keeps that true."""
    rng = random.Random(1)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probs = [p for _, p in state.chance_outcomes()]
                if max(probs) - min(probs) > 1e-12:
                    raise RuntimeError(f"{game}: chance outcomes not uniform: {probs}")
            state.apply_action(rng.choice(state.legal_actions()))


def _openspiel_random_play(name: str, chance: str = "legal") -> Slice:
    """Whole games of random play; chance outcomes picked by ``chance``: ``legal`` (a uniform
    choice of ``legal_actions()``, the default), ``outcomes`` (a uniform choice of
    ``chance_outcomes()``) or ``choices`` (``random.choices`` weighted by their
    probabilities: right for any game, and the loop of this script before 2026-12-03)."""
    pyspiel = _module("pyspiel")
    game = pyspiel.load_game(name)
    _check_uniform_chance(game)
    rng = random.Random(2026)
    choice, choices = rng.choice, rng.choices

    def run(seconds: float) -> dict[str, float]:
        moves = chances = 0
        start = clock()
        while clock() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node():
                    moves += 1
                    state.apply_action(choice(state.legal_actions()))
                    continue
                chances += 1
                if chance == "legal":  # uniform (_check_uniform_chance)
                    state.apply_action(choice(state.legal_actions()))
                elif chance == "outcomes":
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(actions, probs)[0])
        elapsed = clock() - start
        return {"rate": moves / elapsed, "all": (moves + chances) / elapsed}

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
            if state.is_chance_node():  # uniform: _check_uniform_chance
                state.apply_action(rng.choice(state.legal_actions()))
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
    # a simulation plays every move left in the game (the tree's, then the rollout's): in hearts,
    # after the pass, one a card still in a hand, with no chance node
    left = [_moves_to_end(state) for state in states]
    turn = [0]

    def run(seconds: float) -> dict[str, float]:
        done = moves = 0
        start = clock()
        while clock() - start < seconds:
            at = turn[0] % len(states)
            bot.step(states[at])
            turn[0] += 1
            done += simulations
            moves += simulations * left[at]
        elapsed = clock() - start
        return {"rate": done / elapsed, "moves": moves / elapsed}

    return run


def _moves_to_end(state: Any) -> int:
    """The players' moves left to the end of this (chance-free from here) hearts game."""
    state = state.clone()
    rng = random.Random(3)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            raise RuntimeError("a chance node after the pass: a simulation's length is not fixed")
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def _openspiel_version() -> str:
    from importlib.metadata import version  # noqa: PLC0415

    return version("open_spiel")


OPENSPIEL: dict[str, tuple[str, Callable[[], Slice]]] = {
    "crazy_eights": (
        "OpenSpiel crazy_eights, Python loop",
        lambda: _openspiel_random_play("crazy_eights"),
    ),
    "hearts": ("OpenSpiel hearts, Python loop", lambda: _openspiel_random_play("hearts")),
    "hearts_outcomes": (
        "OpenSpiel hearts, chance by choice(chance_outcomes())",
        lambda: _openspiel_random_play("hearts", "outcomes"),
    ),
    "hearts_choices": (
        "OpenSpiel hearts, chance by zip + random.choices",
        lambda: _openspiel_random_play("hearts", "choices"),
    ),
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


def openspiel_python(venv: Path | None, spec: str) -> Path:
    """The benchmark environment's interpreter, made (and ``spec`` installed) if needed; with
    no ``--venv``, this interpreter if it imports ``pyspiel`` already."""
    if venv is None:
        if importlib.util.find_spec("pyspiel") is not None:
            return Path(sys.executable)
        venv = DEFAULT_VENV
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


def _foxtrot_random_play(loop: str) -> Slice:
    """Whole matches of random play: ``codes`` (``legal_codes``, ``apply_code_unchecked``: the
    search's own loop), ``fast`` (``legal_actions``, ``apply_unchecked``) or ``checked``
    (``apply``, which checks the move and returns its events: a front end's loop)."""
    from foxtrot import Phase, State, TableOptions  # noqa: PLC0415

    options = TableOptions(players=PLAYERS)
    rng = random.Random(2026)
    choice = rng.choice

    def run(seconds: float) -> dict[str, float]:
        moves = 0
        start = clock()
        while clock() - start < seconds:
            state = State(options, dealer=0)
            while not state.is_over:
                state.deal(rng)
                if loop == "codes":
                    legal, do = state.legal_codes, state.apply_code_unchecked
                    while state.phase is Phase.PLAYING:
                        do(choice(legal()))
                        moves += 1
                    continue
                legal_actions = state.legal_actions
                step: Callable[..., object] = (
                    state.apply if loop == "checked" else state.apply_unchecked
                )
                while state.phase is Phase.PLAYING:
                    step(choice(legal_actions()))
                    moves += 1
        return {"rate": moves / (clock() - start)}

    return run


def _foxtrot_search(hard: bool, players: int = PLAYERS, take: str = "match") -> Slice:
    """The expert's search: ``hard`` as it ships with the kernel (its samples, to the end of
    the deal), or 60 samples a move to the horizon (three rounds: the pure-Python ``hard``'s
    depth, here run by the kernel, as ``bench_expert.py`` measures it), at ``players`` under
    ``take``.  Besides the rates, each slice's decisions' CPU times (``times``)."""
    sys.path.insert(0, str(HERE.parent))
    from bench_expert import positions  # noqa: PLC0415
    from foxtrot import TakeRule, fast  # noqa: PLC0415
    from foxtrot.bots import ExpertBot, budget  # noqa: PLC0415
    from foxtrot.bots.expert import horizon  # noqa: PLC0415

    if not fast.enabled():
        raise SystemExit("the compiled kernel is off (numba missing?): pip install '.[fast]'")
    states = positions(players, TakeRule(take), 20)
    iterations = budget("hard")[0] if hard else 60
    bot = ExpertBot(iterations=iterations, seconds=None)  # samples, never a wall-clock cap
    depth = horizon(players, iterations)
    lengths = [playout_moves(state, depth) for state in states]
    observations = [state.observation(state.to_move) for state in states]
    turn = [0]

    def run(seconds: float) -> dict[str, Any]:
        rollouts = 0
        moves = 0.0
        times = []
        start = clock()
        while clock() - start < seconds:
            at = turn[0] % len(observations)
            began = clock()
            done = bot.analyse(observations[at], random.Random(turn[0])).rollouts
            times.append(clock() - began)
            rollouts += done
            moves += done * lengths[at]
            turn[0] += 1
        elapsed = clock() - start
        return {"rate": rollouts / elapsed, "moves": moves / elapsed, "times": times}

    return run


def playout_moves(state: Any, depth: int, samples: int = 20) -> float:
    """The mean moves of one of the search's simulations from ``state``: the action searched,
    then the default policy's moves to ``depth`` more or the end of the deal, on deals of the
    hidden cards sampled as the search samples them (``State.resample``).

    Played here by the pure-Python policy (``bots.rollout.policy_move``), which the kernel's
    playouts are held equal to (``tests/test_fast_kernel.py``); the search's own weighting of
    the samples by the other players' moves is left out (it hardly moves a deal's length)."""
    from foxtrot import Phase  # noqa: PLC0415
    from foxtrot.bots.rollout import policy_move, unseen_by_rank  # noqa: PLC0415
    from foxtrot.core.actions import TAKE_CODE  # noqa: PLC0415

    rng = random.Random(11)
    seat = state.to_move
    total = count = 0
    for _ in range(samples):
        world = state.resample(seat, rng)
        unseen = unseen_by_rank(world)
        for code in world.legal_codes():
            playout = world.clone()
            playout.apply_code_unchecked(code)
            after = unseen[:]
            if code != TAKE_CODE:
                after[code >> 2] -= 1
            moves = 1
            while playout.phase is Phase.PLAYING and moves <= depth:
                move = policy_move(playout, rng, after)
                if move != TAKE_CODE:
                    after[move >> 2] -= 1
                playout.apply_code_unchecked(move)
                moves += 1
            total += moves
            count += 1
    return total / count


FOXTROT: dict[str, tuple[str, Callable[[], Slice]]] = {
    "codes": (f"Foxtrot code loop, {PLAYERS} players", lambda: _foxtrot_random_play("codes")),
    "fast": (f"Foxtrot fast loop, {PLAYERS} players", lambda: _foxtrot_random_play("fast")),
    "checked": (
        f"Foxtrot checked loop, {PLAYERS} players",
        lambda: _foxtrot_random_play("checked"),
    ),
    "expert": (
        f"Foxtrot expert, {PLAYERS} players, 60 samples to the horizon",
        lambda: _foxtrot_search(False),
    ),
    "expert_full": (
        f"Foxtrot hard as shipped, {PLAYERS} players, to the deal's end",
        lambda: _foxtrot_search(True),
    ),
    "expert_full_2match": (
        "Foxtrot hard as shipped, 2 players, to the deal's end",
        lambda: _foxtrot_search(True, 2, "match"),
    ),
    "expert_full_2any": (
        "Foxtrot hard as shipped, 2 players, take = any, to the deal's end",
        lambda: _foxtrot_search(True, 2, "any"),
    ),
}

#: The comparisons: (Foxtrot system, OpenSpiel system) pairs, in print order.
PAIRS = (
    ("codes", "crazy_eights"),
    ("codes", "hearts"),
    ("fast", "crazy_eights"),
    ("fast", "hearts"),
    ("checked", "crazy_eights"),
    ("checked", "hearts"),
    ("expert", "ismcts_cpp"),
    ("expert", "ismcts_python"),
    ("expert_full", "ismcts_cpp"),
    ("expert_full", "ismcts_python"),
    ("expert_full_2match", "ismcts_cpp"),
    ("expert_full_2any", "ismcts_cpp"),
)
#: ``--only chance``: OpenSpiel's loop against slower ways of picking a chance outcome.
CHANCE_PAIRS = (("hearts", "hearts_outcomes"), ("hearts", "hearts_choices"))


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages (``nan`` where the system has none)."""
    loads = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return " ".join(f"{load:.2f}" for load in loads)


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
    return (
        f"{model}, {os.cpu_count()} cores, load average {load_average()};"
        f" Python {platform.python_version()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="slices per system")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per slice")
    parser.add_argument(
        "--venv",
        type=Path,
        help="OpenSpiel's environment (default: this interpreter if it has pyspiel,"
        f" else {DEFAULT_VENV})",
    )
    parser.add_argument("--spec", default=DEFAULT_SPEC, help="what pip installs there")
    parser.add_argument(
        "--only",
        choices=["play", "search", "chance"],
        help="one half of the table, or OpenSpiel's chance loops against each other",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, the worker too
    pairs = (
        list(CHANCE_PAIRS)
        if args.only == "chance"
        else [
            (fox, spiel)
            for fox, spiel in PAIRS
            if args.only is None or (args.only == "search") == fox.startswith("expert")
        ]
    )
    python = openspiel_python(args.venv, args.spec)
    spiel = Worker(python)
    version = spiel.ask({"task": "version"})["version"]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {machine()}")
    print(
        f"OpenSpiel {version} ({python}); median of {args.rounds} alternating slices"
        f" of {args.slice:g} s CPU time each"
    )
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    foxtrot = {name: FOXTROT[name][1]() for name in names if name in FOXTROT}
    for name in names:  # a short warm-up slice each, not counted (first calls, caches)
        if name in foxtrot:
            foxtrot[name](0.2)
        else:
            spiel.ask({"task": name, "seconds": 0.2})
    rates: dict[str, list[float]] = {name: [] for name in names}
    every: dict[str, list[float]] = {name: [] for name in names}  # chance actions counted too
    moves: dict[str, list[float]] = {name: [] for name in names}  # search: playout moves/s
    times: dict[str, list[float]] = {name: [] for name in names}  # Foxtrot: decisions' CPU s
    for round_ in range(args.rounds):
        order = names if round_ % 2 == 0 else names[::-1]
        for name in order:
            if name in foxtrot:
                figures = foxtrot[name](args.slice)
            else:
                figures = spiel.ask({"task": name, "seconds": args.slice})
            rate = float(figures["rate"])
            rates[name].append(rate)
            every[name].append(float(figures.get("all", rate)))
            moves[name].append(float(figures.get("moves", rate)))
            times[name] += figures.get("times", [])
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    spiel.close()
    print(f"load average at the end {load_average()}")
    report(names, pairs, rates, every, moves)
    for name in names:
        if times[name]:
            ordered = sorted(times[name])
            p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
            print(
                f"{FOXTROT[name][0]}: a decision's CPU time mean"
                f" {1000 * statistics.mean(ordered):.0f} ms, p95 {1000 * p95:.0f} ms,"
                f" max {1000 * ordered[-1]:.0f} ms ({len(ordered)} decisions)"
            )


def report(
    names: list[str],
    pairs: list[tuple[str, str]],
    rates: dict[str, list[float]],
    every: dict[str, list[float]],
    moves: dict[str, list[float]],
) -> None:
    """Each system's median rates, then each pair's median per-round ratios, per unit."""
    labels = {name: label for name, (label, _) in (FOXTROT | OPENSPIEL).items()}
    width = max(len(labels[name]) for name in names)
    for name in names:
        search = name.startswith(("expert", "ismcts"))
        unit = "simulations/s" if search else "moves/s"
        line = f"{labels[name]:<{width}}  {statistics.median(rates[name]):>10,.0f} {unit}"
        if every[name] != rates[name]:
            line += f" ({statistics.median(every[name]):,.0f} actions/s with chance actions)"
        if search:
            per = statistics.median(m / r for m, r in zip(moves[name], rates[name], strict=True))
            line += f", {statistics.median(moves[name]):,.0f} playout moves/s ({per:.1f} a sim.)"
        print(line)

    def ratio(mine: list[float], theirs: list[float]) -> str:
        ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
        return f"x{statistics.median(ratios):.2f} (rounds {min(ratios):.2f}-{max(ratios):.2f})"

    for fox, other in pairs:
        if fox.startswith("expert"):
            line = (
                f"{labels[fox]} / {labels[other]}: per simulation"
                f" {ratio(rates[fox], rates[other])}; per playout move"
                f" {ratio(moves[fox], moves[other])}"
            )
        else:
            line = f"{labels[fox]} / {labels[other]}: per move {ratio(rates[fox], rates[other])}"
            line += f"; per action, chance ones too {ratio(every[fox], every[other])}"
        print(line)


if __name__ == "__main__":
    main()
