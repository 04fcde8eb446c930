"""Statistics that use the pairing: Student's t, paired intervals, tournaments' paired
margins and studies' paired effects."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from foxtrot.core import TableOptions
from foxtrot.research import TournamentConfig, parse_bots, run_tournament
from foxtrot.research.results import GameResult, paired_margins
from foxtrot.research.stats import paired_interval, t_cdf, t_quantile
from foxtrot.research.study import StudyConfig, effects, parse_variants, run_study

finite = st.floats(-1e4, 1e4, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(p=st.floats(0.001, 0.999), df=st.floats(0.5, 500))
def test_t_quantile_and_cdf_agree_with_scipy(p: float, df: float) -> None:
    assert t_quantile(p, df) == pytest.approx(scipy_stats.t.ppf(p, df), rel=1e-7, abs=1e-7)
    x = scipy_stats.t.ppf(p, df)
    assert t_cdf(x, df) == pytest.approx(p, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(finite, min_size=2, max_size=40))
def test_a_paired_interval_is_scipys_t_interval_and_flips_with_the_sign(
    values: list[float],
) -> None:
    found = paired_interval(values)
    assert found.n == len(values)
    assert found.low <= found.mean <= found.high
    sem = scipy_stats.sem(values)
    if sem > 0:
        low, high = scipy_stats.t.interval(0.95, len(values) - 1, loc=found.mean, scale=sem)
        assert (found.low, found.high) == pytest.approx((low, high), rel=1e-6, abs=1e-6)
    flipped = paired_interval([-v for v in values])
    assert flipped.mean == pytest.approx(-found.mean)
    assert flipped.low == pytest.approx(-found.high)


def test_one_pair_has_no_interval() -> None:
    found = paired_interval([3.0])
    assert found.mean == 3.0 and math.isnan(found.low) and math.isnan(found.high)
    assert found.to_json() == {"mean": 3.0, "low": None, "high": None, "n": 1}


def _game(lineup: int, match: int, seats: tuple[int, ...], winner: int,
          scores: tuple[tuple[int, ...], ...]) -> GameResult:  # fmt: skip
    n = len(seats)
    return GameResult(lineup, match, 0, seats, 0, winner, (0,) * n, scores, (), ((),) * n)


def test_paired_margins_by_hand() -> None:
    games = [
        # sequence (0, 0): two rotations of the same decks
        _game(0, 0, (0, 1), 0, ((30, 10),)),
        _game(0, 0, (1, 0), 1, ((25, 15),)),
        # sequence (0, 1)
        _game(0, 1, (0, 1), 1, ((0, 40),)),
        _game(0, 1, (1, 0), 0, ((20, 20),)),
    ]
    (pair,) = paired_margins(2, games)
    # sequence 0: bot 0 won one of two (0.5), bot 1 one of two: 0; scores (30+15)/2 - (10+25)/2
    # sequence 1: 0.5 - 0.5 = 0; scores (0 + 20)/2 - (40 + 20)/2 = -20
    assert pair.win_rate.mean == 0.0 and pair.win_rate.n == 2
    assert pair.deal_score.mean == pytest.approx((5.0 - 20.0) / 2)
    expected = paired_interval([5.0, -20.0])
    assert (pair.deal_score.low, pair.deal_score.high) == (expected.low, expected.high)


def test_a_tournament_reports_paired_margins_that_flip_with_the_order_of_the_bots() -> None:
    options = TableOptions(players=2)
    config = TournamentConfig(parse_bots("greedy,random"), options, 6, 3, duplicate=True)
    results = run_tournament(config)
    swapped = [
        dataclasses.replace(game, seats=tuple(1 - bot for bot in game.seats))
        for game in results.games
    ]
    (pair,) = results.paired
    (other,) = paired_margins(2, swapped)
    assert pair.win_rate.n == 6
    assert pair.deal_score.mean == pytest.approx(-other.deal_score.mean)
    assert pair.deal_score.low == pytest.approx(-other.deal_score.high)
    assert pair.deal_score.mean > 0  # greedy beats random by far
    row = results.to_json()["paired_margins"][0]
    assert row["bot"] == "greedy" and row["other"] == "random" and row["sequences"] == 6
    # the paired mean of deal scores is the difference of the per-bot means (every
    # sequence has as many deals for both bots)
    by_bot = {s.label: s.mean_deal_score for s in results.summaries}
    assert pair.deal_score.mean == pytest.approx(by_bot["greedy"] - by_bot["random"], abs=30)


def test_a_study_reports_each_variants_paired_effect_over_the_first() -> None:
    variants = parse_variants("take=match,take=match+target=150,take=match+target=200")
    config = StudyConfig(variants=variants, bots=("greedy",), matches=4, skill_matches=0, seed=2)
    results = run_study(config)
    assert results.changes[0] == {}
    same = results.changes[2]  # the same rules on the same decks: no effect at all
    assert all(found.mean == 0 and found.low == 0 and found.high == 0 for found in same.values())
    shorter = results.changes[1]["deals_per_match"]  # a lower target: fewer deals a match
    assert shorter.mean <= 0 and shorter.n == 4
    data = results.to_json()
    assert data["variants"][1]["effect_over_first"]["deals_per_match"]["n"] == 4
    with pytest.raises(ValueError, match="different numbers"):
        effects([], [object()])  # type: ignore[list-item]
