"""The openskill ratings of saved tournaments: ``foxtrot tournament --ratings`` over JSON reports.

Run: ``python benchmarks/rate_tournaments.py [--anchor BOT] [--same NAME=AS] FILE.json ...``

Every match of every file (``foxtrot tournament --json``) is rated with the server's model
(``foxtrot.skill``), as ``--ratings`` rates one tournament: the files in the order given,
each in rounds (the first deal sequence of every lineup and rotation, then the second, ...),
every bot from where a new person starts, then every mu shifted so that the anchor sits at
25.  Bots are matched by name across files (``hard`` in one file is ``hard`` in the next).
A match in which a bot sits twice (``hard,greedy`` at 4 players) cannot be rated as it is:
such a file is refused, unless ``--split``, which rates a bot's second seat in a match as
another entrant (``hard#2``, its first seat's twin: the seats alternate, so each sits
where the other did in the next rotation) and prints, per bot, the mean mu of its entrants
too.  Used for docs/guide/accounts.md (the computers' fixed ratings).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from foxtrot.skill import Finish, Rated, rate_entrants


def finishes(
    reports: Sequence[dict[str, object]],
    same: dict[str, str] | None = None,
    split: bool = False,
) -> tuple[list[str], list[Finish]]:
    """The bots (in order of appearance) and every match of ``reports``, in rating order.

    ``same``: names that are one bot (``{"greedy": "medium"}``: the level and its bot);
    ``split``: a bot's second seat in a match is the entrant ``NAME#2``.
    """
    same = same or {}
    labels: list[str] = []
    found: list[Finish] = []
    for report in reports:
        games = report["games"]
        assert isinstance(games, list)
        for game in sorted(games, key=lambda g: (g["match"], g["rotation"], g["lineup"])):
            names = [same.get(name, name) for name in game["seats"]]
            if split:
                names = [
                    name if name not in names[:index] else f"{name}#{names[:index].count(name) + 1}"
                    for index, name in enumerate(names)
                ]
            for name in names:
                if name not in labels:
                    labels.append(name)
            seats = tuple(labels.index(name) for name in names)
            found.append(Finish(seats, int(game["winner"]), tuple(game["totals"])))
    return labels, found


def rate_files(
    paths: Sequence[Path], anchor: str, same: dict[str, str] | None = None, split: bool = False
) -> list[Rated]:
    """The ratings of every bot over every match of the files."""
    reports = [json.loads(path.read_text(encoding="utf-8")) for path in paths]
    labels, found = finishes(reports, same, split)
    return rate_entrants(labels, found, anchor)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table of ratings."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("files", type=Path, nargs="+", help="foxtrot tournament --json reports")
    parser.add_argument("--anchor", default="medium", help="the bot at mu 25 (default medium)")
    parser.add_argument(
        "--same",
        action="append",
        default=[],
        metavar="NAME=AS",
        help="count NAME's matches as AS's (greedy=medium: the level and its bot)",
    )
    parser.add_argument(
        "--split", action="store_true", help="rate a bot's second seat in a match as NAME#2"
    )
    args = parser.parse_args(argv)
    same = dict(pair.split("=", 1) for pair in args.same)
    try:
        rated = rate_files(args.files, args.anchor, same, args.split)
    except ValueError as error:
        parser.exit(2, f"rate_tournaments: {error}\n")
    print(f"{'bot':<10} {'mu':>7} {'sigma':>6} {'ordinal':>8} {'matches':>8}")
    for r in rated:
        print(f"{r.label:<10} {r.mu:7.2f} {r.sigma:6.2f} {r.ordinal:8.2f} {r.matches:8d}")
    if args.split:
        bots: dict[str, list[float]] = {}
        for r in rated:
            bots.setdefault(r.label.split("#")[0], []).append(r.mu)
        for bot, mus in bots.items():
            print(f"{bot}: mean mu of its seats {sum(mus) / len(mus):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
