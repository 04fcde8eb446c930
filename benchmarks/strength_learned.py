"""The learned player's strength, from the JSON files of duplicate tournaments.

Run the tournaments (the learned policy against another bot, ``--duplicate``, no time
limit for a search bot so that the matches are repeatable), then this script:

    foxtrot tournament --bots learned:learned-2p.npz,greedy --players 2 --take match \\
        --matches 100 --duplicate --seed 2026 --json learned-2p-match-greedy.json
    python benchmarks/strength_learned.py learned-2p-match-greedy.json ...

For each file: the pairing, the matches, the share of the matches won by either bot that
the learned policy won (95% Wilson interval), and its mean deal margin (per deal, the mean
score of its seats minus that of the other bot's seats; 95% interval from the deals'
spread — deals of a match are not independent, so it is a little too narrow), as
docs/reports/strength.md measures hard against greedy (``strength_table.py``).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

from foxtrot.research.stats import wilson_interval
from strength_table import base, deal_margins


def summary(path: Path) -> str:
    """One line of the table for one tournament file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    bots = [base(str(bot["label"])) for bot in data["bots"]]
    learned = next(bot for bot in bots if bot.startswith("learned:"))
    other = next(bot for bot in bots if bot != learned)
    won = lost = 0
    margins: list[float] = []
    for game in data["games"]:
        seats = [base(label) for label in game["seats"]]
        if seats[game["winner"]] == learned:
            won += 1
        else:
            lost += 1
        margins += deal_margins(game, learned)
    low, high = wilson_interval(won, won + lost)
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    players = data["options"]["players"]
    take = data["options"]["take"]
    return (
        f"| {players} | {take} | learned vs {other} | {won + lost} | {len(margins)} |"
        f" {won / (won + lost):.1%} ({low:.1%}–{high:.1%}) |"
        f" {mean:+.1f} ({mean - half:+.1f} to {mean + half:+.1f}) |"
    )


def main() -> None:
    """Print the table for the files given."""
    print(
        "| players | take | pairing | matches | deals | learned's share of the matches"
        " (95% CI) | learned's deal margin (95% CI) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in sys.argv[1:]:
        print(summary(Path(name)))


if __name__ == "__main__":
    main()
