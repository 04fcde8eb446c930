"""The ``foxtrot`` command: rules, simulate, check, replay, play."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from ..core import PRESETS, FoxtrotError, TableOptions, TakeRule
from ..core.options import RENAMED_PRESETS
from ..i18n import LANGUAGES, system_language
from ..i18n.rules import rules_markdown
from ..storage import load_record
from . import analyse, dataset, records, serve, simulate, study, tournament, verify
from .console import Console
from .extras import MissingExtra, missing, require

#: What ``foxtrot`` alone prints: the two things most people want, then where the rest is.
SHORT_HELP = """Foxtrot {version}, the double-deck card game.

  foxtrot play       play a match in the terminal (against the computer, or hot-seat)
  foxtrot rules      read the rules (--lang en, ru or uk)

Every command and its options: foxtrot --help, foxtrot COMMAND --help."""


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """The flags that make a ``TableOptions`` (shared by every command that starts matches)."""
    group = parser.add_argument_group("table options (rules C3, T2, T6, E2, P3, M1)")
    group.add_argument(
        "--preset",
        choices=[*PRESETS, *RENAMED_PRESETS],  # an old name gets a pointer to its new one
        metavar="{" + ",".join(PRESETS) + "}",
        default="original",
        help="start from a named preset (default: original; literal = take any)",
    )
    group.add_argument("--players", type=int, help="2-6, or 7-9 with three decks")
    group.add_argument(
        "--take", choices=[rule.value for rule in TakeRule], help="take rule (T2; default match)"
    )
    group.add_argument(
        "--forced-foxtrot",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a possible foxtrot must be made (T6, X4)",
    )
    group.add_argument(
        "--leftover-pile",
        choices=["discard", "last_taker"],
        help="who gets the pile left at the end of a deal (E2, X5)",
    )
    group.add_argument(
        "--most-cards-tie", choices=["none", "all"], help="who scores most cards on a tie (P3, X6)"
    )
    group.add_argument("--target", type=int, help="150, 200, 300, 400 or any positive number")


def table_options(args: argparse.Namespace) -> TableOptions:
    """The options chosen by ``add_table_options`` flags."""
    changes = {
        key: getattr(args, key)
        for key in (
            "players",
            "take",
            "forced_foxtrot",
            "leftover_pile",
            "most_cards_tie",
            "target",
        )
        if getattr(args, key) is not None
    }
    return TableOptions.preset(args.preset, **changes)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="foxtrot", description="Foxtrot (American Pishti), the double-deck card game."
    )
    parser.add_argument("--version", action="version", version=f"foxtrot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="print the rules")
    rules.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="en, ru or uk (default: from the system locale)",
    )

    sim = sub.add_parser("simulate", help="play random legal matches and print statistics")
    add_table_options(sim)
    sim.add_argument("--matches", type=int, default=100, help="how many matches (default 100)")
    sim.add_argument("--seed", type=int, default=0, help="seed of every shuffle (default 0)")
    sim.add_argument(
        "--records", type=Path, metavar="DIR", help="write one G2 record per match into DIR"
    )
    sim.add_argument("--json", action="store_true", help="print the statistics as JSON")

    check = sub.add_parser("check", help="validate game records; exit 1 if any is invalid")
    check.add_argument(
        "files",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="record files, or folders of *.json records",
    )

    rep = sub.add_parser("replay", help="print a recorded match action by action in words")
    rep.add_argument("file", type=Path, metavar="FILE")
    rep.add_argument("--lang", choices=LANGUAGES, default=None)
    rep.add_argument("--deal", type=int, metavar="N", help="only deal N (1-based)")
    rep.add_argument(
        "--hands", action="store_true", help="also show every hand and the stock when a deal starts"
    )
    rep.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help="print the match in words even in a terminal (no step-by-step viewer)",
    )
    rep.add_argument(
        "--words",
        action="store_true",
        help="print the cards in words, as a screen reader says them (implies --print)",
    )

    play = sub.add_parser("play", help="play a match in the terminal")
    add_table_options(play)
    play.add_argument(
        "--bots",
        metavar="LEVELS",
        help="computer opponents after the people, e.g. hard,medium"
        " (easy, medium, hard; expert thinks seconds a move; learned, the distilled policy,"
        " or learned:PATH, a policy file); starts at once",
    )
    play.add_argument(
        "--humans",
        metavar="NAMES",
        help="the people at this screen (hot-seat), e.g. Ann,Bob; starts at once",
    )
    play.add_argument("--names", metavar="NAMES", help="names of the seats in order, e.g. Ann,Bob")
    play.add_argument(
        "--seed", type=int, default=None, help="seed of the shuffles (default: unpredictable)"
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="en, ru or uk (default: from the system locale)",
    )
    play.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="continue a saved match (default: the newest autosave)",
    )
    play.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before a computer's move (default 0.6)",
    )

    tournament.add_parser(sub, add_table_options)
    study.add_parser(sub, add_table_options)
    dataset.add_parser(sub, add_table_options)
    serve.add_parser(sub)
    verify.add_parser(sub)
    analyse.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit status is 0 on success, 1 on invalid input."""
    args = build_parser().parse_args(argv)
    out = Console()
    err = Console(stderr=True)
    if args.command is None:
        out.print(SHORT_HELP.format(version=__version__))
        return 0
    try:
        if args.command == "rules":
            out.markdown(rules_markdown(args.lang or system_language()))
            return 0
        if args.command == "simulate":
            if args.matches < 1:
                err.print("foxtrot simulate: --matches must be at least 1")
                return 2
            return simulate.run(
                table_options(args),
                matches=args.matches,
                seed=args.seed,
                records=args.records,
                as_json=args.json,
                out=out,
                err=err,
            )
        if args.command == "check":
            return records.check(args.files, out)
        if args.command == "replay":
            lang = args.lang or system_language()
            printed = args.print_only or args.words
            viewer = not printed and sys.stdin.isatty() and sys.stdout.isatty()
            if viewer and missing("tui") is not None:
                err.print("the step-by-step viewer needs: pip install 'foxtrot[tui]'")
                viewer = False
            data, _ = load_record(args.file)  # refuse a bad record before showing any of it
            problem = records.deal_problem(data, args.deal)
            if problem is not None:
                err.print(f"foxtrot replay: {problem}", markup=False)
                return 2
            if not viewer:
                return records.replay(data, lang, args.deal, args.hands, out, words=args.words)
            from ..tui.launch import run_replay  # noqa: PLC0415 (Textual only when used)

            return run_replay(data, lang, args.deal, args.hands)
        if args.command == "play":
            require("tui", "foxtrot play (the terminal game)")
            from ..tui.launch import run_play  # noqa: PLC0415 (Textual only when used)

            return run_play(args, table_options(args), args.lang or system_language(), out.print)
        if args.command == "tournament":
            return tournament.run(args, table_options(args), out=out, err=err)
        if args.command == "study":
            return study.run(args, table_options(args), out=out, err=err)
        if args.command == "dataset":
            return dataset.run(args, table_options(args), out=out, err=err)
        if args.command == "serve":
            return serve.run(args, out)
        if args.command == "verify":
            return verify.run(args, out)
        if args.command == "analyse":
            return analyse.run_analyse(args, out, err)
        if args.command == "hint":
            return analyse.run_hint(args, out)
    except FoxtrotError as error:
        err.print(f"foxtrot {args.command}: {error}", markup=False)
        return 1
    except MissingExtra as error:
        err.print(f"foxtrot {args.command}: {error}")
        return 1
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    raise AssertionError(args.command)


if __name__ == "__main__":
    raise SystemExit(main())
