"""What a deal margin is worth in matches: the share of matches to 200 a bot would win.

Run: ``python benchmarks/strength_margin_share.py benchmarks/results/hard-150 --players 4
--take match``.

The strength goals count matches, the screens (``strength_deals.py``, ``strength_judged.py``)
measure points a deal.  This script joins the two: it takes the deal scores of the recorded
tournaments (``strength.sh``'s JSON), takes out their mean margin (so that both sides are
even), and plays matches to the target from deals drawn at random from them (a match's deals
all of one seating), with the seats of ``--bot`` (hard) given ``margin`` points a deal more
than the other bot's (half added to one side, half taken from the other).  A match ends as
the rules say (M2, X8): once someone has reached the target, the highest total wins; a tie at
the top plays another deal.  The deals of a match are drawn independently, so the figures
ignore any streaks within a match.  On the recorded tables themselves (their own margin) the
shares come out within 2-3 points of the ones the matches gave.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from pathlib import Path

from strength_table import base, deal_margins


def recorded(
    folder: Path, players: int, take: str, bot: str
) -> tuple[list[tuple[list[int], list[bool]]], list[float]]:
    """Every recorded deal of these tables: the deal scores and which seats ``bot`` held; and
    ``bot``'s margin in each (``strength_table.deal_margins``)."""
    found: list[tuple[list[int], list[bool]]] = []
    margins: list[float] = []
    for path in sorted(folder.glob(f"{players}p-{take}-*.json")):
        data = json.loads(path.read_text())
        for game in data["games"]:
            mine = [base(label) == bot for label in game["seats"]]
            found.extend((list(scores), mine) for scores in game["deal_scores"])
            margins.extend(deal_margins(game, bot))
    return found, margins


def share(
    deals: list[list[tuple[list[float], list[float]]]],
    margin: float,
    target: int,
    matches: int,
    rng: random.Random,
) -> float:
    """The bot's share of ``matches`` played from ``deals`` (by seating, each deal its seats'
    scores and the other bot's), with ``margin`` points a deal added between the two sides."""
    wins = 0
    weights = [len(group) for group in deals]
    for _ in range(matches):
        ours = theirs = None
        group = rng.choices(deals, weights)[0]
        while True:
            mine, other = rng.choice(group)
            ours = [
                a + b + margin / 2 for a, b in zip(ours or [0.0] * len(mine), mine, strict=True)
            ]
            theirs = [
                a + b - margin / 2 for a, b in zip(theirs or [0.0] * len(other), other, strict=True)
            ]
            top = max(ours + theirs)
            if top >= target and (ours + theirs).count(top) == 1:
                wins += max(ours) == top
                break
    return wins / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="strength.sh's output folder")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--take", default="match")
    parser.add_argument("--bot", default="hard", help="the bot whose share is counted")
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--matches", type=int, default=6000)
    parser.add_argument("--margins", default="0,2,4,6,8,10,12")
    args = parser.parse_args()
    deals, margins = recorded(args.folder, args.players, args.take, args.bot)
    if not deals:
        raise SystemExit(f"no {args.players}p-{args.take}-*.json tournaments in {args.folder}")
    mean = statistics.fmean(margins)
    print(f"{len(deals)} recorded deals, {args.players}p take={args.take}: margin {mean:+.2f}")
    seatings: dict[tuple[bool, ...], list[tuple[list[float], list[float]]]] = {}
    for scores, mine in deals:
        seatings.setdefault(tuple(mine), []).append(
            (
                [s - mean / 2 for s, m in zip(scores, mine, strict=True) if m],
                [s + mean / 2 for s, m in zip(scores, mine, strict=True) if not m],
            )
        )
    even = list(seatings.values())
    rng = random.Random(2026)
    for margin in (float(text) for text in args.margins.split(",")):
        won = share(even, margin, args.target, args.matches, rng)
        print(f"  margin {margin:+.1f} a deal: {args.bot} wins {won:.1%} of the matches")


if __name__ == "__main__":
    main()
