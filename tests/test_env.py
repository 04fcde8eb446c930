"""The RL environments (foxtrot.env): PettingZoo and Gymnasium checkers, the encoding, masks,
hidden information (rules V1-V3), illegal actions (T7), rewards, batches and resampling."""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, seed_test

from foxtrot.core import IllegalActionError, State, TableOptions, TakeRule
from foxtrot.env import (
    ENV_ID,
    BatchedGames,
    FoxtrotEnv,
    encode,
    env,
    layout,
    observation_size,
    parallel_env,
    raw_env,
    resample,
)
from foxtrot.env.batch import match_seed
from foxtrot.env.encoding import legal_mask
from foxtrot.env.game import Game
from helpers import table_options

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTION_SETS: list[dict[str, Any]] = [  # keyword arguments of env(), of several types
    {"players": 2, "take": "any"},
    {"players": 3, "take": "match", "forced_foxtrot": True},
    {"players": 5, "take": "any", "leftover_pile": "last_taker", "most_cards_tie": "all"},
    {"players": 9, "take": "match", "target": 60},
]

options_strategy = table_options((40, 120, 200))


#: The checkers' warnings about what we chose, each with the reason; any other warning of
#: a checker (an observation outside its space, a wrong dtype, a seed not honoured, ...)
#: is an error: Gymnasium's ``check_env`` and PettingZoo's tests report such faults only
#: as warnings.
CHOSEN_WARNINGS = (
    # PettingZoo: the observation is a Dict of "observation" and "action_mask" (PettingZoo's
    # own convention for masks); test_observation_is_an_array_in_its_space checks the array
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


@contextmanager
def checker_warnings_are_errors() -> Iterator[None]:
    """Within: a warning is an error, except the ones in ``CHOSEN_WARNINGS``."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in CHOSEN_WARNINGS:
            warnings.filterwarnings("ignore", message=message, category=UserWarning)
        yield


# ------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("changes", OPTION_SETS, ids=lambda c: "-".join(map(str, c.values())))
def test_pettingzoo_api_test(changes: dict[str, Any]) -> None:
    with checker_warnings_are_errors():
        api_test(env(**changes), num_cycles=400)


@pytest.mark.parametrize("changes", OPTION_SETS[:2], ids=["2p-any", "3p-match"])
def test_pettingzoo_seed_test(changes: dict[str, Any]) -> None:
    with checker_warnings_are_errors():
        seed_test(lambda: env(**changes), num_cycles=400)


@pytest.mark.parametrize("changes", OPTION_SETS[:3], ids=["2p", "3p", "5p"])
def test_pettingzoo_parallel_api_test(changes: dict[str, Any]) -> None:
    with checker_warnings_are_errors():
        parallel_api_test(parallel_env(**changes), num_cycles=400)


@pytest.mark.parametrize("changes", OPTION_SETS, ids=lambda c: "-".join(map(str, c.values())))
def test_observation_is_an_array_in_its_space(changes: dict[str, Any]) -> None:
    """What the warning left to PettingZoo's checker above would say, said as an error."""
    aec = env(**changes)
    aec.reset(seed=11)
    rng = random.Random(11)
    for agent in aec.agent_iter(max_iter=300):
        obs, _, done, cut, _ = aec.last()
        space = aec.observation_space(agent)
        assert isinstance(obs["observation"], np.ndarray), type(obs["observation"])
        assert space["observation"].contains(obs["observation"]), agent
        assert space["action_mask"].contains(obs["action_mask"]), agent
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(None if done or cut else int(rng.choice(list(legal))))


def test_agents_spaces_and_mask_dtype() -> None:
    aec = env(players=4, take="any")
    aec.reset(seed=3)
    assert aec.possible_agents == [f"player_{i}" for i in range(4)]
    obs = aec.observe(aec.agent_selection)
    assert obs["observation"].shape == (observation_size(TableOptions(players=4)),) == (238,)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (53,)
    others = [a for a in aec.agents if a != aec.agent_selection]
    assert all(not aec.observe(a)["action_mask"].any() for a in others)


def test_layout_is_contiguous_and_matches_the_documented_size() -> None:
    for players in range(2, 10):
        blocks = layout(TableOptions(players=players))
        assert blocks[0].start == 0
        assert all(a.stop == b.start for a, b in itertools.pairwise(blocks))
        assert blocks[-1].stop == 210 + 7 * players


# --------------------------------------------------------- encoding and masks


def _random_game(options: TableOptions, seed: int, reward: str = "deal") -> Game:
    game = Game(options, reward)
    game.reset(seed)
    return game


@SETTINGS
@given(options_strategy, st.integers(0, 2**32))
def test_fast_encoding_equals_the_observation_encoding_and_mask_equals_legal(
    options: TableOptions, seed: int
) -> None:
    """The fast path (Tracker) is encode(state.observation(seat)) for every seat, every step."""
    rng = random.Random(seed)
    game = _random_game(options, seed)
    steps = 0
    while not game.over and steps < 400:
        state = game.state
        for seat in range(options.players):
            assert np.array_equal(game.observe(seat), encode(state.observation(seat)))
        mask = game.mask()
        assert set(np.flatnonzero(mask)) == {a.code for a in state.legal_actions()}
        assert np.array_equal(mask, legal_mask(state))
        game.play(rng.choice(game.legal_codes))
        steps += 1
    for seat in range(options.players):
        assert np.array_equal(game.observe(seat), encode(game.state.observation(seat)))


def _mid_deal(options: TableOptions, seed: int, moves: int) -> State | None:
    """The first deal after up to ``moves`` random legal actions; ``None`` once it has ended."""
    rng = random.Random(seed)
    state = State(options, rng=rng)
    state.deal(rng)
    for _ in range(moves):
        if state.to_move is None:
            return None
        state.apply(rng.choice(state.legal_actions()))
    return state if state.to_move is not None else None


@SETTINGS
@given(options_strategy, st.integers(0, 2**32), st.integers(0, 60))
def test_V3_observation_holds_no_hidden_information(
    options: TableOptions, seed: int, moves: int
) -> None:
    """Dealing the hidden cards anew changes no seat's array: it depends on nothing hidden."""
    state = _mid_deal(options, seed, moves)
    assume(state is not None)
    assert state is not None
    for seat in range(options.players):
        other = state.resample(seat, random.Random(seed + 1))
        assert np.array_equal(encode(state.observation(seat)), encode(other.observation(seat)))


def test_encoding_is_relative_to_the_observer() -> None:
    state = State(TableOptions(players=3), dealer=0)
    state.deal(random.Random(5))
    at = {b.name: b.start for b in layout(state.options)}
    for seat in range(3):
        array = encode(state.observation(seat))
        assert array[at["to_move"]] == (1 if seat == state.to_move else 0)
        assert array[at["dealer"] + (0 - seat) % 3] == 1  # seat 0 deals
        assert array[at["hand"] : at["hand"] + 52].sum() == 8
        assert array[at["seen"] : at["seen"] + 52].sum() == 1  # the upturned card
        assert array[at["stock"]] == 104 - 24 - 1


# ------------------------------------------------------------ illegal actions


def test_T7_illegal_action_raises_and_changes_nothing() -> None:
    aec = raw_env(players=2, take="match")
    aec.reset(seed=11)
    agent = aec.agent_selection
    before = [aec.observe(a)["observation"].copy() for a in aec.agents]
    mask = aec.observe(agent)["action_mask"]
    illegal = [int(i) for i in np.flatnonzero(mask == 0)]
    for action in [*illegal[:5], 52, 53, -1]:
        with pytest.raises(IllegalActionError):
            aec.step(action)
        assert aec.agent_selection == agent
        assert all(
            np.array_equal(aec.observe(a)["observation"], b)
            for a, b in zip(aec.agents, before, strict=True)
        )
        assert np.array_equal(aec.observe(agent)["action_mask"], mask)
    aec.step(int(np.flatnonzero(mask)[0]))  # still playable


def test_gym_illegal_action_substitute_is_documented_and_deterministic() -> None:
    first = FoxtrotEnv(players=2, opponents="random")
    second = FoxtrotEnv(players=2, opponents="random", illegal="raise")
    _, info = first.reset(seed=4)
    second.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    lowest = int(np.flatnonzero(info["action_mask"])[0])
    with pytest.raises(IllegalActionError):
        second.step(illegal)
    a = first.step(illegal)
    b = second.step(lowest)
    assert a[4]["substituted"] is True and a[4]["asked"] == illegal
    assert a[4]["played"] == lowest and b[4]["substituted"] is False
    assert np.array_equal(a[0], b[0]) and a[1] == b[1]


# ----------------------------------------------------------------- Gymnasium


def test_gymnasium_check_env_and_registration() -> None:
    made = gymnasium.make(ENV_ID, players=2, opponents="medium")
    other = gymnasium.make(ENV_ID, players=3, opponents=["easy", "medium"], take="match")
    with checker_warnings_are_errors():
        check_env(made.unwrapped)
        check_env(other.unwrapped)  # the checker asks for the unwrapped env (else it warns)


def test_gym_reset_seed_then_reset_is_deterministic() -> None:
    one = gymnasium.make(ENV_ID, players=2, opponents="medium")
    two = gymnasium.make(ENV_ID, players=2, opponents="medium")
    runs = []
    for environment in (one, two):
        seen = [environment.reset(seed=21)[0]]
        seen += [environment.reset()[0] for _ in range(3)]
        runs.append(seen)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    assert not np.array_equal(runs[0][1], runs[0][2])  # later resets are new matches


def test_gym_episode_rewards_add_up_to_the_match_total() -> None:
    environment = FoxtrotEnv(players=2, opponents="medium", target=100)
    obs, info = environment.reset(seed=8)
    rng = np.random.default_rng(0)
    total = 0.0
    done = False
    while not done:
        legal = np.flatnonzero(environment.action_masks())
        obs, reward, done, truncated, info = environment.step(int(rng.choice(legal)))
        total += reward
        assert obs in environment.observation_space and not truncated
    assert total == environment.game.state.totals[0]
    assert info["won"] == (info["winner"] == 0)


def test_match_reward_goes_to_the_winner() -> None:
    aec = raw_env(players=3, take="any", target=60, reward="match")
    aec.reset(seed=2)
    rng = np.random.default_rng(1)
    got = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, _, _ = aec.last()
        got[agent] += reward
        aec.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = aec.game.state.outcome
    assert outcome is not None
    assert got == {f"player_{s}": (1.0 if s == outcome.winner else 0.0) for s in range(3)}


# -------------------------------------------------------------- batch, resample


def test_batched_games_equal_games_stepped_one_by_one() -> None:
    batch = BatchedGames(4, players=2, take="any", target=60, compiled=False)
    batch.reset(seed=9)
    singles = [_random_game(batch.options, match_seed(9, i)) for i in range(4)]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(600):
        for index, game in enumerate(singles):
            assert batch.to_move[index] == game.to_move
            assert np.array_equal(batch.obs[index], game.observe(batch.to_move[index]))
            assert np.array_equal(batch.mask[index], game.mask())
        actions = batch.random_actions(rng)
        assert all(batch.mask[i, a] for i, a in enumerate(actions))
        batch.step(actions)
        for index, game in enumerate(singles):
            game.play(int(actions[index]))
            assert np.array_equal(batch.rewards[index], game.rewards)
            assert batch.done[index] == game.over
            if game.over:
                finished += 1
                singles[index] = batch.games[index]  # the batch restarted it
                break  # only the first finished game is followed further: the rest restart too
        if finished:
            break
    with pytest.raises(IllegalActionError, match="game 0"):
        batch.step([53, 0, 0, 0])


@SETTINGS
@given(options_strategy, st.integers(0, 2**32), st.integers(0, 40))
def test_resample_is_consistent_with_what_the_seat_knows(
    options: TableOptions, seed: int, moves: int
) -> None:
    state = _mid_deal(options, seed, moves)
    assume(state is not None)
    assert state is not None
    seat = state.to_move
    assert seat is not None
    obs = state.observation(seat)
    unseen = np.zeros(52, dtype=np.int64)
    for card, count in obs.unseen_cards().items():
        unseen[card.id] = count
    n = options.players
    for source in (obs, encode(obs)):
        hidden = resample(source, random.Random(seed))
        assert [int(x) for x in hidden.hands.sum(axis=1)] == [
            obs.hand_sizes[(seat + r) % n] for r in range(n)
        ]
        assert int(hidden.stock.sum()) == obs.stock
        assert np.array_equal(hidden.hands[1:].sum(axis=0) + hidden.stock, unseen)
        assert [int(c) for c in hidden.hands[0]] == [obs.hand.count(c) for c in _cards()]
    for other in range(n):  # the true deal is a possible answer: every real hidden card is unseen
        if other != seat:
            for card in state.hand(other):
                assert unseen[card.id] > 0


def _cards() -> list[object]:
    from foxtrot.core import CARDS  # noqa: PLC0415

    return list(CARDS)


def test_resample_refuses_an_array_of_no_table() -> None:
    with pytest.raises(ValueError, match="length 100"):
        resample(np.zeros(100, dtype=np.float32), random.Random(0))


@pytest.mark.parametrize("players", [2, 4])
def test_margin_rewards_add_up_to_the_deal_score_margins(players: int) -> None:
    """reward="margin": a deal's rewards are the deal score minus the others' mean score."""
    game = _random_game(TableOptions(players=players, take=TakeRule.ANY, target=80), 6, "margin")
    rng = random.Random(1)
    got = [0.0] * players
    dense = 0
    deals_seen = 0
    while not game.over:
        ended = game.play(rng.choice(game.legal_codes))
        dense += not ended and any(game.rewards)
        got = [g + r for g, r in zip(got, game.rewards, strict=True)]
        if ended:
            scores = [line.total for line in game.state.deal_logs()[deals_seen].scores or ()]
            deals_seen += 1
            for seat in range(players):
                others = (sum(scores) - scores[seat]) / (players - 1)
                assert got[seat] == pytest.approx(scores[seat] - others)
            got = [0.0] * players
    assert dense > 0  # rewards come during the deal, not only at its end


@pytest.mark.parametrize("make", ["aec", "single"])
def test_both_render_modes_draw_the_seats_view(make: str) -> None:
    """``ansi`` is text and ``rgb_array`` an image of the table, of a declared frame rate;
    any other mode is refused."""
    from foxtrot.env import FoxtrotEnv, env  # noqa: PLC0415

    frames = {}
    for mode in ("ansi", "rgb_array"):
        if make == "aec":
            table = env(players=2, render_mode=mode)
            table.reset(seed=3)
            assert table.metadata["render_fps"] > 0
        else:
            table = FoxtrotEnv(players=2, render_mode=mode)
            table.reset(seed=3)
            assert FoxtrotEnv.metadata["render_fps"] > 0
        frames[mode] = table.render()
    assert isinstance(frames["ansi"], str) and "hand of seat" in frames["ansi"]
    image = frames["rgb_array"]
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[:2] == (400, 640)
    felt = image[5, 5]
    assert (image != felt).any(axis=2).mean() > 0.05  # cards and words drawn on the felt
    with pytest.raises(ValueError, match="rgb_array"):
        FoxtrotEnv(players=2, render_mode="human")
