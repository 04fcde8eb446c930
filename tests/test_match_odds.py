"""The expert's match objective: the chance to win from the totals (M2, X8), and the search."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import ExpertBot
from foxtrot.bots.match_odds import PACE, Pace, win_chance
from foxtrot.core.kernel import match_winner

totals_of = st.lists(st.integers(-60, 320), min_size=2, max_size=6)
targets = st.sampled_from([150, 200, 300, 400])
paces = st.sampled_from(sorted(PACE.values()))


@given(totals_of, targets, paces, st.booleans())
def test_a_chance_is_a_probability_that_grows_with_the_own_total(
    totals: list[int], target: int, pace: Pace, final: bool
) -> None:
    for seat in range(len(totals)):
        chance = win_chance(totals, seat, target, final=final, pace=pace)
        assert 0.0 <= chance <= 1.0
        more = totals[:]
        more[seat] += 15
        assert win_chance(more, seat, target, final=final, pace=pace) >= chance
        if seat + 1 < len(totals):  # and shrinks as a rival's grows
            rival = totals[:]
            rival[seat + 1] += 15
            assert win_chance(rival, seat, target, final=final, pace=pace) <= chance


@given(totals_of, targets, paces)
@example([0, 274], 300, PACE[5, True])  # erf rounds to 1.0 there: the chance must stay below
def test_a_deal_that_ends_the_match_is_won_or_lost_outright(
    totals: list[int], target: int, pace: Pace
) -> None:
    # M2, X8: once the highest total has reached the target and nobody shares it
    winner = match_winner(totals, target)
    chances = [win_chance(totals, s, target, final=True, pace=pace) for s in range(len(totals))]
    if winner >= 0:
        assert chances == [1.0 if s == winner else 0.0 for s in range(len(totals))]
    else:  # a tie at the top or nobody at the target: another deal, nobody is sure of it
        assert all(chance < 1.0 for chance in chances)


@given(st.integers(-60, 320), st.integers(-60, 320), targets, paces)
def test_two_players_chances_add_up_to_one_while_the_match_goes_on(
    mine: int, theirs: int, target: int, pace: Pace
) -> None:
    totals = [mine, theirs]
    chances = [win_chance(totals, s, target, final=False, pace=pace) for s in (0, 1)]
    assert sum(chances) == pytest.approx(1.0)


def test_every_table_has_a_pace() -> None:
    for players in range(2, 10):
        for take in TakeRule:
            pace = PACE[players, take is TakeRule.ANY]
            assert pace.mean > 0 and pace.spread > 0


def test_the_match_stake_values_chances_and_is_refused_below_zero() -> None:
    state = State(TableOptions(players=3, take=TakeRule.MATCH), dealer=0)
    state.totals = [180, 190, 120]
    state.deal(random.Random(4))
    seat = state.to_move
    assert state.phase is Phase.PLAYING and seat is not None
    obs = state.observation(seat)
    bot = ExpertBot(iterations=20, seconds=None, stake=math.inf)
    analysis = bot.analyse(obs, random.Random(5))
    assert analysis.best in obs.legal_actions
    assert all(0.0 <= value <= 1.0 for value in analysis.values.values())
    deal = ExpertBot(iterations=20, seconds=None).analyse(obs, random.Random(5))
    assert any(value < 0.0 or value > 1.0 for value in deal.values.values())  # points
    blend = ExpertBot(iterations=20, seconds=None, stake=100.0).analyse(obs, random.Random(5))
    for action, value in blend.values.items():  # the margin plus the stake times the chance
        assert value == pytest.approx(deal.values[action] + 100 * analysis.values[action])
    for bad in (-1.0, math.nan):
        with pytest.raises(ValueError, match="stake: "):
            ExpertBot(stake=bad)
