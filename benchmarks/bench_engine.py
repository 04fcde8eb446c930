"""Engine speed on one core: random playout actions/s and deals/s, and the cost of clone().

Run: ``python benchmarks/bench_engine.py`` (``--seconds`` per configuration, default 2).

"Search loop" is what a bot's rollout does: ``legal_actions()``, a random
choice, ``apply_unchecked()``.  "Checked loop" uses ``apply()``, which checks
the action and returns its events, as a front end does; the last lines read
``observation()`` after every action too (of the seat to move, as an agent or a
front end does; of every seat, as the server does).  Both play whole
matches (dealing included) with uniformly random legal actions.

Times are the CPU time of this process (``time.process_time``): on an idle
machine the same as the wall clock, and other jobs sharing the cores do not
count, so two trees can be compared while the machine is busy
(``benchmarks/compare.py``).
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import random
import time
from collections.abc import Callable

from foxtrot import Phase, State, TableOptions, TakeRule

clock = time.process_time


def playout(
    options: TableOptions, seconds: float, checked: bool, watch: int = 0
) -> tuple[float, float, float]:
    """Random matches for ``seconds``: (actions/s, deals/s, actions per deal).

    ``watch``: after every action, read ``observation()`` of the seat to move
    (1, as an agent or a front end does) or of every seat (2, as the server does).
    """
    rng = random.Random(2026)
    choice = rng.choice
    seats = range(options.players)
    actions = deals = 0
    start = clock()
    while clock() - start < seconds:
        state = State(options, dealer=0)
        step: Callable[..., object] = state.apply if checked else state.apply_unchecked
        while not state.is_over:
            state.deal(rng)
            deals += 1
            while state.phase is Phase.PLAYING:
                step(choice(state.legal_actions()))
                actions += 1
                if watch == 1 and state.to_move is not None:
                    state.observation(state.to_move)
                elif watch == 2:
                    for seat in seats:
                        state.observation(seat)
    elapsed = clock() - start
    return actions / elapsed, deals / elapsed, actions / deals


def mid_deal_state(players: int) -> State:
    """A state 30 actions into a deal."""
    rng = random.Random(7)
    state = State(TableOptions(players=players), dealer=0)
    state.deal(rng)
    for _ in range(30):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def per_call(fn: Callable[[], object], repeat: int = 20000) -> float:
    """Microseconds per call of ``fn`` (best of five runs)."""
    best = float("inf")
    for _ in range(5):
        start = clock()
        for _ in range(repeat):
            fn()
        best = min(best, (clock() - start) / repeat)
    return best * 1e6


def cold_observation(state: State, repeat: int = 5000) -> float:
    """Microseconds of ``observation(0)`` of a copy that never answered one (best of five)."""
    best = float("inf")
    for _ in range(5):
        copies = [state.clone() for _ in range(repeat)]
        start = clock()
        for copy in copies:
            copy.observation(0)
        best = min(best, (clock() - start) / repeat)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core,"
        f" {args.seconds:g} s per line"
    )
    print(f"{'players':>7} {'take':>5} | {'search loop':>24} | {'checked loop':>24} | actions/deal")
    for players in (2, 4, 6, 9):
        for take in (TakeRule.ANY, TakeRule.MATCH):
            options = TableOptions(players=players, take=take)
            fast = playout(options, args.seconds, checked=False)
            slow = playout(options, args.seconds, checked=True)
            print(
                f"{players:>7} {take:>5} | {fast[0]:>10,.0f} act/s {fast[1]:>6,.0f} deal/s"
                f" | {slow[0]:>10,.0f} act/s {slow[1]:>6,.0f} deal/s | {fast[2]:.1f}"
            )
    for players in (2, 4):
        state = mid_deal_state(players)
        print(
            f"{players} players, mid-deal: clone() {per_call(state.clone):.2f} µs,"
            f" observation() {cold_observation(state):.2f} µs (a copy's first),"
            f" {per_call(functools.partial(state.observation, 0)):.2f} µs (asked again),"
            f" legal_actions() {per_call(state.legal_actions):.2f} µs"
        )
    for players in (2, 4):
        options = TableOptions(players=players)
        checked = playout(options, args.seconds, checked=True)[0]
        mover = playout(options, args.seconds, checked=True, watch=1)[0]
        every = playout(options, args.seconds, checked=True, watch=2)[0]
        print(
            f"{players} players, checked loop reading observation() after every action:"
            f" of the seat to move {mover:,.0f} act/s ({(1 / mover - 1 / checked) * 1e6:.2f} µs"
            f" a read), of every seat {every:,.0f} act/s"
            f" ({(1 / every - 1 / checked) * 1e6 / players:.2f} µs a read)"
        )


if __name__ == "__main__":
    main()
