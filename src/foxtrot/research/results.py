"""What a tournament found: every match played, and per bot its win rate, scores, rating, time.

The figures, and why each is computed the way it is:

- **win rate**: matches won over matches played, counted per seat (a bot that
  fills two seats of a match plays it twice and can win it once), so the
  even-strength baseline is ``1 / players`` for every bot; with a 95 % Wilson
  interval.  The interval treats the matches as independent: duplicate
  rotations of one deal sequence are not (they are anti-correlated, which makes
  the interval conservative).
- **mean deal score**: the mean of the bot's score in every deal it played.
- **Elo**: a Bradley–Terry fit (maximum a posteriori with a weak prior, see
  ``stats.elo_ratings``) to pairwise results, where the winner of a match beats
  each other seat (seats of the same bot are not compared); anchored so that
  the bots average 1500.  With more than two players one match gives several
  correlated pairs, so the intervals are then too narrow.
- **decision time**: the mean and the 95th percentile (nearest rank) of the
  seconds of every call of ``decide``.

``to_json`` and ``to_csv`` can leave the timings out: without them, the same seed
gives the same output byte for byte.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core import TableOptions
from .stats import ANCHOR, EloFit, elo_ratings, mean, percentile, wilson_interval

if TYPE_CHECKING:
    from .entrants import BotSpec

METHODS = {
    "win_rate": "matches won / matches played, per seat; 95% Wilson score interval",
    "elo": "Bradley-Terry maximum a posteriori (Gaussian prior, sd 1000) over pairwise "
    "results: a match's winner beats each other seat; mean of the bots = 1500; "
    "95% interval from the curvature",
    "deal_score": "mean of the bot's score in every deal it played",
    "time": "seconds of every call of decide(), forced moves included; p95 by nearest rank",
}

CSV_COLUMNS = (
    "bot",
    "kind",
    "matches",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "deals",
    "mean_deal_score",
    "deal_score_sd",
    "elo",
    "elo_low",
    "elo_high",
    "decisions",
    "time_mean_ms",
    "time_p95_ms",
)
TIMING_COLUMNS = ("time_mean_ms", "time_p95_ms")


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    """One match of a tournament: who sat where, the winner, every deal's scores and deck,
    and every decision's time."""

    lineup: int  # index into the lineups of the tournament
    match: int  # the deal sequence within the lineup
    rotation: int  # how far the lineup was rotated
    seats: tuple[int, ...]  # the entrant (bot index) in each seat
    first_dealer: int  # the seat the lot chose
    winner: int  # the winning seat
    totals: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]  # per deal, per seat
    decks: tuple[bytes, ...]  # per deal, the card ids of the shuffled deck, top first
    times: tuple[tuple[float, ...], ...]  # per seat, seconds of each decision

    def to_json(self, labels: Sequence[str]) -> dict[str, Any]:
        """The match for a JSON report (without decks and times)."""
        return {
            "lineup": self.lineup,
            "match": self.match,
            "rotation": self.rotation,
            "seats": [labels[i] for i in self.seats],
            "first_dealer": self.first_dealer,
            "winner": self.winner,
            "totals": list(self.totals),
            "deal_scores": [list(scores) for scores in self.deal_scores],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class BotSummary:
    """The figures of one bot over the whole tournament (see the module doc)."""

    label: str
    kind: str
    matches: int
    wins: int
    win_low: float
    win_high: float
    deals: int
    mean_deal_score: float
    deal_score_sd: float
    elo: float
    elo_low: float
    elo_high: float
    decisions: int
    time_mean: float | None  # seconds; None if the bot never decided
    time_p95: float | None

    @property
    def win_rate(self) -> float:
        """Matches won over matches played (per seat)."""
        return self.wins / self.matches if self.matches else math.nan

    def row(self, *, timings: bool = True) -> dict[str, Any]:
        """The CSV row (and JSON object) of this bot."""

        def ms(seconds: float | None) -> float | None:
            return None if seconds is None else round(seconds * 1000, 4)

        row: dict[str, Any] = {
            "bot": self.label,
            "kind": self.kind,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 6),
            "win_low": round(self.win_low, 6),
            "win_high": round(self.win_high, 6),
            "deals": self.deals,
            "mean_deal_score": round(self.mean_deal_score, 4),
            "deal_score_sd": round(self.deal_score_sd, 4),
            "elo": round(self.elo, 2),
            "elo_low": round(self.elo_low, 2),
            "elo_high": round(self.elo_high, 2),
            "decisions": self.decisions,
            "time_mean_ms": ms(self.time_mean),
            "time_p95_ms": ms(self.time_p95),
        }
        if not timings:
            for key in TIMING_COLUMNS:
                del row[key]
        return row


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentResults:
    """Every match of a tournament and the figures of each bot."""

    bots: tuple[BotSpec, ...]
    options: TableOptions
    seed: int
    matches: int  # deal sequences per lineup
    duplicate: bool
    lineups: tuple[tuple[int, ...], ...]  # the bots at each table, before rotation
    games: tuple[GameResult, ...]
    summaries: tuple[BotSummary, ...]
    pairwise: tuple[tuple[int, ...], ...]  # pairwise[i][j]: how often bot i beat bot j
    elo: EloFit
    seconds: float

    @property
    def labels(self) -> list[str]:
        """The bots' labels, in entrant order."""
        return [spec.label for spec in self.bots]

    def deal_scores(self, bot: int) -> list[int]:
        """Every deal score of bot ``bot`` (by entrant index), in match order."""
        return [
            scores[seat]
            for game in self.games
            for scores in game.deal_scores
            for seat, entrant in enumerate(game.seats)
            if entrant == bot
        ]

    def decision_times(self, bot: int) -> list[float]:
        """The seconds of every decision of bot ``bot``."""
        return [
            t
            for game in self.games
            for seat, entrant in enumerate(game.seats)
            if entrant == bot
            for t in game.times[seat]
        ]

    def to_json(self, *, timings: bool = True, games: bool = True) -> dict[str, Any]:
        """The whole report as JSON data; without timings it depends only on the seed."""
        labels = self.labels
        data: dict[str, Any] = {
            "options": self.options.to_json(),
            "bots": [
                {
                    "label": spec.label,
                    "kind": spec.kind,
                    "iterations": spec.iterations,
                    "seconds": spec.seconds,
                }
                for spec in self.bots
            ],
            "seed": self.seed,
            "matches_per_lineup": self.matches,
            "duplicate": self.duplicate,
            "lineups": [[labels[i] for i in lineup] for lineup in self.lineups],
            "matches_played": len(self.games),
            "methods": METHODS,
            "elo_anchor": {"mean": ANCHOR},
            "results": [summary.row(timings=timings) for summary in self.summaries],
            "pairwise_wins": {
                labels[i]: {labels[j]: self.pairwise[i][j] for j in range(len(labels)) if j != i}
                for i in range(len(labels))
            },
        }
        if timings:
            data["seconds"] = round(self.seconds, 3)
        if games:
            data["games"] = [game.to_json(labels) for game in self.games]
        return data

    def to_csv(self, *, timings: bool = True) -> str:
        """One row per bot, with a header row (``CSV_COLUMNS``)."""
        columns = [c for c in CSV_COLUMNS if timings or c not in TIMING_COLUMNS]
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for summary in self.summaries:
            writer.writerow(
                {
                    key: "" if value is None else value
                    for key, value in summary.row(timings=timings).items()
                }
            )
        return text.getvalue()


def pairwise_wins(bots: int, games: Sequence[GameResult]) -> list[list[int]]:
    """``wins[i][j]``: how often bot i won a match in which bot j held another seat."""
    wins = [[0] * bots for _ in range(bots)]
    for game in games:
        winner = game.seats[game.winner]
        for seat, loser in enumerate(game.seats):
            if seat != game.winner and loser != winner:
                wins[winner][loser] += 1
    return wins


def summarize(
    bots: Sequence[BotSpec],
    options: TableOptions,
    games: Sequence[GameResult],
    *,
    seed: int,
    matches: int,
    duplicate: bool,
    lineups: Sequence[Sequence[int]],
    seconds: float,
) -> TournamentResults:
    """The figures of every bot from the matches played (see the module doc)."""
    size = len(bots)
    played = [0] * size
    won = [0] * size
    scores: list[list[int]] = [[] for _ in range(size)]
    times: list[list[float]] = [[] for _ in range(size)]
    for game in games:
        for seat, bot in enumerate(game.seats):
            played[bot] += 1
            won[bot] += seat == game.winner
            scores[bot].extend(deal[seat] for deal in game.deal_scores)
            times[bot].extend(game.times[seat])
    pairs = pairwise_wins(size, games)
    fit = elo_ratings(pairs)
    summaries = []
    for i, spec in enumerate(bots):
        low, high = wilson_interval(won[i], played[i])
        elo_low, elo_high = fit.interval(i)
        summaries.append(
            BotSummary(
                label=spec.label,
                kind=spec.kind,
                matches=played[i],
                wins=won[i],
                win_low=low,
                win_high=high,
                deals=len(scores[i]),
                mean_deal_score=mean(scores[i]),
                deal_score_sd=statistics.pstdev(scores[i]) if scores[i] else math.nan,
                elo=fit.ratings[i],
                elo_low=elo_low,
                elo_high=elo_high,
                decisions=len(times[i]),
                time_mean=mean(times[i]) if times[i] else None,
                time_p95=percentile(times[i], 95) if times[i] else None,
            )
        )
    return TournamentResults(
        bots=tuple(bots),
        options=options,
        seed=seed,
        matches=matches,
        duplicate=duplicate,
        lineups=tuple(tuple(lineup) for lineup in lineups),
        games=tuple(games),
        summaries=tuple(summaries),
        pairwise=tuple(tuple(row) for row in pairs),
        elo=fit,
        seconds=seconds,
    )


__all__ = [
    "CSV_COLUMNS",
    "METHODS",
    "BotSummary",
    "GameResult",
    "TournamentResults",
    "pairwise_wins",
    "summarize",
]
