"""``foxtrot tournament``: bots play whole matches against each other; a measured report.

The playing and the statistics are in ``foxtrot.research``; this module only
reads the flags, shows a progress bar on stderr, prints the table and writes the
CSV, JSON and PNG files.  A usage mistake the parser cannot see (an unknown bot,
``--matches 0``) prints one line and exits with 2, like argparse; bad table
options exit with 1, like the other commands.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import TableOptions
from ..research import TournamentConfig, TournamentResults, parse_bots, run_tournament
from ..research.backends import make_backend
from ..research.entrants import LEARNED, OPENSPIEL, POLICY
from ..research.stats import Paired
from ..research.tournament import cpu_count
from .console import Console
from .extras import require

if TYPE_CHECKING:
    from ..skill import Rated

DESCRIPTION = """\
Bots play whole matches (to the target score) against each other; the report gives,
per bot, the match win rate with a 95% Wilson interval, the mean deal score, an Elo
rating (Bradley-Terry fit; the winner of a match beats each other seat; the bots'
mean is 1500) and the mean and 95th-percentile time of a decision.

Seating: with more bots than seats, every combination of bots plays (a round robin
of lineups), --matches deal sequences per lineup; with fewer bots than seats, the
bots are repeated in turn (hard,greedy at 4 players: hard, greedy, hard, greedy).
Seats are rotated from match to match.  With --duplicate, every deal sequence is
played once per seat rotation instead (N times for N players; 2 times for hard,
greedy, hard, greedy): the same decks in the same order, each bot in every seat
once, so the luck of the cards cancels out.

Bots: random, greedy, oracle, or the levels easy, medium, hard, expert (the
expert's search with the longer budget of analysis: seconds a move); and
policy:PATH, a policy saved by examples/train_ppo.py (extra [train]).  The same
seed gives the same matches, with any --jobs and either --backend, when the bots
are deterministic: an expert with a time budget is not (use --expert-seconds 0
for iterations only).

Ray (--backend ray, extra [ray]): the matches run as Ray tasks, in batches, on a
local Ray instance, or on the cluster of --address (auto, HOST:PORT) or RAY_ADDRESS.
"""

EXAMPLE = """\
example:
  foxtrot tournament --bots hard,greedy,random --players 2 --matches 500 --jobs 2 \\
      --duplicate --seed 1 --csv results.csv --json results.json --plot results.png

exit status: 0; 2 for a usage mistake (an unknown bot, --matches 0); 1 for bad table
options or a file that cannot be written.
"""


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_table_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``foxtrot tournament`` and its flags; ``main`` passes its table flags in
    (this module cannot import them: ``main`` imports it)."""
    parser = sub.add_parser(
        "tournament",
        help="bots play each other; win rates, ratings, decision times",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--bots",
        required=True,
        metavar="LIST",
        help="comma-separated bots, e.g. hard,greedy,random: random, greedy, expert (or the"
        " levels easy, medium, hard), oracle (sees every card: a yardstick), policy:PATH (a"
        " trained MaskablePPO zip), learned (the distilled policy shipped for the table's"
        " size), learned:PATH (a numpy policy), openspiel:ismcts|mcts[:N]",
    )
    add_table_options(parser)
    parser.add_argument(
        "--matches",
        type=int,
        default=100,
        metavar="K",
        help="deal sequences per lineup (default 100); with --duplicate each"
        " is played once per seat rotation",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of every shuffle (default 0)")
    parser.add_argument(
        "--duplicate", action="store_true", help="replay every deal sequence with the seats rotated"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (default 1; 0 = every core)",
    )
    parser.add_argument(
        "--backend",
        choices=["processes", "ray"],
        default="processes",
        help="where the matches run: worker processes here (default), or Ray tasks"
        " (extra [ray]; the same results for the same seed)",
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: join this Ray cluster (auto, or HOST:PORT; default:"
        " RAY_ADDRESS, else a local Ray instance)",
    )
    budget = parser.add_argument_group("search budget of the expert and the oracle")
    budget.add_argument(
        "--expert-iterations",
        type=int,
        metavar="N",
        help="search iterations per move (default: the bot's own)",
    )
    budget.add_argument(
        "--expert-seconds",
        type=float,
        metavar="S",
        help="seconds per move (default: the bot's own; 0 = no time limit)",
    )
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="also rate every match with the server's openskill model (mu, sigma, ordinal"
        " per bot): how the computers' fixed ratings are calibrated (extra [web])",
    )
    parser.add_argument(
        "--ratings-anchor",
        metavar="BOT",
        help="with --ratings: the bot placed at mu 25, where a new person starts (default:"
        " medium, else greedy, else the first bot)",
    )
    output = parser.add_argument_group("output files")
    output.add_argument("--csv", type=Path, metavar="FILE", help="one row per bot")
    output.add_argument(
        "--json", type=Path, metavar="FILE", help="the whole report, with every match"
    )
    output.add_argument(
        "--plot",
        type=Path,
        metavar="FILE",
        help="PNG of deal scores per bot and ratings with intervals",
    )


def _usage_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the numbers argparse let through, or ``None``."""
    if args.matches < 1:
        return "--matches must be at least 1"
    if args.jobs < 0:
        return "--jobs must be 0 (every core) or more"
    if args.ratings_anchor is not None and not args.ratings:
        return "--ratings-anchor needs --ratings"
    if args.address is not None and args.backend != "ray":
        return "--address needs --backend ray"
    if args.expert_iterations is not None and args.expert_iterations < 1:
        return "--expert-iterations must be at least 1"
    if args.expert_seconds is not None and not (
        args.expert_seconds >= 0 and math.isfinite(args.expert_seconds)
    ):
        return "--expert-seconds must be 0 (no time limit) or more"
    return None


def run(args: argparse.Namespace, options: TableOptions, *, out: Console, err: Console) -> int:
    """Play the tournament the flags describe at a table of ``options``; print and write
    its report."""
    problem = _usage_error(args)
    config: TournamentConfig | None = None
    if problem is None:
        try:
            bots = parse_bots(
                args.bots, iterations=args.expert_iterations, seconds=args.expert_seconds
            )
            config = TournamentConfig(
                bots, options, matches=args.matches, seed=args.seed, duplicate=args.duplicate
            )
        except ValueError as error:  # an unknown bot, or fewer than two
            problem = str(error)
    if config is not None and args.ratings:
        problem = ratings_problem(config, args.ratings_anchor)
    if config is None or problem is not None:
        err.print(f"foxtrot tournament: {problem}", markup=False)
        return 2
    if args.ratings:
        require("web", "--ratings")  # openskill
    if args.plot is not None:  # before the matches, not after an hour of them
        require("plot", "--plot")
    if any(spec.kind == POLICY for spec in config.bots):
        require("train", "a policy: bot")
        try:
            for spec in config.bots:
                if spec.kind == POLICY:
                    spec.build()  # reads the policy's JSON now: a missing file is a usage mistake
        except ValueError as error:
            err.print(f"foxtrot tournament: {error}", markup=False)
            return 2
    if any(spec.kind == OPENSPIEL for spec in config.bots):
        require("openspiel", "an openspiel: bot")
    if any(spec.kind == LEARNED for spec in config.bots):
        require("learned", "a learned: bot")
        from ..learn.policy import LearnedBot  # noqa: PLC0415 (numpy: only when used)

        try:
            for spec in config.bots:
                if spec.kind == LEARNED:
                    # reads the policy file now: a missing file, or one for another table
                    # size, is a usage mistake
                    learned = spec.build()
                    if isinstance(learned, LearnedBot):
                        learned.check(options.players)
        except ValueError as error:
            err.print(f"foxtrot tournament: {error}", markup=False)
            return 2
    if args.backend == "ray":
        require("ray", "--backend ray")
    jobs = cpu_count() if args.jobs == 0 else args.jobs
    backend = make_backend(args.backend, jobs=jobs, address=args.address)
    with err.progress(config.games, "matches") as advance:
        results = run_tournament(config, jobs=jobs, progress=lambda _: advance(), backend=backend)
    print_report(results, jobs, out, backend=backend.name)
    if args.ratings:
        print_ratings(results, anchor_of(config, args.ratings_anchor), out)
    return write_files(results, args.csv, args.json, args.plot, err)


def write_files(
    results: TournamentResults,
    csv: Path | None,
    json_path: Path | None,
    plot: Path | None,
    err: Console,
) -> int:
    """Write the files asked for; 1 (with a message) if one cannot be written."""
    try:
        if csv is not None:
            csv.write_text(results.to_csv(), encoding="utf-8")
            err.print(f"wrote {csv}", markup=False)
        if json_path is not None:
            json_path.write_text(json.dumps(results.to_json(), indent=1) + "\n", encoding="utf-8")
            err.print(f"wrote {json_path}", markup=False)
        if plot is not None:
            # matplotlib takes a second to import: only when a plot is asked for
            from ..research.plot import save_plot  # noqa: PLC0415

            save_plot(results, plot)
            err.print(f"wrote {plot}", markup=False)
    except OSError as error:
        err.print(
            f"foxtrot tournament: cannot write {error.filename}: {error.strerror}", markup=False
        )
        return 1
    return 0


def anchor_of(config: TournamentConfig, asked: str | None) -> str:
    """The bot placed at mu 25: the one asked for, else medium, else greedy, else the first."""
    labels = [spec.label for spec in config.bots]
    if asked is not None:
        return asked
    return next((name for name in ("medium", "greedy") if name in labels), labels[0])


def ratings_problem(config: TournamentConfig, anchor: str | None) -> str | None:
    """Why ``--ratings`` cannot rate this tournament, or ``None``.

    One rating cannot be two players of one update, so a bot may sit only once at a table:
    at least as many bots as seats.
    """
    labels = [spec.label for spec in config.bots]
    if anchor is not None and anchor not in labels:
        return f"--ratings-anchor {anchor!r} is not one of the bots ({', '.join(labels)})"
    if len(labels) < config.options.players:
        return (
            f"--ratings needs at least as many bots as seats ({config.options.players}):"
            " a bot cannot be rated against itself"
        )
    return None


def tournament_ratings(results: TournamentResults, anchor: str) -> list[Rated]:
    """Every bot's openskill rating over the tournament's matches (``foxtrot.skill``).

    The matches are rated in rounds (the first deal sequence of every lineup and rotation,
    then the second, ...), not lineup after lineup: an online update weighs the later
    matches more once sigma has shrunk, and rounds let every pairing count alike.
    """
    from ..skill import Finish, rate_entrants  # noqa: PLC0415 (openskill: only when asked)

    games = sorted(results.games, key=lambda g: (g.match, g.rotation, g.lineup))
    finishes = (Finish(g.seats, g.winner, g.totals) for g in games)
    return rate_entrants(results.labels, finishes, anchor)


def print_ratings(results: TournamentResults, anchor: str, out: Console) -> None:
    """The ``--ratings`` table: per bot mu, sigma, ordinal and matches rated."""
    rated = tournament_ratings(results, anchor)
    out.table(
        ("bot", "mu", "± sigma", "ordinal", "rated matches"),
        [
            [r.label, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.matches)]
            for r in rated
        ],
        title="openskill ratings (the server's model)",
        right=range(1, 5),
    )
    out.print(
        "openskill Weng-Lin Plackett-Luce (openskill's defaults), every match one update by"
        " its final order (the winner, then the totals; equal totals tie), in rounds;"
        f" every mu shifted so that {anchor} sits at 25, where a new person starts.",
        style="dim",
        markup=False,
    )


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.3g} ms" if value < 1 else f"{value:.2f} s"


def print_report(
    results: TournamentResults, jobs: int, out: Console, *, backend: str = "processes"
) -> None:
    """The header, the table of bots, the head-to-head table and how figures were made."""
    opts = results.options
    lineups = len(results.lineups)
    plan = (
        f"{lineups} lineup{'s' if lineups != 1 else ''} × {results.matches} deal"
        f" sequence{'s' if results.matches != 1 else ''}"
    )
    if results.duplicate:
        rotations = len(results.games) // (lineups * results.matches)
        plan += f" × {rotations} seat rotations (duplicate)"
    out.print(
        f"{len(results.games)} matches: {plan}; {opts.players} players, take ="
        f" {opts.take.value}, target {opts.target}; seed {results.seed};"
        f" {'Ray' if backend == 'ray' else f'{jobs} process' + ('es' if jobs != 1 else '')},"
        f" {results.seconds:.1f} s",
        markup=False,
    )
    budgets = sorted({spec.budget() for spec in results.bots} - {""})
    if budgets:
        out.print(f"search budget: {'; '.join(budgets)}", markup=False)
    print_paired(results, out)
    headers = (
        "bot",
        "played",
        "won",
        "win rate",
        "95% CI",
        "deal score",
        "Elo",
        "95% CI",
        "decisions",
        "mean time",
        "p95 time",
    )
    rows = []
    for spec, s in zip(results.bots, results.summaries, strict=True):
        name = (
            spec.label if spec.label.split("#")[0] == spec.kind else (f"{spec.label} ({spec.kind})")
        )
        rows.append(
            [
                name,
                str(s.matches),
                str(s.wins),
                f"{s.win_rate:.1%}",
                f"{s.win_low:.1%}–{s.win_high:.1%}",
                f"{s.mean_deal_score:.1f}",
                f"{s.elo:.0f}",
                f"{s.elo_low:.0f}–{s.elo_high:.0f}",
                str(s.decisions),
                _seconds(s.time_mean),
                _seconds(s.time_p95),
            ]
        )
    out.table(headers, rows, right=range(1, len(headers)))
    labels = results.labels
    if len(labels) > 2:
        out.table(
            ("wins of ↓ over →", *labels),
            [
                [
                    label,
                    *("" if i == j else str(results.pairwise[i][j]) for j in range(len(labels))),
                ]
                for i, label in enumerate(labels)
            ],
            title="head to head",
            right=range(1, len(labels) + 1),
        )
    out.print(
        "paired: per deal sequence both bots played (the same decks), the difference of win"
        " rate per seat and of mean deal score; mean and 95% Student's t interval over the"
        " sequences.  "
        "win rate: matches won / played, per seat, Wilson interval.  Elo: Bradley-Terry"
        " fit with a weak prior, the winner of a match beats each other seat; anchored"
        " so that the bots' mean is 1500.  Time: every decision; p95 by nearest rank.",
        style="dim",
        markup=False,
    )


def print_paired(results: TournamentResults, out: Console) -> None:
    """The paired margins of every pair of bots that met: the figures to compare them by."""
    pairs = results.paired
    if not pairs:
        return
    labels = results.labels

    def interval(found: Paired, form: str) -> str:
        if math.isnan(found.low):
            return "–"
        return f"{format(found.low, form)} to {format(found.high, form)}"

    out.table(
        ("bot", "over", "sequences", "win rate diff", "95% CI", "deal score diff", "95% CI"),
        [
            [
                labels[pair.a],
                labels[pair.b],
                str(pair.win_rate.n),
                format(pair.win_rate.mean, "+.1%"),
                interval(pair.win_rate, "+.1%"),
                format(pair.deal_score.mean, "+.1f"),
                interval(pair.deal_score, "+.1f"),
            ]
            for pair in pairs
        ],
        title="paired margins (same decks)",
        right=range(2, 7),
    )


__all__ = [
    "add_parser",
    "print_paired",
    "print_ratings",
    "print_report",
    "run",
    "tournament_ratings",
    "write_files",
]
