"""Screening variants of the expert against greedy, one duplicate deal at a time.

Run: ``nice -n 10 python benchmarks/strength_deals.py --players 4 --take match --deals 40
--variant base:share=0 --variant tempered:share=0.333`` (``--jobs 2``).

A match to 200 is a coarse yardstick: one bit per match, and a long one.  A
single deal, played once per seat rotation with the same shuffled deck (the
expert on half the seats, greedy on the others; at 3 players two lineups, one
expert seat and then two, so the seats are split evenly), gives the expert's
deal margin: the mean deal score of its seats minus that of greedy's seats.
Every variant plays the same decks, so differences between variants are paired
(the interval of a difference is that of the per-deal differences).

A variant is ``NAME:key=value,...`` with ``ExpertBot`` arguments (``iterations``,
``share``, ``pool``, ``horizon``, ``rival``, ``stake``); the search has no time limit
(repeatable).
``oracle=1`` plays the oracle instead (``OracleBot``, the same search on the true state, which
sees every card; ``iterations`` and ``horizon`` only): the ceiling of what knowing the hidden
cards is worth against greedy.  The decision times are CPU times of the worker
(``time.process_time``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot, GreedyBot, OracleBot, decide, decide_oracle


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``tempered:share=0.333,iterations=150`` -> name and ``ExpertBot`` arguments."""
    name, _, rest = text.partition(":")
    kwargs: dict[str, Any] = {"seconds": None}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key == "sees":  # an oracle that sees part of the hidden cards (OracleBot)
            kwargs[key] = value
        else:
            kwargs[key] = (
                float(value) if key in {"share", "rival", "stake", "tempo"} else int(value)
            )
    return name, kwargs


def lineups(players: int) -> list[tuple[bool, ...]]:
    """Which seats the expert holds, before rotation (seats split evenly overall)."""
    if players % 2 == 0:
        return [tuple(seat % 2 == 0 for seat in range(players))]
    return [
        tuple(seat < (players - 1) // 2 for seat in range(players)),
        tuple(seat < (players + 1) // 2 for seat in range(players)),
    ]


def play_deal(task: tuple[int, str, int, dict[str, Any], int]) -> tuple[float, list[float]]:
    """One deck, every rotation of every lineup: the expert's mean margin and its times."""
    players, take, seed, kwargs, base = task
    options = TableOptions(players=players, take=TakeRule(take))
    greedy = GreedyBot()
    kwargs = {key: value for key, value in kwargs.items() if key != "oracle"}
    oracle = OracleBot(**kwargs) if task[3].get("oracle") else None
    expert = ExpertBot(**kwargs)
    margins, times = [], []
    for index, lineup in enumerate(lineups(players)):
        for rotation in range(players if players % 2 else 2):
            seats = [lineup[(seat + rotation) % players] for seat in range(players)]
            state = State(options, dealer=seed % players)
            state.deal(random.Random(f"deal:{base}:{seed}"))
            rngs = [
                random.Random(f"bot:{base}:{seed}:{index}:{rotation}:{s}") for s in range(players)
            ]
            while state.phase is Phase.PLAYING:
                seat = state.to_move
                assert seat is not None
                if seats[seat]:
                    start = time.process_time()
                    if oracle is not None:
                        action = decide_oracle(oracle, state, rngs[seat])
                    else:
                        action = decide(expert, state, rngs[seat])
                    times.append(time.process_time() - start)
                else:
                    action = decide(greedy, state, rngs[seat])
                state.apply_unchecked(action)
            margins.append(seat_margin(state, seats))
    return statistics.fmean(margins), times


def seat_margin(state: State, seats: Sequence[bool]) -> float:
    """The deal just played: the mean score of the ``True`` seats minus that of the others."""
    log = state.deal_logs()[-1]
    assert log.scores is not None
    scores = [line.total for line in log.scores]
    mine = [s for s, ok in zip(scores, seats, strict=True) if ok]
    theirs = [s for s, ok in zip(scores, seats, strict=True) if not ok]
    return statistics.fmean(mine) - statistics.fmean(theirs)


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of a 95% interval (normal)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", choices=[rule.value for rule in TakeRule], default="match")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--every", type=int, default=4, help="report every N decks")
    args = parser.parse_args()
    variants = [parse_variant(text) for text in args.variant]
    found: dict[str, list[float]] = {name: [] for name, _ in variants}
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    start = time.perf_counter()
    # Deck by deck, every variant on each: stopped early, the report is still paired.
    todo = [
        (name, (args.players, args.take, seed, kwargs, args.seed))
        for seed in range(args.deals)
        for name, kwargs in variants
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(play_deal, [task for _, task in todo])
        for done, ((name, _), (margin, spent)) in enumerate(zip(todo, results, strict=True), 1):
            found[name].append(margin)
            times[name].extend(spent)
            if done % len(variants) == 0 and (done // len(variants)) % args.every == 0:
                report(args, variants, found, times, time.perf_counter() - start)


def report(
    args: argparse.Namespace,
    variants: list[tuple[str, dict[str, Any]]],
    found: dict[str, list[float]],
    times: dict[str, list[float]],
    elapsed: float,
) -> None:
    """Every variant's margin so far, and each one's paired difference from the first."""
    decks = len(found[variants[0][0]])
    print(f"{args.players}p take={args.take}: {decks} decks, {elapsed:.0f} s", flush=True)
    for name, kwargs in variants:
        mean, half = interval(found[name])
        print(
            f"  {name} {kwargs}: margin {mean:+.1f} ± {half:.1f} a deal;"
            f" {len(times[name])} decisions, {timing(times[name])}",
            flush=True,
        )
    print_paired(variants, found, "a deal", 1)


def timing(spent: list[float]) -> str:
    """The mean and the 95th percentile (nearest rank) of decision times."""
    ordered = sorted(spent)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"mean {statistics.fmean(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"


def print_paired(
    variants: list[tuple[str, dict[str, Any]]],
    found: dict[str, list[float]],
    unit: str,
    digits: int,
) -> None:
    """Each variant's paired difference from the first, with a 95% interval."""
    first = variants[0][0]
    for name, _ in variants[1:]:
        diffs = [b - a for a, b in zip(found[first], found[name], strict=True)]
        mean, half = interval(diffs)
        print(
            f"  {name} - {first}: {mean:+.{digits}f} ± {half:.{digits}f} {unit} (paired)",
            flush=True,
        )


if __name__ == "__main__":
    main()
