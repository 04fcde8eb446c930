"""The README's strength table from the JSON files of ``benchmarks/strength.sh``.

Run: ``python benchmarks/strength_table.py [OUTDIR]`` (default ``strength``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

PAIRS = (
    ("hg", "hard vs greedy"),
    ("gr", "greedy vs random"),
    ("hr", "hard vs random"),
    ("ho", "hard vs oracle"),
)


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "strength")
    print(
        "| players | take | pairing | matches | first bot's win rate (95% CI) | mean deal score |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for players in (2, 4):
        for take in ("any", "match"):
            for key, label in PAIRS:
                path = folder / f"{players}p-{take}-{key}.json"
                if not path.exists():
                    continue
                data = json.loads(path.read_text(encoding="utf-8"))
                first, second = data["results"][:2]
                # at 4 players each bot holds two seats: a match counts once per seat
                matches = data["matches_played"]
                rate = first["wins"] / (first["wins"] + second["wins"])
                print(
                    f"| {players} | {take} | {label} | {matches} |"
                    f" {first['win_rate']:.1%} ({first['win_low']:.1%}–{first['win_high']:.1%})"
                    f"{'' if players == 2 else f'; of the matches won by either, {rate:.0%}'} |"
                    f" {first['mean_deal_score']:.1f} vs {second['mean_deal_score']:.1f} |"
                )


if __name__ == "__main__":
    main()
