"""The vector environment's ``final_obs``: the final position as the seat that ended it sees it.

The reference is the engine itself: a copy of the table's ``State`` taken before the last
move, the move applied by the engine, and ``encode(state.observation(seat))`` of the
position where the deal (or the match) ended.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import LeftoverPile, MostCardsTie, TableOptions, TakeRule
from foxtrot.env import FoxtrotVectorEnv, encode, layout
from foxtrot.env.encoding import pad

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _play(
    vec: FoxtrotVectorEnv, options: TableOptions, steps: int, seed: int, pad_to: int | None
) -> int:
    """Random legal moves; every terminated episode's ``final_obs`` checked against the
    engine's own observation of the final position.  Every observation handed out is then
    overwritten, as a learner may do: the final ones do not depend on them.  How many were
    checked."""
    rng = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    checked = 0
    for _ in range(steps):
        games = vec.batch.games
        states = [copy.deepcopy(game.state) for game in games]
        seats = info["seat"].copy()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, _, terminated, _, info = vec.step(actions)
        obs[:] = -7
        for g in np.flatnonzero(terminated).tolist():
            state = states[g]
            state.apply_code_unchecked(int(actions[g]))
            expected = pad(encode(state.observation(int(seats[g]))), options, pad_to)
            final = info["final_obs"][g]
            assert final.dtype == np.float32
            np.testing.assert_array_equal(final, expected)
            assert vec.single_observation_space.contains(final)
            checked += 1
    return checked


#: Every rule option the final observation depends on, as ``TableOptions`` keywords.
RULES = st.fixed_dictionaries(
    {
        "take": st.sampled_from(TakeRule),
        "leftover_pile": st.sampled_from(LeftoverPile),
        "most_cards_tie": st.sampled_from(MostCardsTie),
        "forced_foxtrot": st.booleans(),
    }
)


@SETTINGS
@given(
    players=st.integers(2, 6),
    rules=RULES,
    deals=st.integers(0, 2),
    padded=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_final_obs_is_the_final_position_of_the_seat_that_ended_it(
    *, players: int, rules: dict[str, Any], deals: int, padded: bool, seed: int
) -> None:
    changes = {**rules, "target": 40}  # whole matches (deals=0) end within the test
    options = TableOptions(players=players, **changes)
    pad_to = 9 if padded else None
    vec = FoxtrotVectorEnv(
        2, players=players, deals=deals, pad_to=pad_to, compiled=False, reward="margin", **changes
    )
    assert _play(vec, options, 260, seed, pad_to) >= 1


def test_the_final_position_shows_the_deal_and_nobody_to_move() -> None:
    """What differs from the position moved from: the sheet's totals, nobody to move."""
    vec = FoxtrotVectorEnv(4, players=2, deals=1, compiled=False)
    at = {block.name: slice(block.start, block.stop) for block in layout(vec.options)}
    rng = np.random.default_rng(3)
    obs, info = vec.reset(seed=3)
    ended = 0
    while ended < 4:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        before = obs
        obs, reward, terminated, _, info = vec.step(actions)
        for g in np.flatnonzero(terminated).tolist():
            final = info["final_obs"][g]
            assert not final[at["to_move"]].any() and before[g][at["to_move"]][0] == 1
            assert final[at["totals"]][0] == reward[g]  # reward="deal": the deal's score
            assert not np.array_equal(final, before[g])
            ended += 1


@SETTINGS
@given(players=st.integers(2, 6), rules=RULES, seed=st.integers(0, 2**16))
def test_both_engines_give_the_same_final_obs(
    *, players: int, rules: dict[str, Any], seed: int
) -> None:
    """The compiled engine writes the final observation from its arrays, the Python one
    from the observation moved from (``FinalView``): the same numbers under every rule."""
    python, compiled = (
        FoxtrotVectorEnv(3, players=players, deals=1, compiled=engine, **rules)
        for engine in (False, True)
    )
    _, info = python.reset(seed=seed)
    _, info_c = compiled.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = 0
    while ended < 3:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, *_, terminated, _, info = python.step(actions)
        obs_c, *_, terminated_c, _, info_c = compiled.step(actions)
        assert np.array_equal(terminated, terminated_c)
        for g in np.flatnonzero(terminated).tolist():
            np.testing.assert_array_equal(info["final_obs"][g], info_c["final_obs"][g])
            ended += 1
        obs[:] = obs_c[:] = -7  # a learner may write into what it is handed
