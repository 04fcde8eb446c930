"""Wrong-type calls into the engine raise its ``ValueError`` subclasses, with a clear message.

The engine's errors are a small hierarchy (core/errors.py).  A caller that
passes the wrong kind of value (a float seat, ``None`` for an action, an int
for a deck) gets one of them, never a ``TypeError`` or ``AttributeError`` from
deep inside, and the message names the argument.  Rule G1 also holds for
names: a ``State`` refuses any names that its record could not load again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    TAKE,
    Action,
    Card,
    DeckError,
    FoxtrotError,
    IllegalActionError,
    NotationError,
    OptionsError,
    RecordError,
    State,
    TableOptions,
    TakeRule,
    dumps,
    from_record,
    loads,
    parse_cards,
    state_at,
    to_record,
)
from foxtrot.storage import load, save


def _dealt() -> State:
    state = State(TableOptions(), dealer=0, names=["Ann", "Bob"])
    state.deal(random.Random(1))
    return state


def _legal() -> Action:
    return _dealt().legal_actions()[0]


# Each case: the call, the error class it must raise, and text the message must hold.
CALLS: dict[str, tuple[Callable[[], object], type[FoxtrotError], str]] = {
    "apply(a, seat=0.0)": (lambda: _dealt().apply(_legal(), seat=0.0), OptionsError, "seat: 0.0"),
    "apply(a, seat='1')": (lambda: _dealt().apply(_legal(), seat="1"), OptionsError, "seat: '1'"),
    "apply(a, seat=True)": (
        lambda: _dealt().apply(_legal(), seat=True),
        OptionsError,
        "seat: True",
    ),
    "apply(None)": (lambda: _dealt().apply(None), IllegalActionError, "not an action"),  # type: ignore[arg-type]
    "apply(5)": (lambda: _dealt().apply(5), IllegalActionError, "not an action"),  # type: ignore[arg-type]
    "apply('xx')": (lambda: _dealt().apply("xx"), NotationError, "bad action 'xx'"),
    "apply(None, seat=0.5)": (lambda: _dealt().apply(None, 0.5), OptionsError, "seat: 0.5"),  # type: ignore[arg-type]
    "why_illegal(None)": (lambda: _dealt().why_illegal(None), IllegalActionError, "not an action"),  # type: ignore[arg-type]
    "why_illegal(a, seat=True)": (
        lambda: _dealt().why_illegal(_legal(), seat=True),
        OptionsError,
        "seat: True",
    ),
    "why_illegal(a, seat=1.0)": (
        lambda: _dealt().why_illegal(_legal(), seat=1.0),
        OptionsError,
        "seat: 1.0",
    ),
    "is_legal(None)": (lambda: _dealt().is_legal(None), IllegalActionError, "not an action"),  # type: ignore[arg-type]
    "deal(deck=123)": (
        lambda: State(dealer=0).deal(deck=123),  # type: ignore[arg-type]
        DeckError,
        "deck: expected a list of cards, got int",
    ),
    "deal(deck='QS ...')": (
        lambda: State(dealer=0).deal(deck="QS " * 104),  # type: ignore[arg-type]
        DeckError,
        "got str",
    ),
    "deal(deck=['QS']*104)": (
        lambda: State(dealer=0).deal(deck=["QS"] * 104),  # type: ignore[list-item]
        DeckError,
        "deck[0]: 'QS' is not a Card",
    ),
    "deal(deck=[QS]*104)": (
        lambda: State(dealer=0).deal(deck=parse_cards(["QS"] * 104)),
        DeckError,
        "deck holds 2S 0 times",
    ),
    "deal(rng='x')": (
        lambda: State(dealer=0).deal(rng="x"),  # type: ignore[arg-type]
        DeckError,
        "rng: expected a random.Random, got str",
    ),
    "deal()": (lambda: State(dealer=0).deal(), DeckError, "pass rng to shuffle"),
    "Card.parse(None)": (lambda: Card.parse(None), NotationError, "bad card None"),  # type: ignore[arg-type]
    "Card.parse(5)": (lambda: Card.parse(5), NotationError, "bad card 5"),  # type: ignore[arg-type]
    "Card.parse_strict(b'QS')": (lambda: Card.parse_strict(b"QS"), NotationError, "bad card b'QS'"),
    "Card.parse_strict('qs')": (lambda: Card.parse_strict("qs"), NotationError, "write it as 'QS'"),
    "Action.parse(None)": (lambda: Action.parse(None), NotationError, "bad action None"),  # type: ignore[arg-type]
    "Action.parse(52)": (lambda: Action.parse(52), NotationError, "bad action 52"),  # type: ignore[arg-type]
    "Action.play('QS')": (lambda: Action.play("QS"), NotationError, "expected a Card"),  # type: ignore[arg-type]
    "parse_cards([None])": (lambda: parse_cards([None]), NotationError, "bad card None"),  # type: ignore[list-item]
    "State('x')": (lambda: State("x"), OptionsError, "options: expected TableOptions, got str"),  # type: ignore[arg-type]
    "State({...})": (
        lambda: State({"players": 2}),  # type: ignore[arg-type]
        OptionsError,
        "expected TableOptions, got dict",
    ),
    "State(options, dealer=True)": (
        lambda: State(TableOptions(), dealer=True),
        OptionsError,
        "dealer: True",
    ),
    "State(options, dealer=1.0)": (
        lambda: State(TableOptions(), dealer=1.0),
        OptionsError,
        "dealer: 1.0",
    ),
    "State(options, rng='x')": (
        lambda: State(TableOptions(), rng="x"),  # type: ignore[arg-type]
        OptionsError,
        "rng: expected a random.Random",
    ),
    "State(names=[1, 2])": (
        lambda: State(TableOptions(), dealer=0, names=[1, 2]),  # type: ignore[list-item]
        OptionsError,
        "names[0]: expected text, got int",
    ),
    "State(names=[1, 2, 3])": (
        lambda: State(TableOptions(players=3), dealer=0, names=[1, 2, 3]),  # type: ignore[list-item]
        OptionsError,
        "names[0]: expected text",
    ),
    "State(names=['Ann'])": (
        lambda: State(TableOptions(), dealer=0, names=["Ann"]),
        OptionsError,
        "names: 1 names for 2 players",
    ),
    "State(names='AB')": (
        lambda: State(TableOptions(), dealer=0, names="AB"),
        OptionsError,
        "names: expected a list of 2 names, got str",
    ),
    "State(names=['', 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=["", "Bob"]),
        OptionsError,
        "names[0]: '' is empty",
    ),
    "State(names=['  ', 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=["  ", "Bob"]),
        OptionsError,
        "names[0]: '  ' has no letter, digit or symbol",
    ),
    "State(names=['Ann\\n', 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=["Ann\nBob", "Bob"]),
        OptionsError,
        "holds U+000A, a control character",
    ),
    "State(names=['\\x1b[2J', 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=["\x1b[2J", "Bob"]),
        OptionsError,
        "holds U+001B, a control character",
    ),
    "State(names=['\\udc80', 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=["a\udc80", "Bob"]),
        OptionsError,
        "holds U+DC80, a lone surrogate",
    ),
    "State(names=[None, 'Bob'])": (
        lambda: State(TableOptions(), dealer=0, names=[None, "Bob"]),  # type: ignore[list-item]
        OptionsError,
        "names[0]: expected text, got null",
    ),
    "TableOptions(players='3')": (
        lambda: TableOptions(players="3"),  # type: ignore[arg-type]
        OptionsError,
        "players: '3'",
    ),
    "TableOptions(players=3.0)": (
        lambda: TableOptions(players=3.0),  # type: ignore[arg-type]
        OptionsError,
        "players: 3.0",
    ),
    "TableOptions(target=True)": (lambda: TableOptions(target=True), OptionsError, "target: True"),
    "TableOptions(target=nan)": (
        lambda: TableOptions(target=float("nan")),
        OptionsError,
        "target: nan",
    ),
    "TableOptions(take=5)": (lambda: TableOptions(take=5), OptionsError, "take: 5"),  # type: ignore[arg-type]
    "TableOptions(forced_foxtrot=1)": (
        lambda: TableOptions(forced_foxtrot=1),  # type: ignore[arg-type]
        OptionsError,
        "forced_foxtrot: 1",
    ),
    "TableOptions().replace(playrs=3)": (
        lambda: TableOptions().replace(playrs=3),
        OptionsError,
        "options: unknown playrs",
    ),
    "TableOptions.preset(None)": (
        lambda: TableOptions.preset(None),  # type: ignore[arg-type]
        OptionsError,
        "preset: unknown None",
    ),
    "TableOptions.from_json(None)": (
        lambda: TableOptions.from_json(None),  # type: ignore[arg-type]
        OptionsError,
        "options: expected an object",
    ),
    "observation('0')": (lambda: _dealt().observation("0"), OptionsError, "seat: '0'"),
    "observation(True)": (lambda: _dealt().observation(True), OptionsError, "seat: True"),
    "from_record(None)": (
        lambda: from_record(None),  # type: ignore[arg-type]
        RecordError,
        "a record is a JSON object, not null",
    ),
    "from_record([])": (
        lambda: from_record([]),  # type: ignore[arg-type]
        RecordError,
        "a record is a JSON object, not an array",
    ),
    "loads(123)": (lambda: loads(123), RecordError, "a record is JSON text, not a number"),  # type: ignore[arg-type]
    "loads(None)": (lambda: loads(None), RecordError, "a record is JSON text, not null"),  # type: ignore[arg-type]
    "loads(b'...')": (lambda: loads(b"\x80abc"), RecordError, "not UTF-8 text"),
    "loads(b'[]')": (lambda: loads(b"[]"), RecordError, "not an array"),
    "to_record(None)": (
        lambda: to_record(None),  # type: ignore[arg-type]
        RecordError,
        "to_record: expected a State, got NoneType",
    ),
    "dumps('x')": (lambda: dumps("x"), RecordError, "expected a State, got str"),  # type: ignore[arg-type]
    "state_at(record, '0')": (
        lambda: state_at(to_record(_dealt()), "0"),  # type: ignore[arg-type]
        RecordError,
        "must be whole numbers",
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_wrong_type_calls_raise_the_engine_errors(name: str) -> None:
    call, kind, text = CALLS[name]
    with pytest.raises(FoxtrotError) as info:
        call()
    assert type(info.value) is kind, (name, type(info.value), info.value)
    message = str(info.value)
    assert text in message, message
    assert "\n" not in message


def test_a_refused_call_changes_nothing() -> None:
    state = _dealt()
    before = dumps(state)
    for seat in (0.0, "1", True, None):
        with pytest.raises(FoxtrotError):
            state.apply(None, seat)  # type: ignore[arg-type]
    assert dumps(state) == before
    # the checked path still works: text is read as an action, like a person types it
    action = state.legal_actions()[0]
    assert state.why_illegal(str(action).lower()) is None
    state.apply(str(action).lower(), state.to_move)
    assert dumps(state) != before


def test_take_still_parses_and_seat_ints_still_work() -> None:
    state = State(TableOptions(take=TakeRule.ANY), dealer=0)
    state.deal(random.Random(3))
    assert state.why_illegal(TAKE, 1) is None  # take = any: the upturned card can be taken
    assert state.why_illegal("TAKE", 1) is None
    assert state.why_illegal(TAKE, 0) is not None  # not seat 0's turn
    assert state.why_illegal(TAKE, 7) is not None  # no such seat: not its turn either


def test_names_that_state_accepts() -> None:
    for names in (["Ann", "Bob"], ["Ann", "Ann"], [" Ann ", "Боб"], ["A\u200db", "李"]):
        state = State(TableOptions(), dealer=0, names=names)
        assert list(state.names) == names
        assert loads(dumps(state)).names == tuple(names)


# ------------------------------------------------------------------ G1 round trip

# every character, surrogates and controls included: State must refuse what a record cannot hold
_TEXT = st.text(
    st.one_of(st.characters(exclude_categories=()), st.sampled_from("\udc80\n\x1b\u2028 ")),
    max_size=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.lists(_TEXT, min_size=2, max_size=3),
    target=st.one_of(st.integers(1, 10**40), st.floats(0.001, 1e6, allow_nan=False)),
    seed=st.integers(0, 2**32),
    actions=st.integers(0, 80),
    lot=st.booleans(),
)
def test_G1_every_record_a_state_writes_loads_again(  # noqa: PLR0917 (hypothesis arguments)
    names: list[str], target: float, seed: int, actions: int, lot: bool, tmp_path_factory: Any
) -> None:
    """Whatever names and target a State accepts, its record loads again, also from a file."""
    options = TableOptions(players=len(names), target=target)
    rng = random.Random(seed)
    try:
        state = State(options, names=names, **({"rng": rng} if lot else {"dealer": 0}))
    except OptionsError as error:
        assert str(error).startswith("names[")
        return
    for _ in range(actions):
        if state.to_move is None:
            if state.is_over:
                break
            state.deal(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    text = dumps(state)
    again = loads(text)
    assert dumps(again) == text
    assert again.names == state.names and again.lot == state.lot
    assert again.options == state.options and type(again.options.target) is type(target)
    path: Path = tmp_path_factory.mktemp("g1") / "match.json"
    save(state, path)
    assert dumps(load(path)) == text
