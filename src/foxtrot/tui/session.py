"""A match being played in the terminal: the state, who sits where, and its autosave.

Nothing here imports Textual: the app drives a ``Match``, and the tests can
drive one too.  A match is saved after every deal and every action as a G2
record with one added key, ``seats``, that says which seats are people and
which are computer opponents of which level, so that ``--resume`` brings back
the same opponents.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ..bots import LEVELS, Bot, CheatingBot, make_bot
from ..core import (
    Action,
    Event,
    FoxtrotError,
    Phase,
    RecordError,
    State,
    TableOptions,
    from_record,
    parse_record,
    to_record,
)
from ..i18n import catalog
from ..storage import data_dir, read_text, save_record

#: The levels offered as opponents, and the bot names that may stand for them.
BOT_LEVELS: Final = ("easy", "medium", "hard")
BOT_KINDS: Final = (*BOT_LEVELS, "random", "greedy", "expert")
HUMAN: Final = "human"
BOT: Final = "bot"


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a seat: a person, or a computer opponent of ``level``."""

    kind: str = HUMAN
    level: str = ""

    @property
    def is_bot(self) -> bool:
        """True for a computer opponent."""
        return self.kind == BOT

    def to_json(self) -> dict[str, str]:
        """The entry of the record's ``seats`` key."""
        return {"kind": self.kind} if not self.is_bot else {"kind": self.kind, "level": self.level}

    @classmethod
    def bot(cls, level: str) -> Seat:
        """A computer opponent; ``level`` is easy/medium/hard or a bot name."""
        if level not in BOT_KINDS:
            raise ValueError(f"unknown level {level!r} (expected {', '.join(BOT_KINDS)})")
        return cls(BOT, level)

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        """Read an entry of ``seats``; anything unreadable is a ``RecordError``."""
        if isinstance(data, dict) and data.get("kind") == HUMAN:
            return cls()
        if isinstance(data, dict) and data.get("kind") == BOT and data.get("level") in BOT_KINDS:
            return cls(BOT, str(data["level"]))
        raise RecordError(f"seats: {data!r} is not a seat (expected kind human or bot)")


def default_names(seats: Sequence[Seat], lang: str) -> list[str]:
    """Names for seats nobody named: "Player 1" for people, "Computer (hard)" for bots."""
    cat = catalog(lang)
    bots = sum(seat.is_bot for seat in seats)
    names = []
    number = 0
    for index, seat in enumerate(seats):
        if not seat.is_bot:
            names.append(cat.text("tui_default_player", n=index + 1))
            continue
        number += 1
        level = cat.text(f"tui_level_{seat.level}")
        names.append(
            cat.text("tui_default_bot", level=level)
            if bots == 1
            else cat.text("tui_default_bot_n", n=number, level=level)
        )
    return names


def new_rng(seed: int | None = None) -> random.Random:
    """A generator from ``seed``, or from the operating system's randomness (never shown)."""
    if seed is not None:
        return random.Random(seed)
    return random.Random(int.from_bytes(os.urandom(16), "big"))


def autosave_dir() -> Path:
    """The folder of autosaved matches inside the user's data folder."""
    return data_dir() / "autosave"


def new_autosave_path() -> Path:
    """A fresh file name for a new match: ``autosave/<timestamp>.json``."""
    folder = autosave_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}.json"
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{stamp}-{number}.json"
    return path


def newest_autosave() -> Path | None:
    """The most recently saved match that nobody has won yet, if any."""
    folder = autosave_dir()
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("winner") is None:
            return path
    return None


class Match:
    """A match in progress: the state, the seats, the bots and where it is saved."""

    def __init__(self, state: State, seats: Sequence[Seat], path: Path, rng: random.Random) -> None:
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats for {state.players} players")
        self.state = state
        self.seats = list(seats)
        self.path = path
        self.rng = rng
        self.bots: dict[int, Bot | CheatingBot] = {
            index: make_bot(seat.level) for index, seat in enumerate(seats) if seat.is_bot
        }
        self.bot_rngs = {index: random.Random(rng.getrandbits(64)) for index in self.bots}

    @classmethod
    def new(
        cls,
        options: TableOptions,
        seats: Sequence[Seat],
        names: Sequence[str],
        *,
        seed: int | None = None,
        path: Path | None = None,
    ) -> Match:
        """A new match: the first dealer by lot (D1); nothing dealt yet."""
        rng = new_rng(seed)
        state = State(options, rng=rng, names=names)
        return cls(state, seats, path or new_autosave_path(), rng)

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None) -> Match:
        """The match saved in ``path``, with the opponents it had; it goes on saving there."""
        data = parse_record(read_text(path))
        try:
            state = from_record(data)
        except RecordError as error:
            error.args = (f"{path}: {error}",)
            raise
        raw = data.get("seats")
        if raw is None:
            seats = [Seat() for _ in range(state.players)]
        elif not isinstance(raw, list) or len(raw) != state.players:
            raise RecordError(
                f"{path}: seats: expected one entry for each of {state.players} seats"
            )
        else:
            seats = [Seat.from_json(item) for item in raw]
        return cls(state, seats, path, new_rng(seed))

    # ------------------------------------------------------------- reading

    @property
    def humans(self) -> list[int]:
        """The seats of the people at the table."""
        return [index for index, seat in enumerate(self.seats) if not seat.is_bot]

    @property
    def hot_seat(self) -> bool:
        """Two or more people share one screen: a cover hides the table between them."""
        return len(self.humans) >= 2

    def is_bot(self, seat: int) -> bool:
        """True if a computer plays ``seat``."""
        return self.seats[seat].is_bot

    def record(self) -> dict[str, Any]:
        """The G2 record of the match, with the ``seats`` key."""
        data = to_record(self.state)
        data["seats"] = [seat.to_json() for seat in self.seats]
        return data

    # ------------------------------------------------------------- moving

    def save(self) -> Path:
        """Write the record to the autosave file (atomically)."""
        return save_record(self.record(), self.path)

    def deal(self) -> tuple[Event, ...]:
        """Deal the next deal and save."""
        events = self.state.deal(self.rng)
        self.save()
        return events

    def apply(self, action: Action, seat: int) -> tuple[Event, ...]:
        """Apply a checked action of ``seat`` and save; an illegal one raises, changes nothing."""
        events = self.state.apply(action, seat)
        self.save()
        return events

    def bot_move(self, state: State, seat: int) -> Action:
        """The bot's choice for ``seat`` in ``state`` (call on a clone from a worker thread)."""
        bot = self.bots[seat]
        rng = self.bot_rngs[seat]
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if isinstance(bot, Bot):
            obs = state.observation(seat)
            return bot.choose(obs, obs.legal_actions, rng)
        return bot.choose_with_state(state, rng)

    @property
    def over(self) -> bool:
        """True once the match is won."""
        return self.state.phase is Phase.OVER


def parse_seats(
    players: int | None, bots: str | None, humans: str | None, names: str | None, lang: str
) -> tuple[int, list[Seat], list[str]]:
    """Seats and names from the ``play`` flags: people first (seat 0 up), then the bots.

    ``--bots hard,medium`` with three players: seat 0 is a person, seats 1 and 2
    are computers; ``--humans Ann,Bob`` names the people (hot-seat).
    """
    levels = [level.strip() for level in bots.split(",")] if bots else []
    levels = [level for level in levels if level]
    people = [name.strip() for name in humans.split(",")] if humans else []
    for level in levels:
        if level not in BOT_KINDS:
            raise FoxtrotError(f"--bots: unknown level {level!r} (expected {', '.join(BOT_KINDS)})")
    if players is None:
        players = max(len(people), 1) + len(levels) if people or levels else 2
    count = len(people) if people else players - len(levels)
    if count < 1 or count + len(levels) != players:
        raise FoxtrotError(
            f"{players} players: {count} people and {len(levels)} computers"
            " do not add up (at least one person plays)"
        )
    seats = [Seat() for _ in range(count)] + [Seat.bot(level) for level in levels]
    chosen = default_names(seats, lang)
    for index, name in enumerate(people):
        if name:
            chosen[index] = name
    if names:
        for index, name in enumerate(names.split(",")[:players]):
            if name.strip():
                chosen[index] = name.strip()
    return players, seats, chosen


__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "LEVELS",
    "Match",
    "Seat",
    "autosave_dir",
    "default_names",
    "new_autosave_path",
    "newest_autosave",
    "parse_seats",
]
