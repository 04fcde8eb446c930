"""The cheap paths of ``State`` against the plain ones they replace (core/seat_views.py,
core/move_events.py): cached observations and slot-made events must equal, field by field,
what the dataclasses' constructors make from the state's public reads."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    ACTIONS,
    CardPlayed,
    Observation,
    Phase,
    PileTaken,
    State,
    TableOptions,
)
from helpers import table_options

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_strategy = table_options((40, 120))


def plain_observation(state: State, seat: int) -> Observation:
    """The observation as the engine built it before the caches: from public reads only."""
    playing = state.phase is Phase.PLAYING
    logs = state.deal_logs()
    finished = [log for log in logs if log.scores is not None]
    return Observation(
        seat=seat,
        options=state.options,
        names=state.names,
        phase=state.phase,
        deal=state.deal_number if playing else state.deal_number - 1,
        dealer=state.dealer,
        to_move=state.to_move,
        hand=state.hand(seat),
        pile=state.pile,
        stock=len(state.stock),
        hand_sizes=tuple(len(state.hand(s)) for s in range(state.players)),
        taken=tuple(state.taken(s) for s in range(state.players)),
        foxtrots=tuple(state.foxtrots(s) for s in range(state.players)),
        last_taker=state.last_taker,
        totals=tuple(state.totals),
        upturned=state.upturned,
        history=tuple(
            (entry >> 6, ACTIONS[entry & 63]) for entry in (logs[-1].actions if logs else ())
        ),
        legal_actions=tuple(state.legal_actions()) if state.to_move == seat else (),
        deal_scores=tuple(log.scores for log in finished if log.scores is not None),
        winner=state.winner,
    )


def same(a: Observation, b: Observation) -> None:
    for field in dataclasses.fields(Observation):
        assert getattr(a, field.name) == getattr(b, field.name), field.name
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b)


@SETTINGS
@given(options_strategy, st.integers(0, 2**32))
def test_cached_observations_equal_the_plain_ones_at_every_step(
    options: TableOptions, seed: int
) -> None:
    """Asked for in any order, for some seats or all, again or not, through checked and
    unchecked moves, clones and deal ends: always the plain observation of that moment."""
    rng = random.Random(seed)
    state = State(options, dealer=0)
    for _ in range(400):
        if state.is_over:
            break
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
        for seat in rng.sample(range(options.players), rng.randint(0, options.players)):
            same(state.observation(seat), plain_observation(state, seat))
            if rng.random() < 0.3:
                same(state.observation(seat), plain_observation(state, seat))
        if rng.random() < 0.1:
            copy = state.clone()
            seat = rng.randrange(options.players)
            same(copy.observation(seat), plain_observation(state, seat))
        action = rng.choice(state.legal_actions())
        if rng.random() < 0.5:
            state.apply(action)
        else:
            state.apply_unchecked(action)
    for seat in range(options.players):
        same(state.observation(seat), plain_observation(state, seat))


@SETTINGS
@given(options_strategy, st.integers(0, 2**32))
def test_a_clone_moves_on_without_changing_the_original_observations(
    options: TableOptions, seed: int
) -> None:
    rng = random.Random(seed)
    state = State(options, dealer=0)
    state.deal(rng)
    for _ in range(rng.randrange(30)):
        if state.phase is not Phase.PLAYING:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.phase is not Phase.PLAYING:
        return
    before = [state.observation(seat) for seat in range(options.players)]
    copy = state.clone()
    copy.observation(0)
    while copy.phase is Phase.PLAYING:
        copy.apply(rng.choice(copy.legal_actions()))
        copy.observation(0)
    for seat in range(options.players):
        same(state.observation(seat), before[seat])
        same(state.observation(seat), plain_observation(state, seat))
    sampled = state.resample(0, rng)
    for seat in range(options.players):
        same(sampled.observation(seat), plain_observation(sampled, seat))


@SETTINGS
@given(options_strategy, st.integers(0, 2**32))
def test_the_events_of_apply_equal_the_dataclass_made_ones(
    options: TableOptions, seed: int
) -> None:
    rng = random.Random(seed)
    state = State(options, dealer=0)
    state.deal(rng)
    while state.phase is Phase.PLAYING:
        pile = state.pile
        mover = state.to_move
        action = rng.choice(state.legal_actions())
        first = state.apply(action)[0]
        if action.card is None:
            expected: object = PileTaken(mover, pile)  # type: ignore[arg-type]
        else:
            assert isinstance(first, CardPlayed)
            taken = () if first.result == "laid" else (*pile, action.card)
            expected = CardPlayed(mover, action.card, first.result, taken)  # type: ignore[arg-type]
        assert type(first) is type(expected)
        assert first == expected and hash(first) == hash(expected)
        assert repr(first) == repr(expected)


@SETTINGS
@given(options_strategy, st.integers(0, 2**32))
def test_clones_of_an_observed_position_each_observe_their_own_game(
    options: TableOptions, seed: int
) -> None:
    """A clone starts with the observations its original answered (``Views.seeded``); then
    the two move on differently, through deal ends, and each sees only its own game."""
    rng = random.Random(seed)
    states = [State(options, dealer=0)]
    for _ in range(300):
        state = rng.choice(states)
        if state.is_over:
            continue
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
        for seat in rng.sample(range(options.players), rng.randint(0, options.players)):
            same(state.observation(seat), plain_observation(state, seat))
        if len(states) < 6 and rng.random() < 0.3:
            copy = state.clone()
            states.append(copy)
            seat = rng.randrange(options.players)
            same(copy.observation(seat), plain_observation(copy, seat))
        state.apply_unchecked(rng.choice(state.legal_actions()))
    for state in states:
        for seat in range(options.players):
            same(state.observation(seat), plain_observation(state, seat))
