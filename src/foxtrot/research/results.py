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
- **paired margins** (``paired_margins``), the figures to compare two bots by: for every
  pair of bots and every deal sequence (a lineup's match number: the same decks, in a
  duplicate tournament under every seat rotation) in which both played, the difference
  of their win rates per seat and of their mean deal scores over that sequence's matches;
  the mean of those differences with a 95 % Student's t interval over the sequences
  (``stats.paired_interval``).  The luck of the cards both bots shared cancels, and the
  sequences are independent, so the interval is both narrower and more honest than the
  per-bot Wilson intervals, which stay as a secondary column.

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
from .stats import (
    ANCHOR,
    EloFit,
    Paired,
    elo_ratings,
    mean,
    paired_interval,
    percentile,
    wilson_interval,
)

if TYPE_CHECKING:
    from .entrants import BotSpec

METHODS = {
    "win_rate": "matches won / matches played, per seat; 95% Wilson score interval",
    "elo": "Bradley-Terry maximum a posteriori (Gaussian prior, sd 1000) over pairwise "
    "results: a match's winner beats each other seat; mean of the bots = 1500; "
    "95% interval from the curvature",
    "deal_score": "mean of the bot's score in every deal it played",
    "time": "seconds of every call of decide(), forced moves included; p95 by nearest rank",
    "paired_margins": "per pair of bots, per deal sequence both played (same decks): "
    "difference of win rate per seat and of mean deal score; mean over the sequences with "
    "a 95% Student's t interval (n - 1 degrees of freedom)",
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
class PairedMargin:
    """Bot ``a`` against bot ``b`` on the deal sequences both played (see the module doc)."""

    a: int
    b: int
    win_rate: Paired  # a's win rate per seat minus b's, per sequence
    deal_score: Paired  # a's mean deal score minus b's, per sequence

    def row(self, labels: Sequence[str]) -> dict[str, Any]:
        """The JSON object of this pair."""
        return {
            "bot": labels[self.a],
            "other": labels[self.b],
            "sequences": self.win_rate.n,
            "win_rate_diff": self.win_rate.to_json(),
            "deal_score_diff": self.deal_score.to_json(),
        }


def paired_margins(bots: int, games: Sequence[GameResult]) -> list[PairedMargin]:
    """Every pair of bots (a before b) that met: their paired margins (see the module doc)."""
    blocks: dict[tuple[int, int], list[GameResult]] = {}
    for game in games:
        blocks.setdefault((game.lineup, game.match), []).append(game)
    found = []
    for a in range(bots):
        for b in range(a + 1, bots):
            wins: list[float] = []
            scores: list[float] = []
            for block in blocks.values():
                if not all(a in game.seats and b in game.seats for game in block):
                    continue
                wins.append(mean([_win_share(game, a) - _win_share(game, b) for game in block]))
                scores.append(mean([_mean_score(game, a) - _mean_score(game, b) for game in block]))
            if wins:
                found.append(PairedMargin(a, b, paired_interval(wins), paired_interval(scores)))
    return found


def _win_share(game: GameResult, bot: int) -> float:
    """The bot's wins per seat in one match: 1 / its seats if one of them won, else 0."""
    seats = [seat for seat, entrant in enumerate(game.seats) if entrant == bot]
    return (game.winner in seats) / len(seats)


def _mean_score(game: GameResult, bot: int) -> float:
    """The bot's mean deal score in one match, over its seats and the deals."""
    seats = [seat for seat, entrant in enumerate(game.seats) if entrant == bot]
    return mean([deal[seat] for deal in game.deal_scores for seat in seats])


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
    def paired(self) -> list[PairedMargin]:
        """Every pair's margins on the deal sequences both played (``paired_margins``)."""
        return paired_margins(len(self.bots), self.games)

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
            "paired_margins": [pair.row(labels) for pair in self.paired],
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
    "PairedMargin",
    "TournamentResults",
    "paired_margins",
    "pairwise_wins",
    "summarize",
]
