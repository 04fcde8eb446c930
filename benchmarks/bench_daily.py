"""The deal of the day's benchmark line: how long the hard computer takes to play each day's
deck, and whether two plays of the same deck agree.

Run: ``python benchmarks/bench_daily.py`` (``--variants 2-match,3-any``, ``--seed HEX``).  For
each variant it plays the deck twice in this process (``decks.play_out``: hard in seat 0
against the medium computers, every search seeded from the deck's seed) and prints the
score, the number of moves, the seconds of each play and whether the two records are equal.
The server computes this once per deck and day, in a worker process.
"""

from __future__ import annotations

import argparse
import time

from foxtrot.i18n import computer_name
from foxtrot.web.daily import decks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(decks.VARIANTS))
    parser.add_argument("--seed", default=bytes(range(32)).hex(), help="the deck's seed (hex)")
    parser.add_argument("--day", default="2026-12-03")
    args = parser.parse_args()
    print("variant   score  moves  first s  second s  equal")
    for variant in args.variants.split(","):
        players = decks.variant_options(variant)["players"]
        names = ["Hard"] + [computer_name(i, decks.OPPONENT) for i in range(1, players)]
        runs = []
        for _ in range(2):
            start = time.perf_counter()
            score, record = decks.play_out(args.seed, args.day, variant, names)
            runs.append((score, record, time.perf_counter() - start))
        (score, record, first), (_, again, second) = runs
        moves = len(record["deals"][0]["actions"])
        print(f"{variant:8} {score:+6d} {moves:6d} {first:8.1f} {second:9.1f}  {record == again}")


if __name__ == "__main__":
    main()
