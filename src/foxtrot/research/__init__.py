"""Measuring the bots: tournaments of whole matches, and their statistics.

``run_tournament(TournamentConfig(parse_bots("hard,greedy,random"), ...), jobs=2)``
plays the matches (see ``tournament`` for lineups, seats, duplicate mode and
determinism) and returns ``TournamentResults`` (``results``) with each bot's
win rate, mean deal score, Elo rating and decision times (``stats``).  The
plots (``plot``) need matplotlib and are not imported here.
"""

from .results import BotSummary, GameResult, TournamentResults, summarize
from .stats import EloFit, elo_ratings, mean, percentile, wilson_interval
from .tournament import (
    BotSpec,
    GameTask,
    TournamentConfig,
    lineups,
    parse_bots,
    play_game,
    play_match,
    run_tournament,
    tasks,
)

__all__ = [
    "BotSpec",
    "BotSummary",
    "EloFit",
    "GameResult",
    "GameTask",
    "TournamentConfig",
    "TournamentResults",
    "elo_ratings",
    "lineups",
    "mean",
    "parse_bots",
    "percentile",
    "play_game",
    "play_match",
    "run_tournament",
    "summarize",
    "tasks",
    "wilson_interval",
]
