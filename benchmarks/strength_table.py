"""The strength table of docs/reports/strength.md from the JSON files of ``benchmarks/strength.sh``.

Run: ``python benchmarks/strength_table.py [OUTDIR]`` (default ``strength``).

Hard against greedy, per table size and take rule: the share of the matches won
by either bot that hard won, with a 95% Wilson interval (at 2 players every
match; at more players a match may be won by any seat, and the seats are split
evenly: alternating at 4 and 6 players, and at 3 players two tournaments on the
same decks, ``hard,greedy,greedy`` and ``greedy,hard,hard``, taken together;
files ``<players>p-<take>-<pair>-s<seed>.json`` add more deal sequences),
and hard's mean deal margin: per deal, the mean score of its seats minus that of
greedy's seats, with a 95% interval (deals of a match are not independent, so
it is a little too narrow).  Other pairings (``gr``, ``hr``, ``ho``: greedy vs
random, hard vs random, hard vs oracle) are shown when their files exist.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from foxtrot.research.stats import wilson_interval

PAIRS = (
    ("hg", "hard vs greedy"),
    ("gr", "greedy vs random"),
    ("hr", "hard vs random"),
    ("ho", "hard vs oracle"),
)
#: The files of a pairing at 3 players: the two lineups that split the seats evenly.
THREE = {"hg": ("hgg", "ghh"), "gr": ("grr", "rgg"), "hr": ("hrr", "rhh"), "ho": ("hoo", "ohh")}


def base(label: str) -> str:
    """The bot of a label: ``greedy#2`` is greedy."""
    return label.split("#", maxsplit=1)[0]


def runs(folder: Path, stem: str) -> dict[str, Path]:
    """The files of one lineup by seed suffix (``""`` for the plain ``STEM.json``)."""
    found = {"": folder / f"{stem}.json"} if (folder / f"{stem}.json").exists() else {}
    for path in folder.glob(f"{stem}-s*.json"):
        found[path.stem[len(stem) + 1 :]] = path
    return found


def deal_margins(game: dict[str, Any], bot: str) -> list[float]:
    """Per deal of a game: the mean score of ``bot``'s seats minus that of the others."""
    seats = [base(label) for label in game["seats"]]
    found = []
    for scores in game["deal_scores"]:
        mine = [s for s, who in zip(scores, seats, strict=True) if who == bot]
        theirs = [s for s, who in zip(scores, seats, strict=True) if who != bot]
        found.append(statistics.fmean(mine) - statistics.fmean(theirs))
    return found


def tally(files: list[dict[str, Any]], first: str) -> tuple[int, int, int, list[float]]:
    """Matches, those won by ``first``, by the other bot, and ``first``'s deal margins."""
    matches = won = lost = 0
    margins: list[float] = []
    for data in files:
        for game in data["games"]:
            seats = [base(label) for label in game["seats"]]
            matches += 1
            if seats[game["winner"]] == first:
                won += 1
            else:
                lost += 1
            margins += deal_margins(game, first)
    return matches, won, lost, margins


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "strength")
    print(
        "| players | take | pairing | matches | first bot's share of the matches won by"
        " either (95% CI) | first bot's deal margin (95% CI) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 3, 4, 6):
        for take in ("match", "any"):
            for key, label in PAIRS:
                names = THREE[key] if players == 3 else (key,)
                # one file per lineup, or several (``-s<seed>``: more deal sequences); at 3
                # players only the seeds that both lineups played (the same decks)
                found = [runs(folder, f"{players}p-{take}-{name}") for name in names]
                seeds = sorted(set.intersection(*(set(runs) for runs in found)))
                if not seeds:
                    continue
                texts = [runs[seed].read_text(encoding="utf-8") for runs in found for seed in seeds]
                files = [json.loads(text) for text in texts]
                first = base(files[0]["results"][0]["bot"])
                matches, won, lost, margins = tally(files, first)
                low, high = wilson_interval(won, won + lost)
                mean = statistics.fmean(margins)
                half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
                print(
                    f"| {players} | {take} | {label} | {matches} |"
                    f" {won / (won + lost):.1%} ({low:.1%}–{high:.1%}) |"
                    f" {mean:+.1f} ({mean - half:+.1f} to {mean + half:+.1f}) |"
                )


if __name__ == "__main__":
    main()
