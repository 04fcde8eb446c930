"""The learned player (foxtrot.learn): training writes plain arrays; numpy alone plays them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from foxtrot.bots import Bot, RandomBot, decide
from foxtrot.core import State, TableOptions
from foxtrot.env.encoding import observation_size, scale
from foxtrot.learn.policy import FORMAT, ArrayPolicy, LearnedBot, save
from foxtrot.research import TournamentConfig, parse_bots, run_tournament

ROOT = Path(__file__).resolve().parents[1]
EPOCHS = 40  # passes of the cloning fit: enough to agree with greedy far above chance


def _random_policy(path: Path, players: int = 2, pad_to: int | None = None) -> Path:
    options = TableOptions(players=players)
    size = observation_size(TableOptions(players=pad_to or players))
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(size, 16)).astype(np.float32), np.zeros(16, np.float32)),
        (rng.normal(size=(16, 53)).astype(np.float32), np.zeros(53, np.float32)),
    ]
    divisor = np.ones(size, np.float32)
    divisor[: observation_size(options)] = scale(options) if pad_to is None else 1
    return save(path, layers, divisor, options, pad_to, note="test")


@pytest.mark.parametrize(("players", "pad_to"), [(2, None), (4, 9)])
def test_a_learned_bot_plays_legal_moves_to_the_end_of_a_match(
    tmp_path: Path, players: int, pad_to: int | None
) -> None:
    path = _random_policy(tmp_path / "p.npz", players, pad_to)
    bots: list[Bot] = [LearnedBot(path), RandomBot()]
    rng = random.Random(3)
    state = State(TableOptions(players=players, target=60), rng=rng)
    while not state.is_over:
        if state.to_move is None:
            state.deal(rng)
            continue
        seat = state.to_move
        state.apply(decide(bots[seat % 2], state, rng))  # decide checks legality
    meta = ArrayPolicy(path).meta
    assert meta["format"] == FORMAT and meta["note"] == "test" and meta["pad_to"] == pad_to


def test_playing_needs_numpy_only(tmp_path: Path) -> None:
    path = _random_policy(tmp_path / "p.npz")
    code = (  # with the rl and train extras' packages made unimportable
        "import random, sys\n"
        "for name in ('torch', 'gymnasium', 'pettingzoo', 'sb3_contrib', 'numba'):\n"
        "    sys.modules[name] = None\n"
        "from foxtrot.core import State, TableOptions\n"
        "from foxtrot.learn.policy import LearnedBot\n"
        f"bot = LearnedBot({str(path)!r})\n"
        "state = State(TableOptions(), dealer=0)\n"
        "state.deal(random.Random(1))\n"
        "obs = state.observation(state.to_move)\n"
        "bot.choose(obs, obs.legal_actions, random.Random(2))\n"
        "print(bot.name.startswith('learned:'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "True", done.stderr


def test_bad_policy_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        LearnedBot(tmp_path / "missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array(json.dumps({"format": "something/9"})))
    with pytest.raises(ValueError, match="not a foxtrot-learned/1 file"):
        LearnedBot(other)
    two = LearnedBot(_random_policy(tmp_path / "p.npz", players=2))
    state = State(TableOptions(players=3), dealer=0)
    state.deal(random.Random(1))
    obs = state.observation(0)
    with pytest.raises(ValueError, match="trained for 2 players"):
        two.choose(obs, obs.legal_actions, random.Random(0))
    with pytest.raises(ValueError, match=r"learned:learned\.npz"):
        parse_bots("learned:,random")


def test_a_learned_bot_in_a_tournament(tmp_path: Path) -> None:
    path = _random_policy(tmp_path / "p.npz")
    bots = parse_bots(f"learned:{path},random")
    assert bots[0].kind == "learned"
    results = run_tournament(TournamentConfig(bots, TableOptions(target=60), matches=2), jobs=1)
    assert results.summaries[0].matches == 2


def test_training_is_bounded_and_writes_a_policy(tmp_path: Path) -> None:
    from foxtrot.learn.ppo import Config, train  # noqa: PLC0415 (torch: this test only)

    lines: list[str] = []
    out = tmp_path / "learned.npz"
    # Bounded by work, not time: two updates, however busy the machine (the minutes are only
    # a backstop that a run on any machine stays far inside).
    about = train(Config(minutes=30, updates=2, tables=8, rollout=16), out, log=lines.append)
    assert about["updates"] == 2 and about["steps"] == 2 * 16 * 8 and about["decisions"] > 0
    assert lines and "margin vs" in lines[-1]
    bot = LearnedBot(out)
    assert bot.policy is not None and bot.policy.meta["trained"] == "foxtrot.learn.ppo"
    state = State(TableOptions(), dealer=1)
    state.deal(random.Random(4))
    obs = state.observation(0)
    assert bot.choose(obs, obs.legal_actions, random.Random(0)) in obs.legal_actions  # seat 0 moves


def test_cloning_labels_greedy_and_learns_to_agree_with_it(tmp_path: Path) -> None:
    """The labels are greedy's own choices; the returns add up to each deal's margin; a
    network fitted on them agrees with greedy far more often than chance; and the PPO run
    that starts from it writes the cloned policy beside its own."""
    import torch  # noqa: PLC0415 (torch: these tests only)

    from foxtrot.learn.clone import collect, fit  # noqa: PLC0415
    from foxtrot.learn.ppo import Config, Net, train  # noqa: PLC0415

    options = TableOptions(players=2)
    # Bounded by work (batch steps, passes of the fit), not time: the same data and the same fit
    # on a busy machine; the seconds are only a backstop.
    data = collect(options, 600.0, tables=4, seed=3, explore=0.0, steps=400)
    assert len(data) > 100
    assert all(data.masks[i, label] == 1 for i, label in enumerate(data.labels))
    assert np.isfinite(data.returns).all() and data.returns.std() > 0
    torch.manual_seed(0)
    net = Net(observation_size(options), 32)
    masks = torch.as_tensor(data.masks == 0)
    chance = float(np.mean(1.0 / data.masks.sum(axis=1)))
    report = fit(net.pi, net.v, data, 600.0, seed=0, epochs=EPOCHS)
    assert report["positions"] == len(data) and report["epochs"] == EPOCHS
    with torch.no_grad():
        logits = net.pi(torch.as_tensor(data.obs)).masked_fill(masks, -1e9)
    agree = float((logits.argmax(dim=1).numpy() == data.labels).mean())
    assert agree > chance + 0.2
    with pytest.raises(ValueError, match="positive time"):
        collect(options, 0, tables=2)
    out = tmp_path / "run.npz"
    lines: list[str] = []
    about = train(
        Config(
            minutes=30,
            clone_minutes=10,
            tables=4,
            rollout=8,
            hidden=16,
            updates=1,
            clone_steps=400,
            clone_epochs=1,
        ),
        out,
        lines.append,
    )
    assert about["cloned"]["positions"] > 0 and about["cloned"]["epochs"] == 1
    assert about["updates"] == 1 and about["hidden"] == 16
    cloned, trained = LearnedBot(tmp_path / "run-cloned.npz").policy, LearnedBot(out).policy
    assert cloned is not None and cloned.meta["trained"] == "foxtrot.learn.clone"
    assert trained is not None and trained.layers[0][0].shape[1] == 16
    with pytest.raises(ValueError, match="clone_minutes"):
        train(Config(minutes=0.1, clone_minutes=0.1, tables=2), tmp_path / "no.npz")
