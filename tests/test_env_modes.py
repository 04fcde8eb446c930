"""The environments' training modes: episodes of k deals (``deals``), truncation
(``max_steps``), fixed-length observations (``pad_to``) and the Gymnasium vector
environment over ``BatchedGames`` (``FoxtrotVectorEnv``)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, seed_test

from foxtrot.core import IllegalActionError, TableOptions
from foxtrot.env import ENV_ID, FoxtrotEnv, FoxtrotVectorEnv, env, layout, parallel_env
from foxtrot.env.encoding import pad_index
from test_env import checker_warnings_are_errors

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

MODES: list[dict[str, Any]] = [
    {"players": 2, "deals": 1},
    {"players": 3, "take": "any", "deals": 2, "reward": "margin"},
    {"players": 4, "max_steps": 37},
    {"players": 2, "pad_to": 9, "deals": 1, "max_steps": 500},
    {"players": 7, "pad_to": 9, "forced_foxtrot": True, "deals": 1},
]


def _ids(mode: dict[str, Any]) -> str:
    return "-".join(f"{key}={value}" for key, value in mode.items())


# ------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("mode", MODES, ids=_ids)
def test_pettingzoo_api_test_in_every_mode(mode: dict[str, Any]) -> None:
    with checker_warnings_are_errors():
        api_test(env(**mode), num_cycles=400)


@pytest.mark.parametrize("mode", MODES[:4], ids=_ids)
def test_pettingzoo_parallel_api_and_seed_tests_in_every_mode(mode: dict[str, Any]) -> None:
    with checker_warnings_are_errors():
        parallel_api_test(parallel_env(**mode), num_cycles=400)
        seed_test(lambda: env(**mode), num_cycles=400)


def _play(aec: Any, seed: int) -> tuple[dict[str, float], int, bool]:
    """Play an AEC episode with the lowest legal action; the rewards each agent got, the
    number of actions, and whether it ended by truncation."""
    aec.reset(seed=seed)
    got = dict.fromkeys(aec.possible_agents, 0.0)
    actions = 0
    truncated = False
    for agent in aec.agent_iter():
        obs, reward, termination, truncation, _ = aec.last()
        got[agent] += reward
        if termination or truncation:
            truncated |= truncation and not termination
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
        actions += 1
    return got, actions, truncated


@given(seed=st.integers(0, 2**32), players=st.integers(2, 9), deals=st.integers(1, 2))
@SETTINGS
def test_deals_ends_the_episode_after_that_many_deals(seed: int, players: int, deals: int) -> None:
    """``env(players=..., deals=k)``: k deals (fewer only if the match is won first); each
    agent's rewards are its deal scores; the episode terminates, it is not truncated."""
    aec = env(players=players, deals=deals)
    got, actions, truncated = _play(aec, seed)
    state = aec.unwrapped.game.state
    assert not truncated and actions > 0
    assert state.deal_number == deals or state.is_over
    scores = [log.scores for log in state.deal_logs()]
    for seat, agent in enumerate(aec.possible_agents):
        assert got[agent] == sum(line[seat].total for line in scores if line)


def test_max_steps_truncates_and_does_not_terminate() -> None:
    aec = env(players=3, max_steps=25)
    _, actions, truncated = _play(aec, 5)
    assert truncated and actions == 25
    assert not aec.unwrapped.game.over  # the match goes on: a cut, not an end


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"deals": -1}, "deals"),
        ({"deals": 1, "reward": "match"}, "match needs deals=0"),
        ({"max_steps": 0}, "max_steps"),
        ({"players": 4, "pad_to": 3}, "pad_to"),
        ({"pad_to": 10}, "pad_to"),
    ],
)
def test_bad_modes_are_refused(changes: dict[str, Any], message: str) -> None:
    for make in (env, FoxtrotEnv, FoxtrotVectorEnv):
        with pytest.raises(ValueError, match=message):
            make(**changes)


# ------------------------------------------------------------------- padding


def test_padded_observation_has_one_length_and_one_meaning() -> None:
    """With ``pad_to=6`` every table of 2-6 players gives 252 entries, and each named
    entry (relative seat r's hand size, the top card...) sits at the same index."""
    for players in range(2, 7):
        aec = env(players=players, pad_to=6)
        aec.reset(seed=players)
        agent = aec.agent_selection
        padded = aec.observe(agent)["observation"]
        plain = env(players=players)
        plain.reset(seed=players)  # the same seed: the same deal
        array = plain.observe(agent)["observation"]
        assert padded.shape == (210 + 7 * 6,)
        assert aec.observation_space(agent)["observation"].contains(padded)
        options = TableOptions(players=players)
        index = pad_index(options, 6)
        assert np.array_equal(padded[index], array)
        rest = np.ones(padded.shape, dtype=bool)
        rest[index] = False
        assert not padded[rest].any()
        wide = {block.name: block.start for block in layout(TableOptions(players=6))}
        for block in layout(options):
            assert index[block.start] == wide[block.name]


# ------------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("mode", MODES, ids=_ids)
def test_gymnasium_check_env_in_every_mode(mode: dict[str, Any]) -> None:
    changes = {key: value for key, value in mode.items() if key != "reward"}
    made = gymnasium.make(ENV_ID, opponents="random", **changes)
    with checker_warnings_are_errors():
        check_env(made.unwrapped)  # the checker asks for the unwrapped env (else it warns)


def test_gymnasium_deal_episode_and_truncation() -> None:
    one = gymnasium.make(ENV_ID, players=2, opponents="random", deals=1)
    _, info = one.reset(seed=2)
    terminated = truncated = False
    total = 0.0
    while not (terminated or truncated):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = one.step(action)
        total += float(reward)
    game = one.unwrapped.game  # type: ignore[attr-defined]
    assert terminated and not truncated and game.state.deal_number == 1
    assert total == game.state.deal_logs()[0].scores[0].total
    cut = FoxtrotEnv(players=2, opponents="random", max_steps=10)
    _, info = cut.reset(seed=2)
    for step in range(1, 11):
        _, _, terminated, truncated, info = cut.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated and truncated is (step == 10)


# ------------------------------------------------------------------- the vector environment


def _random_actions(info: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])


def test_make_vec_gives_the_vector_environment() -> None:
    vec = gymnasium.make_vec(
        ENV_ID, num_envs=5, vectorization_mode="vector_entry_point", players=3, compiled=False
    )
    assert isinstance(vec, FoxtrotVectorEnv)
    assert vec.num_envs == 5
    assert vec.observation_space.shape == (5, 210 + 7 * 3)
    assert vec.single_action_space == gymnasium.spaces.Discrete(53)
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2), FoxtrotVectorEnv)  # the default
    sync = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", opponents="random")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    with pytest.raises(ValueError, match="self-play"):
        FoxtrotVectorEnv(2, opponents="random")
    with pytest.raises(ValueError, match="num_envs"):
        FoxtrotVectorEnv(0)
    with pytest.raises(ValueError, match="options"):
        vec.reset(seed=1, options={"players": 4})
    with pytest.raises(ValueError, match="one seed"):
        vec.reset(seed=[1, 2, 3, 4, 5])


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_vector_env_checks(compiled: bool) -> None:
    """What Gymnasium's ``check_env`` checks of an ``Env``, for the vector environment
    (Gymnasium 1.4 ships no vector checker): spaces hold every observation, reset and
    step are deterministic from the seed, returned arrays are not reused, and every
    array has the documented type and shape."""
    first, second = (
        FoxtrotVectorEnv(4, players=2, deals=1, max_steps=70, compiled=compiled) for _ in "ab"
    )
    obs_a, info_a = first.reset(seed=11)
    obs_b, info_b = second.reset(seed=11)
    assert data_equivalence(obs_a, obs_b, exact=True) and data_equivalence(info_a, info_b)
    rng = np.random.default_rng(0)
    for _ in range(300):
        with checker_warnings_are_errors():  # check_obs reports a fault as a warning
            check_obs(obs_a, first.observation_space, "step")
        actions = _random_actions(info_a, rng)
        assert first.action_space.contains(actions.astype(np.int64))
        kept = obs_a.copy()
        step_a = first.step(actions)
        step_b = second.step(actions)
        assert data_equivalence(step_a, step_b, exact=True)
        assert not np.shares_memory(step_a[0], obs_a)
        assert np.array_equal(obs_a, kept)  # an array handed out is not written again
        obs_a, reward, terminated, truncated, info_a = step_a
        assert reward.dtype == np.float32 and reward.shape == (4,)
        assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        assert not (terminated & truncated).any()
        assert info_a["action_mask"].shape == (4, 53)
    again, _ = first.reset(seed=11)
    assert np.array_equal(again, second.reset(seed=11)[0])


def test_vector_env_autoresets_in_the_same_step() -> None:
    """A deal episode ends where a deal ends: the observation returned is a new match's
    (nothing taken, totals 0, a full hand), ``final_obs`` holds the last one, and the
    reward is the acting seat's share of the step's rewards."""
    vec = FoxtrotVectorEnv(6, players=2, deals=1, reward="deal", compiled=False)
    obs, info = vec.reset(seed=4)
    at = {block.name: block for block in layout(TableOptions(players=2))}
    totals, hand = at["totals"], at["hand"]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        seats = info["seat"]
        obs, reward, terminated, truncated, info = vec.step(_random_actions(info, rng))
        assert np.array_equal(reward, info["rewards"][np.arange(6), seats])
        assert not truncated.any()
        for g in np.flatnonzero(terminated):
            ended += 1
            assert info["_final_obs"][g] and info["final_obs"][g].shape == obs[g].shape
            assert not obs[g, totals.start : totals.stop].any()
            assert obs[g, hand.start : hand.stop].sum() == 8
            assert info["rewards"][g].any()  # the deal's scores
        if "final_obs" in info:
            assert all(final is None for final in info["final_obs"][~terminated])
    assert ended >= 6


def test_vector_env_record_episode_statistics() -> None:
    vec = RecordEpisodeStatistics(FoxtrotVectorEnv(3, players=2, max_steps=20, compiled=False))
    _, info = vec.reset(seed=0)
    rng = np.random.default_rng(2)
    for _ in range(20):
        _, _, _, truncated, info = vec.step(_random_actions(info, rng))
    assert truncated.all()
    assert list(info["episode"]["l"]) == [20, 20, 20]


def test_vector_env_refuses_an_illegal_action_before_moving() -> None:
    vec = FoxtrotVectorEnv(3, players=2, compiled=False)
    obs, info = vec.reset(seed=9)
    actions = np.array([int(np.flatnonzero(row)[0]) for row in info["action_mask"]])
    illegal = actions.copy()
    illegal[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="table 1"):
        vec.step(illegal)
    with pytest.raises(IllegalActionError, match="0 to 52"):
        vec.step(np.array([actions[0], actions[1], 99]))
    with pytest.raises(ValueError, match="3 actions"):
        vec.step(actions[:2])
    after, *_ = vec.step(actions)  # nothing moved: the legal actions are still legal
    assert after.shape == obs.shape


def test_vector_env_padded() -> None:
    vec = FoxtrotVectorEnv(2, players=3, pad_to=9, compiled=False)
    obs, _ = vec.reset(seed=1)
    assert obs.shape == (2, 210 + 7 * 9)
    assert vec.single_observation_space.contains(obs[0])
