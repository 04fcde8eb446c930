"""What the command line calls: ``run_play`` (foxtrot play) and ``run_replay`` (the viewer)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console

from ..core import FoxtrotError, Phase, TableOptions
from ..i18n import catalog
from .app import BOT_DELAY, PlayApp
from .replay import ReplayApp
from .session import Match, newest_autosave, parse_seats
from .setup import MAX_SEATS, SetupValues


def run_play(args: argparse.Namespace, options: TableOptions, lang: str, out: Console) -> int:
    """``foxtrot play``: resume, start at once from flags, or show the setup screen."""
    delay = BOT_DELAY if args.bot_delay is None else max(0.0, args.bot_delay)
    if args.resume is not None:
        path = Path(args.resume) if args.resume else newest_autosave()
        if path is None:
            raise FoxtrotError(catalog(lang).text("tui_no_autosave"))
        match = Match.resume(path, seed=args.seed)
        if match.state.phase is Phase.OVER:
            raise FoxtrotError(catalog(lang).text("tui_resume_over", path=str(path)))
        app = PlayApp(lang, match, seed=args.seed, bot_delay=delay)
    elif args.bots or args.humans:
        players, seats, names = parse_seats(args.players, args.bots, args.humans, args.names, lang)
        match = Match.new(options.replace(players=players), seats, names, seed=args.seed)
        app = PlayApp(lang, match, seed=args.seed, bot_delay=delay)
    else:
        setup = SetupValues(options=options, lang=lang)
        if args.names:
            for index, name in enumerate(args.names.split(",")[:MAX_SEATS]):
                setup.names[index] = name.strip()
        app = PlayApp(lang, setup=setup, seed=args.seed, bot_delay=delay)
    try:
        app.run()
    except KeyboardInterrupt:
        if app.match is not None:
            app.saved_to = app.match.save()
    if app.match is not None and app.match.state.phase is not Phase.OVER:
        path = app.saved_to or app.match.save()
        out.print(catalog(app.lang).text("tui_saved", path=str(path)), markup=False)
    return 0


def run_replay(record: Mapping[str, Any], lang: str, deal: int | None, hands: bool) -> int:
    """The interactive viewer of a (checked) record."""
    ReplayApp(record, lang, deal=deal, hands=hands).run()
    return 0


__all__ = ["run_play", "run_replay"]
