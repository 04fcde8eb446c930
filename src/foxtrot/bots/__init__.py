"""Computer opponents: random, greedy, expert (search over hidden cards), and the oracle.

Levels: ``easy`` is random, ``medium`` greedy, ``hard`` the expert.  The oracle
sees every card and exists only to measure the honest bots.
"""

from __future__ import annotations

from typing import Final

from .base import Bot, CheatingBot, RandomBot, decide
from .expert import Analysis, ExpertBot, OracleBot
from .greedy import GreedyBot

LEVELS: Final = {"easy": "random", "medium": "greedy", "hard": "expert"}
BOT_NAMES: Final = ("random", "greedy", "expert", "oracle")


def make_bot(name: str) -> Bot | CheatingBot:
    """A bot by name (random, greedy, expert, oracle) or level (easy, medium, hard)."""
    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomBot()
    if kind == "greedy":
        return GreedyBot()
    if kind == "expert":
        return ExpertBot()
    if kind == "oracle":
        return OracleBot()
    raise ValueError(
        f"unknown bot {name!r} (expected {', '.join(BOT_NAMES)} or {', '.join(LEVELS)})"
    )


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "Analysis",
    "Bot",
    "CheatingBot",
    "ExpertBot",
    "GreedyBot",
    "OracleBot",
    "RandomBot",
    "decide",
    "make_bot",
]
