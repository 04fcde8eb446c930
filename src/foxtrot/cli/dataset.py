"""``foxtrot dataset``: searched self-play written as records plus per-decision labels.

The playing and the format are in ``foxtrot.learn.dataset`` (docs/research/dataset.md);
this module reads the flags, shows the progress on stderr and prints what was written.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from ..bots import BUDGETS
from ..core import TableOptions
from ..research.tournament import cpu_count
from .console import Console
from .extras import require

DESCRIPTION = """\
Every seat plays the expert's search (hard, or expert: the longer budget), by samples
with no time limit, for DEALS deals (whole matches, the last one cut after the deal
that completes the count).  Written into DIR: meta.json (format foxtrot-dataset/1),
records.jsonl (one game record a line, read by foxtrot check) and labels.npz (one row
per decision: the mover's observation array, the legal moves, the move chosen and each
legal move's searched value).  Load it with foxtrot.learn.dataset.load.  The same seed
gives the same dataset with any --jobs.  With --mover a learned policy plays every move
instead and the search still labels every decision: the positions the learner reaches,
valued by the search (expert iteration).
"""

EXAMPLE = """\
example:
  foxtrot dataset --players 2 --deals 20 --jobs 2 --seed 1 --out hard-2p
  foxtrot dataset --players 2 --deals 20 --mover learned --seed 2 --out learner-2p
"""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_table_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``foxtrot dataset`` and its flags (``main`` passes its table flags in)."""
    parser = sub.add_parser(
        "dataset",
        help="write searched self-play as records and labelled decisions",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="a new directory")
    parser.add_argument("--deals", type=int, default=10, help="how many deals (default 10)")
    parser.add_argument(
        "--bot", choices=tuple(BUDGETS), default="hard", help="who plays (default hard)"
    )
    parser.add_argument(
        "--samples", type=int, default=None, help="samples a search (default: the level's)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=cpu_count(),
        help="processes (default: every core)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every match (default 0)")
    parser.add_argument(
        "--mover",
        metavar="learned[:PATH]",
        default=None,
        help="who plays the moves: a learned policy, the shipped one or a file (default: the"
        " searching bot); the search labels every decision either way",
    )
    add_table_options(parser)


def run(args: argparse.Namespace, options: TableOptions, *, out: Console, err: Console) -> int:
    """Write the dataset; 2 for a usage mistake (a count below 1, a directory in use)."""
    counts = (("--deals", args.deals), ("--jobs", args.jobs), ("--samples", args.samples))
    for flag, value in counts:
        if value is not None and value < 1:
            err.print(f"foxtrot dataset: {flag} must be at least 1", markup=False)
            return 2
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        err.print(f"foxtrot dataset: --out {args.out} exists and is not empty", markup=False)
        return 2
    require("rl", "foxtrot dataset")
    from ..learn import dataset  # noqa: PLC0415 (numpy: the rl extra, checked above)

    if args.mover is not None:
        try:
            dataset.make_mover(args.mover, options.players)
        except ValueError as error:
            err.print(f"foxtrot dataset: --{error}", markup=False)
            return 2

    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        err.print(f"{done}/{total} deals, {time.perf_counter() - start:.0f} s", markup=False)

    data = dataset.generate(
        args.out,
        options,
        args.deals,
        level=args.bot,
        seed=args.seed,
        jobs=args.jobs,
        iterations=args.samples,
        progress=progress,
        mover=args.mover,
    )
    seconds = time.perf_counter() - start
    out.print(
        f"{args.out}: {data.meta['matches']} matches, {data.meta['deals']} deals,"
        f" {len(data)} decisions ({data.meta['searched']} searched) in {seconds:.0f} s",
        markup=False,
    )
    return 0
