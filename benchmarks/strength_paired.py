"""Two runs of ``benchmarks/strength.sh`` compared on the same decks: did the change help?

Run: ``python benchmarks/strength_paired.py OLD_DIR NEW_DIR`` (files of the same seeds).

A tournament's decks come from its seed, lineup and match only (one shuffle per
deal, in order), so two runs with the same seed play the same deck in deal k of
every match, with the same dealer, whatever the bots did in earlier deals (the
bots do not look at match totals).  A deal played by both runs is a paired
sample: the difference of hard's deal margin (mean score of its seats minus
greedy's) between the runs, on the same cards.  That is much less noisy than
comparing match shares.  Also the matches: how many hard won in one run and not
in the other (the discordant pairs; with duplicate seats, a match is one
sequence of decks in one seat rotation).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from strength_table import THREE, base, deal_margins, runs


def games(folder: Path, stem: str) -> dict[tuple[str, int, int, int], dict[str, Any]]:
    """Every game of one lineup's files, by seed suffix, lineup, match and rotation."""
    found = {}
    for seed, path in runs(folder, stem).items():
        data = json.loads(path.read_text(encoding="utf-8"))
        for game in data["games"]:
            found[seed, game["lineup"], game["match"], game["rotation"]] = game
    return found


def main() -> None:
    old_dir, new_dir = Path(sys.argv[1]), Path(sys.argv[2])
    print(
        "| players | take | deals paired | new − old deal margin (95% CI) | matches |"
        " hard won only in new / only in old |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 3, 4, 6):
        for take in ("match", "any"):
            diffs: list[float] = []
            matches = only_new = only_old = 0
            for name in THREE["hg"] if players == 3 else ("hg",):
                stem = f"{players}p-{take}-{name}"
                old, new = games(old_dir, stem), games(new_dir, stem)
                for key in sorted(set(old) & set(new)):
                    a, b = old[key], new[key]
                    diffs += [
                        y - x
                        for x, y in zip(
                            deal_margins(a, "hard"), deal_margins(b, "hard"), strict=False
                        )
                    ]
                    matches += 1
                    won = [base(g["seats"][g["winner"]]) == "hard" for g in (a, b)]
                    only_new += won[1] and not won[0]
                    only_old += won[0] and not won[1]
            if len(diffs) < 2:
                continue
            mean = statistics.fmean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            print(
                f"| {players} | {take} | {len(diffs)} | {mean:+.1f} ({mean - half:+.1f} to"
                f" {mean + half:+.1f}) | {matches} | {only_new} / {only_old} |"
            )


if __name__ == "__main__":
    main()
