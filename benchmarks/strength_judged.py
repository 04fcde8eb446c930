"""Screening variants of the expert decision by decision, judged by the oracle on the true cards.

Run: ``nice -n 10 python benchmarks/strength_judged.py --players 4 --take match --deals 20
--variant base: --variant pool8:pool=8`` (``--jobs 2``).

Played deals (``strength_deals.py``) are a noisy yardstick: once two variants choose
differently the deals diverge, and a deal's margin spreads by 15-20 points.  Here the deal is
played once (the first variant on the expert's seats, greedy on the others, as in
``strength_deals.py``), and at every decision of an expert seat each variant and greedy say
what they would play.  The judge is the oracle's search on the true state (it sees every
card): each legal action's mean deal margin over ``--judge`` playouts to the end of the deal,
all actions on the same random numbers.  A variant's score at a decision is the judge's value
of its move minus that of greedy's move; its mean over the decisions is the points a decision
it gains over greedy, with a 95% interval, and each variant's paired difference from the
first.  A variant that reads the hidden cards better (sharper inference, a better sampler)
scores higher; the oracle itself would score the most.  Two oracle lines bound it: the judge's
own best move (optimistic: the best of its own noisy values) and the oracle's move chosen on a
second, independent search of the true state (unbiased, a little pessimistic); every variant's
gain is also printed as a share of the second, with a paired 95% interval (delta method).

A variant is ``NAME:key=value,...`` with ``ExpertBot`` arguments, as in ``strength_deals.py``;
``sees=hands`` (or ``next``, ``none``) makes it the oracle that sees only part of the hidden
cards (``OracleBot``): what seeing the others' hands, or the next seat's, is worth.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot, GreedyBot, OracleBot, decide
from foxtrot.bots.expert import TO_THE_END, Analysis, search
from strength_deals import interval, lineups, parse_variant, print_paired, timing
from strength_edge import honest, ratio_interval

#: The judge's own best move: what knowing every card is worth at a decision (an upper bound,
#: and optimistic: the judge picks the best of its own noisy values).
CEILING = "oracle"
#: The oracle's move chosen on a second, independent search of the true state and valued by
#: the judge's: what knowing every card is worth, without the optimism (slightly pessimistic:
#: the choice is made on noisy values).
FAIR_CEILING = "oracle, chosen apart"

Task = tuple[int, str, int, list[tuple[str, dict[str, Any]]], int, int]


def judged(state: State, key: str, playouts: int) -> Analysis:
    """The oracle's search of the true state for the seat to move, ``playouts`` an action."""
    seat = state.to_move
    assert seat is not None
    return search(
        state.clone(), seat, random.Random(key), iterations=playouts, seconds=None,
        resample=False, moves=(), horizon=TO_THE_END,
    )  # fmt: skip


def judge_deal(task: Task) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """One deck, the first lineup unrotated: per variant, the judged gain of each decision
    over greedy's move, and the CPU seconds of each decision."""
    players, take, seed, variants, base, judge = task
    options = TableOptions(players=players, take=TakeRule(take))
    bots = {
        name: OracleBot(**kwargs) if "sees" in kwargs else ExpertBot(**kwargs)
        for name, kwargs in variants
    }
    greedy = GreedyBot()
    seats = lineups(players)[0]
    state = State(options, dealer=seed % players)
    state.deal(random.Random(f"deal:{base}:{seed}"))
    gains: dict[str, list[float]] = {name: [] for name, _ in variants}
    gains[CEILING] = []
    gains[FAIR_CEILING] = []
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    turn = 0
    while state.phase is Phase.PLAYING:
        seat = state.to_move
        assert seat is not None
        turn += 1
        rng = random.Random(f"bot:{base}:{seed}:{turn}")
        if not seats[seat]:
            state.apply_unchecked(decide(greedy, state, rng))
            continue
        if len(state.legal_actions()) == 1:
            state.apply_unchecked(state.legal_actions()[0])
            continue

        values = judged(state, f"judge:{base}:{seed}:{turn}", judge).values
        reference = values[decide(greedy, state, random.Random(0))]
        gains[CEILING].append(max(values.values()) - reference)
        apart = judged(state, f"apart:{base}:{seed}:{turn}", judge).best
        gains[FAIR_CEILING].append(values[apart] - reference)
        played = None
        for name, bot in bots.items():
            start = time.process_time()
            action = honest(bot)(state, random.Random(f"bot:{base}:{seed}:{turn}"))
            times[name].append(time.process_time() - start)
            gains[name].append(values[action] - reference)
            played = action if played is None else played
        assert played is not None
        state.apply_unchecked(played)
    return gains, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", choices=[rule.value for rule in TakeRule], default="match")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--judge", type=int, default=300, help="the judge's playouts an action")
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--every", type=int, default=4, help="report every N decks")
    args = parser.parse_args()
    variants = [parse_variant(text) for text in args.variant]
    gains: dict[str, list[float]] = {name: [] for name, _ in variants}
    gains[CEILING] = []
    gains[FAIR_CEILING] = []
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    start = time.perf_counter()
    tasks = [
        (args.players, args.take, seed, variants, args.seed, args.judge)
        for seed in range(args.deals)
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (found, spent) in enumerate(pool.map(judge_deal, tasks), 1):
            for name, values in gains.items():
                values.extend(found[name])
            for name, seconds in times.items():
                seconds.extend(spent[name])
            if done % args.every == 0 or done == args.deals:
                report(
                    args, variants, gains, times, decks=done, elapsed=time.perf_counter() - start
                )


def report(
    args: argparse.Namespace,
    variants: list[tuple[str, dict[str, Any]]],
    gains: dict[str, list[float]],
    times: dict[str, list[float]],
    *,
    decks: int,
    elapsed: float,
) -> None:
    """Every variant's judged gain a decision over greedy, and its paired difference from the
    first variant."""
    first = variants[0][0]
    print(
        f"{args.players}p take={args.take}: {decks} decks, {len(gains[first])} decisions,"
        f" {elapsed:.0f} s",
        flush=True,
    )
    for name, kwargs in variants:
        mean, half = interval(gains[name])
        differ = sum(gain != 0 for gain in gains[name])
        print(
            f"  {name} {kwargs}: {mean:+.3f} ± {half:.3f} a decision over greedy"
            f" ({differ} moves unlike greedy's); {timing(times[name])}",
            flush=True,
        )
    mean, half = interval(gains[CEILING])
    print(f"  the judge's own best move: {mean:+.3f} ± {half:.3f} a decision over greedy")
    mean, half = interval(gains[FAIR_CEILING])
    print(f"  the oracle's move, chosen apart: {mean:+.3f} ± {half:.3f} a decision over greedy")
    for name, _ in variants:  # each variant's gain as a share of the oracle's (paired ratio)
        share, low, high = ratio_interval(gains[name], gains[FAIR_CEILING])
        print(f"  {name}: {share:.1%} of the oracle's gain ({low:.1%} to {high:.1%})")
    print_paired(variants, gains, "a decision", 3)


if __name__ == "__main__":
    main()
