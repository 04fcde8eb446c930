"""The position as a value: ``State.text``/``from_text`` round-trip every reachable position,
``==`` tells positions apart exactly, and bad text is refused naming its field and token."""

from __future__ import annotations

import doctest
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    Observation,
    Phase,
    PositionTextError,
    State,
    TableOptions,
    position,
    refusals,
)
from foxtrot.core import state as state_module
from foxtrot.core.options import name_problem
from foxtrot.core.position_text import FIELDS
from helpers import into_deal, table_options

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Names a person might type, the awkward ones included: spaces, commas, percent signs and
#: letters outside ASCII must survive a one-line text separated by spaces and commas.
NAMES = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=12,
).filter(lambda name: name_problem(name) is None)


def observations(state: State) -> list[Observation]:
    return [state.observation(seat) for seat in range(state.players)]


def check_round_trip(state: State) -> None:
    text = state.text()
    back = State.from_text(text)
    assert back == state, text
    assert back.text() == text
    assert eval(repr(state)) == state
    assert observations(back) == observations(state)
    assert back.legal_codes() == state.legal_codes()
    assert back.deal_number == state.deal_number and back.to_move == state.to_move


@SETTINGS
@given(
    table_options((30, 60, 60.5)),
    st.integers(0, 2**32 - 1),
    st.one_of(st.none(), st.lists(NAMES, min_size=9, max_size=9)),
)
def test_every_position_of_a_match_reads_back_equal(
    options: TableOptions, seed: int, names: list[str] | None
) -> None:
    rng = random.Random(seed)
    n = options.players
    state = State(options, rng=rng, names=None if names is None else names[:n])
    check_round_trip(state)
    while not state.is_over:
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
        else:
            state.apply_code_unchecked(rng.choice(state.legal_codes()))
        check_round_trip(state)


@SETTINGS
@given(table_options((40, 120)), st.integers(0, 2**32 - 1), st.integers(0, 200))
def test_a_state_read_from_its_text_plays_on_as_the_original(
    options: TableOptions, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = into_deal(options, rng, steps)
    copy = State.from_text(state.text())
    moves = random.Random(seed + 1)
    for _ in range(60):
        if state.is_over:
            break
        if state.phase is Phase.AWAITING_DEAL:
            deal_seed = moves.randrange(2**32)
            assert state.deal(random.Random(deal_seed)) == copy.deal(random.Random(deal_seed))
        else:
            action = moves.choice(state.legal_actions())
            assert state.apply(action) == copy.apply(action)
        assert copy == state


@SETTINGS
@given(table_options((40, 120)), st.integers(0, 2**32 - 1), st.integers(0, 80))
def test_equal_is_the_same_position_and_a_different_move_makes_a_different_one(
    options: TableOptions, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = into_deal(options, rng, steps)
    clone = state.clone()
    assert clone == state and not clone != state  # noqa: SIM202 - both operators
    if state.phase is Phase.PLAYING:
        codes = state.legal_codes()
        results = []
        for code in codes:
            after = state.clone()
            after.apply_code_unchecked(code)
            assert after != state
            results.append(after)
        for i, one in enumerate(results):
            for other in results[i + 1 :]:
                assert one != other


def test_the_facts_a_record_keeps_are_not_compared_and_the_rest_are() -> None:
    state = State(TableOptions(), rng=random.Random(5))
    state.deal(random.Random(6))
    copy = State.from_text(state.text())
    assert state.lot is not None and copy.lot is None  # the lot is the record's
    assert state.deal_logs()[0].deck is not None and copy.deal_logs()[0].deck is None
    assert copy == state
    renamed = State.from_text(state.text().replace(" - ", " A,B ", 1))
    assert renamed.names == ("A", "B") and renamed != state
    assert state != state.text() and state != 1  # not a State: never equal


def test_a_state_has_no_hash_because_it_changes() -> None:
    state = State(TableOptions(), dealer=0)
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)
    assert {state.text(): 1}[State.from_text(state.text()).text()] == 1


GOOD = State.at_position(TableOptions(), dealer=0, turn=1, hands=[[0], [4]], pile=[8]).text()


def spoil(field: str, token: str) -> str:
    parts = GOOD.split(" ")
    parts[FIELDS.index(field)] = token
    return " ".join(parts)


@pytest.mark.parametrize(
    ("text", "field", "token"),
    [
        (GOOD + " 0", "text", "17 fields"),
        (GOOD.replace(" ", "  ", 1), "text", "17 fields"),
        (spoil("options", "2:match:no:discard:none"), "options", "2:match:no:discard:none"),
        (spoil("options", "2:match:maybe:discard:none:200"), "options", "maybe"),
        (spoil("options", "2:grab:no:discard:none:200"), "options", "2:grab:no:discard:none:200"),
        (
            spoil("options", "12:match:no:discard:none:200"),
            "options",
            "12:match:no:discard:none:200",
        ),
        (spoil("options", "2:match:no:discard:none:lots"), "options", "lots"),
        (spoil("names", "Ann"), "names", "Ann"),
        (spoil("phase", "dealing"), "phase", "dealing"),
        (spoil("dealer", "2"), "dealer", "2"),
        (spoil("turn", "01"), "turn", "01"),
        (spoil("hands", "2S/3S/4S"), "hands", "2S/3S/4S"),
        (spoil("hands", "2S/3X"), "hands[1]", "3X"),
        (spoil("pile", "4S1H"), "pile", "1H"),
        (spoil("stock", "2S2S"), "cards", "2S"),
        (spoil("foxtrots", "2S/-"), "foxtrots[0]", "2S"),
        (spoil("upturned", "2S3S"), "upturned", "2S3S"),
        (spoil("last_taker", "x"), "last_taker", "x"),
        (spoil("history", "2Sy"), "history", "y"),
        (spoil("totals", "0"), "totals", "0"),
        (spoil("totals", "0,zero"), "totals", "zero"),
        (spoil("scores", "0:0:0:0:0:0"), "scores", "0:0:0:0:0:0"),
        (spoil("scores", "0:0:0:0:0,0:0:0:0:0:0"), "scores", "0:0:0:0:0"),
        (spoil("winner", "0"), "winner", "0"),
    ],
)
def test_bad_text_is_refused_naming_the_field_the_token_and_the_text(
    text: str, field: str, token: str
) -> None:
    with pytest.raises(PositionTextError) as refused:
        State.from_text(text)
    error = refused.value
    assert (error.field, error.token) == (field, token)
    assert isinstance(error, ValueError)
    assert text in str(error) and field in str(error)


def test_text_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(PositionTextError, match="is not text"):
        State.from_text(b"2:match" * 3)


def test_the_good_text_of_the_refusal_table_reads() -> None:
    """Each case above spoils one field of this text: it must be good as it is."""
    assert State.from_text(GOOD).text() == GOOD
    assert State.from_text(spoil("scores", "0:0:0:0:0:0,0:0:0:0:0:0")).deal_number == 1


def test_every_public_name_of_state_is_shown_in_a_doctest() -> None:
    """The worked examples (``State``'s, its mixins', its methods') use every public verb and
    field of ``State`` at least once: a verb added later comes with its example."""
    finder = doctest.DocTestFinder()
    examples = "".join(
        example.source
        for module in (state_module, position, refusals)
        for test in finder.find(module)
        for example in test.examples
    )
    public = [name for name in dir(State) if not name.startswith("_")]
    assert len(public) > 40
    missing = [name for name in public if not re.search(rf"\.{name}\b", examples)]
    assert not missing, f"public names of State without a doctest: {missing}"
