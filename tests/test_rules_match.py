"""Rules M1-M2 (the match) and X8, with every target option."""

from __future__ import annotations

import pytest

from foxtrot.core import (
    DealEnded,
    DeckError,
    IllegalActionError,
    MatchEnded,
    OptionsError,
    Outcome,
    TableOptions,
)
from foxtrot.core.outcome import Phase
from helpers import new_state, play_jack_deal

# One Jack deal scores 50 for the player left of the dealer and 12 for the dealer
# (see test_rules_scoring.py): seat 1 when seat 0 deals, seat 0 when seat 1 deals.


@pytest.mark.parametrize("target", [150, 200, 300, 400, 55, 1000])
def test_M1_targets_and_the_match_goes_on_below_the_target(target: int) -> None:
    state = new_state(0, target=target)
    assert state.options.target == target
    events = play_jack_deal(state)
    assert isinstance(events[-1], DealEnded) and events[-1].totals == (12, 50)
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert state.phase is Phase.AWAITING_DEAL and state.winner is None and state.outcome is None
    assert not state.is_over


@pytest.mark.parametrize("target", [0, -5, "x", True, float("nan"), float("inf"), -0.5, None])
def test_M1_target_must_be_a_positive_number(target: object) -> None:
    with pytest.raises(OptionsError, match="target"):
        TableOptions(target=target)  # type: ignore[arg-type]


@pytest.mark.parametrize("target", [150.0, 250.5, 0.5, 10**40])
def test_M1_any_positive_number_may_be_a_custom_target(target: float) -> None:
    assert TableOptions(target=target).target == target


def test_M2_deal_scores_add_up_to_match_totals() -> None:
    state = new_state(0, target=1000)
    first = play_jack_deal(state)[-1]
    second = play_jack_deal(state)[-1]  # seat 1 deals: seat 0 scores 50, seat 1 12
    assert isinstance(first, DealEnded) and isinstance(second, DealEnded)
    assert first.totals == (12, 50)
    assert (second.scores[0].total, second.scores[1].total) == (50, 12)
    assert second.totals == (62, 62) and state.totals == [62, 62]


def test_M2_tie_at_the_top_above_target_needs_another_deal() -> None:
    state = new_state(0, target=55)
    play_jack_deal(state)  # 12, 50: nobody has reached 55
    assert state.phase is Phase.AWAITING_DEAL
    events = play_jack_deal(state)  # 62, 62: both reached 55 but they tie at the top
    last = events[-1]
    assert isinstance(last, DealEnded)
    assert last == DealEnded(1, last.scores, (62, 62), 1, last.leftover, None)
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert state.winner is None and state.phase is Phase.AWAITING_DEAL
    events = play_jack_deal(state)  # seat 0 deals again: 74, 112
    assert events[-1] == MatchEnded(1, (74, 112))
    assert isinstance(events[-2], DealEnded) and events[-2].totals == (74, 112)
    assert state.is_over and state.winner == 1
    assert state.outcome == Outcome(1, (74, 112), 3)
    assert state.outcome.returns() == (0.0, 1.0)


def test_M2_highest_total_wins_when_several_reach_the_target() -> None:
    state = new_state(0, target=12)
    events = play_jack_deal(state)  # 12 and 50: both reached 12
    assert events[-1] == MatchEnded(1, (12, 50))


def test_M2_nothing_after_the_match_is_won() -> None:
    state = new_state(0, target=50)
    play_jack_deal(state)
    with pytest.raises(DeckError, match="over"):
        state.deal(deck=None)
    with pytest.raises(IllegalActionError) as info:
        state.apply("take")
    assert info.value.code == "match_over"
    assert state.legal_actions() == [] and state.to_move is None


@pytest.mark.parametrize(("target", "over"), [(50, True), (51, False)])
def test_X8_reaching_the_target_means_at_least_the_target(target: int, over: bool) -> None:
    state = new_state(0, target=target)
    events = play_jack_deal(state)
    assert state.is_over is over
    assert (events[-1] == MatchEnded(1, (12, 50))) is over
