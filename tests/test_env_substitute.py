"""The PettingZoo environments' option for samplers that ignore the action mask."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_seed_test

from foxtrot.core import IllegalActionError
from foxtrot.env import parallel_env, raw_env


def test_parallel_seed_test_passes_with_substitution_and_fails_without() -> None:
    parallel_seed_test(lambda: parallel_env(players=2, deals=1, illegal="substitute"))
    with pytest.raises(IllegalActionError):
        parallel_seed_test(lambda: parallel_env(players=2, deals=1))


def test_an_illegal_action_is_replaced_by_the_lowest_legal_one_and_said() -> None:
    env = raw_env(players=3, illegal="substitute")
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    lowest = int(np.flatnonzero(mask)[0])
    twin = raw_env(players=3)
    twin.reset(seed=4)
    twin.step(lowest)
    env.step(illegal)
    assert env.infos[agent] == {"substituted": True, "asked": illegal, "played": lowest}
    assert env.agent_selection == twin.agent_selection  # the same move was played
    for name in env.agents:
        assert np.array_equal(env.observe(name)["observation"], twin.observe(name)["observation"])
    following = env.agent_selection
    legal = int(np.flatnonzero(env.observe(following)["action_mask"])[-1])
    env.step(legal)
    assert env.infos[following] == {"substituted": False}


def test_the_default_still_raises_and_a_bad_option_is_refused() -> None:
    env = raw_env(players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="illegal: 'skip' is not allowed"):
        raw_env(players=2, illegal="skip")
