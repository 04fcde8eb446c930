"""Reading the table: each other player's style from the hands he played out (bots.styles)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot import Phase, State, TableOptions
from foxtrot.bots import ExpertBot, GreedyBot, RandomBot, decide, make_bot
from foxtrot.bots.base import Bot
from foxtrot.bots.inference import replay, revealed
from foxtrot.bots.styles import RANDOM, STYLES, posterior, read
from helpers import into_deal


def played_until(bots: list[Bot], seed: int, stop: int) -> State:
    """A 2-player deal played by ``bots`` until the stock holds at most ``stop`` cards."""
    state = State(TableOptions(players=len(bots)), dealer=0)
    state.deal(random.Random(seed))
    rng = random.Random(seed)
    while state.phase is Phase.PLAYING and len(state.stock_ids) > stop:
        seat = state.to_move
        assert seat is not None
        state.apply(decide(bots[seat], state, rng))
    return state


def test_a_revealed_move_knows_its_whole_hand_from_the_public_record() -> None:
    state = played_until([GreedyBot(), RandomBot()], seed=5, stop=40)
    obs = state.observation(0)
    moves = revealed(obs)
    assert moves and {move.seat for move in moves} == {1}
    laid = [action.code for seat, action in obs.history if seat == 1 and action.card is not None]
    hand = obs.options.hand_size
    # every closed hand is the cards seat 1 laid in it; its first move had the whole hand
    firsts = [move for move in moves if len(move.later) == hand]
    assert [sorted(move.later) for move in firsts] == [
        sorted(laid[i : i + hand]) for i in range(0, len(firsts) * hand, hand)
    ]
    # the hand being played now is not among them: its moves are the search's to weigh
    current, closed = replay(obs)
    key = [(move.seat, move.code, move.later) for move in closed]
    assert key == [(move.seat, move.code, move.later) for move in moves]
    assert len(current) + len(closed) == sum(1 for seat, _ in obs.history if seat == 1)
    assert {move.seat for move in current} <= {1}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4, 6]), st.integers(0, 120))
def test_the_reading_depends_only_on_what_the_seat_may_know(
    seed: int, players: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = into_deal(TableOptions(players=players), rng, steps)
    if state.phase is not Phase.PLAYING:
        return
    seat = state.to_move
    assert seat is not None
    obs = state.observation(seat)
    reading = read(obs)
    # the hidden cards dealt afresh, as any seat might imagine them: the same reading
    again = State.from_observation(obs, random.Random(seed + 1)).observation(seat)
    assert read(again) == reading
    assert set(reading.posteriors) == set(range(players)) - {seat}
    for weights in reading.posteriors.values():
        assert math.isclose(sum(weights), 1.0) and all(w >= 0 for w in weights)
    assert seat not in reading.ignored and reading.style in STYLES


def test_no_move_seen_leaves_the_priors() -> None:
    assert posterior([0.0] * len(STYLES)) == pytest.approx([s.prior for s in STYLES])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_player_is_read_as_random_and_left_out_a_greedy_one_is_not(seed: int) -> None:
    state = played_until([GreedyBot(), RandomBot()], seed=seed, stop=30)
    by_greedy = read(state.observation(0))
    assert by_greedy.likeliest(1) is RANDOM and by_greedy.ignored == {1}
    by_random = read(state.observation(1))
    assert by_random.likeliest(0) is not RANDOM and not by_random.ignored
    assert by_random.style.name in {"greedy", "sharp"}


@pytest.mark.parametrize("players", [2, 4])
def test_the_reading_expert_is_deterministic_for_a_seed_and_plays_legally(players: int) -> None:
    state = played_until([GreedyBot(), RandomBot()] * (players // 2), seed=9, stop=40)
    seat = state.to_move
    assert seat is not None
    obs = state.observation(seat)
    bot = ExpertBot(60, None, reads=True)
    first = bot.choose(obs, obs.legal_actions, random.Random(4))
    assert first in obs.legal_actions
    assert bot.choose(obs, obs.legal_actions, random.Random(4)) == first


def test_the_expert_level_reads_the_table_and_hard_does_not() -> None:
    expert, hard = make_bot("expert"), make_bot("hard")
    assert isinstance(expert, ExpertBot) and isinstance(hard, ExpertBot)
    assert expert.reads and not hard.reads
