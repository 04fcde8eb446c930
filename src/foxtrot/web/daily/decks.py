"""The deal of the day's decks and the computers' benchmark line on them.

Each UTC day has one deck per variant (a table size and a take rule, ``VARIANTS``).  Its
server seed is drawn the first time the day is asked for and stored; its commitment,
``SHA-256(seed)``, is published at once (``GET /api/daily``) and the seed the next day.  The
deck is the fair-deal protocol's (web/fair.py) for the table name ``daily-DAY-VARIANT``,
deal 0 and no player seeds, so ``foxtrot verify`` checks it like any table's record.

Everyone who plays a day's variant sits in seat 0 against the same computers
(``OPPONENT``); the benchmark line is ``hard`` in seat 0 on the same deck against the same
computers, every move's search seeded from the deck's seed and given its whole sample budget
(no time limit: the same line every time), computed once per deck and stored.

>>> variant_options("3-any")
{'players': 3, 'take': 'any'}
>>> fair_table("2026-12-03", "2-match")
'daily-2026-12-03-2-match'
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any, Final

from ...bots import Bot, ExpertBot, budget, make_bot
from ...core import Action, Observation, SplitMix64, State, TableOptions, to_record
from .. import fair

#: The variants of each day: ``PLAYERS-TAKE``.
VARIANTS: Final = ("2-match", "2-any", "3-match", "3-any", "4-match", "4-any")
#: The computers everyone plays against, and the level whose score is the benchmark line.
OPPONENT: Final = "medium"
BENCHMARK: Final = "hard"
#: How far back the calendar goes (days before today).
CALENDAR_DAYS: Final = 30


class DailyError(ValueError):
    """A day or variant that is not one of the deal of the day's."""


def check_variant(variant: str) -> str:
    """``variant`` if it is one of ``VARIANTS``; else ``DailyError`` naming them."""
    if variant not in VARIANTS:
        raise DailyError(f"variant {variant[:20]!r} is not one of {', '.join(VARIANTS)}")
    return variant


def check_day(text: str, today: datetime.date) -> datetime.date:
    """The day ``YYYY-MM-DD`` if it is today or one of the calendar's; else ``DailyError``."""
    try:
        day = datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise DailyError(f"day {text[:20]!r} is not a date YYYY-MM-DD") from None
    if day > today:
        raise DailyError(f"day {text} has not come yet (today is {today.isoformat()})")
    if (today - day).days > CALENDAR_DAYS:
        raise DailyError(f"day {text} is older than the calendar's {CALENDAR_DAYS} days")
    return day


def variant_options(variant: str) -> dict[str, Any]:
    """The table options of a variant (the rest are the defaults)."""
    players, take = check_variant(variant).split("-")
    return {"players": int(players), "take": take}


def fair_table(day: str, variant: str) -> str:
    """The table name the deck's shuffle is keyed with (the record's ``table``)."""
    return f"daily-{day}-{variant}"


def deck_of(seed: bytes, day: str, variant: str) -> list[str]:
    """The day's deck of ``variant``, top first (deal 0, no player seeds)."""
    options = TableOptions(**variant_options(variant))
    seeds = [""] * options.players
    return [str(c) for c in fair.shuffle(seed, fair_table(day, variant), 0, seeds, options.decks)]


def move_seed(seed: bytes, move: int) -> int:
    """The search seed of the benchmark's ``move``-th move: the same every time for a deck."""
    digest = hashlib.sha256(seed + b"|benchmark|" + move.to_bytes(4, "big")).digest()
    return int.from_bytes(digest[:8], "big")


def play_out(
    seed_hex: str, day: str, variant: str, names: list[str], level: str = BENCHMARK
) -> tuple[int, dict[str, Any]]:
    """Seat 0's score with ``level`` (the benchmark, ``hard``) in it; the deal's record.

    Runs in a worker process (a hard move thinks up to 0.9 s): pure, given the seed.
    """
    seed = bytes.fromhex(seed_hex)
    options = TableOptions(**variant_options(variant))
    state = State(options, dealer=options.players - 1, names=names)
    deck = fair.shuffle(seed, fair_table(day, variant), 0, [""] * options.players, options.decks)
    state.deal(deck=deck)
    move = 0
    while state.deal_number == 0 and not state.is_over and state.to_move is not None:
        seat = state.to_move
        who = level if seat == 0 else OPPONENT
        action = benchmark_move(who, state.observation(seat), move_seed(seed, move))
        state.apply(action, seat)
        move += 1
    record = to_record(state)
    record["table"] = fair_table(day, variant)
    record["deals"] = record["deals"][:1]
    record["deals"][0]["fair"] = fair.fair_entry(
        fair.commitment(seed), [""] * options.players, seed
    )
    return score_of(record["deals"][0]), record


def benchmark_move(level: str, obs: Observation, seed: int) -> Action:
    """A move of ``level`` in the benchmark's play: an expert level searches its whole sample
    budget, never cut short by the clock, so that a deck's line is the same every time."""
    bot: Bot = ExpertBot(budget(level)[0], None) if level in ("hard", "expert") else make_bot(level)
    return bot.choose(obs, obs.legal_actions, SplitMix64(seed))


def score_of(deal: dict[str, Any], seat: int = 0) -> int:
    """A seat's score in a finished deal of a record: its own total (``scores[seat].total``)."""
    return int(deal["scores"][seat]["total"])
