"""Helpers of the terminal-game tests: build apps, read the screen, drive a match."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot

from foxtrot.cli.simulate import play_random_match
from foxtrot.core import Action, State, TableOptions, TakeRule, to_record
from foxtrot.storage import save_record
from foxtrot.tui import view
from foxtrot.tui.app import PlayApp
from foxtrot.tui.session import Match, Seat, default_names

#: Latin words that may stay in a Russian or Ukrainian screen: key names.
KEY_NAMES = {"Enter", "Esc", "Tab", "PgUp", "PgDn", "Home", "End"}


def screen_text(app: Any) -> str:
    """The text on the screen now, line by line (what a person would read)."""
    update = app.screen._compositor.render_full_update()
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


def latin_words(text: str, allowed: frozenset[str] = frozenset()) -> set[str]:
    """Words of three or more Latin letters that are not key names or ``allowed``."""
    return {
        word
        for word in re.findall(r"[A-Za-z]{3,}", text)
        if word not in KEY_NAMES and word not in allowed
    }


def bot_match(
    *,
    seed: int = 3,
    target: int = 30,
    level: str = "greedy",
    lang: str = "en",
    players: int = 2,
    take: str = "any",
) -> Match:
    """A new match: seat 0 a person, the others computers of ``level``."""
    seats = [Seat()] + [Seat.bot(level) for _ in range(players - 1)]
    names = ["Ann"] + [f"Bot{i}" for i in range(1, players)] if lang == "en" else None
    return Match.new(
        TableOptions(players=players, target=target, take=TakeRule(take)),
        seats,
        names or default_names(seats, lang),
        seed=seed,
    )


def hot_seat_match(
    *, seed: int = 5, names: tuple[str, str] = ("Ann", "Bob"), target: int = 30
) -> Match:
    """Two people at one screen."""
    return Match.new(TableOptions(target=target), [Seat(), Seat()], list(names), seed=seed)


def play_app(match: Match | None, lang: str = "en", **kwargs: Any) -> PlayApp:
    """The app with no delay before a bot's move and tiny search budgets."""
    kwargs.setdefault("hint_budget", (30, None))
    kwargs.setdefault("review_budget", (5, None))
    kwargs.setdefault("cover_delay", 0)
    return PlayApp(lang, match, bot_delay=0, **kwargs)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the bots have moved and the screen has handled every message."""
    app = pilot.app
    quiet = 0
    for _ in range(5000):
        await pilot.pause(0)
        if getattr(app, "bot_pending", False):
            quiet = 0
            await app.workers.wait_for_complete()
            continue
        quiet += 1
        if quiet == 3:
            return
    raise AssertionError("the bots did not settle")


_CHARS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "space": " "}


async def tap(pilot: Pilot[Any], key: str) -> None:
    """Press ``key`` as ``Pilot.press`` does (through the driver), then settle; without
    ``press``'s wait for the processor to be idle, which would make whole matches slow."""
    app = pilot.app
    event = events.Key(key, key if len(key) == 1 else _CHARS.get(key))
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
    await settle(pilot)


def key_for(state: State, seat: int, action: Action) -> str:
    """The key that makes ``action`` at the table."""
    if action.card is None:
        return "t"
    return view.CARD_KEYS[state.observation(seat).hand.index(action.card)]


async def press_action(pilot: Pilot[Any], match: Match, rng: random.Random) -> Action:
    """Choose a legal action of the seat to move at random and press its key."""
    seat = match.state.to_move
    assert seat is not None
    action = rng.choice(match.state.observation(seat).legal_actions)
    await tap(pilot, key_for(match.state, seat, action))
    return action


def finished_record(*, seed: int = 1, target: int = 1, players: int = 2) -> dict[str, Any]:
    """A finished random match as a G2 record with a ``seats`` key."""
    state = play_random_match(TableOptions(players=players, target=target), random.Random(seed))
    record = to_record(state)
    record["seats"] = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    return record


def write_record(record: dict[str, Any], path: Path) -> Path:
    """Save a record dict to ``path``."""
    return save_record(record, path)


def partial_record(*, seed: int = 6, actions: int = 14, players: int = 2) -> dict[str, Any]:
    """A match interrupted after a few random actions of its first deal (for a quick review)."""
    rng = random.Random(seed)
    state = State(TableOptions(players=players), rng=rng)
    state.deal(rng)
    for _ in range(actions):
        state.apply(rng.choice(state.legal_actions()))
    return to_record(state)
