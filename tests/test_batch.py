"""The compiled batch (``BatchedGames(compiled=True)``, ``fast.batch``) against the engine.

For many seeds and every rule option (2-9 players), the compiled batch and the Python one
(every game a ``Game`` over ``State``) are stepped with the same actions: every array is the
same at every step (observations, masks, seats, rewards, done, deal ends, score sheets,
winners, final totals), and each observation is ``encode(state.observation(seat))`` of the
engine's state (the reference encoder, which reads only what the seat may know, V1-V3), each
mask the engine's legal actions.  Illegal actions are refused as the Python batch refuses
them (T7), and hidden cards never reach an observation.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot import fast
from foxtrot.core import (
    IllegalActionError,
    LeftoverPile,
    MostCardsTie,
    SplitMix64,
    TableOptions,
    TakeRule,
)
from foxtrot.core.cards import full_deck
from foxtrot.core.dealing import draw_lots
from foxtrot.core.kernel import match_winner
from foxtrot.env import BatchedGames, encode, layout
from foxtrot.env.batch import SCORE_FIELDS
from foxtrot.env.encoding import legal_mask
from foxtrot.fast import batch as kernel
from helpers import table_options

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ARRAYS = ("obs", "mask", "to_move", "rewards", "done", "deal_ended", "winner")

options_strategy = table_options((30, 75.5, 200))


@pytest.fixture(autouse=True)
def _follow_the_environment() -> Iterator[None]:
    yield
    fast.use(None)


def pair(options: TableOptions, games: int, reward: str, seed: int) -> list[BatchedGames]:
    """A compiled and a Python batch of the same games, reset from the same seed."""
    batches = [
        BatchedGames(games, options, reward=reward, compiled=compiled) for compiled in (True, False)
    ]
    for batch in batches:
        batch.reset(seed)
    return batches


def choose(batch: BatchedGames, rng: np.random.Generator, python: BatchedGames) -> Any:
    """Legal actions that often capture: a card of the top card's rank when there is one
    (foxtrots, T3d), else uniformly random (takes included; the same in both engines)."""
    state = rng.bit_generator.state
    actions = batch.random_actions(rng)
    twin = np.random.default_rng()
    twin.bit_generator.state = state
    assert np.array_equal(python.random_actions(twin), actions)
    assert all(batch.mask[g, a] for g, a in enumerate(actions))
    top = next(b for b in layout(batch.options) if b.name == "top")
    for g in range(len(batch)):
        held = np.flatnonzero(batch.mask[g, :52])
        tops = np.flatnonzero(batch.obs[g, top.start : top.stop])
        same = [c for c in held if tops.size and c >> 2 == tops[0] >> 2]
        if same and rng.random() < 0.6:
            actions[g] = same[0]
    return actions


def assert_same(compiled: BatchedGames, python: BatchedGames) -> None:
    for name in ARRAYS:
        assert np.array_equal(getattr(compiled, name), getattr(python, name)), name
    ended = python.deal_ended
    assert np.array_equal(compiled.scores[ended], python.scores[ended])
    assert np.array_equal(compiled.final[ended], python.final[ended])
    over = python.done
    assert np.array_equal(compiled.final_totals[over], python.final_totals[over])


def assert_is_the_engine(batch: BatchedGames, python: BatchedGames) -> None:
    """Every observation is the reference encoding of the engine's state, every mask its
    legal actions."""
    for g, game in enumerate(python.games):
        seat = int(batch.to_move[g])
        assert game.state.to_move == seat
        assert np.array_equal(batch.obs[g], encode(game.state.observation(seat)))
        assert np.array_equal(batch.mask[g], legal_mask(game.state))


#: A few tables for the quick tier: every rule option once, 2, 4 and 7 players (three decks).
QUICK = [
    (TableOptions(players=2, target=30), "deal", 2, 11),
    (
        TableOptions(
            players=4,
            take=TakeRule.ANY,
            leftover_pile=LeftoverPile.LAST_TAKER,
            most_cards_tie=MostCardsTie.ALL,
            target=30,
        ),
        "margin",
        2,
        12,
    ),
    (TableOptions(players=7, forced_foxtrot=True, target=30), "match", 1, 13),
]


@pytest.mark.parametrize(("options", "reward", "games", "seed"), QUICK)
def test_the_compiled_batch_steps_as_the_engine_on_a_few_seeds(
    options: TableOptions, reward: str, games: int, seed: int
) -> None:
    """The quick twin of the test below: a few fixed tables, every array equal at every step
    and every observation and mask the engine's, through deal ends and a match's end."""
    compiled, python = pair(options, games, reward, seed)
    assert compiled.compiled and not python.compiled
    rng = np.random.default_rng(seed)
    ended = done = 0
    for _ in range(500):
        actions = choose(compiled, rng, python)
        compiled.step(actions)
        python.step(actions)
        assert_same(compiled, python)
        assert_is_the_engine(compiled, python)
        ended += int(compiled.deal_ended.sum())
        done += int(compiled.done.sum())
    assert ended >= 2 and done >= 1  # deals and a match ended, and play went on after


@SETTINGS
@given(
    options_strategy,
    st.sampled_from(["deal", "match", "margin"]),
    st.integers(1, 4),
    st.integers(0, 2**40),
)
@pytest.mark.slow
def test_D2_D3_D4_T1_P4_M2_X9_the_compiled_batch_steps_as_the_engine(
    options: TableOptions, reward: str, games: int, seed: int
) -> None:
    """The compiled batch (``fast.batch.deal``, written twice, and the rules' twin) against
    the Python engine game by game: the deals dealt from the same seeds (D2-D4, T1), the
    observations and masks, the score sheets (P4, X9), the match's end (M2)."""
    compiled, python = pair(options, games, reward, seed)
    assert compiled.compiled and not python.compiled
    rng = np.random.default_rng(seed % 1000)
    assert_same(compiled, python)
    assert_is_the_engine(compiled, python)
    deals = 0
    for step in range(400):
        actions = choose(compiled, rng, python)
        engines = [game.state for game in python.games]  # before a finished match restarts
        compiled.step(actions)
        python.step(actions)
        assert_same(compiled, python)
        for g in np.flatnonzero(compiled.deal_ended):
            state = engines[g]
            lines = [*state.deal_logs()]
            finished = [log for log in lines if log.scores is not None][-1]
            assert finished.scores is not None
            expected = [[getattr(line, f) for f in SCORE_FIELDS] for line in finished.scores]
            assert compiled.scores[g].tolist() == expected
            deals += 1
        for g in np.flatnonzero(compiled.done):
            outcome = engines[g].outcome
            assert outcome is not None
            assert compiled.winner[g] == outcome.winner
            assert compiled.final_totals[g].tolist() == list(outcome.totals)
        if step % 7 == 0:
            assert_is_the_engine(compiled, python)
    assert deals > 0  # a deal lasts at most 2 actions a card (takes need a played card)


def test_the_steps_reach_deal_ends_match_ends_foxtrots_and_doubles() -> None:
    """The actions of these tests (``choose``) reach what the property above compares."""
    options = TableOptions(players=2, take=TakeRule.MATCH, target=30)
    compiled, python = pair(options, 8, "deal", 5)
    rng = np.random.default_rng(5)
    seen = dict.fromkeys(("deals", "matches", "foxtrots", "doubles"), 0)
    for _ in range(3000):
        actions = choose(compiled, rng, python)
        compiled.step(actions)
        python.step(actions)
        assert_same(compiled, python)
        ended = compiled.deal_ended
        seen["deals"] += int(ended.sum())
        seen["matches"] += int(compiled.done.sum())
        seen["foxtrots"] += int(compiled.scores[ended][:, :, 0].sum())
        seen["doubles"] += int(compiled.scores[ended][:, :, 1].sum())
    assert min(seen.values()) > 0, seen


@pytest.mark.parametrize(
    ("options", "bad"),
    [
        (TableOptions(players=2, take=TakeRule.MATCH), 52),  # take under take = match (T4)
        (TableOptions(players=3, take=TakeRule.ANY), 53),  # not an action
        (TableOptions(players=3, take=TakeRule.ANY), -1),
        (TableOptions(players=2), 1.5),  # not a whole number
        (TableOptions(players=4), "not held"),  # a card not in the hand (T3)
        (TableOptions(players=2, forced_foxtrot=True), "not the foxtrot"),  # X4
    ],
    ids=["take-match", "53", "-1", "1.5", "not-held", "forced"],
)
def test_T7_an_illegal_action_is_refused_as_the_python_batch_refuses_it(
    options: TableOptions, bad: object
) -> None:
    for seed in range(40):
        compiled, python = pair(options, 4, "deal", seed)
        actions: list[Any] = compiled.random_actions(np.random.default_rng(seed)).tolist()
        if bad == "not held":
            bad = int(np.flatnonzero(compiled.mask[2, :52] == 0)[0])
        elif bad == "not the foxtrot":
            held = np.flatnonzero(compiled.obs[2, :52])
            legal = np.flatnonzero(compiled.mask[2])
            if len(legal) == len(held):
                continue  # no foxtrot to make in this deal: try the next seed
            bad = int(next(c for c in held if not compiled.mask[2, c]))
        actions[2] = bad
        errors = []
        for batch in (compiled, python):
            with pytest.raises(IllegalActionError, match="in game 2") as caught:
                batch.step(np.array(actions, dtype=object) if bad == 1.5 else actions)
            errors.append((caught.value.code, caught.value.seat, str(caught.value)))
        assert errors[0] == errors[1]
        assert_same(compiled, python)  # games 0 and 1 moved, 2 and 3 did not
        assert_is_the_engine(compiled, python)
        for _ in range(50):  # and the games go on as before
            legal = compiled.random_actions(np.random.default_rng(seed))
            compiled.step(legal)
            python.step(legal)
            assert_same(compiled, python)
        return
    pytest.fail("no position for this illegal action")


def test_a_batch_refuses_a_wrong_number_of_actions_and_a_step_before_reset() -> None:
    for compiled in (True, False):
        batch = BatchedGames(3, compiled=compiled)
        with pytest.raises(IllegalActionError, match=r"call reset\(seed\) first"):
            batch.step([0, 0, 0])
        batch.reset(1)
        with pytest.raises(ValueError, match="2 actions for 3 games"):
            batch.step([0, 0])


@SETTINGS
@given(options_strategy, st.integers(0, 2**32), st.integers(0, 80))
def test_V3_the_compiled_observation_holds_no_hidden_information(
    options: TableOptions, seed: int, steps: int
) -> None:
    """Deal the cards the seat to move cannot see anew (other hands, the stock): its array
    and its mask stay the same."""
    batch = BatchedGames(2, options, compiled=True)
    batch.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.step(batch.random_actions(rng))
    engine: Any = batch._engine
    games: kernel.Games = engine.games
    n = options.players
    for g in range(2):
        before = batch.obs[g].copy(), batch.mask[g].copy()
        seat = int(batch.to_move[g])
        stock = int(games.scalars[g, kernel.STOCK_N])
        hidden = games.stock[g, :stock].tolist()
        for s in range(n):
            if s != seat:
                hidden += games.hands[g, s, : games.hand_sizes[g, s]].tolist()
        rng.shuffle(hidden)
        games.stock[g, :stock] = hidden[:stock]
        at = stock
        for s in range(n):
            if s != seat:
                size = int(games.hand_sizes[g, s])
                games.hands[g, s, :size] = sorted(hidden[at : at + size])
                at += size
        kernel.show(g, engine.table, games, engine.outputs)
        assert np.array_equal(batch.obs[g], before[0])
        assert np.array_equal(batch.mask[g], before[1])


def test_the_python_engine_without_numba_or_with_the_kernel_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert BatchedGames(2).compiled  # numba is installed here (the test extra has it)
    fast.use(False)
    assert not BatchedGames(2).compiled
    fast.use(None)
    monkeypatch.setenv("FOXTROT_FAST", "0")
    assert not BatchedGames(2).compiled
    assert BatchedGames(2, compiled=True).compiled  # asked for by name
    monkeypatch.setattr(fast, "available", lambda: False)
    with pytest.raises(ValueError, match="needs numba"):
        BatchedGames(2, compiled=True)


def test_the_rl_extra_works_without_numba() -> None:
    """With numba missing, ``foxtrot.env`` imports and ``BatchedGames`` steps in Python."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import numpy as np\n"
        "from foxtrot.env import BatchedGames\n"
        "b = BatchedGames(3, players=3); b.reset(1)\n"
        "b.step(b.random_actions(np.random.default_rng(1)))\n"
        "print(b.compiled, 'numba' in sys.modules and sys.modules['numba'] is not None)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "FOXTROT_FAST": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]


@given(
    st.lists(st.integers(-300, 300), min_size=2, max_size=9),
    st.sampled_from([30, 75.5, 200]),
)
@settings(max_examples=300, deadline=None)
def test_M2_the_match_winner_in_python_and_compiled(totals: list[int], target: float) -> None:
    best = max(totals)
    expected = totals.index(best) if best >= target and totals.count(best) == 1 else -1
    assert match_winner(totals, target) == expected
    assert kernel.match_winner(np.array(totals, dtype=np.int64), target) == expected


@given(st.integers(0, 2**64 - 1), st.integers(2, 9), st.integers(1, 3))
@settings(max_examples=300, deadline=None)
def test_D1_the_compiled_lot_is_draw_lots(seed: int, players: int, decks: int) -> None:
    """``fast.batch.lot`` deals the dealer ``draw_lots`` deals, and leaves the stream where
    it does (the deals go on from it): ties, several rounds and a new pack included."""
    rng = SplitMix64(seed)
    expected = draw_lots(players, decks, rng).dealer
    words = np.array([seed], np.uint64)
    fresh = np.array(full_deck(decks), np.int64)
    scratch = (
        np.zeros(len(fresh), np.int64),
        np.zeros(players, np.int64),
        np.zeros(players, np.int64),
    )
    assert kernel.lot(words, fresh, players, *scratch) == expected
    assert int(words[0]) == rng.state
