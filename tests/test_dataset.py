"""The dataset of searched self-play (foxtrot.learn.dataset) and the distilled player's
inputs (foxtrot.learn.features): the format, the loader, the labels' invariants."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.bots.rollout import move_values
from foxtrot.cli.main import main
from foxtrot.core import ACTIONS, SplitMix64, State, TableOptions, TakeRule, from_record
from foxtrot.env.encoding import encode, observation_size
from foxtrot.learn import dataset
from foxtrot.learn.features import move_features
from foxtrot.learn.policy import ArrayPolicy, shipped

CODES = {str(action.card) if action.card else "take": action.code for action in ACTIONS}
SAMPLES = Path(__file__).resolve().parent / "data" / "dataset"


@pytest.mark.parametrize("name", ["hard-2p", "hard-4p"])
def test_the_shipped_sample_loads_and_every_label_is_consistent(name: str) -> None:
    data = dataset.load(SAMPLES / name)
    options = data.options
    assert data.meta["format"] == dataset.FORMAT and data.meta["bot"] == "hard"
    assert len(data) == data.meta["decisions"] > 100
    assert data.obs.shape == (len(data), observation_size(options))
    rows = np.arange(len(data))
    assert (data.mask[rows, data.chosen] == 1).all()  # every chosen move was legal
    legal = data.mask == 1
    searched = data.searched
    # searched values exist exactly for the legal moves; forced moves have none
    assert not np.isnan(data.values[searched][legal[searched]]).any()
    assert np.isnan(data.values[~legal]).all()
    assert np.isnan(data.values[~searched]).all()
    assert (legal[~searched].sum(axis=1) == 1).all()
    # the search played its best move
    best = np.nanmax(data.values[searched], axis=1)
    assert np.allclose(data.values[searched, data.chosen[searched]], best)
    # the records replay, and hold one action per labelled decision, in order
    assert len(data.records) == data.meta["matches"]
    for match, record in enumerate(data.records):
        from_record(record)
        actions = [action for deal in record["deals"] for action in deal["actions"]]
        mine = data.match == np.unique(data.match)[match]
        assert len(actions) == mine.sum()
        codes = [CODES[action.get("play", "take")] for action in actions]
        assert codes == data.chosen[mine].tolist()
        assert [action["seat"] for action in actions] == data.seat[mine].tolist()


def test_generation_is_the_same_with_one_process_or_two(tmp_path: Path) -> None:
    options = TableOptions(players=2)
    one = dataset.generate(tmp_path / "one", options, 3, seed=5, jobs=1, iterations=8)
    two = dataset.generate(tmp_path / "two", options, 3, seed=5, jobs=2, iterations=8)
    assert one.meta == two.meta and one.meta["deals"] == 3
    assert one.records == two.records
    for name in dataset.ARRAYS:
        assert np.array_equal(getattr(one, name), getattr(two, name), equal_nan=True), name


def test_the_command_writes_a_dataset_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set"
    args = ["dataset", "--out", str(out), "--deals", "1", "--samples", "5", "--jobs", "1"]
    assert main([*args, "--players", "3"]) == 0
    data = dataset.load(out)
    assert data.options.players == 3 and data.meta["deals"] == 1
    assert main(args) == 2  # the directory is in use: nothing overwritten
    assert "exists and is not empty" in capsys.readouterr().err
    assert dataset.load(out).meta == data.meta
    assert main([*args[:2], str(tmp_path / "other"), "--deals", "0"]) == 2
    assert "--deals must be at least 1" in capsys.readouterr().err


def test_a_learned_mover_plays_every_move_and_the_search_labels_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = TableOptions(players=2)
    data = dataset.generate(tmp_path / "ei", options, 2, seed=3, iterations=8, mover="learned")
    assert data.meta["mover"] == "learned" and data.meta["bot"] == "hard"
    # every move played is the shipped policy's choice in its position (the obs arrays are
    # unpadded at 2 players, as the policy reads them)
    policy = ArrayPolicy(shipped(2))
    assert policy.pad_to is None
    assert (policy.act(data.obs, data.mask, options) == data.chosen).all()
    # and the search valued every legal move of every decision it searched
    searched, legal = data.searched, data.mask == 1
    assert searched.sum() > 50
    assert not np.isnan(data.values[searched][legal[searched]]).any()
    best = np.nanargmax(
        np.where(np.isnan(data.values[searched]), -np.inf, data.values[searched]), axis=1
    )
    assert (best != data.chosen[searched]).any()  # the learner departs from the search at times
    hard = dataset.generate(tmp_path / "hard", options, 2, seed=3, iterations=8)
    assert hard.meta["mover"] == "hard"
    # refused before any work, with the reason
    args = ["dataset", "--out", str(tmp_path / "no"), "--deals", "1", "--jobs", "1"]
    assert main([*args, "--mover", "greedy"]) == 2
    assert "--mover: 'greedy' is not learned or learned:PATH" in capsys.readouterr().err
    assert main([*args, "--mover", "learned", "--players", "3"]) == 2
    assert "no policy is shipped for 3 players (shipped: 2, 4)" in capsys.readouterr().err
    assert main([*args, "--mover", f"learned:{tmp_path / 'none.npz'}"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


def test_the_loader_refuses_what_is_not_a_dataset(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        dataset.load(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(SAMPLES / "hard-2p", copy)
    meta = json.loads((copy / "meta.json").read_text())
    (copy / "meta.json").write_text(json.dumps({**meta, "format": "foxtrot-dataset/0"}))
    with pytest.raises(ValueError, match="is not a foxtrot-dataset/1 dataset"):
        dataset.load(copy)
    (copy / "meta.json").write_text(json.dumps({**meta, "decisions": 3}))
    with pytest.raises(ValueError, match="one row a decision"):
        dataset.load(copy)


def test_soft_targets_are_distributions_over_the_legal_moves() -> None:
    data = dataset.load(SAMPLES / "hard-2p")
    for temperature in (0.5, 2.0, 50.0):
        target = dataset.soft_targets(data, temperature)
        assert np.allclose(target.sum(axis=1), 1.0)
        assert (target[data.mask == 0] == 0).all()
        rows = np.arange(len(data))
        # the search's choice is the most likely move
        assert (target[rows, data.chosen] >= target.max(axis=1) - 1e-6).all()
    with pytest.raises(ValueError, match="temperature"):
        dataset.soft_targets(data, 0.0)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([2, 3, 4, 6]),
    take=st.sampled_from(list(TakeRule)),
    moves=st.integers(0, 120),
)
def test_move_features_of_the_array_equal_the_default_policy_on_the_observation(
    seed: int, players: int, take: TakeRule, moves: int
) -> None:
    options = TableOptions(players=players, take=take)
    rng = SplitMix64(seed)
    state = State(options, rng=rng)
    state.deal(rng)
    for _ in range(moves):
        if state.to_move is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.to_move is None:
        return
    seat = state.to_move
    obs = state.observation(seat)
    unseen = [0] * 13
    for card, count in obs.unseen_cards().items():
        unseen[card.rank] += count
    expected = move_values(
        [card.id for card in obs.hand],
        [card.id for card in obs.pile],
        take is TakeRule.ANY,
        unseen,
        obs.hand_sizes[(seat + 1) % players],
    )
    found = move_features(encode(obs), options)[0]
    for code, value in expected.items():
        assert found[code] == pytest.approx(value, abs=1e-4)
    assert (found[[c for c in range(53) if c not in expected]] == 0).all()
