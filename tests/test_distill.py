"""The distilled player (foxtrot.learn.distill): taught by a dataset, played with numpy."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from foxtrot.bots import Bot, GreedyBot, RandomBot, decide
from foxtrot.core import FoxtrotError, Phase, SplitMix64, State, TableOptions
from foxtrot.learn import dataset, distill
from foxtrot.learn.features import ACTION_FEATURES
from foxtrot.learn.policy import FORMAT_MOVES, SHIPPED, ArrayPolicy, LearnedBot
from foxtrot.tui.session import Seat, parse_seats

SAMPLES = Path(__file__).resolve().parent / "data" / "dataset"


def _untrained(path: Path, name: str = "hard-2p") -> Path:
    data = dataset.load(SAMPLES / name)
    net = distill.Net(len(ACTION_FEATURES), data.obs.shape[1], 8)
    return distill.save(path, net, data)


@pytest.mark.parametrize("name", ["hard-2p", "hard-4p"])
def test_the_untrained_network_plays_greedys_move(tmp_path: Path, name: str) -> None:
    bot = LearnedBot(_untrained(tmp_path / "zero.npz", name))
    greedy = GreedyBot()
    options = dataset.load(SAMPLES / name).options
    rng = SplitMix64(3)
    state = State(options, rng=rng)
    state.deal(rng)
    moves = 0
    while state.phase is Phase.PLAYING:
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        ours = bot.choose(obs, obs.legal_actions, random.Random(0))
        assert ours == greedy.choose(obs, obs.legal_actions, random.Random(0))
        state.apply(rng.choice(state.legal_actions()))  # random play: varied positions
        moves += 1
    assert moves > 50


def test_training_on_the_sample_writes_a_policy_that_plays_whole_matches(tmp_path: Path) -> None:
    data = dataset.load(SAMPLES / "hard-2p")
    net, report = distill.train(data, hidden=8, epochs=3, seed=0)
    assert report["epochs"] == 3 and report["decisions"] == len(data)
    assert 0 <= report["held_out_agreement"] <= 1
    assert report["held_out_decisions"] + report["train_decisions"] == len(data)
    path = distill.save(tmp_path / "p.npz", net, data, trained=report)
    policy = ArrayPolicy(path)
    assert policy.meta["format"] == FORMAT_MOVES and policy.meta["trained"]["epochs"] == 3
    bots: list[Bot] = [LearnedBot(path), RandomBot()]
    rng = SplitMix64(1)
    state = State(TableOptions(players=2), rng=rng)
    while not state.is_over:
        state.deal(rng)
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            state.apply(decide(bots[seat], state, rng))  # decide refuses an illegal move
    # the logits of a batch are those of its rows one by one
    rows = data.obs[:6]
    batch = policy.logits(rows, masks=data.mask[:6])
    single = np.stack([policy.logits(rows[i : i + 1], masks=data.mask[i : i + 1])[0]
                       for i in range(6)])  # fmt: skip
    assert np.allclose(batch, single, atol=1e-5)


def test_a_broken_policy_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = _untrained(tmp_path / "zero.npz")
    with np.load(path) as found:
        arrays = {name: found[name] for name in found.files}
    del arrays["beta"]
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    with pytest.raises(ValueError, match=r"broken\.npz.*incomplete"):
        ArrayPolicy(broken)
    meta = json.loads(str(arrays["meta"]))
    arrays["meta"] = np.array(json.dumps({**meta, "format": "foxtrot-learned/9"}))
    np.savez(broken, **arrays)
    with pytest.raises(ValueError, match="is not a foxtrot-learned/1 file"):
        ArrayPolicy(broken)


def test_a_policy_refuses_another_table_size(tmp_path: Path) -> None:
    bot = LearnedBot(_untrained(tmp_path / "zero.npz"))
    rng = SplitMix64(2)
    state = State(TableOptions(players=3), rng=rng)
    state.deal(rng)
    with pytest.raises(ValueError, match="trained for 2 players, not 3"):
        decide(bot, state, rng)


def test_the_terminal_seats_a_learned_player_and_refuses_one_that_cannot_play() -> None:
    players, seats, names = parse_seats(2, "learned", None, None, "en")
    assert players == 2 and seats[1] == Seat("bot", "learned") and "learned" in names[1]
    assert seats[1].to_json() == {"kind": "bot", "level": "learned"}  # a record may hold it
    path = SHIPPED / "learned-2p.npz"
    _, seats, _ = parse_seats(2, f"learned:{path}", None, None, "ru")
    bot = seats[1].make()
    assert isinstance(bot, LearnedBot) and bot.name == f"learned:{path}"
    assert seats[1].to_json() == {"kind": "bot", "level": "learned"}  # no path in records
    rng = SplitMix64(4)
    state = State(TableOptions(players=2), rng=rng)
    state.deal(rng)
    if state.to_move == 1:
        decide(bot, state, rng)  # a legal move, or decide raises
    with pytest.raises(FoxtrotError, match="no policy is shipped for 3 players"):
        parse_seats(3, "learned,learned", None, None, "en")
    with pytest.raises(FoxtrotError, match=r"learned: cannot read '/no/such\.npz'"):
        parse_seats(2, "learned:/no/such.npz", None, None, "en")
    with pytest.raises(FoxtrotError, match="unknown level 'learned:'"):
        parse_seats(2, "learned:", None, None, "en")
