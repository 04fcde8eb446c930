"""Computer opponents: legality, determinism, honesty of the interface, the default policy."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot import Phase, State, TableOptions, TakeRule
from foxtrot.bots import (
    Bot,
    CheatingBot,
    ExpertBot,
    GreedyBot,
    OracleBot,
    RandomBot,
    decide,
    make_bot,
)
from foxtrot.bots.inference import likelihood, passed_up
from foxtrot.bots.rollout import policy_move, rollout, seen_by_rank
from helpers import deal_rigged, new_state

SMALL_EXPERT = {"iterations": 6, "seconds": None}


def _mid_deal(seed: int, players: int, take: TakeRule, forced: bool = False) -> State:
    """A deal in progress after a random number of random actions."""
    rng = random.Random(seed)
    state = State(TableOptions(players=players, take=take, forced_foxtrot=forced),
                  dealer=rng.randrange(players))
    state.deal(rng)
    for _ in range(rng.randrange(0, 90)):
        if state.phase is not Phase.PLAYING:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.phase is not Phase.PLAYING:
        state = State(state.options, dealer=0)
        state.deal(rng)
    return state


positions = st.builds(
    _mid_deal, st.integers(0, 10**6), st.integers(2, 9), st.sampled_from(list(TakeRule)),
    st.booleans())


@settings(max_examples=40, deadline=None)
@given(positions)
def test_every_bot_returns_a_legal_action(state: State) -> None:
    bots: list[Bot | CheatingBot] = [RandomBot(), GreedyBot(), ExpertBot(**SMALL_EXPERT),
                                     OracleBot(**SMALL_EXPERT)]
    for bot in bots:
        action = decide(bot, state, random.Random(1))
        assert state.why_illegal(action) is None, (bot.name, action)


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 1000))
def test_the_default_policy_only_makes_legal_moves(state: State, seed: int) -> None:
    rng = random.Random(seed)
    seen = seen_by_rank(state)
    while state.phase is Phase.PLAYING:
        code = policy_move(state, rng, seen)
        legal = {action.code for action in state.legal_actions()}
        assert code in legal
        if code != 52:
            seen[code >> 2] += 1
        state._do(code)


@settings(max_examples=25, deadline=None)
@given(positions, st.integers(0, 1000))
def test_same_seed_and_observation_give_the_same_action(state: State, seed: int) -> None:
    obs = state.observation(state.to_move)  # type: ignore[arg-type]
    for bot in (GreedyBot(), ExpertBot(**SMALL_EXPERT), RandomBot()):
        first = bot.choose(obs, obs.legal_actions, random.Random(seed))
        again = bot.choose(obs, obs.legal_actions, random.Random(seed))
        assert first == again


@settings(max_examples=20, deadline=None)
@given(positions, st.integers(0, 1000))
def test_honest_bots_see_nothing_hidden(state: State, seed: int) -> None:
    """Non-interference: dealing the hidden cards anew changes no honest bot's choice."""
    seat = state.to_move
    assert seat is not None
    other = state.resample(seat, random.Random(seed))
    for bot in (GreedyBot(), ExpertBot(**SMALL_EXPERT)):
        assert decide(bot, state, random.Random(seed)) == decide(bot, other, random.Random(seed))


def test_make_bot_levels_and_names() -> None:
    assert isinstance(make_bot("easy"), RandomBot)
    assert isinstance(make_bot("medium"), GreedyBot)
    assert isinstance(make_bot("hard"), ExpertBot)
    assert isinstance(make_bot("oracle"), OracleBot)
    assert isinstance(make_bot("hard"), Bot) and not isinstance(make_bot("oracle"), Bot)
    with pytest.raises(ValueError, match="unknown bot 'champion'"):
        make_bot("champion")


def test_greedy_makes_the_double_foxtrot_of_tens() -> None:
    state = new_state(players=2, take="match")
    deal_rigged(state, hands={1: "10H 2C 3D 4S 5H 6C 7D 8S"}, upturned="10D")
    assert str(decide(GreedyBot(), state, random.Random(0))) == "10H"
    assert str(decide(ExpertBot(iterations=30, seconds=None), state, random.Random(0))) == "10H"


def test_greedy_does_not_take_the_queen_of_spades() -> None:
    state = new_state(players=2, take="any")
    deal_rigged(state, hands={1: "2C 3D 4S 5H 6C 7D 8S 9H"}, upturned="QS")
    assert str(decide(GreedyBot(), state, random.Random(0))) != "take"


def test_greedy_takes_a_pile_worth_points() -> None:
    state = new_state(players=2, take="any")
    deal_rigged(state, hands={1: "2C 3D 4S 5H 6C 7D 8S 9H"}, upturned="10S")
    assert str(decide(GreedyBot(), state, random.Random(0))) == "take"


def test_inference_from_a_passed_up_take() -> None:
    # Seat 1 lays 2C on the ten; seat 0 (holding no Jack or ten) lays 3D on the pile of two:
    # seat 1, from seat 0's view... we look from seat 1: seat 0 passed up the pile 10S 2C.
    state = new_state(players=2, take="match")
    deal_rigged(state, hands={1: "2C 3H 4S 5H 6C 7D 8S 9H", 0: "3D 4D 5D 6D 7S 8D 9D KD"},
                upturned="10S")
    state.apply("2C")
    state.apply("3D")
    lacks = passed_up(state.observation(1))
    assert lacks == [(0, frozenset({9, 0}))]  # no Jack, no 2 (the top card's rank)
    assert likelihood(state._hands, lacks, 0.2) == 1.0
    assert likelihood([[], [36]], [(1, frozenset({9}))], 0.2) == 0.2


def test_rollout_ends_the_deal_or_stops_at_the_horizon() -> None:
    state = _mid_deal(3, 2, TakeRule.ANY)
    short = state.clone()
    before = len(short._actions)
    rollout(short, random.Random(1), 5)
    assert len(short._actions) - before == 5 or short.phase is not Phase.PLAYING
    rollout(state, random.Random(1))
    assert state.phase is not Phase.PLAYING
