"""A seat's view says why the rules would refuse an undo now, as ``take_back`` would."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.core import Phase, State, TableOptions, UndoError, take_back
from foxtrot.web.table.views import view_of


def test_undo_refused_follows_the_deal() -> None:
    """None before a move of the seat, allowed after one, ``revealed`` once the stock is dealt."""
    rng = random.Random(5)
    state = State(TableOptions(players=2), dealer=1)
    state.deal(rng)
    assert state.to_move == 0
    assert (view_of(state, 0, undo=True) or {})["undo_refused"] == "none"
    seen = set()
    stock = state.observation(0).stock
    while state.observation(0).stock == stock:
        state.apply_code_unchecked(state.legal_codes()[0])
        seen.add((view_of(state, 0, undo=True) or {})["undo_refused"])
    assert None in seen  # a move of seat 0 and nothing dealt since: allowed
    assert (view_of(state, 0, undo=True) or {})["undo_refused"] == "revealed"
    assert "undo_refused" not in (view_of(state, 0) or {})  # not asked: not computed
    assert "undo_refused" not in (view_of(state, None, undo=True) or {})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80), players=st.integers(2, 5))
def test_undo_refused_agrees_with_take_back(seed: int, steps: int, players: int) -> None:
    rng = random.Random(seed)
    state = State(TableOptions(players=players), dealer=0)
    state.deal(rng)
    for _ in range(steps):
        if state.phase is not Phase.PLAYING:
            break
        state.apply_code_unchecked(rng.choice(state.legal_codes()))
    if state.phase is not Phase.PLAYING:
        return
    for seat in range(players):
        try:
            take_back(state, seat)
            expected = None
        except UndoError as error:
            expected = error.code
        assert (view_of(state, seat, undo=True) or {})["undo_refused"] == expected
