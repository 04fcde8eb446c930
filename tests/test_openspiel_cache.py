"""The OpenSpiel observer's cache: a position asked again gives the tensor computed afresh."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import foxtrot.openspiel  # noqa: F401 (registers python_foxtrot)
from foxtrot.openspiel.observer import CACHED


def test_a_cached_tensor_equals_a_fresh_one_and_survives_the_callers_writes() -> None:
    game = pyspiel.load_game("python_foxtrot", {"players": 3, "deals": 1})
    kind = pyspiel.IIGObservationType(perfect_recall=True)
    cached = make_observation(game, kind)
    rng = random.Random(7)
    state = game.new_initial_state()
    seen: list[Any] = []
    while not state.is_terminal() and len(seen) < 40:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seen.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    for position in seen:
        for player in range(3):
            cached.set_from(position, player)
            cached.tensor[:] = -1  # a caller writing into the view must not spoil the cache
    for position in reversed(seen):
        for player in range(3):
            fresh = make_observation(game, kind)
            fresh.set_from(position, player)
            cached.set_from(position, player)
            assert np.array_equal(cached.tensor, fresh.tensor)
            assert np.array_equal(
                cached.tensor, np.array(position.information_state_tensor(player))
            )
    assert len(seen) * 3 <= CACHED  # every one of them was a cache hit the second time
