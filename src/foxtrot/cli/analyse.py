"""``foxtrot analyse`` and ``foxtrot hint``: a position as a seat saw it, and the coach's values.

``foxtrot analyse RECORD --deal N --move K`` prints the table just before move K of deal N as
one seat saw it (the seat to move, or ``--seat``) and the coach's value of every legal move;
``--try`` plays a line of moves first ("what if I had played the 7?"), and ``--interactive``
asks for moves one at a time.  ``--position TEXT`` starts from a position text instead.
``foxtrot hint`` prints the coach's move for the same positions, as the game's hint gives it:
its value is the analysis's value of that move (the same search, the same samples).
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from ..analysis import ITERATIONS, PLAYED, Board, Frame, LineError, parse_line
from ..bots.coach import action_text, suggest
from ..core import Action, FoxtrotError
from ..i18n import LANGUAGES, cards_text, catalog, seat_name, system_language
from ..storage import load_record
from .console import Console

ANALYSE = """\
Open a position as one seat saw it and print the coach's value of every legal move: the
expected deal margin (the seat's deal score minus the others' mean) of the coach's search,
from that seat's observation only.  The other hands stay hidden unless the match is over
(--hands) or the position is a position text.  --try plays moves first (cards like 7H,
take, or played: the move the record made); --interactive asks for moves one by one."""


def _source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", nargs="?", type=Path, metavar="RECORD", help="a record file")
    parser.add_argument("--position", metavar="TEXT", help="a position text instead of a record")
    parser.add_argument("--deal", type=int, metavar="N", help="the deal (1-based; with RECORD)")
    parser.add_argument(
        "--move",
        type=int,
        default=1,
        metavar="K",
        help="the position just before move K of the deal (1-based; default 1)",
    )
    parser.add_argument(
        "--seat", type=int, metavar="S", help="the seat to look from (1-based; default: to move)"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=ITERATIONS,
        metavar="N",
        help=f"the coach's samples (default {ITERATIONS})",
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None)


def add_parser(sub: Any) -> None:
    """Register ``foxtrot analyse`` and ``foxtrot hint``."""
    analyse: argparse.ArgumentParser = sub.add_parser(
        "analyse",
        help="open a position and see the coach's value of every move",
        description=ANALYSE,
    )
    _source(analyse)
    analyse.add_argument("--try", dest="line", metavar="MOVES", help="moves to play first")
    analyse.add_argument(
        "--hands", action="store_true", help="show every hand (a finished match or a position)"
    )
    analyse.add_argument(
        "--interactive", "-i", action="store_true", help="try moves one by one at a prompt"
    )
    hint: argparse.ArgumentParser = sub.add_parser(
        "hint", help="the coach's move in a position, with its reason and value"
    )
    _source(hint)


def board_of(args: argparse.Namespace) -> Board:
    """The board the arguments name (a record's deal and move, or a position text), looked at
    from ``--seat`` (1-based) or the seat to move."""
    board = _board(args)
    if args.seat is None:
        return board
    players = board.start.players
    if not 1 <= args.seat <= players:
        raise LineError(f"--seat {args.seat}: the table's seats are 1 to {players}")
    return dataclasses.replace(board, seat=args.seat - 1)


def _board(args: argparse.Namespace) -> Board:
    seat = None
    if (args.record is None) == (args.position is None):
        raise LineError("give either a RECORD (with --deal) or --position TEXT")
    if args.iterations < 1:
        raise LineError(f"--iterations must be at least 1, not {args.iterations}")
    if args.position is not None:
        return Board.from_text(args.position, seat)
    if args.deal is None:
        raise LineError("--deal N: which deal of the record (1-based)")
    data, _ = load_record(args.record)
    return Board.from_record(data, args.deal, args.move, seat)


def _value(value: float | None) -> str:
    return "—" if value is None else f"{value:+.1f}"


def show(
    board: Board, frame: Frame, lang: str, out: Console, *, hands: bool, iterations: int
) -> None:
    """Print ``frame`` as ``board.seat`` sees it, and the coach's values of the move to make."""
    cat = catalog(lang)
    state = frame.state
    names = [seat_name(name, lang) for name in state.names]
    obs = state.observation(board.seat)
    out.rule(cat.text("analysis_title"))
    if board.where is not None:
        out.print(cat.text("analysis_where", deal=board.where[0], move=board.where[1]))
    else:
        out.print(cat.text("analysis_from_text"))
    if frame.line:
        out.print(
            cat.text("analysis_line", moves=" ".join(action_text(a, lang) for a in frame.line))
        )
    out.print(f"{cat.count('tui_pile', len(obs.pile))}: {cards_text(obs.pile, lang) or '—'}")
    out.print(cat.count("tui_stock", obs.stock))
    for seat, name in enumerate(names):
        if seat == board.seat or hands:
            out.print(cat.text("hand_of", name=name, cards=cards_text(state.hand(seat), lang)))
        else:
            out.print(cat.text("hand_of", name=name, cards="🂠" * obs.hand_sizes[seat]))
    mover = frame.mover
    if mover is None:
        out.print(cat.text("analysis_deal_over"))
        return
    out.print(cat.text("analysis_to_move", name=names[mover]))
    if frame.recorded is not None:
        out.print(cat.text("analysis_played", move=action_text(frame.recorded, lang)))
    if not frame.choosable:
        key = "analysis_hidden_turn" if frame.recorded is not None else "analysis_left_record"
        out.print(cat.text(key, name=names[mover]))
        return
    values, solved = frame.values(iterations)
    out.print(cat.text("analysis_cli_values", samples=iterations))
    for item in values:
        mark = cat.text("analysis_only_move") if item.value is None else ""
        mark = cat.text("analysis_best") if item.best and item.value is not None else mark
        out.print(f"  {action_text(item.action, lang):<16} {_value(item.value):>7}  {mark}")
    if solved == 1:
        out.print(cat.text("analysis_exact"))


def run_analyse(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``foxtrot analyse``: print the position after ``--try``; then the prompt if asked."""
    lang = args.lang or system_language()
    board = board_of(args)
    if args.hands and not board.open:
        raise LineError("--hands: the match is not over, so the other hands stay hidden")
    line: list[str | Action] = list(parse_line(args.line or ""))
    frame = board.at(line)
    show(board, frame, lang, out, hands=args.hands, iterations=args.iterations)
    if not args.interactive:
        return 0
    cat = catalog(lang)
    while True:
        try:
            words = {"take": "take", "played": PLAYED, "back": "back", "quit": "quit"}
            answer = input(cat.text("analysis_cli_prompt", **words)).strip()
        except EOFError:
            return 0
        if answer.lower() in ("quit", "q", "exit"):
            return 0
        tried = line[:-1] if answer.lower() in ("back", "b") else [*line, answer or PLAYED]
        try:
            frame = board.at(tried)
        except FoxtrotError as error:
            err.print(str(error), markup=False)
            continue
        line = tried
        show(board, frame, lang, out, hands=args.hands, iterations=args.iterations)


def run_hint(args: argparse.Namespace, out: Console) -> int:
    """``foxtrot hint``: the coach's move for the seat to move, its value, the next best."""
    lang = args.lang or system_language()
    board = board_of(args)
    state = board.start
    if state.to_move is None or state.to_move != board.seat:
        raise LineError(f"seat {board.seat + 1} is not to move: the hint is for the seat to move")
    obs = state.observation(board.seat)
    hint = suggest(obs, lang, iterations=args.iterations, seconds=None)
    cat = catalog(lang)
    move = action_text(hint.action, lang)
    out.print(
        cat.text("analysis_cli_hint", move=move, value=_value(hint.value), reason=hint.reason)
    )
    if hint.alternative is not None:
        alt = action_text(hint.alternative, lang)
        out.print(cat.text("analysis_cli_next", move=alt, value=_value(hint.alternative_value)))
    return 0
