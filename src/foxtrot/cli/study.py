"""``foxtrot study``: the same deals under several rule sets; a table of figures with intervals.

The playing and the figures are in ``foxtrot.research.study``; this module reads
the flags, shows a progress bar, prints the table and writes the JSON and PNG.
A usage mistake (a bad variant, an unknown bot, ``--matches 0``) prints one
line and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path

from ..core import FoxtrotError, TableOptions
from ..research.study import METRICS, StudyConfig, StudyResults, parse_variants, run_study
from ..research.tournament import cpu_count
from .console import Console
from .extras import require

DESCRIPTION = """\
Plays --matches matches under each rule variant with the chosen bots (repeated
to fill the table, seats rotated), and --skill-matches of greedy against random,
and reports per variant, with 95% intervals: deal length, deals per match, score
spread, foxtrots per deal, the edge of the first player and of the dealer, how
often the Q♠ decides a deal, and how much skill matters (greedy's win rate and
margin against random).  Match m uses the same decks under every variant, so the
variants differ by their rules, not by the luck of the cards.

Variants: comma-separated; each is key=value changes of the table options (the
flags below), joined by + for more than one: take=any,take=match+forced_foxtrot=true
"""

EXAMPLE = """\
example:
  foxtrot study --variants take=any,take=match,forced_foxtrot=true --players 2 \\
      --bots greedy --matches 200 --jobs 2 --seed 1 --json study.json --plot study.png
"""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_table_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``foxtrot study`` and its flags (the table flags are the base of every variant)."""
    parser = sub.add_parser(
        "study",
        help="compare rule variants: deal length, seat edges, Q♠, skill, with intervals",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--variants", required=True, metavar="LIST", help="e.g. take=any,take=match"
    )
    parser.add_argument(
        "--bots", default="greedy", metavar="LIST", help="bots at the table (default greedy)"
    )
    add_table_options(parser)
    parser.add_argument("--matches", type=int, default=100, metavar="K", help="per variant")
    parser.add_argument(
        "--skill-matches",
        type=int,
        default=None,
        metavar="K",
        help="greedy-against-random matches per variant (default: --matches; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every shuffle (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes (0: every core)"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="the whole report")
    parser.add_argument("--plot", type=Path, metavar="FILE", help="PNG: one panel per figure")


def run(args: argparse.Namespace, base: TableOptions, *, out: Console, err: Console) -> int:
    """Play the study the flags describe; print and write its report."""
    skill = args.matches if args.skill_matches is None else args.skill_matches
    try:
        if args.matches < 1 or skill < 0 or args.jobs < 0:
            raise ValueError("--matches must be at least 1, --skill-matches and --jobs 0 or more")
        bots = tuple(name.strip() for name in args.bots.split(","))
        config = StudyConfig(parse_variants(args.variants, base), bots, args.matches, skill,
                             args.seed)  # fmt: skip
    except (ValueError, FoxtrotError) as error:
        err.print(f"foxtrot study: {error}", markup=False)
        return 2
    if args.plot is not None:
        require("plot", "--plot")
    jobs = cpu_count() if args.jobs == 0 else args.jobs
    total = len(config.variants) * (config.matches + config.skill_matches)
    with err.progress(total, "matches") as advance:
        results = run_study(config, jobs=jobs, progress=advance)
    print_report(results, out)
    try:
        if args.json is not None:
            args.json.write_text(json.dumps(results.to_json(), indent=1) + "\n", encoding="utf-8")
            err.print(f"wrote {args.json}", markup=False)
        if args.plot is not None:
            from ..research.study_plot import save_study_plot  # noqa: PLC0415 (matplotlib)

            save_study_plot(results, args.plot)
            err.print(f"wrote {args.plot}", markup=False)
    except OSError as error:
        err.print(f"foxtrot study: cannot write {error.filename}: {error.strerror}", markup=False)
        return 1
    return 0


def _cell(value: float, low: float, high: float, percent: bool) -> str:
    if math.isnan(value):
        return "-"
    if percent:
        return f"{value:.1%} ({low:.1%}–{high:.1%})"
    return f"{value:.1f} ({low:.1f}–{high:.1f})"


def print_report(results: StudyResults, out: Console) -> None:
    """One row per figure, one column per variant."""
    config = results.config
    out.print(
        f"{len(config.variants)} variants × ({config.matches} matches of"
        f" {','.join(config.bots)} + {config.skill_matches} of greedy against random);"
        f" seed {config.seed}; {results.seconds:.1f} s",
        markup=False,
    )
    labels = [label for label, _ in config.variants]
    rows = []
    for key, label in METRICS:
        cells = []
        for figures in results.figures:
            est = figures.get(key)
            percent = key.endswith(("wins", "decides", "rate"))
            cells.append("-" if est is None else _cell(est.value, est.low, est.high, percent))
        rows.append([label, *cells])
    out.table(("figure (95% interval)", *labels), rows, right=range(1, len(labels) + 1))
    if len(labels) > 1 and results.changes:
        effect_rows = []
        for key, label in METRICS:
            percent = key.endswith(("wins", "decides", "rate"))
            cells = []
            for change in results.changes[1:]:
                found = change.get(key)
                if found is None or math.isnan(found.low):
                    cells.append("-" if found is None else f"{found.mean:+.3g}")
                elif percent:
                    cells.append(f"{found.mean:+.1%} ({found.low:+.1%} to {found.high:+.1%})")
                else:
                    cells.append(f"{found.mean:+.2f} ({found.low:+.2f} to {found.high:+.2f})")
            if any(cell != "-" for cell in cells):
                effect_rows.append([label, *cells])
        out.table(
            (f"effect over {labels[0]} (paired, 95%)", *labels[1:]),
            effect_rows,
            right=range(1, len(labels)),
        )
    out.print(
        "effects: per match, the variant's figure minus the first variant's on the same"
        " decks; mean and Student's t interval over the matches.  "
        "shares: Wilson intervals; means: ± 1.96 standard errors.  Edges: a seat's deal"
        " score minus the table's mean.  Q♠ decides: the outright winner changes when"
        " the Q♠ scores 0.",
        style="dim",
        markup=False,
    )


__all__ = ["add_parser", "print_report", "run"]
