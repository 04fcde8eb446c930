"""Foxtrot as an OpenSpiel game (foxtrot.openspiel): OpenSpiel's own checks, hidden
information in the information states, resampling, OpenSpiel's search bots, tournaments."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts

from foxtrot.core import CARDS, IllegalActionError, OptionsError, State, TableOptions, TakeRule
from foxtrot.env import encode
from foxtrot.openspiel import SHORT_NAME, FoxtrotState, load
from foxtrot.openspiel.bots import OpenSpielBot, state_from_observation
from foxtrot.research import TournamentConfig, parse_bots, run_tournament

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PARAM_SETS: list[dict[str, Any]] = [
    {},
    {"players": 4, "take": "any", "deals": 2, "returns": "points"},
    {"players": 3, "forced_foxtrot": True, "leftover_pile": "last_taker", "dealer": 2},
    {"players": 7, "take": "any", "forced_foxtrot": True, "most_cards_tie": "all"},
]


def _ids(params: dict[str, Any]) -> str:
    return "-".join(f"{key}={value}" for key, value in params.items()) or "default"


def chance(state: FoxtrotState, rng: random.Random) -> None:
    """Apply one chance outcome drawn from ``chance_outcomes``."""
    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(actions, probabilities)[0])


def dealt(game: Any, rng: random.Random) -> FoxtrotState:
    """A new state with the dealer drawn and the deck dealt."""
    state: FoxtrotState = game.new_initial_state()
    while state.is_chance_node():
        chance(state, rng)
    return state


# ------------------------------------------------------------------- OpenSpiel's checks


@pytest.mark.parametrize("params", PARAM_SETS, ids=_ids)
def test_random_sim_test_with_serialization(params: dict[str, Any]) -> None:
    game = pyspiel.load_game(SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("returns", ["margin", "win"])
def test_random_sim_test_whole_match(returns: str) -> None:
    game = load(deals=0, returns=returns, target=120, take="any")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_describes_itself() -> None:
    game = load(players=4)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 53
    assert game.max_chance_outcomes() == 52
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load(returns="points").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert load(deals=3).get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert game.observation_tensor_shape() == [210 + 7 * 4]
    assert game.information_state_tensor_size() > game.observation_tensor_size()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 10}, "players"),
        ({"take": "sometimes"}, "take"),
        ({"deals": -1}, "deals"),
        ({"dealer": 2}, "dealer"),
        ({"returns": "win"}, "win needs deals=0"),
        ({"returns": "glory", "deals": 0}, "returns"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        load(**params)


def test_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game(SHORT_NAME, {"colour": "red"})


def test_chance_deals_the_deck_with_exact_probabilities() -> None:
    game = load(players=2)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the dealer, as a fair lot
    state.apply_action(1)
    first = state.chance_outcomes()
    assert len(first) == 52 and all(abs(p - 2 / 104) < 1e-12 for _, p in first)
    state.apply_action(7)
    assert dict(state.chance_outcomes())[7] == pytest.approx(1 / 103)


@given(seed=st.integers(0, 10_000), params=st.sampled_from(PARAM_SETS[:3]))
@SETTINGS
def test_returns_are_the_deal_scores(seed: int, params: dict[str, Any]) -> None:
    """Per deal: ``points`` are the deal scores of the core; ``margin`` each score minus
    the others' mean (zero-sum); the rewards at decision nodes add up to the returns."""
    rng = random.Random(seed)
    game = load(**{**params, "deals": 2, "returns": "points"})
    state = game.new_initial_state()
    summed = np.zeros(game.num_players())
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        summed += state.rewards()
        state.apply_action(rng.choice(state.legal_actions()))
    summed += state.rewards()
    assert state.core is not None
    scores = [log.scores for log in state.core.deal_logs()]
    expected = [sum(line[s].total for line in scores if line) for s in range(game.num_players())]
    assert state.returns() == pytest.approx(expected)
    assert summed == pytest.approx(expected)


def test_whole_match_ends_when_won() -> None:
    rng = random.Random(4)
    game = load(deals=0, returns="win", target=60)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.core is not None and state.core.outcome is not None
    winner = state.core.outcome.winner
    assert state.returns() == [1.0 if s == winner else -1.0 for s in range(2)]
    assert state.core.deal_number >= 1


# ------------------------------------------------------------------- hidden information


@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 5]), swap=st.integers(0, 7))
@SETTINGS
def test_hidden_cards_never_reach_an_information_state(seed: int, players: int, swap: int) -> None:
    """Two deals that differ only in a card of seat 1's hand and a card deep in the stock:
    for every other seat the information state and observation strings and tensors are
    equal at every step until seat 1 plays the swapped card; seat 1's differ."""
    rng = random.Random(seed)
    game = load(players=players, dealer=0)
    deck = [c for c in range(52) for _ in range(2)]
    rng.shuffle(deck)
    first_of_seat_1 = swap * players  # the dealer is 0: seat 1 gets positions 0, n, 2n, ...
    last = len(deck) - 1
    if deck[first_of_seat_1] == deck[last]:
        return  # nothing would differ
    other = deck[:]
    other[first_of_seat_1], other[last] = other[last], other[first_of_seat_1]
    states = []
    for order in (deck, other):
        state = game.new_initial_state()
        for card in order:
            state.apply_action(card)
        states.append(state)
    a, b = states
    hidden = deck[first_of_seat_1]
    for _ in range(60):
        for seat in range(players):
            same = seat != 1
            for reading in ("information_state_string", "observation_string"):
                assert (getattr(a, reading)(seat) == getattr(b, reading)(seat)) is same
            for reading in ("information_state_tensor", "observation_tensor"):
                assert (getattr(a, reading)(seat) == getattr(b, reading)(seat)) is same
        if a.is_terminal() or a.is_chance_node():
            break
        action = rng.choice(a.legal_actions())
        if (a.current_player() == 1 and action == hidden) or action not in b.legal_actions():
            break
        a.apply_action(action)
        b.apply_action(action)


def test_public_observer_leaves_out_the_hand() -> None:
    game = load(players=2)
    state = dealt(game, random.Random(2))
    public = pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    hand = " ".join(str(CARDS[c]) for c in state.tracks[-1].received[0][0])
    assert hand in state.information_state_string(0)
    assert hand not in observer.string_from(state, 0)
    observer.set_from(state, 0)
    assert not observer.dict["observation"][:52].any()
    assert not observer.dict["dealt"].any()


def test_observation_tensor_is_the_env_encoding() -> None:
    state = dealt(load(players=3), random.Random(5))
    assert state.core is not None
    for seat in range(3):
        expected = encode(state.core.observation(seat))
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)


@given(seed=st.integers(0, 10_000), params=st.sampled_from(PARAM_SETS))
@SETTINGS
def test_resample_from_infostate_keeps_the_information_state(
    seed: int, params: dict[str, Any]
) -> None:
    """OpenSpiel's ResampleInfostateTest, in Python: same information state (string and
    tensor) and player to move for the seat; and the hidden cards really are redrawn."""
    rng = random.Random(seed)
    game = load(**params)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = redrawn = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        if rng.random() < 0.08:
            for seat in range(game.num_players()):
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.current_player() == state.current_player()
                redrawn += str(other) != str(state)
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert redrawn >= checked // 2


def test_resample_from_infostate_draws_only_from_the_randomness_it_is_handed() -> None:
    """The sampler's seed decides the resample (no global randomness): the same seed, the same
    deal; another seed, another; no sampler, a clear refusal."""
    game = load(players=2)
    state = dealt(game, random.Random(3))
    state.apply_action(state.legal_actions()[0])

    def resampled(seed: int) -> str:
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        return str(state.resample_from_infostate(0, sampler))

    assert resampled(1) == resampled(1)
    assert len({resampled(seed) for seed in range(1, 5)}) > 1
    mine = state.resample_from_infostate(0, random.Random(9))
    assert str(mine) == str(state.resample_from_infostate(0, random.Random(9)))
    for bad in (None, 0.5):
        with pytest.raises(ValueError, match="not a probability sampler"):
            state.resample_from_infostate(0, bad)
    with pytest.raises(ValueError, match="not in"):
        state.resample_from_infostate(0, lambda: 2.0)


# ------------------------------------------------------------------- OpenSpiel's bots


def test_ismcts_and_mcts_bots_play_a_deal() -> None:
    game = load(players=2)
    rng = random.Random(1)
    seeds = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=seeds)
    bots = [
        ismcts.ISMCTSBot(
            game=game, evaluator=evaluator, uct_c=2.0, max_simulations=8, random_state=seeds
        ),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=seeds),
    ]
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves >= 100  # every card of the hands was played
    assert sum(state.returns()) == pytest.approx(0)


def test_state_from_observation_is_consistent() -> None:
    rng = random.Random(9)
    core = State(TableOptions(players=3, take=TakeRule.ANY), dealer=1)
    core.deal(rng)
    for _ in range(40):
        core.apply(rng.choice(core.legal_actions()))
    seat = core.to_move
    assert seat is not None
    obs = core.observation(seat)
    state = state_from_observation(obs, rng)
    assert state.core is not None
    assert state.core.observation(seat).hand == obs.hand
    assert np.array_equal(np.asarray(state.observation_tensor(seat)), encode(obs))


def test_openspiel_bot_in_a_tournament() -> None:
    bots = parse_bots("openspiel:ismcts:4,random")
    assert [spec.kind for spec in bots] == ["openspiel", "random"]
    config = TournamentConfig(bots, TableOptions(target=40), matches=1, seed=3)
    results = run_tournament(config, jobs=1)
    summary = results.summaries[0]
    assert summary.matches == 1 and summary.decisions > 0


@pytest.mark.parametrize("name", ["openspiel:alphazero", "openspiel:mcts:0", "openspiel:mcts:x"])
def test_bad_openspiel_entrant_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="openspiel"):
        parse_bots(f"{name},random")


def test_openspiel_bot_refuses_a_bad_kind() -> None:
    with pytest.raises(ValueError, match="unknown"):
        OpenSpielBot("alphazero")


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = load(players=2, dealer=0)
    state = game.new_initial_state()
    for card in [c for c in range(52) for _ in range(2)]:  # an unshuffled deck
        state.apply_action(card)
    before = (state.history(), str(state), state.information_state_string(1))
    with pytest.raises(IllegalActionError, match="take = match"):
        state.apply_action(52)
    absent = next(c for c in range(52) if c not in state.legal_actions())
    with pytest.raises(IllegalActionError, match="not in the hand"):
        state.apply_action(absent)
    assert (state.history(), str(state), state.information_state_string(1)) == before
    state.apply_action(state.legal_actions()[0])  # still playable
    fresh = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="no such card"):
        fresh.apply_action(60)


def test_pickling_and_openspiels_rl_environment() -> None:
    """What OpenSpiel's learning algorithms (NFSP, DQN, PSRO...) use: a picklable game and
    state, and ``rl_environment.Environment`` with information-state tensors and rewards."""
    game = load(players=3, deals=2)
    state = dealt(game, random.Random(0))
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    environment = rl_environment.Environment(game)
    step = environment.reset()
    rng = random.Random(1)
    total = np.zeros(3)
    while not step.last():
        seat = step.observations["current_player"]
        step = environment.step([rng.choice(step.observations["legal_actions"][seat])])
        total += step.rewards
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
    assert total.sum() == pytest.approx(0)  # margin: zero-sum
    assert total.any()


def test_a_clone_is_independent() -> None:
    """``clone()`` copies the core state and the deal's track (not deepcopy's default)."""
    rng = random.Random(7)
    state = dealt(load(players=3, take="any"), rng)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    before = (str(state), state.information_state_string(0), state.history())
    copy = state.clone()
    assert (str(copy), copy.information_state_string(0), copy.history()) == before
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert (str(state), state.information_state_string(0), state.history()) == before
