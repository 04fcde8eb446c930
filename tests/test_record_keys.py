"""Rule G2, read strictly in one place (``core.record``): keys, names, seats, what and where.

Every reader of a record (``foxtrot check``, ``replay``, ``verify``, the server's check and
``foxtrot play --resume``) goes through ``core.record``; these tests hold that check to
the issue's list: unknown and duplicate keys refused with their JSON path, the
``extensions`` object for other tools, names of 1-40 characters with a letter, digit or
symbol and no control or bidirectional characters, "not a whole number" said as such,
and ``replay --deal`` outside the match an error.
"""

from __future__ import annotations

import copy
import json
import random
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from foxtrot.cli.main import main
from foxtrot.core import (
    SEAT_LEVELS,
    OptionsError,
    RecordError,
    State,
    TableOptions,
    from_record,
    parse_record,
    record_seats,
    to_record,
)
from foxtrot.core.options import BIDI_CONTROLS, MAX_NAME_LENGTH, check_names, name_problem
from foxtrot.web import fair
from foxtrot.web.protocol import PlayerName

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(deadline=None)  # names are quick; a loaded machine is not a failure


def _played(seed: int, players: int = 3, moves: int = 400) -> State:
    rng = random.Random(seed)
    state = State(TableOptions(players=players), rng=rng, names=[f"P{i}" for i in range(players)])
    for _ in range(moves):
        if state.winner is not None:
            break
        if state.to_move is None:
            state.deal(rng)
            continue
        state.apply(rng.choice(state.legal_actions()))
    return state


def _full_record(seed: int, players: int = 3, moves: int = 300) -> dict[str, Any]:
    """A record with every key the project writes: the terminal's and the server's too."""
    record = to_record(_played(seed, players, moves))
    bots = [{"kind": "bot", "level": "hard"} for _ in range(players - 1)]
    record["seats"] = [{"kind": "human"}, *bots]
    record["settings"] = {"lang": "ru"}
    record["table"] = "t-0123"
    for deal in record["deals"]:
        deal["fair"] = {
            "algorithm": "fx/v1",
            "commitment": "ab" * 32,
            "player_seeds": [""] * players,
            "server_seed": None if "scores" not in deal else "cd" * 32,
        }
    record["extensions"] = {"org.example": {"clock": [1.5, 2.0]}}
    return record


# ------------------------------------------------------------ valid records stay valid


@SLOW
@given(seed=st.integers(0, 2**32), players=st.integers(2, 9), moves=st.integers(0, 500))
def test_every_record_the_engine_writes_passes_the_check(
    seed: int, players: int, moves: int
) -> None:
    state = _played(seed, players, moves)
    text = json.dumps(to_record(state))
    assert from_record(parse_record(text)).totals == state.totals
    full = json.dumps(_full_record(seed, players, moves))
    assert from_record(parse_record(full)).totals == state.totals


def test_the_checked_in_record_of_an_earlier_version_is_still_valid() -> None:
    text = (Path(__file__).parent / "data" / "record-before-take-match-default.json").read_text()
    from_record(parse_record(text))


# ------------------------------------------------------------ unknown keys


def _objects(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every object of a record that has a fixed set of keys, with its JSON path."""
    found: list[tuple[str, dict[str, Any]]] = [("the record", record)]
    found += [("options", record["options"]), ("settings", record["settings"])]
    found += [(f"seats[{i}]", seat) for i, seat in enumerate(record["seats"])]
    for i, deal in enumerate(record["deals"]):
        found.append((f"deals[{i}]", deal))
        found.append((f"deals[{i}].fair", deal["fair"]))
        found += [(f"deals[{i}].actions[{j}]", a) for j, a in enumerate(deal["actions"])]
        found += [(f"deals[{i}].scores[{j}]", s) for j, s in enumerate(deal.get("scores", []))]
    for i, rnd in enumerate(record.get("lot", [])):
        found += [(f"lot[{i}][{j}]", draw) for j, draw in enumerate(rnd)]
    return found


KNOWN = {
    "format", "options", "names", "deals", "totals", "winner", "first_dealer", "lot", "seats",
    "settings", "table", "extensions", "players", "decks", "take", "forced_foxtrot",
    "leftover_pile", "most_cards_tie", "target", "dealer", "deck", "actions", "scores", "fair",
    "seat", "play", "foxtrots", "double_foxtrots", "cards", "card_points", "most_cards",
    "total", "card", "algorithm", "commitment", "player_seeds", "server_seed", "kind", "level",
    "lang",
}  # fmt: skip


@SLOW
@given(
    seed=st.integers(0, 2**16),
    pick=st.integers(0, 10**6),
    key=st.text(min_size=1, max_size=12).filter(lambda k: k not in KNOWN),
)
def test_any_single_unknown_key_is_refused_and_named_with_its_path(
    seed: int, pick: int, key: str
) -> None:
    record = _full_record(seed, moves=60)
    assert record["lot"]  # the first dealer was drawn by lot: its draws are objects too
    objects = _objects(record)
    where, target = objects[pick % len(objects)]
    target[key] = 1
    with pytest.raises(RecordError) as info:
        from_record(parse_record(json.dumps(record)))
    message = str(info.value)
    assert message.startswith(f"{where}: unknown key "), message
    assert json.dumps(key, ensure_ascii=True)[1:-1][:30] in message, message


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda r: r["options"].update(forced_foxrot=True), "options: unknown key 'forced_foxrot'"),
        (lambda r: r.update(date="2026-01-01"), "the record: unknown key 'date'"),
        (lambda r: r["deals"][0]["actions"][0].update(time=3), "deals[0].actions[0]: unknown key"),
    ],
)
def test_a_misspelled_or_foreign_key_is_an_error_not_ignored(edit: Any, said: str) -> None:
    record = to_record(_played(4, moves=20))
    edit(record)
    with pytest.raises(RecordError, match=r"\(rule G2\)") as info:
        from_record(record)
    assert str(info.value).startswith(said), info.value
    if said.startswith("the record"):
        assert "other tools' data goes in 'extensions'" in str(info.value)


def test_other_tools_data_goes_in_extensions_which_must_be_an_object() -> None:
    record = to_record(_played(5, moves=20))
    record["extensions"] = {"anything": {"deep": [1, {"x": None}]}, "date": "2026-01-01"}
    from_record(record)
    record["extensions"] = [1]
    with pytest.raises(RecordError, match=r"^extensions: expected an object .*got an array"):
        from_record(record)


# ------------------------------------------------------------ duplicate keys


def _dump_twice(value: Any, path: tuple[Any, ...], at: tuple[Any, ...]) -> str:
    """JSON text of ``value`` in which the object at ``at`` gives its first key twice."""
    if isinstance(value, dict):
        parts = [f"{json.dumps(k)}: {_dump_twice(v, (*path, k), at)}" for k, v in value.items()]
        if path == at:
            first = next(iter(value))
            parts.append(f"{json.dumps(first)}: {json.dumps(value[first])}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dump_twice(v, (*path, i), at) for i, v in enumerate(value)) + "]"
    return json.dumps(value)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every non-empty object in ``value``."""
    found = [path] if isinstance(value, dict) and value else []
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for step, item in items:
        found += _paths(item, (*path, step))
    return found


def _json_path(path: tuple[Any, ...]) -> str:
    text = "".join(
        f"[{s}]" if isinstance(s, int) else f".{s}" if s.isidentifier() else f"[{json.dumps(s)}]"
        for s in path
    ).removeprefix(".")
    return text or "the record"


@SLOW
@given(seed=st.integers(0, 2**16), pick=st.integers(0, 10**6))
def test_a_key_given_twice_anywhere_is_refused_with_its_path(seed: int, pick: int) -> None:
    record = _full_record(seed, moves=40)
    objects = _paths(record)
    at = objects[pick % len(objects)]
    text = _dump_twice(record, (), at)
    json.loads(text)  # Python's parser takes it (the last one wins): the check must not
    first = next(iter(_at(record, at)))
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert str(info.value) == (
        f"{_json_path(at)}: the key {json.dumps(first)} is given twice (rule G2)"
    ), text[:200]


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def test_a_duplicate_options_key_is_refused_even_with_the_same_value() -> None:
    text = json.dumps(to_record(_played(1, moves=5)))
    text = text.replace('"take": "match"', '"take": "match", "take": "match"', 1)
    with pytest.raises(RecordError, match=r'^options: the key "take" is given twice'):
        parse_record(text)


# ------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("\u200b", "has no letter, digit or symbol"),
        ("\u200b\u200b", "has no letter, digit or symbol"),
        ("   ", "has no letter, digit or symbol"),
        ("...", "has no letter, digit or symbol"),
        ("Ann\u202eboB", "U+202E, a bidirectional control"),
        ("\u2067Ann", "U+2067, a bidirectional control"),
        ("Ann\u200f", "U+200F, a bidirectional control"),
        ("Ann\x1b[31m", "U+001B, a control character"),
        ("Ann\u2028", "U+2028, a control character"),
        ("", "is empty"),
        ("x" * 41, "has 41 characters; a name has at most 40"),
    ],
)
def test_unfit_names_are_refused_saying_why(name: str, said: str) -> None:
    problem = name_problem(name)
    assert problem is not None and said in problem, problem
    record = to_record(_played(2, players=2, moves=5))
    record["names"][1] = name
    with pytest.raises(RecordError, match=r"^names\[1\]: ") as info:
        from_record(record)
    assert said in str(info.value)
    # the message never carries the raw control (it would turn the rest of the line around)
    assert not any(ch in str(info.value) for ch in name if not ch.isprintable())


@pytest.mark.parametrize(
    "name",
    ["A", "x" * 40, "Аня", "Олексій", "李", "٣", "€", "😀", "👨\u200d👩\u200d👧", " Ann ", "C-3PO"],
)
def test_fair_names_pass(name: str) -> None:
    assert name_problem(name) is None
    assert check_names([name, "Bob"], 2)[0] == name


@QUICK
@given(name=st.text(min_size=1, max_size=MAX_NAME_LENGTH))
def test_a_name_with_a_bidi_control_or_over_40_characters_always_fails(name: str) -> None:
    for control in BIDI_CONTROLS:
        assert name_problem(name[:20] + control + name[20:]) is not None
    assert name_problem(name + "x" * (MAX_NAME_LENGTH + 1 - len(name))) is not None


@QUICK
@given(name=st.text(st.characters(categories=["Zs", "Cf", "Mn", "P"]), min_size=1, max_size=20))
def test_a_name_of_only_spaces_marks_and_punctuation_fails(name: str) -> None:
    assert name_problem(name) is not None


@QUICK
@given(
    letter=st.characters(categories=["L", "N", "S"]),
    rest=st.text(st.characters(categories=["L", "N", "S", "Zs", "P", "M"]), max_size=30),
)
def test_a_name_with_a_letter_digit_or_symbol_and_nothing_refused_passes(
    letter: str, rest: str
) -> None:
    assert unicodedata.category(letter)[0] in "LNS"
    assert name_problem(rest + letter) is None


@QUICK
@given(name=st.text(max_size=45))
def test_the_server_takes_exactly_the_names_a_record_takes(name: str) -> None:
    try:
        TypeAdapter(PlayerName).validate_python(name)
        taken = True
    except ValidationError:
        taken = False
    assert taken == (name_problem(name) is None)


def test_state_refuses_an_unfit_name_with_the_same_words() -> None:
    with pytest.raises(OptionsError, match=r"^names\[0\]: '\\u200b' has no letter"):
        State(TableOptions(), dealer=0, names=["\u200b", "Bob"])


# ------------------------------------------------------------ numbers, seats


def test_decks_two_point_oh_is_not_a_whole_number() -> None:
    record = to_record(_played(3, players=2, moves=5))
    record["options"]["decks"] = 2.0
    with pytest.raises(RecordError, match=r"^options: decks is 2\.0, not a whole number"):
        from_record(record)


@pytest.mark.parametrize(
    ("seats", "said"),
    [
        ([{"kind": "human"}, {"kind": "bot", "level": "oracle"}], "seats[1].level is 'oracle'"),
        ([{"kind": "human"}, {"kind": "bot"}], "seats[1].level is nothing (the key is missing)"),
        ([{"kind": "human"}, {"kind": "robot"}], "seats[1].kind is 'robot', expected"),
        ([{"kind": "human", "level": "hard"}, {"kind": "human"}], "seats[0].level: a person's"),
        ([{"kind": "human"}], "seats: expected one entry for each of 2 seats, got 1 entries"),
        ([{"kind": "human"}, "bot"], "seats[1]: expected an object like"),
        ([{"kind": "human"}, {"kind": "bot", "levle": "hard"}], "seats[1]: unknown key 'levle'"),
    ],
)
def test_the_seats_key_is_checked_by_every_load(seats: Any, said: str) -> None:
    record = to_record(_played(6, players=2, moves=5))
    record["seats"] = seats
    with pytest.raises(RecordError) as info:
        from_record(record)
    assert str(info.value).startswith(said), info.value


def test_record_seats_reads_every_level_the_bots_can_play() -> None:
    from foxtrot.tui.session import Seat  # noqa: PLC0415

    players = len(SEAT_LEVELS) + 1
    record = to_record(_played(6, players=players, moves=5))
    record["seats"] = [{"kind": "human"}] + [{"kind": "bot", "level": lv} for lv in SEAT_LEVELS]
    from_record(record)
    expected = [("human", ""), *(("bot", level) for level in SEAT_LEVELS)]
    assert record_seats(record, players) == expected
    for level in SEAT_LEVELS:
        Seat.bot(level).make()  # the bots' levels, and learned: the shipped policy
    assert "oracle" not in SEAT_LEVELS  # the oracle sees every card


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda r: r.update(table=7), "table: expected the table's id as text, got a number"),
        (lambda r: r.update(settings={"lang": 1}), "settings.lang: expected a language code"),
        (lambda r: r.update(settings=[]), "settings: expected an object, got an array"),
        (
            lambda r: r["deals"][0].update(fair={"algorithm": "fx/v1"}),
            "deals[0].fair.commitment: expected text, got nothing",
        ),
    ],
)
def test_the_added_keys_have_their_shapes(edit: Any, said: str) -> None:
    record = to_record(_played(8, players=2, moves=5))
    edit(record)
    with pytest.raises(RecordError) as info:
        from_record(copy.deepcopy(record))
    assert str(info.value).startswith(said), info.value


# ------------------------------------------------------------ every reader agrees


def _server_record(moves: int) -> dict[str, Any]:
    """A record with true fair-deal proofs (fx/v1), as the server writes them."""
    seed, table, seeds = bytes(range(32)), "t-keys", ["", "ab"]
    rng = random.Random(9)
    state = State(TableOptions(), dealer=0, names=["Ann", "Bob"])
    for _ in range(moves):
        if state.to_move is None:
            state.deal(deck=fair.shuffle(seed, table, len(state.deal_logs()), seeds, 2))
        state.apply(rng.choice(state.legal_actions()))
    record = to_record(state)
    record["table"] = table
    for deal in record["deals"]:
        deal["fair"] = fair.fair_entry(fair.commitment(seed), seeds, seed)
    return record


def test_check_replay_verify_and_the_server_refuse_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from foxtrot.web.http.record_check import check_record  # noqa: PLC0415 (the web extra)

    record = _server_record(moves=30)
    record["options"]["forced_foxrot"] = True
    path = tmp_path / "bad.json"
    del record["options"]["forced_foxrot"]
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["verify", str(path)]) == 0  # the proofs hold: only the key will be wrong
    capsys.readouterr()
    record["options"]["forced_foxrot"] = True
    path.write_text(json.dumps(record), encoding="utf-8")
    said = "options: unknown key 'forced_foxrot'"
    assert main(["check", str(path)]) == 1
    assert said in capsys.readouterr().out
    assert main(["replay", "--print", str(path)]) == 1
    assert said in capsys.readouterr().err
    assert main(["verify", str(path)]) == 1
    assert said in capsys.readouterr().out
    answer = check_record(path.read_bytes())
    assert answer["ok"] is False and said in answer["error"], answer


# ------------------------------------------------------------ replay --deal


@pytest.mark.parametrize("deal", ["0", "99", "-1"])
def test_replay_of_a_deal_outside_the_match_exits_2_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], deal: str
) -> None:
    state = _played(10, players=2, moves=150)
    deals = len(state.deal_logs())
    assert 1 < deals < 99
    path = tmp_path / "match.json"
    path.write_text(json.dumps(to_record(state)), encoding="utf-8")
    assert main(["replay", "--print", "--deal", deal, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"--deal {deal}: the match has {deals} deals (1 to {deals})" in captured.err
    assert main(["replay", "--print", "--deal", str(deals), str(path)]) == 0
    assert capsys.readouterr().out
