"""The OpenSpiel observer: a position asked again gives the tensor computed afresh, and every
tensor is the one built the plain way."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.observation import make_observation

import foxtrot.openspiel  # noqa: F401 (registers python_foxtrot)
from foxtrot.core import IllegalActionError, Phase
from foxtrot.env import encode
from foxtrot.env.encoding import observation_size
from foxtrot.openspiel.observer import CACHED, moves_cap
from foxtrot.openspiel.track import max_rounds


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


def _reference(state: Any, player: int, recall: bool, public: bool, private: bool) -> Any:
    """The tensor built the plain way: ``encode`` of the seat's observation (its cards seen
    counted from the history), then one write per move and per card dealt to the seat."""
    options = state.options
    parts = [np.zeros(observation_size(options), np.float32)]
    if recall:
        parts.append(np.zeros((moves_cap(options), 53), np.float32))
        parts.append(np.zeros((max_rounds(options), 52), np.float32))
    core = state.core
    if core is not None:
        obs = core.observation(player)
        if public:
            parts[0] = encode(obs)
        if not private:
            parts[0][:52] = 0
        elif not public:
            parts[0][:52] = encode(obs)[:52]
        if recall and obs.phase is Phase.PLAYING:
            track = state.tracks[-1]
            for i, move in enumerate(track.moves):
                parts[1][i, move.code] = public
            for rnd, cards in enumerate(track.received[player]):
                for card in cards:
                    parts[2][rnd, card] += private
    return np.concatenate([part.reshape(-1) for part in parts])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    params=st.sampled_from(
        [
            {"players": 2},
            {"players": 4, "take": "any", "deals": 2},
            {"players": 3, "packs": 1, "hand_size": 4},
            {"players": 5, "take": "any", "forced_foxtrot": True},
        ]
    ),
    recall=st.booleans(),
    private=st.sampled_from([pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE]),
)
def test_every_tensor_is_the_plain_one(
    seed: int, params: dict[str, Any], recall: bool, private: Any
) -> None:
    """The observer reads the deal's moves and the dealt cards at once (and shares the
    dealt counts between clones): every tensor of every seat, at every step of random
    episodes, clones and states resampled for a seat included, is the plain one."""
    game = pyspiel.load_game("python_foxtrot", params)
    kind = pyspiel.IIGObservationType(perfect_recall=recall, private_info=private)
    observer = make_observation(game, kind)
    mine = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        for position in (state, state.clone()):
            assert position.trail == bytes(position.history())  # the observers' cache key
            for player in range(game.num_players()):
                observer.set_from(position, player)
                expected = _reference(position, player, recall, True, mine)
                assert np.array_equal(observer.tensor, expected)
        if rng.random() < 0.1:
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert other.trail == bytes(other.history())
            observer.set_from(other, player)
            assert np.array_equal(observer.tensor, _reference(other, player, recall, True, mine))
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_state_read_back_has_its_history_as_its_trail() -> None:
    """The trail (the observers' cache key) of a state serialized and read back, or pickled,
    is its history: a state with another trail would be given another position's tensor."""
    game = pyspiel.load_game("python_foxtrot", {"players": 3})
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(200):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.trail) == 200
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    illegal = next(code for code in range(53) if code not in state.legal_actions())
    with pytest.raises(IllegalActionError):  # refused: neither the history nor the trail grows
        state.apply_action(illegal)
    assert state.trail == bytes(state.history())
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert copy.trail == bytes(copy.history()) == state.trail
