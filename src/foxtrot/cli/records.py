"""``foxtrot check`` and ``foxtrot replay``: validate records, tell a match in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..core import FoxtrotError
from ..core import replay as replay_steps
from ..i18n import cards_name, cards_text, catalog, seat_name
from ..narrate import narrate
from ..storage import load_record
from .console import Console


def record_files(paths: Iterable[Path]) -> list[Path]:
    """The files named, with folders replaced by the ``*.json`` files in them."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    return files


def check(paths: Iterable[Path], out: Console) -> int:
    """Check each record; print one line per file; 1 if any is invalid."""
    bad = 0
    files = record_files(paths)
    for path in files:
        try:
            _, state = load_record(path)  # every check of a record is the core's (core.record)
        except FoxtrotError as error:
            bad += 1
            out.print(f"INVALID {_named(str(error), path)}", markup=False)
            continue
        except Exception as error:  # a bug: say so, and go on with the other files
            bad += 1
            out.print(
                f"INVALID {path}: could not be checked ({type(error).__name__});"
                " this is a bug in foxtrot, please report it",
                markup=False,
            )
            continue
        deals = len(state.deal_logs())
        status = f"won by seat {state.winner}" if state.winner is not None else "unfinished"
        out.print(f"ok {path}: {deals} deal{'' if deals == 1 else 's'}, {status}", markup=False)
    if not files:
        out.print("no record files found")
        return 1
    out.print(f"{len(files) - bad} valid, {bad} invalid")
    return 1 if bad else 0


def _named(message: str, path: Path) -> str:
    """The message on one line, beginning with the file's name."""
    message = " ".join(message.split("\n"))
    return message if message.startswith(f"{path}: ") else f"{path}: {message}"


def deal_problem(data: Mapping[str, Any], deal: int | None) -> str | None:
    """Why ``--deal N`` (1-based) names no deal of the checked record ``data``, or None."""
    if deal is None:
        return None
    count = len(data["deals"])
    if count == 0:
        return f"--deal {deal}: the record has no deals yet"
    if not 1 <= deal <= count:
        return (
            f"--deal {deal}: the match has {count} deal{'' if count == 1 else 's'} (1 to {count})"
        )
    return None


def replay(
    data: Mapping[str, Any],
    lang: str,
    only_deal: int | None,
    hands: bool,
    out: Console,
    *,
    words: bool = False,
) -> int:
    """Print the match recorded in ``data`` (checked: ``storage.load_record``) step by step.

    ``words``: the cards in words, each in the case its sentence needs, as a screen reader
    hears the narration ("Аня кладёт даму пик"); else in short ("Аня кладёт Д♠").
    """
    show = cards_name if words else cards_text
    cat = catalog(lang)
    names = [seat_name(name, lang) for name in data["names"]]  # a server's computers in lang
    state = None
    for step in replay_steps(data):
        state = step.state
        if only_deal is not None and step.deal + 1 != only_deal:
            continue
        if step.action is None:
            out.rule(cat.text("deal_header", deal=step.deal + 1))
        for line in (
            text for event in step.events for text in narrate(event, names, lang, words=words)
        ):
            out.print(line, markup=False)
        if step.action is None and hands:
            for seat, name in enumerate(names):
                out.print(
                    cat.text("hand_of", name=name, cards=show(state.hand(seat), lang)),
                    markup=False,
                )
            stock = state.stock
            out.print(cat.text("stock_of", n=len(stock), cards=show(stock, lang)), markup=False)
    if state is None:
        out.print(cat.text("no_deals"))
    elif state.winner is None:
        out.print(cat.text("match_unfinished", totals=", ".join(map(str, state.totals))))
    return 0
