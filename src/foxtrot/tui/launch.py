"""What the command line calls: ``run_play`` (foxtrot play) and ``run_replay`` (the viewer)."""

from __future__ import annotations

import argparse
import contextlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..core import FoxtrotError, Phase, RecordError, TableOptions
from ..i18n import catalog
from .app import BOT_DELAY, PlayApp
from .replay import ReplayApp
from .session import LOG, Match, for_player, parse_seats, saved_matches
from .setup import MAX_SEATS, SetupValues


def resume_match(path: Path, lang: str, seed: int | None) -> Match:
    """The match saved in ``path``; a record that cannot be read is refused in words a player
    understands (the full message, rule ids and all, goes to the log)."""
    try:
        return Match.resume(path, seed=seed, lang=lang)
    except RecordError as error:
        LOG.log(logging.INFO, "cannot resume %s: %s", path, error)
        reason = for_player(str(error)).removeprefix(f"{path}: ")
        raise FoxtrotError(
            catalog(lang).text("tui_record_error", path=str(path), reason=reason)
        ) from error


def run_play(
    args: argparse.Namespace, options: TableOptions, lang: str, say: Callable[[str], None]
) -> int:
    """``foxtrot play``: resume, start at once from flags, or show the setup screen.

    ``say`` prints a line for the person after the game's screen has closed.
    """
    delay = BOT_DELAY if args.bot_delay is None else max(0.0, args.bot_delay)
    if args.resume is not None:
        saved = [] if args.resume else saved_matches()
        if not args.resume and not saved:
            raise FoxtrotError(catalog(lang).text("tui_no_autosave"))
        if len(saved) > 1:  # several unfinished matches: the person chooses
            app = PlayApp(lang, saved=saved, seed=args.seed, bot_delay=delay)
        else:
            path = Path(args.resume) if args.resume else saved[0].path
            match = resume_match(path, lang, args.seed)
            if match.state.phase is Phase.OVER:
                raise FoxtrotError(catalog(lang).text("tui_resume_over", path=str(path)))
            app = PlayApp(match.lang, match, seed=args.seed, bot_delay=delay)
    elif args.bots or args.humans:
        players, seats, names = parse_seats(args.players, args.bots, args.humans, args.names, lang)
        match = Match.new(options.replace(players=players), seats, names, seed=args.seed, lang=lang)
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
    if app.error:
        raise FoxtrotError(app.error)
    if app.match is not None and app.match.state.phase is not Phase.OVER:
        if app.match.abandoned:  # left before any move of a person: not kept
            with contextlib.suppress(OSError):
                app.match.path.unlink()
            say(catalog(app.lang).text("tui_not_kept"))
            return 0
        path = app.saved_to or app.match.save()
        say(catalog(app.lang).text("tui_saved", path=str(path)))
    return 0


def run_replay(record: Mapping[str, Any], lang: str, deal: int | None, hands: bool) -> int:
    """The interactive viewer of a (checked) record."""
    ReplayApp(record, lang, deal=deal, hands=hands).run()
    return 0


__all__ = ["run_play", "run_replay"]
