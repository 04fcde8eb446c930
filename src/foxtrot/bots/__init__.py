"""Computer opponents: random, greedy, expert (search over hidden cards), and the oracle.

Levels: ``easy`` is random, ``medium`` greedy, ``hard`` the expert's search
within a second a move, and ``expert`` the same search with a longer budget
(``BUDGETS``: several seconds, for hints, reviews and analysis rather than as
an opponent).  As a bot name, ``expert`` is that level.  The oracle sees every
card and exists only to measure the honest bots.
"""

from __future__ import annotations

from typing import Final

from .base import Bot, CheatingBot, RandomBot, decide, decide_oracle
from .expert import (
    EXPERT_ITERATIONS,
    EXPERT_SECONDS,
    HARD_ITERATIONS,
    HARD_SECONDS,
    Analysis,
    ExpertBot,
    OracleBot,
)
from .greedy import GreedyBot

#: Every level, weakest first, and the kind of bot that plays it.
LEVELS: Final = {"easy": "random", "medium": "greedy", "hard": "expert", "expert": "expert"}
#: The search budget of the levels played by the expert: samples and seconds a move
#: (``hard`` keeps the 95th percentile of its decisions under 1 s on one core).
BUDGETS: Final[dict[str, tuple[int, float | None]]] = {
    "hard": (HARD_ITERATIONS, HARD_SECONDS),
    "expert": (EXPERT_ITERATIONS, EXPERT_SECONDS),
}
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
        iterations, seconds = BUDGETS.get(name, BUDGETS["hard"])
        return ExpertBot(iterations, seconds)
    if kind == ORACLE:
        raise ValueError(
            "the oracle sees every card and is never an opponent (tournaments only, as a yardstick)"
        )
    raise ValueError(
        f"unknown bot {name!r} (expected {', '.join(BOT_NAMES)} or {', '.join(LEVELS)})"
    )


def make_oracle(iterations: int = 150, seconds: float | None = 0.9) -> OracleBot:
    """The oracle (it sees every card), for measuring the honest bots in tournaments."""
    return OracleBot(iterations=iterations, seconds=seconds)


__all__ = [
    "BOT_NAMES",
    "BUDGETS",
    "LEVELS",
    "ORACLE",
    "Analysis",
    "Bot",
    "CheatingBot",
    "ExpertBot",
    "GreedyBot",
    "OracleBot",
    "RandomBot",
    "decide",
    "decide_oracle",
    "make_bot",
    "make_oracle",
]
