"""Speed of the expert's search on one core, from mid-deal positions: pure Python and compiled.

Run: ``python benchmarks/bench_expert.py`` (``--positions`` per table, default 12;
``--slices``, default 5).  On a shared machine run it under ``nice -n 10``.

A simulation is one playout: a sampled deal of the hidden cards (shared by
all the actions of a sample), one action applied to a copy, and the default
policy playing on to the horizon (``expert.horizon``).  Both search paths are
measured in the same run, in alternating slices (one pass over the positions
with the pure-Python search, one with the compiled kernel, ``foxtrot.fast``),
and the ratio is the median of the slices' ratios: machine speed drifts, and a
ratio of figures from separate runs means little.  Both paths give the same
analyses (``tests/test_fast_kernel.py``); the kernel's compilation is done
before the first slice.  Also the time of one ``hard`` decision (95th
percentile, on the path that is installed), which must stay under 1 s.

Times are the CPU time of this process (``time.process_time``): on an idle
machine the same as the wall clock, and other jobs sharing the cores count
less (they still slow a process down through the shared caches).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from foxtrot import Phase, State, TableOptions, TakeRule, fast
from foxtrot.bots import ExpertBot, GreedyBot, decide, make_bot
from foxtrot.bots.expert import horizon

clock = time.process_time


def positions(players: int, take: TakeRule, count: int) -> list[State]:
    """Mid-deal positions reached by greedy play (20 to 60 actions in)."""
    found: list[State] = []
    rng = random.Random(players * 100 + len(take.value))
    greedy = GreedyBot()
    while len(found) < count:
        state = State(TableOptions(players=players, take=take), dealer=0)
        state.deal(rng)
        for _ in range(rng.randrange(20, 60)):
            if state.phase is not Phase.PLAYING:
                break
            state.apply(decide(greedy, state, rng))
        if state.phase is Phase.PLAYING and len(state.legal_actions()) > 1:
            found.append(state)
    return found


def rate(states: list[State], compiled: bool, iterations: int = 60) -> float:
    """Simulations per second over ``states``, on the compiled or the pure path."""
    fast.use(compiled)
    bot = ExpertBot(iterations=iterations, seconds=None)
    rollouts = 0
    spent = 0.0
    for state in states:
        obs = state.observation(state.to_move)
        start = clock()
        analysis = bot.analyse(obs, random.Random(1))
        spent += clock() - start
        rollouts += analysis.rollouts
    fast.use(None)
    return rollouts / spent


def hard_p95(states: list[State]) -> float:
    """The 95th percentile of a ``hard`` decision's time, in seconds."""
    hard = make_bot("hard")
    times = []
    for state in states:
        start = clock()
        decide(hard, state, random.Random(2))
        times.append(clock() - start)
    times.sort()
    return times[min(len(times) - 1, round(0.95 * len(times)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--slices", type=int, default=5)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 6])
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core,"
        f" {args.positions} mid-deal positions per table, {args.slices} alternating slices,"
        f" compiled kernel {'installed' if fast.available() else 'NOT installed'}"
    )
    if fast.available():
        start = time.perf_counter()
        rate(positions(2, TakeRule.MATCH, 1), True, iterations=2)
        print(f"kernel compiled or loaded from the cache in {time.perf_counter() - start:.1f} s")
    print(
        f"{'players':>7} {'take':>5} | {'pure sims/s':>11} | {'compiled':>9} | ratio (min-max)"
        f" | hard p95"
    )
    for players in args.players:
        for take in (TakeRule.ANY, TakeRule.MATCH):  # a fixed order, whatever the enum says
            states = positions(players, take, args.positions)
            pure, compiled, ratios = [], [], []
            for _ in range(args.slices):
                pure.append(rate(states, False))
                if fast.available():
                    compiled.append(rate(states, True))
                    ratios.append(compiled[-1] / pure[-1])
            line = f"{players:>7} {take.value:>5} | {statistics.median(pure):>11,.0f} | "
            if ratios:
                line += (
                    f"{statistics.median(compiled):>9,.0f} | {statistics.median(ratios):5.1f}x"
                    f" ({min(ratios):.1f}-{max(ratios):.1f})"
                )
            else:
                line += f"{'-':>9} | -"
            print(f"{line} | {hard_p95(states) * 1e3:.0f} ms (H={horizon(players)})")


if __name__ == "__main__":
    main()
