"""The oracle that sees only part of the hidden cards (``OracleBot(sees=...)``), a measuring
device for where the oracle's edge lies, and ``State.resample``'s ``shown`` seats, which it is
built on: it reads what it is said to see and nothing more."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot import OptionsError, State, TableOptions, TakeRule
from foxtrot.bots import OracleBot, decide_oracle
from helpers import mid_deal

positions = st.builds(
    mid_deal, st.integers(0, 10**6), st.integers(2, 6), st.sampled_from(list(TakeRule))
)


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 1000), st.data())
def test_from_observation_keeps_the_shown_hands_and_deals_the_rest(
    state: State, seed: int, data: st.DataObject
) -> None:
    seat = state.to_move
    assert seat is not None
    others = [s for s in range(state.players) if s != seat]
    shown = data.draw(st.sets(st.sampled_from(others)))
    obs = state.observation(seat)
    world = State.from_observation(
        obs, random.Random(seed), shown={s: state.hand(s) for s in shown}
    )
    assert world.observation(seat) == obs
    for s in range(state.players):
        assert len(world.hand(s)) == len(state.hand(s))
        if s == seat or s in shown:
            assert world.hand(s) == state.hand(s)

    def hidden(position: State) -> Counter[str]:
        dealt = [s for s in others if s not in shown]
        return Counter(
            str(c) for c in [*(c for s in dealt for c in position.hand(s)), *position.stock]
        )

    assert hidden(world) == hidden(state)  # the same cards, dealt anew


def test_from_observation_with_every_hand_shown_deals_only_the_stock() -> None:
    state = mid_deal(11, 4, TakeRule.MATCH)
    seat = state.to_move
    assert seat is not None
    hands = {s: state.hand(s) for s in range(4) if s != seat}
    obs = state.observation(seat)
    worlds = [State.from_observation(obs, random.Random(k), shown=hands) for k in range(5)]
    assert all(w.hand(s) == state.hand(s) for w in worlds for s in range(4))
    assert len({w.stock for w in worlds}) > 1  # the stock's order is what they differ in


def test_from_observation_refuses_a_hand_that_cannot_be_shown() -> None:
    state = mid_deal(3, 3, TakeRule.MATCH)
    seat = state.to_move
    assert seat is not None
    obs = state.observation(seat)
    other = (seat + 1) % 3
    with pytest.raises(OptionsError, match="shown seat 3 is not another seat's hand"):
        State.from_observation(obs, random.Random(1), shown={3: state.hand(other)})
    with pytest.raises(OptionsError, match=f"shown seat {seat} is not another seat's hand"):
        State.from_observation(obs, random.Random(1), shown={seat: state.hand(seat)})
    dealt = State(TableOptions(players=3), dealer=0)
    dealt.deal(random.Random(5))
    card = dealt.hand(1)[0]  # two copies exist: a hand of eight of it holds cards seen
    with pytest.raises(OptionsError, match="hold cards the seat has seen"):
        State.from_observation(dealt.observation(1), random.Random(1), shown={2: [card] * 8})


def test_the_oracle_refuses_what_it_cannot_see() -> None:
    with pytest.raises(ValueError, match="sees: 'stock' is not one of all, hands, next, none"):
        OracleBot(sees="stock")


@settings(max_examples=15, deadline=None)
@given(positions, st.integers(0, 1000), st.sampled_from(["hands", "next", "none"]))
def test_a_partial_oracle_reads_only_what_it_sees(state: State, seed: int, sees: str) -> None:
    """Non-interference: dealing anew what it does not see changes no choice of it (with the
    same random numbers), and its choice is legal."""
    seat = state.to_move
    assert seat is not None
    players = state.players
    shown = {"hands": range(players), "next": [(seat + 1) % players], "none": []}[sees]
    world = State.from_observation(
        state.observation(seat),
        random.Random(seed + 1),
        shown={s: state.hand(s) for s in shown if s != seat},
    )
    oracle = OracleBot(iterations=8, seconds=None, sees=sees)
    chosen = decide_oracle(oracle, state, random.Random(seed))
    assert state.why_illegal(chosen) is None
    assert decide_oracle(oracle, world, random.Random(seed)) == chosen


def test_the_partial_oracle_sees_what_it_is_said_to() -> None:
    """The converse, so the test above could fail: a hand the ``next`` oracle sees does move
    its choice in some positions (and the full oracle's, which sees the stock too)."""
    moved = {"next": 0, "all": 0}
    for seed in range(30):
        state = mid_deal(seed, 3, TakeRule.MATCH)
        seat = state.to_move
        assert seat is not None
        other = state.resample(seat, random.Random(seed + 1))  # the next hand dealt anew too
        for sees in moved:
            oracle = OracleBot(iterations=40, seconds=None, sees=sees)
            first = decide_oracle(oracle, state, random.Random(seed))
            moved[sees] += first != decide_oracle(oracle, other, random.Random(seed))
    assert moved["next"] > 0 and moved["all"] > 0
