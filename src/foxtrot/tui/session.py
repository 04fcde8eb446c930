"""A match being played in the terminal: the state, who sits where, and its autosave.

Nothing here imports Textual: the app drives a ``Match``, and the tests can
drive one too.  A match is saved after every deal and every action as a G2
record with two added keys: ``seats``, that says which seats are people and
which are computer opponents of which level, and ``settings``, the settings
the match was started with (its language), so that ``--resume`` brings back
the same opponents in the same language.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import re
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ..bots import LEVELS, Bot, CheatingBot, make_bot
from ..core import (
    SEAT_LEVELS,
    Action,
    Event,
    FoxtrotError,
    Phase,
    RecordError,
    SplitMix64,
    State,
    TableOptions,
    UndoError,
    record_seats,
    take_back,
    to_record,
)
from ..i18n import LANGUAGES, catalog
from ..learn.names import LEARNED, policy_file
from ..storage import data_dir, load_record, read_record, save_record

LOG: Final = logging.getLogger("foxtrot.tui")

#: The levels offered as opponents, and the bot names that may stand for them.
BOT_LEVELS: Final = ("easy", "medium", "hard")
BOT_KINDS: Final = SEAT_LEVELS  # the record's list (core.record checks a record's seats)
HUMAN: Final = "human"
BOT: Final = "bot"


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a seat: a person, or a computer opponent of ``level``."""

    kind: str = HUMAN
    level: str = ""
    #: The policy file of a ``learned:PATH`` seat (level ``learned``; the record keeps the
    #: level only, so a resumed match plays the shipped policy).  Empty: the shipped one.
    policy: str = ""

    def __post_init__(self) -> None:
        # Checked here, not only in ``bot()``: no way of building a seat can bring in the
        # oracle (it sees every card) or an unknown level.
        if self.kind == HUMAN and self.level == "":
            return
        if self.kind != BOT or self.level not in BOT_KINDS or (self.policy and not self.learned):
            raise ValueError(
                f"not a seat: kind {self.kind!r}, level {self.level!r}"
                f" (a person, or a computer of level {', '.join(BOT_KINDS)})"
            )

    @property
    def is_bot(self) -> bool:
        """True for a computer opponent."""
        return self.kind == BOT

    @property
    def learned(self) -> bool:
        """A distilled policy plays this seat (``foxtrot.learn.policy``)."""
        return self.level == LEARNED

    def make(self) -> Bot | CheatingBot:
        """The bot of this computer seat."""
        if self.learned:
            from ..learn.policy import LearnedBot  # noqa: PLC0415 (numpy: only when used)

            return LearnedBot(self.policy or None)
        return make_bot(self.level)

    def to_json(self) -> dict[str, str]:
        """The entry of the record's ``seats`` key."""
        return {"kind": self.kind} if not self.is_bot else {"kind": self.kind, "level": self.level}

    @classmethod
    def bot(cls, level: str) -> Seat:
        """A computer opponent; ``level`` is easy/medium/hard, a bot name, ``learned`` (the
        shipped policy) or ``learned:PATH`` (a policy file)."""
        if level.startswith(LEARNED + ":") and (path := policy_file(level)) is not None:
            return cls(BOT, LEARNED, path)
        if level not in BOT_KINDS:
            raise ValueError(
                f"unknown level {level!r} (expected {', '.join(BOT_KINDS)} or learned:PATH)"
            )
        return cls(BOT, level)


def _check_learned(seat: Seat, players: int) -> None:
    """Refuse, before the match, a policy that cannot be read or play this table."""
    where = f"learned:{seat.policy}" if seat.policy else "learned"
    try:
        bot = seat.make()
        check = getattr(bot, "check", None)
        if check is not None:
            check(players)
    except ImportError:
        raise FoxtrotError(f"--bots {where} needs: pip install 'foxtrot[learned]'") from None
    except ValueError as error:
        raise FoxtrotError(f"--bots: {error}") from None


def seats_of(data: Any, players: int) -> list[Seat]:
    """The ``seats`` key of a record (an addition to G2); people everywhere when it is absent.

    The check is the record's (``core.record_seats``, also run by every load): a bad entry is
    a ``RecordError`` that names it.
    """
    seats = record_seats(data, players) if isinstance(data, dict) else None
    if seats is None:
        return [Seat() for _ in range(players)]
    return [Seat(kind, level) for kind, level in seats]


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
        return SplitMix64(seed)
    return SplitMix64(int.from_bytes(os.urandom(16), "big"))


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


@dataclasses.dataclass(frozen=True, slots=True)
class SavedMatch:
    """An unfinished match in the autosave folder, as the list of ``--resume`` shows it."""

    path: Path
    names: tuple[str, ...]
    saved: float  # the file's modification time (seconds since the epoch)
    deal: int  # deals dealt so far (0 before the first)
    totals: tuple[int, ...]


def saved_matches() -> list[SavedMatch]:
    """The unfinished matches of the autosave folder, the most recently saved first.

    Files that cannot be read as records are left out (``--resume FILE`` says why).
    """
    folder = autosave_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.json"), key=_modified, reverse=True):
        try:
            data = read_record(path)  # regular files only: a FIFO here cannot hang the game
        except RecordError:
            continue
        if data.get("winner") is not None:
            continue
        names, deals, totals = data.get("names"), data.get("deals"), data.get("totals")
        if not (isinstance(names, list) and isinstance(deals, list) and isinstance(totals, list)):
            continue
        found.append(
            SavedMatch(
                path,
                tuple(str(name) for name in names),
                _modified(path),
                len(deals),
                tuple(total if isinstance(total, int) else 0 for total in totals),
            )
        )
    return found


def newest_autosave() -> Path | None:
    """The most recently saved match that nobody has won yet, if any."""
    found = saved_matches()
    return found[0].path if found else None


def settings_of(data: Any) -> dict[str, str]:
    """The ``settings`` key of a record (an addition to G2): the language, if it is a known one."""
    raw = data.get("settings") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        return {}
    lang = raw.get("lang")
    return {"lang": lang} if isinstance(lang, str) and lang in LANGUAGES else {}


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # a dangling link, or gone since the folder was listed
        return 0.0


#: "(rule G2)", "(rules C3, M1)": rule ids are for developers and logs, not for players.
_RULE_IDS: Final = re.compile(r"\s*\(rules? [A-Z][0-9]+[a-z]?(?:[-–, ]+[A-Z]?[0-9]+[a-z]?)*\)")


def for_player(message: str) -> str:
    """A message without the rule ids it may carry (they mean nothing to a player)."""
    return _RULE_IDS.sub("", message)


@dataclasses.dataclass(frozen=True, slots=True)
class BotFailure:
    """A computer seat failed to choose a legal move (see ``Match.bot_result``)."""

    seat: int
    level: str
    problem: str  # for developers: "raised ValueError at expert.py:120", "returned None, ..."
    raised: bool  # True if the bot raised an exception, False if it chose an illegal move


def _where(error: BaseException) -> str:
    """Where an exception was raised (file, line, function), never its message."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" at {Path(last.filename).name}:{last.lineno} in {last.name}"


class Match:
    """A match in progress: the state, the seats, the bots and where it is saved."""

    def __init__(
        self,
        state: State,
        seats: Sequence[Seat],
        path: Path,
        rng: random.Random,
        *,
        lang: str = "en",
        resumed: bool = False,
    ) -> None:
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats for {state.players} players")
        self.state = state
        self.seats = list(seats)
        self.path = path
        self.rng = rng
        self.lang = lang
        self.resumed = resumed
        self.bots: dict[int, Bot | CheatingBot] = {
            index: seat.make() for index, seat in enumerate(seats) if seat.is_bot
        }
        self.bot_rngs = {index: SplitMix64(rng.getrandbits(64)) for index in self.bots}

    @classmethod
    def new(
        cls,
        options: TableOptions,
        seats: Sequence[Seat],
        names: Sequence[str],
        *,
        seed: int | None = None,
        path: Path | None = None,
        lang: str = "en",
    ) -> Match:
        """A new match: the first dealer by lot (D1); nothing dealt yet."""
        rng = new_rng(seed)
        state = State(options, rng=rng, names=names)
        return cls(state, seats, path or new_autosave_path(), rng, lang=lang)

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None, lang: str = "en") -> Match:
        """The match saved in ``path``, with the opponents and the language it had (``lang``
        if the record does not say); it goes on saving there."""
        data, state = load_record(path)
        try:
            seats = seats_of(data, state.players)
        except RecordError as error:
            error.args = (f"{path}: {error}",)
            raise
        lang = settings_of(data).get("lang", lang)
        return cls(state, seats, path, new_rng(seed), lang=lang, resumed=True)

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
        data["settings"] = {"lang": self.lang}
        return data

    @property
    def abandoned(self) -> bool:
        """A new match that no person has made a move in: not worth keeping when left."""
        if self.resumed:
            return False
        people = set(self.humans)
        return not any(
            action >> 6 in people for log in self.state.deal_logs() for action in log.actions
        )

    @property
    def can_undo(self) -> bool:
        """Undo exists at this table: one person, every other seat a computer (never hot-seat)."""
        return len(self.humans) == 1

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

    def undo(self, seat: int) -> int:
        """Take back the last move of ``seat`` and the computers' replies; save; the number of
        moves taken back.

        Refused (``UndoError``, nothing changes) in hot-seat, when ``seat`` has no move
        in the deal in progress, and when a card that was hidden has been revealed since
        that move: the stock was dealt again (R1), or a new deal began (the strict policy
        of Board Game Arena).  The record keeps only the moves that stand.
        """
        if not self.can_undo or self.is_bot(seat):
            raise UndoError("hot_seat", "undo: only a person playing against computers")
        self.state, undone = take_back(self.state, seat)
        self.save()
        return undone

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

    def bot_result(
        self, seat: int, result: object, error: BaseException | None = None
    ) -> tuple[Action, BotFailure | None]:
        """The move to make for the bot at ``seat``, from what its worker gave back.

        A legal move is played as it is.  If the bot raised ``error``, or gave
        back something that is not a legal move, the failure is never silent:
        it is logged (``logging``, logger ``foxtrot.tui``) and returned so that
        the screen can tell it, the match is saved, and the seat plays a random
        legal move instead, for this move only (its next move is the bot's again).
        The log line names the seat, its level, the deal and what went wrong,
        but never the move the bot tried (that would show a card of its hand).
        """
        state = self.state
        if error is None and type(result) is Action and state.is_legal(result, seat):
            return result, None
        if error is not None:
            problem = f"raised {type(error).__name__}{_where(error)}"
        elif type(result) is Action:
            problem = "returned an illegal move"
        else:
            problem = f"returned {type(result).__name__}, not a move"
        failure = BotFailure(seat, self.seats[seat].level, problem, error is not None)
        action = self.bot_rngs[seat].choice(state.legal_actions())
        path = self.save()
        LOG.warning(
            "computer seat %d (%s) %s in deal %d; it plays a random legal move instead"
            " (match saved in %s)",
            seat,
            failure.level,
            problem,
            state.deal_number + 1,
            path,
        )
        return action, failure

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
        if level in BOT_KINDS:
            continue
        try:
            policy_file(level)
        except ValueError:
            raise FoxtrotError(
                f"--bots: unknown level {level!r} (expected {', '.join(BOT_KINDS)} or learned:PATH)"
            ) from None
    if players is None:
        players = max(len(people), 1) + len(levels) if people or levels else 2
    count = len(people) if people else players - len(levels)
    if count < 1 or count + len(levels) != players:
        raise FoxtrotError(
            f"{players} players: {count} people and {len(levels)} computers"
            " do not add up (at least one person plays)"
        )
    seats = [Seat() for _ in range(count)] + [Seat.bot(level) for level in levels]
    for seat in seats:
        if seat.learned:
            _check_learned(seat, players)
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
    "BotFailure",
    "Match",
    "SavedMatch",
    "Seat",
    "UndoError",
    "autosave_dir",
    "default_names",
    "for_player",
    "new_autosave_path",
    "newest_autosave",
    "parse_seats",
    "saved_matches",
    "seats_of",
    "settings_of",
]
