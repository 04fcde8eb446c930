"""The compiled kernel (``foxtrot.fast``, extra ``[fast]``) against the pure-Python reference.

Differential tests on thousands of random positions at every table size and option: the
same legal moves, the same move values, the same random numbers, the same playouts and
likelihoods for the same random numbers, the same analyses to the last bit.  The kernel
needs numba (installed by ``.[test]``, which includes ``[fast]``).
"""

from __future__ import annotations

import importlib
import math
import os
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

# The [fast] extra is part of [test]: without numba these tests fail to import (never skip).
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot import (
    LeftoverPile,
    MostCardsTie,
    Phase,
    SplitMix64,
    State,
    TableOptions,
    TakeRule,
    fast,
)
from foxtrot.bots import ExpertBot
from foxtrot.bots.expert import ESS_SHARE, KERNEL_WEIGHTS, margin_of, search, temper
from foxtrot.bots.inference import decisions, log_likelihood
from foxtrot.bots.rollout import move_values, unseen_by_rank
from foxtrot.core.kernel import RANKS, TAKE_CODE, legal_codes
from foxtrot.fast import _playout, _random, _rules, _search

ROOT = Path(__file__).resolve().parents[1]
#: Thousands of positions where a position is cheap to compare.
POSITIONS = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def _follow_the_environment() -> Iterator[None]:
    yield
    fast.use(None)


def position(seed: int) -> State:
    """A deal in progress at a random table and totals, after a random number of random legal
    actions."""
    rng = random.Random(seed)
    players = rng.choice((2, 2, 3, 4, 4, 5, 6, 7))
    options = TableOptions(
        players=players,
        take=rng.choice(list(TakeRule)),
        forced_foxtrot=rng.random() < 0.3,
        leftover_pile=rng.choice(list(LeftoverPile)),
        most_cards_tie=rng.choice(list(MostCardsTie)),
    )
    totals = [rng.randrange(200) for _ in range(players)]  # for the match objective
    while True:
        state = State(options, dealer=rng.randrange(players))
        state.totals = totals[:]
        state.deal(rng)
        for _ in range(rng.randrange(0, 150)):
            if state.phase is not Phase.PLAYING:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.phase is Phase.PLAYING:
            return state


def as_array(values: Sequence[int]) -> Any:
    return np.array(values, dtype=np.int64)


seeds = st.integers(0, 2**32 - 1)


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 120))
@settings(max_examples=300, deadline=None)
def test_D3_the_compiled_stream_is_splitmix64(seed: int, child: int, size: int) -> None:
    """``fast._random``, written twice, against ``core.rng.SplitMix64``: the outputs,
    ``random()``, ``below``, the shuffle (D3) and a stream seeded from an output."""
    rng = SplitMix64(seed)
    words = _random.words_of(rng.state)
    assert [int(_random.next_word(words)) for _ in range(3)] == [rng.next() for _ in range(3)]
    assert [_random.uniform(words) for _ in range(5)] == [rng.random() for _ in range(5)]
    bounds = [1, 2, 3, 7, 104, 105, 2**31 + 1, 2**62 + 3]
    assert [_random.below(words, n) for n in bounds] == [rng.below(n) for n in bounds]
    cards = list(range(size))
    copy = as_array(cards)
    _random.shuffle(words, copy, size)
    rng.shuffle(cards)
    assert copy.tolist() == cards
    assert int(words[0]) == rng.state
    seeded = np.empty(1, np.uint64)
    _random.seeded(seeded, np.uint64(child))
    other = SplitMix64(child)
    assert [_random.uniform(seeded) for _ in range(50)] == [other.random() for _ in range(50)]


@given(seeds)
@POSITIONS
def test_T3_T4_X4_the_compiled_legal_moves_are_the_kernels(seed: int) -> None:
    """``_rules.legal_codes``, written twice, against ``kernel.legal_codes``."""
    state = position(seed)
    hand, pile = state.hand_ids[state.turn], state.pile_ids
    take_any = not state.take_match
    for forced in (False, True):
        out = np.empty(64, np.int64)
        n = _rules.legal_codes(as_array(hand), as_array(pile), take_any, forced, out)
        assert out[:n].tolist() == legal_codes(hand, pile, take_any, forced)


@given(
    st.lists(st.integers(0, 51), max_size=12),
    st.lists(st.integers(0, 51), max_size=12),
)
@POSITIONS
def test_R1_a_redealt_hand_is_sorted(kept: list[int], dealt: list[int]) -> None:
    """``_rules.sort``: the cards kept (in order) and those just dealt, as ``sorted`` would
    give them, whether the network or the insertions sort them."""
    hand = np.array([*sorted(kept), *dealt], np.int64)
    _rules.sort(hand, len(dealt))
    assert hand.tolist() == sorted(kept + dealt)


def test_R1_the_network_sorts_every_full_hand() -> None:
    """``_rules.sort8`` sorts all 256 hands of 0s and 1s, so it sorts any 8 cards (Knuth's
    0-1 principle for comparator networks), with kept cards before them or not."""
    for bits in range(256):
        dealt = [bits >> i & 1 for i in range(8)]
        for kept in ([], [0], [1, 1]):
            hand = np.array([*kept, *dealt], np.int64)
            _rules.sort(hand, 8)
            assert hand.tolist() == sorted(kept + dealt), (kept, dealt)


def arrays_of(state: State) -> Any:
    """The ``_rules.Position`` of a deal in progress (as ``fast._arrays`` builds it)."""
    _, position, _, _, _, _ = fast._arrays(state, [TAKE_CODE], (), 1)
    return position


@given(seeds)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_T3_T4_T5_R1_R2_E1_P1_P4_X5_X6_a_compiled_move_is_the_engines(seed: int) -> None:
    """``_rules.do_move`` and ``run_out``, written twice, against ``State.apply_code_unchecked``
    move by move to the deal's end: the hands, the pile, the stock, the cards and points each
    seat took, the foxtrot bonuses, the player to move and the last taker after every move
    (T3a-T3e, T4, T5, X1-X3, the redeals of R1), and the deal's scores (R2, E1, E2, P1-P4, X5,
    X6) at every table option."""
    state = position(seed)
    rng = random.Random(seed)
    at = arrays_of(state)
    rules = fast._arrays(state, [TAKE_CODE], (), 1)[0]
    scores = np.zeros(state.players, np.int64)
    do_move: Any = _rules.do_move  # a position's fields one by one, as the kernel calls it
    while state.phase is Phase.PLAYING:
        code = rng.choice(state.legal_codes())
        state.apply_code_unchecked(code)
        do_move(code, *at, rules, scores)
        if state.phase is not Phase.PLAYING:
            break
        engine = arrays_of(state)
        for name in ("hand_sizes", "taken_count", "taken_points", "bonuses", "scalars"):
            assert getattr(at, name).tolist() == getattr(engine, name).tolist(), name
        for s in range(state.players):
            size = int(at.hand_sizes[s])
            assert at.hands[s, :size].tolist() == list(state.hand_ids[s])
        pile = int(at.scalars[_rules.PILE_N])
        assert at.pile[:pile].tolist() == list(state.pile_ids)
        stock = int(at.scalars[_rules.STOCK_N])
        assert at.stock[:stock].tolist() == list(state.stock_ids)  # the cards, top last
    assert at.scalars[_rules.PLAYING] == 0
    ended = state.deal_logs()[-1].scores
    assert ended is not None
    assert scores.tolist() == [line.total for line in ended]


@given(seeds)
@POSITIONS
def test_the_same_move_values(seed: int) -> None:
    state = position(seed)
    rng = random.Random(seed)
    unseen = unseen_by_rank(state)
    for seat, hand in enumerate(state.hand_ids):
        mine = unseen[:]
        for card in hand:
            mine[card >> 2] -= 1
        next_size = len(state.hand_ids[(seat + 1) % state.players]) + rng.randrange(3)
        for take_any in (False, True):
            pure = move_values(hand, state.pile_ids, take_any, mine, next_size)
            codes, vals = np.empty(64, np.int64), np.empty(64, np.float64)
            miss = fast.miss_table(sum(mine), next_size)
            n = _playout.move_values(
                as_array(hand),
                as_array(state.pile_ids),
                take_any,
                as_array(mine),
                next_size,
                miss,
                codes,
                vals,
                KERNEL_WEIGHTS,
            )
            assert dict(zip(codes[:n].tolist(), vals[:n].tolist(), strict=True)) == pure
            assert codes[:n].tolist() == list(pure)  # the same order: the jitter follows it


@given(seeds)
@POSITIONS
def test_the_same_likelihoods(seed: int) -> None:
    state = position(seed)
    seat = state.turn
    obs = state.observation(seat)
    moves = decisions(obs)
    world = state.resample(seat, random.Random(seed))
    root = State.from_observation(obs, random.Random(seed))
    _, _, _, _, history, miss = fast._arrays(root, [TAKE_CODE], moves, 1)
    hands = np.zeros((state.players, state.options.deck_size), np.int64)
    for s, hand in enumerate(world.hand_ids):
        hands[s, : len(hand)] = hand
    sizes = as_array([len(hand) for hand in world.hand_ids])
    scratch = _playout.Scratch(
        np.empty(RANKS, np.int64),
        np.empty(64, np.int64),
        np.empty(64, np.float64),
        np.empty(64, np.float64),
        np.empty(hands.shape[1] + history.later.shape[1], np.int64),
    )
    take_any, forced = not state.take_match, state.options.forced_foxtrot
    likelihood: Any = _search.likelihood
    found = likelihood(hands, sizes, take_any, forced, history, miss, scratch, KERNEL_WEIGHTS)
    assert found == log_likelihood(world.hand_ids, moves, take_any, forced)


def both(root: State, seat: int, seed: int, **kwargs: object) -> list[tuple[object, ...]]:
    """``expert.search`` on the pure path and on the kernel: values, work and the generator's
    state after."""
    found: list[tuple[object, ...]] = []
    for on in (False, True):
        fast.use(on)
        rng = random.Random(seed)
        result = search(root, seat, rng, **kwargs)  # type: ignore[arg-type]
        values = sorted((action.code, value) for action, value in result.values.items())
        found.append((values, result.best, result.samples, rng.getstate()))
    return found


@given(
    seeds,
    st.sampled_from([1, 5, 1 << 30]),
    st.sampled_from([0.0, 50.0, math.inf]),
    st.sampled_from([0.0, 25.0]),
)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_playouts_for_the_same_random_numbers(
    seed: int, horizon: int, stake: float, tempo: float
) -> None:
    state = position(seed)  # the true state: the oracle's search, rollouts only
    seat = state.turn
    pure, compiled = both(
        state,
        seat,
        seed,
        iterations=3,
        seconds=None,
        resample=False,
        moves=(),
        horizon=horizon,
        stake=stake,
        tempo=tempo,
    )
    assert compiled == pure


@given(
    seeds,
    st.sampled_from([1, 1, 3]),
    st.sampled_from([(9, 0.0, 0.0), (1 << 30, math.inf, 0.0), (1 << 30, 0.0, 25.0)]),
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_samples_and_weights(seed: int, pool: int, goal: tuple[int, float, float]) -> None:
    state = position(seed)
    seat = state.turn
    obs = state.observation(seat)
    root = State.from_observation(obs, random.Random(seed))
    moves = decisions(obs)
    horizon, stake, tempo = goal
    pure, compiled = both(
        root,
        seat,
        seed,
        iterations=4,
        seconds=None,
        resample=True,
        moves=moves,
        horizon=horizon,
        pool=pool,
        stake=stake,
        tempo=tempo,
    )
    assert compiled == pure


@given(seeds, st.sampled_from([0, 1, 2]), st.booleans(), st.booleans())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_same_playouts_with_the_policys_switches(
    seed: int, peek: int, calm: bool, resample: bool
) -> None:
    """The playout policy's switches (``peek``: value by the sampled world's next hand;
    ``calm``: the others without jitter) give the same numbers on both paths."""
    state = position(seed)
    seat = state.turn
    obs = state.observation(seat)
    root = State.from_observation(obs, random.Random(seed)) if resample else state
    pure, compiled = both(
        root,
        seat,
        seed,
        iterations=3,
        seconds=None,
        resample=resample,
        moves=decisions(obs) if resample else (),
        horizon=1 << 30,
        peek=peek,
        calm=calm,
    )
    assert compiled == pure


def _switched(state: State, seed: int, **switches: object) -> object:
    """The oracle's search of ``state`` on the kernel, with these policy switches."""
    fast.use(True)
    found = search(
        state,
        state.turn,
        random.Random(seed),
        iterations=3,
        seconds=None,
        resample=False,
        moves=(),
        horizon=1 << 30,
        **switches,  # type: ignore[arg-type]
    )
    return sorted((action.code, value) for action, value in found.values.items())


def test_the_policys_switches_change_the_playouts() -> None:
    """Each switch changes some search's values (so the equality above tests live code)."""
    changed = {"peek=1": 0, "peek=2": 0, "calm": 0}
    for seed in range(40):
        state = position(seed)
        plain = _switched(state, seed)
        changed["peek=1"] += _switched(state, seed, peek=1) != plain
        changed["peek=2"] += _switched(state, seed, peek=2) != plain
        changed["calm"] += _switched(state, seed, calm=True) != plain
    assert min(changed.values()) > 0, changed


def test_the_same_analyses_on_the_digest_positions() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        digests = importlib.import_module("analysis_hash").digests  # a script, not a module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    fast.use(False)
    pure = digests(2)
    fast.use(True)
    assert digests(2) == pure


@pytest.mark.parametrize("compiled", [False, True], ids=["pure", "compiled"])
def test_a_deadline_already_past_stops_the_search_at_two_samples(compiled: bool) -> None:
    """The deadline is read after every sample (both paths): once it has passed, the search
    stops at the two samples it always takes, whatever the sample cap; the analysis is still
    sound.  (How far past a deadline a search runs on a busy machine is a timing figure:
    ``benchmarks/bench_hard_deadline.py --seconds 0.3``, not a test.)"""
    state = position(7)
    obs = state.observation(state.to_move or 0)
    fast.use(compiled)
    assert fast.warm_up() or not compiled
    analysis = ExpertBot(iterations=10**6, seconds=0.0).analyse(obs, random.Random(1))
    assert analysis.samples == 2
    assert all(math.isfinite(value) for value in analysis.values.values())
    assert set(analysis.values) == set(obs.legal_actions)
    capped = ExpertBot(iterations=30, seconds=None).analyse(obs, random.Random(1))
    assert capped.samples == 30  # without a deadline, the sample cap alone decides


def test_the_environment_switches_the_kernel_off() -> None:
    code = "from foxtrot import fast; print(fast.enabled(), fast.available())"
    env = {**os.environ, "FOXTROT_FAST": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["False", "True"]
    assert fast.enabled() == (os.environ.get("FOXTROT_FAST", "1") != "0")
    fast.use(False)
    assert not fast.enabled()
    assert not fast.warm_up()


def test_importing_the_package_loads_no_numba() -> None:
    code = "import sys, foxtrot, foxtrot.bots, foxtrot.fast; print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


@given(
    st.lists(st.floats(-60.0, 0.0, allow_nan=False), min_size=1, max_size=40),
    st.integers(1, 6),
    st.sampled_from([2, 3, 4, 6]),
    st.sampled_from([ESS_SHARE, 0.9]),
    st.randoms(use_true_random=False),
)
@settings(max_examples=300, deadline=None)
def test_the_same_weights_and_margins(
    logs: list[float], actions: int, players: int, share: float, rng: random.Random
) -> None:
    """``_search.weigh`` is ``expert.search``'s weighting (``temper``, then each action's
    weighted mean margin) to the last bit, the tempering's bisection included (log-likelihoods
    far apart, or a share near 1, leave too few effective samples at the power 1)."""
    seat = rng.randrange(players)
    scores = [
        [[rng.randrange(-160, 400) / 4 for _ in range(players)] for _ in range(actions)]
        for _ in logs
    ]
    weights = temper(logs, share)
    total = sum(weights)
    expected = [
        sum(w * margin_of(sample[a], seat) for w, sample in zip(weights, scores, strict=True))
        / total
        for a in range(actions)
    ]
    out = np.empty(actions, np.float64)
    _search.weigh(np.array(logs), np.array(scores), seat, share, 24, out)
    assert out.tolist() == expected
