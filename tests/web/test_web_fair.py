"""fx/v1, the commit-reveal shuffle, and ``foxtrot verify`` (docs/fair.md)."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.cli.main import main
from foxtrot.core import CARDS, State, TableOptions
from foxtrot.web import fair
from foxtrot.web.lobby import Lobby, server_record
from foxtrot.web.protocol import CreateTable
from foxtrot.web.store.event_log import Store
from helpers import fair_vectors

seeds = st.binary(min_size=32, max_size=32)
player_seed = st.binary(max_size=8).map(bytes.hex)


@given(
    seeds,
    st.text("abcXYZ09_-", min_size=1, max_size=12),
    st.integers(0, 50),
    st.lists(player_seed, min_size=2, max_size=9),
    st.sampled_from([2, 3]),
)
@settings(max_examples=60, deadline=None)
def test_the_shuffle_is_a_deterministic_permutation_of_the_pack(
    seed: bytes, table: str, deal: int, players: list[str], decks: int
) -> None:
    deck = fair.shuffle(seed, table, deal, players, decks)
    assert Counter(deck) == Counter({card: decks for card in CARDS})
    assert deck == fair.shuffle(seed, table, deal, players, decks)
    assert deck != fair.shuffle(seed, table, deal + 1, players, decks)
    changed = [*players[:-1], players[-1] + "00"]
    assert deck != fair.shuffle(seed, table, deal, changed, decks)


def _transcribed(seed: bytes, table: str, deal: int, players: list[str], decks: int) -> list[str]:
    """docs/fair.md's shuffle, transcribed from the page without foxtrot.web.fair."""
    msg = f"fx/v1|{table}|{deal}|{','.join(players)}".encode()
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    deck = [rank + suit for rank in ranks for suit in "SHDC" for _ in range(decks)]
    words: list[int] = []
    counter = 0
    while len(words) < 2 * len(deck):
        block = hmac.new(seed, msg + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        words += [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
        counter += 1
    stream = iter(words)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        word = next(stream)
        while word >= limit:
            word = next(stream)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_documented_known_answers_are_what_both_shuffles_give() -> None:
    """fx/v1's frozen vectors (docs/fair.md): the reference implementation and an independent
    transcription of the page each give exactly the printed deck and commitment (the
    browser's verify.js is held to the same vectors in tests/browser/test_verify.py)."""
    vectors = fair_vectors()
    assert len(vectors) >= 3 and {v["decks"] for v in vectors} == {2, 3}
    for vector in vectors:
        seed = bytes.fromhex(vector["server_seed"])
        inputs = (seed, vector["table"], vector["deal"], vector["player_seeds"], vector["decks"])
        assert [str(card) for card in fair.shuffle(*inputs)] == vector["deck"], vector["table"]
        assert _transcribed(*inputs) == vector["deck"], vector["table"]
        assert fair.commitment(seed) == vector["commitment"] == hashlib.sha256(seed).hexdigest()


@given(seeds, st.integers(0, 50), st.lists(player_seed, min_size=2, max_size=9))
@settings(max_examples=30, deadline=None)
def test_the_algorithm_is_the_documented_one(seed: bytes, deal: int, players: list[str]) -> None:
    """An independent transcription of docs/fair.md gives the same deck on any input."""
    decks = 2 if len(players) <= 6 else 3
    expected = _transcribed(seed, "tbl", deal, players, decks)
    assert [str(card) for card in fair.shuffle(seed, "tbl", deal, players, decks)] == expected


def test_rejection_sampling_skips_the_biased_tail() -> None:
    words = iter([2**32 - 1, 7])  # 2**32 % 3 == 1: only the very last word is biased for 3
    assert fair._below(words, 3) == 1
    n = 2**31 + 1  # here almost half the words are rejected
    words = iter([2**31 + 1, 2**32 - 1, 2**31])
    assert fair._below(words, n) == 2**31


def test_bad_player_seeds_are_refused() -> None:
    for bad in ("ABC", "abc", "zz", "ab" * 65):
        with pytest.raises(fair.FairError):
            fair.check_player_seed(bad)
    with pytest.raises(fair.FairError):
        fair.message("a|b", 0, [])


def server_records(tmp_path: Path) -> list[dict[str, Any]]:
    """Finished matches of computers, written by the server itself."""

    async def main_() -> list[dict[str, Any]]:
        lobby = Lobby(Store(f"sqlite:///{tmp_path / 'fair.db'}"))
        await lobby.boot()
        plans = [
            {"options": {"players": 2, "target": 150}, "seats": [{"kind": "easy"}] * 2},
            {
                "options": {"players": 3, "take": "any", "target": 30},
                "seats": [{"kind": "medium"}] * 3,
            },
            {"options": {"players": 7, "target": 1}, "seats": [{"kind": "easy"}] * 7},
        ]
        actors = [
            await lobby.create(
                CreateTable.model_validate(plan | {"seed_seconds": 0, "bot_delay": 0})
            )
            for plan in plans
        ]
        while any(actor.status != "over" for actor in actors):
            await asyncio.sleep(0.02)
        records = [server_record(actor) for actor in actors]
        await lobby.shutdown()
        return records

    return asyncio.run(main_())


@pytest.mark.timeout(120)
def test_verify_accepts_every_server_record_and_refuses_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = server_records(tmp_path)
    assert any(len(record["deals"]) > 1 for record in records)
    for number, record in enumerate(records):
        path = tmp_path / f"r{number}.json"
        path.write_text(json.dumps(record))
        assert main(["verify", str(path)]) == 0
        assert main(["check", str(path)]) == 0  # still a valid G2 record
    out = capsys.readouterr().out
    assert "verified" in out and "REFUSED" not in out

    record = records[0]
    mutations: dict[str, Callable[[dict[str, Any]], object]] = {
        "deck": lambda r: r["deals"][0]["deck"].reverse(),
        "seed": lambda r: r["deals"][-1]["fair"].__setitem__("server_seed", "00" * 32),
        "commitment": lambda r: r["deals"][0]["fair"].__setitem__("commitment", "ab" * 32),
        "player seed": lambda r: r["deals"][0]["fair"]["player_seeds"].__setitem__(0, "01"),
        "table": lambda r: r.__setitem__("table", "another"),
    }
    for name, mutate in mutations.items():
        changed = copy.deepcopy(record)
        mutate(changed)
        with pytest.raises(fair.FairError):
            fair.verify_record(changed)
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(changed))
        assert main(["verify", str(path)]) == 1, name
        assert "REFUSED" in capsys.readouterr().out


def test_a_stacked_deck_with_a_true_commitment_is_refused(tmp_path: Path) -> None:
    """The server cannot choose a deck and then find a seed: the deck must come from the seed."""
    state = State(TableOptions(), dealer=0, names=["A", "B"])
    seed = fair.new_seed()
    stacked = sorted(fair.unshuffled(2))  # a deck the server would like
    state.deal(deck=stacked)
    from foxtrot.core import to_record  # noqa: PLC0415

    record = to_record(state)
    record["table"] = "t"
    record["deals"][0]["fair"] = fair.fair_entry(fair.commitment(seed), ["", ""], None)
    assert "in progress" in fair.verify_record(record)[0]  # an unrevealed deal is not proof
    record["deals"][0]["fair"]["server_seed"] = seed.hex()
    with pytest.raises(fair.FairError, match="not the one the seeds give"):
        fair.verify_record(record)
