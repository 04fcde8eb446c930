"""The training example (examples/train_ppo.py) learns, and its saved policy plays as a bot."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
import torch

from foxtrot.cli.main import main
from foxtrot.core import State, TableOptions
from foxtrot.env.policy import PolicyBot, save_policy
from foxtrot.research import TournamentConfig, parse_bots, run_tournament

pytestmark = pytest.mark.slow  # tests/conftest.py: the tiers

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_ppo.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wins(path: Path) -> int:
    config = TournamentConfig(
        parse_bots(f"policy:{path},random"), TableOptions(players=2, target=100), 60, seed=2
    )
    return run_tournament(config, jobs=1).summaries[0].wins


def test_a_short_training_run_beats_random_more_often_than_no_training(tmp_path: Path) -> None:
    """A few thousand steps with a fixed seed: more matches won against random than before."""
    example = _example()
    untrained = example.train(0, seed=0)
    trained = example.train(20_480, seed=0)
    assert torch.get_num_threads() == 1
    options = TableOptions(players=2)
    before = _wins(save_policy(untrained, tmp_path / "untrained.zip", options))
    after = _wins(save_policy(trained, tmp_path / "trained.zip", options))
    assert after > before
    assert after >= 36  # 60 % of 60 matches


def test_policy_bot_reads_the_observation_and_refuses_a_bad_table(tmp_path: Path) -> None:
    path = save_policy(_example().train(0, seed=1), tmp_path / "p.zip", TableOptions(players=2))
    assert (tmp_path / "p.zip.json").exists()
    bot = PolicyBot(path)
    state = State(TableOptions(players=2), dealer=0)
    state.deal(random.Random(3))
    obs = state.observation(1)
    action = bot.choose(obs, obs.legal_actions, random.Random(0))
    assert action in obs.legal_actions
    assert bot.choose(obs, obs.legal_actions, random.Random(9)) is action  # deterministic
    three = State(TableOptions(players=3), dealer=0)
    three.deal(random.Random(3))
    with pytest.raises(ValueError, match="trained for 2 players, not 3"):
        bot.choose(three.observation(1), three.observation(1).legal_actions, random.Random(0))
    with pytest.raises(ValueError, match="no file"):
        PolicyBot(tmp_path / "missing.zip")


def test_tournament_refuses_a_missing_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--bots", f"policy:{tmp_path / 'none.zip'},random"]) == 2
    assert "policy: no file" in capsys.readouterr().err
