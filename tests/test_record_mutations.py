"""Bad records never give a traceback: every malformed field gets a one-line refusal (G2, G3).

Valid records come from random matches (random options, a lot or a chosen
first dealer, finished or not, with the terminal game's ``seats`` key).  A
mutation changes one place of one record: a value of another JSON type, a
wrong value of the same type, a deleted key or element, a card token in lower
case or padded, or text-level damage (deep nesting, a huge number, ``NaN`` in
an added key).  ``foxtrot check`` on the mutated file and a good one must
print one line for each file: ``INVALID <file>: <message>`` for the bad one
(exit status 1) or ``ok`` if the mutation happened to leave a valid record,
and ``ok`` for the good file after it.  Mutations that can never leave a valid
record (a type change, a deleted required key, a card not in canonical text,
a list of fixed length cut short) must be refused.  ``from_record`` raises
nothing but ``RecordError``.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.cli.main import main
from foxtrot.core import RecordError, State, from_record, loads, to_record
from helpers import random_options

Path_ = tuple[Any, ...]

#: Keys a valid record cannot do without (by where they are).
REQUIRED_TOP = {"format", "options", "names", "deals", "totals", "winner"}
REQUIRED_DEAL = {"dealer", "deck", "actions"}
#: Lists whose length is fixed by the table (one per seat, or the pack).
FIXED_LISTS = {"names", "totals", "deck", "scores", "seats"}
#: Odd values of every JSON type, and a few of each that look almost right.
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    10**50,
    0.9,
    2.0,
    -0.0,
    1e300,
    "",
    "1",
    "qs",
    " QS ",
    "QS",
    "take",
    "human",
    "bot",
    [],
    [1],
    [[]],
    ["QS"],
    {},
    {"seat": 0},
    {"kind": "bot", "level": "oracle"},
]


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    return type(value).__name__


@functools.cache
def valid_record(seed: int) -> str:
    """The record (JSON text) of a random match, with ``seats``; some finished, some not."""
    rng = random.Random(seed)
    options = random_options(rng, players=rng.choice((2, 2, 3, 4, 7)))
    options = options.replace(target=rng.choice((1, 40, 150, 250.5)))
    if rng.random() < 0.5:
        state = State(options, rng=rng, names=[f"P{i}" for i in range(options.players)])
    else:
        state = State(options, dealer=rng.randrange(options.players))
    for _ in range(rng.choice((0, 5, 60, 400))):
        if state.is_over:
            break
        if state.to_move is None:
            state.deal(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    record = to_record(state)
    record["seats"] = [{"kind": "human"}] + [
        {"kind": "bot", "level": rng.choice(("easy", "medium", "hard", "greedy"))}
        for _ in range(options.players - 1)
    ]
    return json.dumps(record)


def paths(value: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every place in a JSON value (keys of objects, indexes of arrays)."""
    found: list[Path_] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        found.append((*prefix, key))
        if isinstance(item, dict | list):
            found.extend(paths(item, (*prefix, key)))
    return found


def _parent(record: Any, path: Path_) -> Any:
    for key in path[:-1]:
        record = record[key]
    return record


def _is_card_place(path: Path_) -> bool:
    return (len(path) >= 3 and path[-2] == "deck") or path[-1] in ("play", "card")


def must_fail_on_delete(record: dict[str, Any], path: Path_) -> bool:
    """Deleting this key or element can never leave a valid record."""
    key = path[-1]
    container = _parent(record, path)
    if len(path) == 1:
        return key in REQUIRED_TOP
    if path[0] == "options":
        return True
    if isinstance(container, list):
        return path[-2] in FIXED_LISTS or (path[0] == "lot" and len(path) == 3)
    if path[0] == "deals" and len(path) == 3:
        return key in REQUIRED_DEAL or key == "scores"
    return True  # every key of an action, a score entry, a lot draw or a seat is needed


def must_fail_on_replace(path: Path_, old: Any, new: Any) -> bool:
    """Replacing ``old`` by ``new`` here can never leave a valid record."""
    if path == ("options", "target"):
        # any positive number is a target: only a change of kind other than int/float must fail
        numbers = {"int", "float"}
        return not ({_json_type(old), _json_type(new)} <= numbers)
    if _json_type(old) != _json_type(new):
        return True
    if isinstance(old, str) and isinstance(new, str) and _is_card_place(path):
        return new != old and new.strip().upper() == old  # "qs" for "QS": never canonical
    return False


@st.composite
def mutation(draw: st.DrawFn) -> tuple[str, str, bool, bool]:
    """A record's text, the mutated text, whether the mutation must be refused, and whether
    it is in ``seats`` (the terminal game's key, which ``foxtrot check`` checks, not the engine).
    """
    seed = draw(st.integers(0, 24), label="seed")
    text = valid_record(seed)
    record = json.loads(text)
    kind = draw(
        st.sampled_from(["replace", "replace", "replace", "delete", "same type", "text", "card"])
    )
    if kind == "text":
        damage = draw(
            st.sampled_from(
                [
                    ("extra", "[" * 990 + "]" * 990),
                    ("extra", "1" * 5000),
                    ("extra", "NaN"),
                    ("extra", "-Infinity"),
                    ("extra", '{"a": ' * 100 + "0" + "}" * 100),
                    ("first_dealer", "1" * 5000),
                    ("totals", "[" + "9" * 200 + "]"),
                ]
            )
        )
        key, value = damage
        record.pop(key, None)
        body = json.dumps(record)
        return text, body[:-1] + f', "{key}": {value}' + "}", True, False
    places = paths(record)
    if kind == "card":
        places = [
            p for p in places if _is_card_place(p) and isinstance(_parent(record, p)[p[-1]], str)
        ]
        if not places:
            return text, text, False, False
    path = draw(st.sampled_from(places), label="path")
    container = _parent(record, path)
    old = container[path[-1]]
    if kind == "delete":
        must = must_fail_on_delete(record, path)
        del container[path[-1]]
        return text, json.dumps(record), must, path[0] == "seats"
    if kind == "card":
        assert isinstance(old, str)
        new: Any = draw(st.sampled_from([old.lower(), f" {old}", f"{old} ", f" {old} "]))
        if new == old:  # "10" has no letters to lower: pad it
            new = f" {old}"
    elif kind == "same type":
        if isinstance(old, bool):
            new = not old
        elif isinstance(old, int):
            new = old + draw(st.sampled_from([1, -1, 2, -old - 1, 10**6]))
        elif isinstance(old, float):
            new = old + 1.0
        elif isinstance(old, str):
            new = draw(st.sampled_from(["", "x", old + "x", "AS", "2C", "10H", "any", "bot"]))
        elif isinstance(old, list):
            new = [*old, copy.deepcopy(old[-1])] if old else [0]
        elif isinstance(old, dict):
            new = {}
        else:
            new = None
    else:
        new = draw(st.sampled_from(ODD_VALUES))
    container[path[-1]] = new
    return text, json.dumps(record), must_fail_on_replace(path, old, new), path[0] == "seats"


def run_check(*paths: Path) -> tuple[int, list[str]]:
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["check", *map(str, paths)])
    assert err.getvalue() == "", err.getvalue()
    return status, out.getvalue().splitlines()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutation())
def test_G3_mutated_records_are_refused_in_one_line_never_with_a_traceback(
    case: tuple[str, str, bool, bool],
) -> None:
    good, bad, must_fail, in_seats = case
    # the engine itself raises nothing but RecordError, with a one-line message
    refused = None
    try:
        loads(bad)
    except RecordError as error:
        refused = str(error)
        assert "\n" not in refused and refused.strip(), refused
    assert refused is not None or not must_fail or in_seats, "the engine accepted a bad record"
    with tempfile.TemporaryDirectory() as folder:
        bad_path = Path(folder) / "bad.json"
        good_path = Path(folder) / "good.json"
        bad_path.write_text(bad, encoding="utf-8")
        good_path.write_text(good, encoding="utf-8")
        status, lines = run_check(bad_path, good_path)
    assert len(lines) == 3, lines
    first, second, summary = lines
    assert second.startswith(f"ok {good_path}: "), lines
    if first.startswith("INVALID "):
        assert first.startswith(f"INVALID {bad_path}: "), first
        assert "could not be checked" not in first and "Traceback" not in first, first
        assert len(first) > len(f"INVALID {bad_path}: ") + 5, first
        assert status == 1 and summary == "1 valid, 1 invalid", lines
    else:
        assert not must_fail, f"a mutation that must fail was accepted: {lines}"
        assert first.startswith(f"ok {bad_path}: "), first
        assert refused is None, refused  # check and the engine agree
        assert status == 0 and summary == "2 valid, 0 invalid", lines


def test_the_base_records_are_valid_and_varied() -> None:
    """The records the mutations start from load, and cover what the mutations aim at."""
    kinds = set()
    for seed in range(25):
        record = json.loads(valid_record(seed))
        state = from_record(record)
        kinds.add("lot" if "lot" in record else "chosen dealer")
        kinds.add("won" if state.winner is not None else "unfinished")
        kinds.add(f"{len(record['deals'])} deals" if len(record["deals"]) < 2 else "deals")
        kinds.add("float target" if isinstance(record["options"]["target"], float) else "int")
    assert {"lot", "chosen dealer", "won", "unfinished", "0 deals", "deals"} <= kinds
    assert {"float target", "int"} <= kinds


def test_first_dealer_and_lot_consistent_load_inconsistent_name_the_key() -> None:
    for seed in range(25):
        record = json.loads(valid_record(seed))
        n = record["options"]["players"]
        state = from_record(record)
        assert record["first_dealer"] == (
            record["deals"][0]["dealer"] if record["deals"] else state.dealer
        )
        wrong = copy.deepcopy(record)
        wrong["first_dealer"] = (record["first_dealer"] + 1) % n
        if not record["deals"] and "lot" not in record:  # nothing else says who deals first
            assert from_record(wrong).dealer == wrong["first_dealer"]
            continue
        try:
            from_record(wrong)
        except RecordError as error:
            assert "first_dealer" in str(error), error
            assert "expected" not in str(error), error  # not the old "dealer is 2, expected 0"
        else:
            raise AssertionError("an inconsistent first_dealer was accepted")
        if "lot" in record:
            wrong = copy.deepcopy(record)
            if record["deals"]:  # deal 0's dealer against the lot, else first_dealer
                del wrong["first_dealer"]
            assert state.lot is not None
            loser = (state.lot.dealer + 1) % n
            wrong["lot"] = [[{"seat": s, "card": "AS" if s == loser else "2C"} for s in range(n)]]
            try:
                from_record(wrong)
            except RecordError as error:
                assert "lot" in str(error), error
            else:
                raise AssertionError("an inconsistent lot was accepted")
