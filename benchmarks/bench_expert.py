"""Speed of the expert's search on one core, from mid-deal positions.

Run: ``python benchmarks/bench_expert.py`` (``--positions`` per line, default 20).

A simulation is one playout: a sampled deal of the hidden cards (shared by
all the actions of a sample), one action applied to a copy, and the default
policy playing on to the horizon (``expert.horizon``) or, for the full-deal column,
to the end of the deal.  Also the time of one ``hard`` decision (95th
percentile), which must stay under 1 s.

Times are the CPU time of this process (``time.process_time``): on an idle
machine the same as the wall clock, and other jobs sharing the cores do not
count, so two trees can be compared while the machine is busy
(``benchmarks/compare.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from foxtrot import Phase, State, TableOptions, TakeRule
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


def rate(states: list[State], moves: int | None) -> float:
    """Simulations per second over ``states``."""
    bot = ExpertBot(iterations=60, seconds=None, horizon=moves)
    rollouts = 0
    spent = 0.0
    for state in states:
        obs = state.observation(state.to_move)  # type: ignore[arg-type]
        start = clock()
        analysis = bot.analyse(obs, random.Random(1))
        spent += clock() - start
        rollouts += analysis.rollouts
    return rollouts / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core,"
        f" {args.positions} mid-deal positions per line"
    )
    print(
        f"{'players':>7} {'take':>5} | {'sims/s (horizon)':>18} | {'sims/s (full deal)':>18}"
        f" | hard decision mean / p95"
    )
    hard = make_bot("hard")
    for players in (2, 4):
        for take in (TakeRule.ANY, TakeRule.MATCH):  # a fixed order, whatever the enum says
            states = positions(players, take, args.positions)
            times = []
            for state in states:
                start = clock()
                decide(hard, state, random.Random(2))
                times.append(clock() - start)
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * len(times)))]
            moves = f"{rate(states, None):>10,.0f} (H={horizon(players)})"
            print(
                f"{players:>7} {take.value:>5} | {moves}"
                f" | {rate(states, 1 << 30):>18,.0f} | {statistics.fmean(times) * 1e3:.0f} ms"
                f" / {p95 * 1e3:.0f} ms"
            )


if __name__ == "__main__":
    main()
