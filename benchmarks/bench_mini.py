"""Mini-Foxtrot: tree sizes, CFR+ to a low exploitability, and every bot's exploitability.

Reproduces the table of docs/research/mini.md::

    PYTHONPATH=src python3 benchmarks/bench_mini.py            # the tiny game, all bots
    PYTHONPATH=src python3 benchmarks/bench_mini.py --game small --max-iterations 50

For the chosen game (``foxtrot.openspiel.mini.MINI_GAMES``) it prints, as JSON lines: the
tree size of every mini game (histories, chance and decision nodes, information states);
CFR+ (OpenSpiel's Python ``cfr.CFRPlusSolver``) run until the exploitability is below
``--below`` (iterations, seconds, the curve); then the exploitability (NashConv / 2, in
points of margin a deal) of random (uniform), greedy, hard (the expert's search, work-
bounded: ``PURE_HARD_ITERATIONS`` samples, no clock), OpenSpiel's ISMCTS, the shipped
2-player learned policy (``foxtrot.learn.policy``: its arrays read a mini game's observation
as they read the real game's) and the CFR+ policy.  Searching bots are the mix of
``--samples`` seeded behaviours per information state (``BotPolicy``).  Seconds depend on
the machine's load, printed at the start and end.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable

from foxtrot.bots import GreedyBot
from foxtrot.bots.base import Bot
from foxtrot.bots.expert import PURE_HARD_ITERATIONS, ExpertBot
from foxtrot.learn.policy import LearnedBot
from foxtrot.openspiel.bots import OpenSpielBot
from foxtrot.openspiel.mini import (
    MINI_GAMES,
    BotPolicy,
    exploitability_of,
    mini_game,
    solve,
    tree_size,
    uniform_policy,
)


def show(**fields: object) -> None:
    """One JSON line."""
    print(json.dumps(fields), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tiny", choices=list(MINI_GAMES))
    parser.add_argument("--below", type=float, default=0.01)
    parser.add_argument("--max-iterations", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=3, help="seeded choices per infostate")
    parser.add_argument("--ismcts", type=int, default=100, help="ISMCTS simulations a move")
    parser.add_argument("--sizes", default="tiny,small,medium", help="games whose tree to count")
    parser.add_argument("--skip-bots", action="store_true")
    args = parser.parse_args()

    show(start=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), load=os.getloadavg())
    for name in filter(None, args.sizes.split(",")):
        began = time.perf_counter()
        size = tree_size(mini_game(name))
        show(
            game=name,
            params=MINI_GAMES[name],
            deck=mini_game(name).rules.options.deck_size,
            histories=size.histories,
            chance=size.chance,
            decisions=size.decisions,
            terminal=size.terminal,
            infostates=list(size.infostates),
            seconds=round(time.perf_counter() - began, 1),
        )

    game = mini_game(args.game)
    began = time.perf_counter()
    solved = solve(
        game,
        below=args.below,
        max_iterations=args.max_iterations,
        on_check=lambda done, value: show(
            cfr_plus=done,
            exploitability=value,
            seconds=round(time.perf_counter() - began, 1),
        ),
    )
    show(
        game=args.game,
        solved=solved.exploitability < args.below,
        iterations=solved.iterations,
        exploitability=solved.exploitability,
        seconds=round(time.perf_counter() - began, 1),
        load=os.getloadavg(),
    )
    if args.skip_bots:
        return

    bots: dict[str, Callable[[], Bot]] = {
        "greedy": GreedyBot,
        "hard": lambda: ExpertBot(PURE_HARD_ITERATIONS, None),
        "ismcts": lambda: OpenSpielBot("ismcts", args.ismcts),
        "learned": LearnedBot,
    }
    began = time.perf_counter()
    show(bot="random", exploitability=exploitability_of(game, uniform_policy(game)))
    for name, make in bots.items():
        began = time.perf_counter()
        samples = 1 if name in ("greedy", "learned") else args.samples  # the pure ones
        value = exploitability_of(game, BotPolicy(game, make, samples=samples))
        show(
            bot=name,
            samples=samples,
            exploitability=value,
            seconds=round(time.perf_counter() - began, 1),
        )
    show(bot="cfr+", exploitability=solved.exploitability, iterations=solved.iterations)
    show(end=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), load=os.getloadavg())


if __name__ == "__main__":
    main()
