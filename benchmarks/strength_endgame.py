"""Screening variants of the expert in the ends of matches: who wins from the recorded totals.

Run: ``nice -n 10 python benchmarks/strength_endgame.py benchmarks/results/hard-1*
--players 4 --take match --variant deal: --variant match:stake=inf --jobs 2``.

A match is mostly decided in its last deals, and there the deal margin (what the
expert plays for by default) and the match (what the goals count) part ways: near the
target a point taken from the leader is worth more than one given to the last seat, and a
deal that ends the match is won or lost outright.  This script takes the recorded
tournaments of ``strength.sh`` (their JSON), and from every match the totals before its
last deal (``--back 2``: also before the one before; ``--close P``: only where the
leader is at most ``P`` points ahead of the best seat of the other bot), with the seats as
they were held (the expert where ``hard`` sat, greedy elsewhere) and the dealer of that deal.
From there each variant plays the match to its end on the same new decks with the same
random numbers for every seat, so the variants' results are paired scenario by scenario.

It prints each variant's share of the scenarios its seats won (and its decision times) and,
for every variant after the first, the scenarios won only by it and only by the first, and
the difference in shares in percentage points with a 95% interval (paired: the per-scenario
differences).  Variants are written as in
``strength_deals.py`` (``NAME:key=value,...``, ``ExpertBot`` arguments, no time limit).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot, GreedyBot, decide
from strength_deals import parse_variant, print_paired, timing
from strength_table import base

#: A scenario: the totals, which seats the expert holds, and the dealer of the next deal.
Scenario = tuple[list[int], list[bool], int]


def scenarios(
    folders: list[Path], players: int, take: str, back: int, close: float
) -> list[Scenario]:
    """The totals before each recorded match's last ``back`` deals (``close``: only where
    the leader leads the other side's best by at most that many points)."""
    found: list[Scenario] = []
    for path in (p for folder in folders for p in sorted(folder.glob(f"{players}p-{take}-*.json"))):
        for game in json.loads(path.read_text())["games"]:
            mine = [base(label) == "hard" for label in game["seats"]]
            deals = game["deal_scores"]
            for k in range(max(0, len(deals) - back), len(deals)):
                totals = [sum(deal[s] for deal in deals[:k]) for s in range(players)]
                ours = max(t for t, m in zip(totals, mine, strict=True) if m)
                theirs = max(t for t, m in zip(totals, mine, strict=True) if not m)
                if abs(ours - theirs) <= close:
                    found.append((totals, mine, (game["first_dealer"] + k) % players))
    return found


def play(task: tuple[int, str, int, Scenario, dict[str, Any]]) -> tuple[bool, list[float]]:
    """One scenario played to the end of the match: did an expert seat win, and its times."""
    players, take, index, (totals, mine, dealer), kwargs = task
    state = State(TableOptions(players=players, take=TakeRule(take)), dealer=dealer)
    state.totals = list(totals)
    expert, greedy = ExpertBot(**kwargs), GreedyBot()
    rngs = [random.Random(f"endgame:bot:{index}:{seat}") for seat in range(players)]
    times: list[float] = []
    deals = 0
    while state.winner is None:
        state.deal(random.Random(f"endgame:deck:{index}:{deals}"))
        deals += 1
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            if mine[seat]:
                start = time.process_time()
                action = decide(expert, state, rngs[seat])
                times.append(time.process_time() - start)
            else:
                action = decide(greedy, state, rngs[seat])
            state.apply_unchecked(action)
    return mine[state.winner], times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="folders of strength.sh JSON")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", choices=["match", "any"], default="match")
    parser.add_argument("--back", type=int, default=1, help="deals from the end to start at")
    parser.add_argument("--close", type=float, default=float("inf"), help="leads at most")
    parser.add_argument("--limit", type=int, default=0, help="at most this many scenarios")
    parser.add_argument("--variant", action="append", required=True, help="NAME:key=value,...")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    found = scenarios(args.folders, args.players, args.take, args.back, args.close)
    if args.limit:
        found = random.Random(2026).sample(found, min(args.limit, len(found)))
    if not found:
        folders = ", ".join(map(str, args.folders))
        parser.error(f"no scenarios in {folders} for {args.players}p take = {args.take}")
    variants = [parse_variant(text) for text in args.variant]
    tasks = [
        (name, (args.players, args.take, index, scenario, kwargs))
        for index, scenario in enumerate(found)
        for name, kwargs in variants
    ]
    print(f"{len(found)} scenarios, {args.players} players, take = {args.take}", flush=True)
    won: dict[str, list[bool]] = {name: [] for name, _ in variants}
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(play, [task for _, task in tasks])
        for done, ((name, _), (win, spent)) in enumerate(zip(tasks, results, strict=True), 1):
            won[name].append(win)
            times[name].extend(spent)
            if done % (10 * len(variants)) == 0:
                print(f"  {done // len(variants)} scenarios played", flush=True)
    first = variants[0][0]
    for name, _ in variants:
        wins = sum(won[name])
        share = 100 * wins / len(found)
        print(f"{name:>12}: won {wins} of {len(found)} ({share:.1f}%), {timing(times[name])}")
        if name != first:
            pairs = list(zip(won[name], won[first], strict=True))
            only, lost = sum(a > b for a, b in pairs), sum(a < b for a, b in pairs)
            print(f"{'':>14}won only by {name}: {only}, only by {first}: {lost}")
    print_paired(variants, {name: [100.0 * w for w in won[name]] for name in won}, "points", 1)


if __name__ == "__main__":
    main()
