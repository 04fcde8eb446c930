"""Done-when of the rules engine: 1,000 random matches over 2-9 players and both take rules
save, check and reload identically (rules G1-G3)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from foxtrot import LeftoverPile, MostCardsTie, State, TableOptions, TakeRule, dumps
from foxtrot.cli.simulate import play_random_match
from foxtrot.storage import load, save

pytestmark = pytest.mark.slow  # tests/conftest.py: the tiers
CONFIGS = list(itertools.product(range(2, 10), TakeRule))


def test_G1_thousand_random_matches_save_check_and_reload_identically(tmp_path: Path) -> None:
    deals = 0
    for index in range(1000):
        players, take = CONFIGS[index % len(CONFIGS)]
        rng = random.Random(index)
        options = TableOptions(
            players=players,
            take=take,
            target=rng.choice((150, 200)),
            forced_foxtrot=index % 3 == 0,
            leftover_pile=LeftoverPile.LAST_TAKER if index % 4 == 0 else LeftoverPile.DISCARD,
            most_cards_tie=MostCardsTie.ALL if index % 5 == 0 else MostCardsTie.NONE,
        )
        state: State = play_random_match(options, rng)
        path = save(state, tmp_path / f"{index}.json")
        reloaded = load(path)  # the same check as `foxtrot check`
        assert dumps(reloaded) == path.read_text(encoding="utf-8")
        assert reloaded.outcome == state.outcome is not None
        assert reloaded.totals == state.totals
        for seat in range(players):
            assert reloaded.observation(seat) == state.observation(seat)
        deals += state.deal_number
        path.unlink()
    assert deals >= 1000 * 3  # a match to 150 or more takes several deals
