"""The pace of a match: the table ``bots.match_odds.PACE`` is measured by this script.

Run: ``python benchmarks/match_pace.py --deals 4000``.

The expert's match objective (``bots.match_odds.win_chance``) needs to know how fast the
totals move: how many points a seat scores in a deal on average (how many deals are left
before someone reaches the target) and how far two seats' deal scores spread apart (how much
a lead of so many points is worth over those deals).  This script plays deals between greedy
players (``GreedyBot``, the default options but the take rule) for every table size and both
take rules and prints those two figures, in the form ``PACE`` is written in.
"""

from __future__ import annotations

import argparse
import random
import statistics

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import GreedyBot, decide


def pace(players: int, take: TakeRule, deals: int, seed: int) -> tuple[float, float]:
    """The mean deal score of a seat, and the standard deviation of two neighbours' difference."""
    options = TableOptions(players=players, take=take)
    bot = GreedyBot()
    scores: list[float] = []
    differences: list[float] = []
    for index in range(deals):
        rng = random.Random(f"pace:{seed}:{players}:{take.value}:{index}")
        state = State(options, dealer=index % players)
        state.deal(rng)
        while state.phase is Phase.PLAYING:
            state.apply_unchecked(decide(bot, state, rng))
        log = state.deal_logs()[-1]
        assert log.scores is not None
        deal = [line.total for line in log.scores]
        scores.extend(deal)
        differences.extend(deal[s] - deal[(s + 1) % players] for s in range(players))
    return statistics.fmean(scores), statistics.pstdev(differences)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals a cell")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print("PACE = {")
    for players in range(2, 10):
        for take in (TakeRule.MATCH, TakeRule.ANY):
            mean, spread = pace(players, take, args.deals, args.seed)
            print(f"    ({players}, {take is TakeRule.ANY}): Pace({mean:.1f}, {spread:.1f}),")
    print("}")


if __name__ == "__main__":
    main()
