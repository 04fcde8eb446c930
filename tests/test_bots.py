"""Computer opponents: legality, determinism, honesty of the interface, the default policy."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot import CARDS, Phase, State, TableOptions, TakeRule, fast
from foxtrot.bots import (
    BUDGETS,
    LEVELS,
    PURE_BUDGETS,
    Bot,
    ExpertBot,
    GreedyBot,
    OracleBot,
    RandomBot,
    budget,
    decide,
    decide_oracle,
    make_bot,
)
from foxtrot.bots.expert import (
    ROUNDS,
    WHOLE_DEAL_SAMPLES,
    _pick,
    default_tempo,
    effective_size,
    horizon,
    margin,
    temper,
    tempered,
    tempering_power,
)
from foxtrot.bots.inference import SURPRISE, decisions, log_likelihood
from foxtrot.bots.rollout import policy_move, rollout, unseen_by_rank
from foxtrot.bots.values import CARD_VALUE
from foxtrot.core.kernel import CARD_POINTS, FOXTROT_BONUSES, RANKS, SUITS, TAKE_CODE
from foxtrot.research import parse_bots
from helpers import card, deal_rigged, mid_deal, new_state

SMALL_EXPERT: dict[str, Any] = {"iterations": 6, "seconds": None}


positions = st.builds(
    mid_deal,
    st.integers(0, 10**6),
    st.integers(2, 9),
    st.sampled_from(list(TakeRule)),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_every_bot_returns_a_legal_action(state: State) -> None:
    bots: list[Bot] = [RandomBot(), GreedyBot(), ExpertBot(**SMALL_EXPERT)]
    for bot in bots:
        action = decide(bot, state, random.Random(1))
        assert state.why_illegal(action) is None, (bot.name, action)
    oracle = decide_oracle(OracleBot(**SMALL_EXPERT), state, random.Random(1))
    assert state.why_illegal(oracle) is None


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 1000))
def test_the_default_policy_only_makes_legal_moves(state: State, seed: int) -> None:
    rng = random.Random(seed)
    unseen = unseen_by_rank(state)
    while state.phase is Phase.PLAYING:
        code = policy_move(state, rng, unseen)
        legal = {action.code for action in state.legal_actions()}
        assert code in legal
        if code != TAKE_CODE:
            unseen[code >> 2] -= 1
        state.apply_code_unchecked(code)


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 1000))
def test_a_large_tempo_takes_the_pile_whenever_a_move_can(state: State, seed: int) -> None:
    def takes(code: int) -> bool:
        after = state.clone()
        after.apply_code_unchecked(code)
        return bool(state.pile_ids) and not after.pile_ids

    legal = [action.code for action in state.legal_actions()]
    code = policy_move(state, random.Random(seed), unseen_by_rank(state), tempo=1000.0)
    assert code in legal
    assert takes(code) or not any(takes(other) for other in legal)


def test_tempo_makes_the_default_policy_take_a_lone_queen_of_spades() -> None:
    options = TableOptions(players=2, take=TakeRule.ANY)
    for seed in itertools.count():  # a deal whose upturned card is a Queen of spades (X1)
        state = State(options, dealer=1)
        state.deal(random.Random(seed))
        hand = [str(card) for card in state.hand(0)]
        if [str(card) for card in state.pile] == ["QS"] and not any(
            card == "QS" or card.startswith("J") for card in hand
        ):
            break  # no foxtrot and no Jack: taking the pile is the one move that takes
    unseen = unseen_by_rank(state)
    assert policy_move(state, random.Random(1), unseen) != TAKE_CODE  # greedy's way: -20 points
    assert policy_move(state, random.Random(1), unseen, tempo=30.0) == TAKE_CODE


@pytest.mark.parametrize("players", range(2, 10))
def test_the_default_tempo_is_30_points_only_at_two_players_under_take_any(players: int) -> None:
    assert default_tempo(players, take_any=True) == (30.0 if players == 2 else 0.0)
    assert default_tempo(players, take_any=False) == 0.0


@settings(max_examples=20, deadline=None)
@given(positions, st.integers(0, 1000))
def test_the_expert_plays_for_the_tempo_at_two_players_under_take_any(
    state: State, seed: int
) -> None:
    obs = state.observation(state.to_move)
    # the known answer, written out (not rebuilt from the code's constant and condition):
    # 30 points for holding the tempo at 2 players under take = any, nothing elsewhere
    two_any = state.players == 2 and state.options.take is TakeRule.ANY
    known = 30.0 if two_any else 0.0
    shipped = ExpertBot(**SMALL_EXPERT).analyse(obs, random.Random(seed))
    given = ExpertBot(**SMALL_EXPERT, tempo=known).analyse(obs, random.Random(seed))
    assert (given.best, given.values) == (shipped.best, shipped.values)
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="tempo: "):
            ExpertBot(tempo=bad)


@settings(max_examples=25, deadline=None)
@given(positions, st.integers(0, 1000))
def test_same_seed_and_observation_give_the_same_action(state: State, seed: int) -> None:
    obs = state.observation(state.to_move)
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
    assert isinstance(make_bot("hard"), Bot)
    with pytest.raises(ValueError, match="unknown bot 'champion'") as refused:
        make_bot("champion")
    names = str(refused.value).split("expected ", 1)[1].replace(" or ", ", ").rstrip(")")
    listed = names.split(", ")
    assert len(listed) == len(set(listed)), listed  # each name once
    assert {"random", "greedy", "expert", "easy", "medium", "hard"} == set(listed)


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
    # Seat 1 lays 2C on the upturned ten; seat 0 lays 3D on the pile 10S 2C instead of
    # taking it.  From seat 1's view, a seat 0 holding a Jack or a 2 (either takes the
    # pile under take = match) explains that move far worse than the hand it held.
    state = new_state(players=2, take="match")
    deal_rigged(
        state, hands={1: "2C 3H 4S 5H 6C 7D 8S 9H", 0: "3D 4D 5D 6D 7S 8D 9D KD"}, upturned="10S"
    )
    state.apply("2C")
    state.apply("3D")
    moves = decisions(state.observation(1))
    ten, two, three = (card(text).id for text in ("10S", "2C", "3D"))
    assert [(m.seat, m.pile, m.code, m.later) for m in moves] == [(0, [ten, two], three, [three])]
    truth = log_likelihood(state.hand_ids, moves, take_any=False, forced_foxtrot=False)
    for taker in ("JH", "2S"):
        hand = sorted([*state.hand_ids[0][1:], card(taker).id])
        other = log_likelihood(
            [hand, state.hand_ids[1]], moves, take_any=False, forced_foxtrot=False
        )
        assert other < truth - math.log(8), (taker, other, truth)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_the_opponent_model_sees_each_past_move_as_its_player_saw_it(state: State) -> None:
    """Replaying the deal: every move the model keeps was made with the pile, the hand
    (the hand now plus the cards played since) and the unseen ranks it records, and it
    keeps exactly the other seats' moves since the last redeal."""
    seat = state.to_move
    current = state.deal_logs()[-1]
    assert seat is not None and current.deck is not None and state.upturned is not None
    replay = State(state.options, dealer=state.dealer)
    replay.deal(deck=[CARDS[i] for i in current.deck])
    unseen = [SUITS * state.options.decks] * RANKS
    unseen[state.upturned.id >> 2] -= 1
    expected = []
    for entry in current.actions:
        mover, code = entry >> 6, entry & 63
        if mover != seat:
            expected.append(
                (mover, list(replay.pile_ids), code, sorted(replay.hand_ids[mover]), unseen[:])
            )
        if code != TAKE_CODE:
            unseen[code >> 2] -= 1
        stock = len(replay.stock_ids)
        replay.apply_code_unchecked(code)
        if len(replay.stock_ids) < stock:  # a redeal: earlier hands say nothing now
            expected.clear()
    moves = decisions(state.observation(seat))
    found = [
        (m.seat, m.pile, m.code, sorted([*state.hand_ids[m.seat], *m.later]), m.unseen)
        for m in moves
    ]
    assert sorted(found) == sorted(expected)
    # No sampled deal is ever ruled out: each move keeps at least its share of SURPRISE.
    world = state.resample(seat, random.Random(len(moves)))
    log = log_likelihood(
        world.hand_ids, moves, state.options.take is TakeRule.ANY, state.options.forced_foxtrot
    )
    assert len(moves) * math.log(SURPRISE / 53) <= log <= 0


def test_rollout_ends_the_deal_or_stops_at_the_horizon() -> None:
    state = mid_deal(3, 2, TakeRule.ANY)
    short = state.clone()
    before = len(short.deal_logs()[-1].actions)
    rollout(short, random.Random(1), 5)
    assert len(short.deal_logs()[-1].actions) - before == 5 or short.phase is not Phase.PLAYING
    rollout(state, random.Random(1))
    assert state.phase is not Phase.PLAYING


# ------------------------------------------------- tempering, pooled samples, levels

log_likelihoods = st.lists(
    st.floats(-60, 0, allow_nan=False, allow_infinity=False), min_size=1, max_size=200
)


@settings(max_examples=200, deadline=None)
@given(log_likelihoods, st.floats(0.01, 1.0))
def test_tempering_keeps_the_effective_sample_size_and_tempers_no_more_than_needed(
    logs: list[float], share: float
) -> None:
    power = tempering_power(logs, share)
    assert 0.0 <= power <= 1.0
    weights = temper(logs, share)
    assert weights == tempered(logs, power)
    assert max(weights) == 1.0 and min(weights) >= 0.0
    floor = share * len(logs)
    assert effective_size(weights) >= floor * (1 - 1e-12)
    if power < 1.0:  # the bound binds: a little more power would break it
        assert effective_size(tempered(logs, power + 2**-24)) < floor


@settings(max_examples=100, deadline=None)
@given(log_likelihoods, st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_the_effective_sample_size_never_grows_with_the_power(
    logs: list[float], first: float, second: float
) -> None:
    low, high = sorted((first, second))
    assert effective_size(tempered(logs, high)) <= effective_size(tempered(logs, low)) * (1 + 1e-9)


def test_tempering_examples() -> None:
    assert effective_size([1.0] * 9) == pytest.approx(9)
    assert effective_size([1.0, 0.0, 0.0]) == pytest.approx(1)
    assert tempering_power([0.0, -1.0, -2.0]) == 1.0  # already spread: untouched
    # One sample explains the moves far better: at full power it would take all the weight.
    logs = [0.0] + [-50.0] * 29
    weights = temper(logs)
    assert effective_size(weights) == pytest.approx(10, rel=1e-3)
    assert 0 < tempering_power(logs) < 0.1


def test_a_pooled_sample_is_drawn_by_weight_and_weighs_its_pools_mean() -> None:
    state = mid_deal(5, 2, TakeRule.ANY)
    worlds = [state.clone() for _ in range(3)]
    logs = iter([-500.0, math.log(0.6), -500.0])
    draws = iter(worlds)
    world, log = _pick(lambda: (next(draws), next(logs)), 3, random.Random(1))
    assert world is worlds[1]
    assert log == pytest.approx(math.log(0.6 / 3))


@settings(max_examples=10, deadline=None)
@given(positions, st.integers(0, 1000))
def test_the_pooled_and_untempered_searches_play_legal_moves(state: State, seed: int) -> None:
    obs = state.observation(state.to_move)
    for bot in (ExpertBot(**SMALL_EXPERT, pool=3), ExpertBot(**SMALL_EXPERT, share=0)):
        analysis = bot.analyse(obs, random.Random(seed))
        assert analysis.best in obs.legal_actions
        assert set(analysis.values) == set(obs.legal_actions)


def test_the_levels_and_their_budgets() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    (hard_n, hard_s), (expert_n, expert_s) = BUDGETS["hard"], BUDGETS["expert"]
    assert hard_s is not None and hard_s < 1.0  # an opponent answers within a second
    assert expert_s is not None and expert_n > hard_n and expert_s > hard_s
    for name in ("hard", "expert"):
        bot = make_bot(name)
        assert isinstance(bot, ExpertBot) and (bot.iterations, bot.seconds) == budget(name)
    with pytest.raises(ValueError, match="share"):
        ExpertBot(share=1.5)
    with pytest.raises(ValueError, match="pool"):
        ExpertBot(pool=0)


@pytest.mark.parametrize("compiled", [True, False])
def test_hard_searches_to_the_end_of_the_deal_with_the_kernel_and_three_rounds_without(
    compiled: bool,
) -> None:
    fast.use(compiled)
    try:
        budgets = BUDGETS if compiled else PURE_BUDGETS
        assert budget("hard") == budgets["hard"] and budget("expert") == budgets["expert"]
        hard, expert = make_bot("hard"), make_bot("expert")
        assert isinstance(hard, ExpertBot) and isinstance(expert, ExpertBot)
        assert (hard.iterations, hard.seconds) == budgets["hard"]
        assert expert.iterations > hard.iterations and hard.seconds == BUDGETS["hard"][1]
        for players in (2, 4, 6):
            depth = horizon(players, hard.iterations)
            if compiled:  # longer than any deal: every card played and taken
                assert hard.iterations >= WHOLE_DEAL_SAMPLES
                assert depth > 2 * TableOptions(players=players).deck_size
            else:  # pure Python: what it can play within the seconds
                assert hard.iterations < WHOLE_DEAL_SAMPLES and depth == ROUNDS * players
        entrant = parse_bots("hard", seconds=0)[0].build()  # tournaments: the same samples
        assert isinstance(entrant, ExpertBot) and entrant.iterations == hard.iterations
    finally:
        fast.use(None)


def test_a_whole_deal_search_scores_the_deals_end() -> None:
    state = mid_deal(5, 2, TakeRule.MATCH)
    obs = state.observation(state.to_move)
    whole = ExpertBot(iterations=4, seconds=None, horizon=horizon(2, WHOLE_DEAL_SAMPLES))
    longer = ExpertBot(iterations=4, seconds=None, horizon=10**6)
    short = ExpertBot(iterations=4, seconds=None, horizon=1)
    values = [bot.analyse(obs, random.Random(3)).values for bot in (whole, longer, short)]
    assert values[0] == values[1] != values[2]


def test_tournament_entrants_keep_their_levels_budget() -> None:
    hard, expert = (spec.build() for spec in parse_bots("hard,expert"))
    assert isinstance(hard, ExpertBot) and isinstance(expert, ExpertBot)
    assert (hard.iterations, hard.seconds) == budget("hard")
    assert (expert.iterations, expert.seconds) == budget("expert")
    # No time limit (repeatable matches): each level keeps its own number of samples.
    hard, expert = (spec.build() for spec in parse_bots("hard,expert", seconds=0))
    assert isinstance(hard, ExpertBot) and isinstance(expert, ExpertBot)
    assert (hard.iterations, hard.seconds) == (budget("hard")[0], None)
    assert (expert.iterations, expert.seconds) == (budget("expert")[0], None)


def test_the_margin_against_the_best_rival() -> None:
    state = mid_deal(11, 4, TakeRule.ANY)
    while state.phase is Phase.PLAYING and sum(map(len, state.taken_ids)) < 12:
        state.apply_code_unchecked(state.legal_actions()[0].code)
    assert state.phase is Phase.PLAYING
    points = [
        sum(CARD_POINTS[c] + CARD_VALUE for c in taken) + sum(FOXTROT_BONUSES[f] for f in foxtrots)
        for taken, foxtrots in zip(state.taken_ids, state.foxtrot_ids, strict=True)
    ]
    assert len(set(points)) > 1
    for seat in range(4):
        others = points[:seat] + points[seat + 1 :]
        mean, best = sum(others) / 3, max(others)
        assert margin(state, seat) == pytest.approx(points[seat] - mean)
        assert margin(state, seat, 1.0) == pytest.approx(points[seat] - best)
        assert margin(state, seat, 0.5) == pytest.approx(points[seat] - (mean + best) / 2)
