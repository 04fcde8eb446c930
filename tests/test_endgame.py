"""The exact endgame solver (``bots.endgame``) and its use by the expert and the coach.

The solver is checked against plain minimax over the engine's own moves (``State``), on
endgames reached by random play and on random small positions with every table option; its
determinacy test against the deals ``State.resample`` draws; and the expert and the coach
against it, from observations only.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.bots import ExpertBot
from foxtrot.bots.coach import review, suggest
from foxtrot.bots.endgame import (
    MATCH_WEIGHT,
    determined,
    determined_state,
    hidden_deals,
    solve,
    solve_observation,
)
from foxtrot.bots.match_odds import PACE, win_chance
from foxtrot.core import (
    ACTIONS,
    Card,
    LeftoverPile,
    MostCardsTie,
    Observation,
    Phase,
    State,
    TableOptions,
    TakeRule,
    to_record,
)
from foxtrot.core.snapshot import in_play
from helpers import rigged_deck

SEEDS = st.integers(0, 2**32 - 1)


def brute(state: State, seat: int, stake: float = 0.0) -> float:
    """Plain minimax over ``State``'s own moves: the seat's final deal margin (plus ``stake``
    times its chance to win the match), the other seat minimising it."""
    if state.phase is not Phase.PLAYING:
        log = state.deal_logs()[-1]
        assert log.scores is not None
        value = float(log.scores[seat].total - log.scores[1 - seat].total)
        if stake:
            pace = PACE[2, not state.take_match]
            chance = win_chance(state.totals, seat, state.options.target, final=True, pace=pace)
            value += (MATCH_WEIGHT if math.isinf(stake) else stake) * chance
        return value
    found = []
    for code in state.legal_codes():
        child = state.clone()
        child.apply_code_unchecked(code)
        found.append(brute(child, seat, stake))
    return max(found) if state.turn == seat else min(found)


def random_options(rng: random.Random) -> TableOptions:
    return TableOptions(
        players=2,
        take=rng.choice(list(TakeRule)),
        forced_foxtrot=rng.random() < 0.3,
        leftover_pile=rng.choice(list(LeftoverPile)),
        most_cards_tie=rng.choice(list(MostCardsTie)),
    )


def endgame(seed: int, options: TableOptions | None = None, extra: int = -1) -> State | None:
    """A two-player deal played at random until the stock can no longer be dealt, then
    ``extra`` more random moves (random if -1): a real endgame, or ``None`` if it ended."""
    rng = random.Random(seed)
    state = State(options or random_options(rng), dealer=rng.randrange(2))
    state.deal(rng)
    while state.phase is Phase.PLAYING and len(state.stock_ids) >= 2:
        state.apply_code_unchecked(rng.choice(state.legal_codes()))
    for _ in range(rng.randrange(3) if extra < 0 else extra):
        if state.phase is Phase.PLAYING:
            state.apply_code_unchecked(rng.choice(state.legal_codes()))
    return state if state.phase is Phase.PLAYING else None


def small(state: State) -> bool:
    """Few enough cards in hand for plain minimax."""
    return sum(map(len, state.hand_ids)) <= 8


def check_against_brute(state: State, stake: float = 0.0) -> None:
    seat = state.turn
    found = solve(state, stake=stake)
    assert found is not None
    for code in state.legal_codes():
        child = state.clone()
        child.apply_code_unchecked(code)
        assert found.values[ACTIONS[code]] == pytest.approx(brute(child, seat, stake))
    best = max(found.values.values())
    assert found.values[found.best] == best
    assert found.best == min(
        (a for a, v in found.values.items() if v == best), key=lambda a: a.code
    )


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_the_solver_equals_minimax_on_endgames_of_random_play(seed: int) -> None:
    state = endgame(seed)
    if state is None or not small(state):
        return
    check_against_brute(state)


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_with_a_stake_the_solver_equals_minimax_of_margin_plus_match_chance(seed: int) -> None:
    state = endgame(seed)
    if state is None or not small(state):
        return
    rng = random.Random(seed)
    state.totals = [rng.randint(150, 210), rng.randint(150, 210)]
    check_against_brute(state, stake=rng.choice([50.0, 200.0, math.inf]))


@settings(max_examples=120, deadline=None)
@given(SEEDS)
def test_the_solver_equals_minimax_on_small_positions_with_redeals(seed: int) -> None:
    """Positions of a few cards with a stock still to deal (R1) and cards already taken."""
    rng = random.Random(seed)
    deck = list(range(52)) * 2
    rng.shuffle(deck)
    sizes = [rng.randint(1, 3), rng.randint(0, 3)]
    turn = 0
    hands = [deck[: sizes[0]], deck[sizes[0] : sum(sizes)]]
    rest = deck[sum(sizes) :]
    pile, stock = rest[: rng.randint(0, 3)], rest[10 : 10 + rng.choice([0, 1, 2, 3, 4])]
    position = in_play(
        random_options(rng), dealer=rng.randrange(2), turn=turn, hands=hands, pile=pile, stock=stock
    )
    # cards taken earlier in the deal: they count for most cards (P3)
    taken = (tuple(rest[20 : 20 + rng.randint(0, 4)]), tuple(rest[30 : 30 + rng.randint(0, 4)]))
    state = State.from_snapshot(position._replace(taken=taken))
    check_against_brute(state)


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_the_chosen_move_is_never_worse_than_another_by_the_solvers_own_children(
    seed: int,
) -> None:
    state = endgame(seed)
    if state is None:
        return
    seat = state.turn
    found = solve(state)
    if found is None:  # over the budget: a large take = any endgame
        return
    for action, value in found.values.items():
        child = state.clone()
        child.apply_unchecked(action)
        if child.phase is Phase.PLAYING:
            below = solve(child)
            assert below is not None
            # the other seat moves next (turns alternate at two players): his best is our worst
            assert child.turn != seat
            assert value == -max(below.values.values())
        assert found.values[found.best] >= value


def test_the_worked_example_and_the_budget() -> None:
    ids = [Card.parse(c).id for c in ("10H", "5C", "10S", "5D", "10D")]
    state = State.at_position(
        TableOptions(players=2), dealer=1, turn=0, hands=[ids[:2], ids[2:4]], pile=ids[4:]
    )
    found = solve(state)
    assert found is not None
    assert str(found.best) == "10H"
    assert found.nodes > 0
    assert solve(state, nodes=1) is None  # over the budget: the caller samples
    with pytest.raises(ValueError, match="two-player"):
        solve(
            State.at_position(
                TableOptions(players=3), dealer=0, turn=0, hands=[[1], [2], [3]], pile=[]
            )
        )


# ------------------------------------------------------------------ determinacy


def hands_of(state: State, seat: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(hand) for s, hand in enumerate(state.hand_ids) if s != seat)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]))
def test_determined_only_when_every_consistent_deal_is_the_same(seed: int, players: int) -> None:
    """Deals drawn by ``State.resample`` are consistent with the observation: when two differ,
    ``determined`` is false; when it is true they all equal the one ``determined_state`` builds
    (and the true hands)."""
    rng = random.Random(seed)
    options = TableOptions(players=players, take=rng.choice(list(TakeRule)))
    state = State(options, dealer=0)
    state.deal(rng)
    while state.phase is Phase.PLAYING and len(state.stock_ids) >= players:
        state.apply_code_unchecked(rng.choice(state.legal_codes()))
    for _ in range(rng.randrange(8)):
        if state.phase is Phase.PLAYING:
            state.apply_code_unchecked(rng.choice(state.legal_codes()))
    if state.phase is not Phase.PLAYING:
        return
    seat = rng.randrange(players)
    obs = state.observation(seat)
    drawn = {hands_of(state.resample(seat, random.Random(k)), seat) for k in range(60)}
    drawn.add(hands_of(state, seat))
    deals = hidden_deals(obs, 1000)
    if deals is None:  # more than 1000 (large hands under take = any)
        assert not determined(obs)
        return
    listed = {
        tuple(tuple(sorted(c.id for c in deal[0].get(s, ()))) for s in range(players) if s != seat)
        for deal in deals
    }
    assert drawn <= listed  # every consistent deal is listed ...
    assert len(listed) == len(deals)  # ... once
    if len(drawn) > 1:
        assert not determined(obs)
    if determined(obs):
        built = determined_state(obs)
        assert built is not None
        assert drawn == {hands_of(built, seat)} == {hands_of(state, seat)}


def test_a_stock_still_to_be_dealt_is_not_enumerated() -> None:
    state = State(TableOptions(players=2), dealer=0)
    state.deal(random.Random(5))
    obs = state.observation(state.turn)
    assert hidden_deals(obs) is None
    assert not determined(obs)
    assert solve_observation(obs) is None


def planted() -> tuple[State, int]:
    """A two-player deal whose undealt card is the second 9♣, the first in the hand of the
    player who starts the last round and plays it last: when the other has two cards left,
    the one card he has not seen twice is 9♣, and the position is determined."""
    options = TableOptions(players=2)
    # the last seven cards: three each to seats 1 and 0 in turn, then the undealt 9♣
    deck = rigged_deck(options, 0, stock_bottom="9C 2H 5C 3H 4D 6H 9C", upturned="KH")
    state = State(options, dealer=0)
    state.deal(deck=deck)
    rng = random.Random(3)
    nine = Card.parse("9C").id
    while True:
        seat = state.turn
        codes = state.legal_codes()
        if len(state.stock_ids) < 2 and seat == 0 and len(state.hand_ids[1]) == 1:
            return state, seat
        choice = [c for c in codes if c != nine] or codes
        state.apply_code_unchecked(rng.choice(choice))


def test_a_planted_endgame_is_determined_and_solved_from_the_observation() -> None:
    state, seat = planted()
    obs = state.observation(seat)
    assert [str(c) for c in state.hand(1)] == ["9C"]  # the test may look; the bot does not
    assert determined(obs)
    built = determined_state(obs)
    assert built is not None
    assert [list(h) for h in built.hand_ids] == [list(h) for h in state.hand_ids]
    exact = solve_observation(obs)
    assert exact is not None and exact.exact and exact.deals == 1
    truth = solve(state)
    assert truth is not None
    assert exact.values == truth.values
    analysis = ExpertBot(iterations=20, seconds=None).analyse(obs, random.Random(1))
    assert analysis.exact and analysis.values == truth.values


# ------------------------------------------------------------------ no hidden card read


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_what_the_seat_cannot_see_does_not_change_the_solution(seed: int) -> None:
    state = endgame(seed, TableOptions(players=2))
    if state is None:
        return
    seat = state.turn
    obs = state.observation(seat)
    other = state.resample(seat, random.Random(seed))
    assert other.observation(seat) == obs
    assert solve_observation(obs) == solve_observation(other.observation(seat))


# ------------------------------------------------------------------ the expert


def sampling_differs(seed: int) -> tuple[Observation, ExpertBot, ExpertBot] | None:
    state = endgame(seed, TableOptions(players=2), extra=0)
    if state is None or len(state.legal_codes()) < 2:
        return None
    obs = state.observation(state.turn)
    solved, sampled = ExpertBot(iterations=30, seconds=None), ExpertBot(30, None, endgame=False)
    exact = solve_observation(obs)
    assert exact is not None
    if sampled.choose(obs, obs.legal_actions, random.Random(seed)) == exact.best:
        return None
    return obs, solved, sampled


def test_hard_plays_the_solved_move_where_sampling_plays_another() -> None:
    """Endgames where greedy playouts of sampled deals pick another move than the solver:
    the expert (the levels hard and expert) plays the solver's, the same for any seed."""
    found = 0
    for seed in range(400):
        case = sampling_differs(seed)
        if case is None:
            continue
        obs, solved, _ = case
        exact = solve_observation(obs)
        assert exact is not None
        for k in range(3):
            analysis = solved.analyse(obs, random.Random(k))
            assert analysis.solved == exact.deals > 0
            assert analysis.best == exact.best
            assert solved.choose(obs, obs.legal_actions, random.Random(k)) == exact.best
        found += 1
        if found == 3:
            break
    assert found == 3


def test_the_expert_solves_only_two_player_endgames() -> None:
    rng = random.Random(7)
    state = State(TableOptions(players=3), dealer=0)
    state.deal(rng)
    while len(state.stock_ids) >= 3:
        state.apply_code_unchecked(rng.choice(state.legal_codes()))
    obs = state.observation(state.turn)
    assert solve_observation(obs) is None
    assert ExpertBot(iterations=10, seconds=None).analyse(obs, rng).solved == 0


# ------------------------------------------------------------------ the coach


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("en", "the coach solved this position exactly"),
        ("ru", "тренер просчитал эту позицию точно"),
        ("uk", "тренер точно прорахував цю позицію"),
    ],
)
def test_the_coach_says_when_it_solved_the_position_exactly(lang: str, note: str) -> None:
    state, seat = planted()
    hint = suggest(state.observation(seat), lang, iterations=20, seconds=None)
    assert hint.exact and hint.solved == 1
    assert hint.reason.endswith(note)
    truth = solve(state)
    assert truth is not None
    assert hint.value == truth.values[hint.action]


def test_a_review_of_a_two_player_deal_marks_the_solved_moves() -> None:
    state, _ = planted()
    while state.phase is Phase.PLAYING:
        state.apply_code_unchecked(state.legal_codes()[0])
    items = review(to_record(state), 0, iterations=10, deal=0)
    solved = [item for item in items if item.solved]
    assert solved and all(not item.solved for item in items[: len(items) - len(solved)])
    assert Counter(item.exact for item in solved)[True] == 1 and items[-1].exact
    assert items[-1].text().endswith("the coach solved this position exactly).")


# ------------------------------------------------------------------ the benchmark


def test_the_benchmark_runs_on_one_deck_and_reports_every_figure() -> None:
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), "."])}
    args = ["--decks=1", "--jobs=1", "--others=1", "--prefix=10", "--iterations=10"]
    done = subprocess.run(
        [sys.executable, "bench_endgame.py", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=root / "benchmarks",
        env=env,
    )
    assert done.returncode == 0, done.stderr
    for words in ("solved", "solve CPU time: median", "load average", "points a deal", "4 players"):
        assert words in done.stdout
