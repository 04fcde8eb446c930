"""The match-end screen's cards by category: they add up to the score sheet's card points."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.core import Phase, State, TableOptions
from foxtrot.web.table.match_parts import match_parts
from foxtrot.web.table.views import view_of
from helpers import play_random


def _match(seed: int, players: int) -> State:
    state = State(TableOptions(players=players, target=60), dealer=seed % players)
    return play_random(state, random.Random(seed), max_actions=10**6, whole_match=True)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 9))
def test_parts_make_the_card_points(seed: int, players: int) -> None:
    """Tens ×10, aces ×1, jacks ×1, queens of spades ×−20: each deal's card points (rule P2)."""
    state = _match(seed, players)
    parts = match_parts(state)
    scores = state.observation(0).deal_scores
    assert len(parts) == len(scores) > 0
    for deal, lines in zip(parts, scores, strict=True):
        assert len(deal) == players
        for counts, line in zip(deal, lines, strict=True):
            points = 10 * counts["tens"] + counts["aces"] + counts["jacks"] - 20 * counts["queens"]
            assert points == line.card_points


def test_parts_only_in_the_view_of_an_ended_match() -> None:
    """The parts are sent once the match is over, to players and spectators alike."""
    state = _match(7, 3)
    assert state.phase is Phase.OVER
    for seat in (0, 2, None):
        view = view_of(state, seat)
        assert view is not None and view["parts"] == match_parts(state)
    rng = random.Random(1)
    early = State(TableOptions(players=3), dealer=0)
    early.deal(rng)
    assert "parts" not in (view_of(early, 0) or {})
