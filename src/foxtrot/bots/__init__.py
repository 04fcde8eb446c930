"""Computer opponents: random, greedy, expert (search over hidden cards), and the oracle.

Levels: ``easy`` is random, ``medium`` greedy, ``hard`` the expert's search
within a second a move, and ``expert`` the same search with a longer budget
(``BUDGETS``: several seconds, for hints, reviews and analysis rather than as
an opponent) that also reads each other player's style from his moves (``styles``).
With the compiled kernel (``foxtrot.fast``) both levels search five
to ten times the samples, to the end of the deal, in the same seconds (``budget``).  As a
bot name, ``expert`` is that level.  The oracle sees every card and exists only to
measure the honest bots.
"""

from __future__ import annotations

from typing import Final

from .. import fast
from .base import Bot, CheatingBot, RandomBot, decide, decide_oracle
from .expert import (
    EXPERT_ITERATIONS,
    EXPERT_SECONDS,
    HARD_ITERATIONS,
    HARD_SECONDS,
    PURE_EXPERT_ITERATIONS,
    PURE_HARD_ITERATIONS,
    Analysis,
    ExpertBot,
    OracleBot,
)
from .greedy import GreedyBot

#: Every level, weakest first, and the kind of bot that plays it.
LEVELS: Final = {"easy": "random", "medium": "greedy", "hard": "expert", "expert": "expert"}
#: The search budget of the levels played by the expert: samples and seconds a move
#: (``hard`` keeps the 95th percentile of its decisions under 1 s on one core).
#: These are the budgets with the compiled kernel (``foxtrot.fast``); ``budget`` gives the one
#: in use.  From 1500 samples the playouts run to the end of the deal (``expert.horizon``).
BUDGETS: Final[dict[str, tuple[int, float | None]]] = {
    "hard": (HARD_ITERATIONS, HARD_SECONDS),
    "expert": (EXPERT_ITERATIONS, EXPERT_SECONDS),
}
#: Without the kernel: a tenth of the samples, three rounds deep, in the same seconds (pure
#: Python would play only a few dozen of the kernel's whole-deal samples within them).
PURE_BUDGETS: Final[dict[str, tuple[int, float | None]]] = {
    "hard": (PURE_HARD_ITERATIONS, HARD_SECONDS),
    "expert": (PURE_EXPERT_ITERATIONS, EXPERT_SECONDS),
}


#: The levels whose search reads the table: each other player's style from his own moves
#: (``styles``), instead of taking every player for the model's sensible one.
READING_LEVELS: Final = frozenset({"expert"})


def budget(level: str) -> tuple[int, float | None]:
    """The samples and seconds a move of an expert level (``hard`` for any other name) on the
    path in use: ``BUDGETS`` with the compiled kernel, else ``PURE_BUDGETS``.  Decided when
    the bot is made."""
    budgets = BUDGETS if fast.enabled() else PURE_BUDGETS
    return budgets.get(level, budgets["hard"])


#: The honest bots, which may sit at a table with people.
BOT_NAMES: Final = ("random", "greedy", "expert")
#: The bot that sees every card: a yardstick for tournaments, never an opponent.
ORACLE: Final = "oracle"


def make_bot(name: str) -> Bot:
    """An honest bot by name (random, greedy, expert) or level (easy, medium, hard, expert).

    The oracle is refused: it sees every card (``make_oracle`` builds it for measurement).
    """
    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomBot()
    if kind == "greedy":
        return GreedyBot()
    if kind == "expert":
        iterations, seconds = budget(name)
        return ExpertBot(iterations, seconds, reads=name in READING_LEVELS)
    if kind == ORACLE:
        raise ValueError(
            "the oracle sees every card and is never an opponent (tournaments only, as a yardstick)"
        )
    levels = [level for level in LEVELS if level not in BOT_NAMES]
    raise ValueError(
        f"unknown bot {name!r} (expected {', '.join(BOT_NAMES)} or {', '.join(levels)})"
    )


def make_oracle(iterations: int = 150, seconds: float | None = 0.9) -> OracleBot:
    """The oracle (it sees every card), for measuring the honest bots in tournaments."""
    return OracleBot(iterations=iterations, seconds=seconds)


__all__ = [
    "BOT_NAMES",
    "BUDGETS",
    "LEVELS",
    "ORACLE",
    "PURE_BUDGETS",
    "READING_LEVELS",
    "Analysis",
    "Bot",
    "CheatingBot",
    "ExpertBot",
    "GreedyBot",
    "OracleBot",
    "RandomBot",
    "budget",
    "decide",
    "decide_oracle",
    "make_bot",
    "make_oracle",
]
