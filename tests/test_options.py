"""Table options (rules C3, T2, T6, E2, P3, M1, X7): values, validation, presets, JSON."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest

from foxtrot.core import (
    PRESETS,
    TAKE,
    LeftoverPile,
    MostCardsTie,
    OptionsError,
    TableOptions,
    TakeRule,
    dumps,
    loads,
)


def test_defaults_are_the_first_value_of_every_option() -> None:
    options = TableOptions()
    assert (
        options.players,
        options.take,
        options.forced_foxtrot,
        options.leftover_pile,
        options.most_cards_tie,
        options.target,
    ) == (2, TakeRule.MATCH, False, LeftoverPile.DISCARD, MostCardsTie.NONE, 200)
    assert options.decks == 2


@pytest.mark.parametrize(
    ("field", "value", "stored"),
    [
        ("take", "any", TakeRule.ANY),
        ("take", "match", TakeRule.MATCH),
        ("take", TakeRule.MATCH, TakeRule.MATCH),
        ("forced_foxtrot", True, True),
        ("forced_foxtrot", False, False),
        ("leftover_pile", "discard", LeftoverPile.DISCARD),
        ("leftover_pile", "last_taker", LeftoverPile.LAST_TAKER),
        ("most_cards_tie", "none", MostCardsTie.NONE),
        ("most_cards_tie", "all", MostCardsTie.ALL),
        ("target", 150, 150),
        ("target", 200, 200),
        ("target", 300, 300),
        ("target", 400, 400),
        ("target", 1, 1),
        ("target", 777, 777),
        ("target", 200.5, 200.5),  # any positive number (M1)
        *[("players", n, n) for n in range(2, 10)],
    ],
)
def test_every_option_value_is_accepted(field: str, value: Any, stored: Any) -> None:
    options = TableOptions(**{field: value})
    assert getattr(options, field) == stored
    assert TableOptions.from_json(options.to_json()) == options


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", 1),
        ("players", 10),
        ("players", "3"),
        ("players", True),
        ("players", 2.0),
        ("target", 0),
        ("target", -5),
        ("target", "x"),
        ("target", float("nan")),
        ("target", float("inf")),
        ("target", True),
        ("take", "foo"),
        ("take", None),
        ("leftover_pile", "burn"),
        ("most_cards_tie", "some"),
        ("most_cards_tie", 5),
        ("forced_foxtrot", "yes"),
        ("forced_foxtrot", 1),
    ],
)
def test_bad_option_is_refused_naming_the_field(field: str, value: Any) -> None:
    with pytest.raises(OptionsError) as info:
        TableOptions(**{field: value})
    assert str(info.value).startswith(f"{field}: {value!r}")
    with pytest.raises(OptionsError, match=f"^{field}: "):
        TableOptions().replace(**{field: value})


def test_C3_X7_decks_follow_the_number_of_players() -> None:
    assert [TableOptions(players=n).decks for n in range(2, 10)] == [2] * 5 + [3] * 3
    assert [TableOptions(players=n).deck_size for n in (6, 7)] == [104, 156]


def test_presets() -> None:
    assert PRESETS["original"] == TableOptions()
    assert TableOptions.preset("literal") == TableOptions(take=TakeRule.ANY)
    assert TableOptions.preset("short").target == 150
    assert TableOptions.preset("long").target == 400
    strict = TableOptions.preset("strict")
    assert strict.forced_foxtrot is True and strict.leftover_pile is LeftoverPile.LAST_TAKER
    party = TableOptions.preset("party")
    assert party.players == 8 and party.decks == 3
    assert TableOptions.preset("literal", players=4, target=300) == TableOptions(
        players=4, take=TakeRule.ANY, target=300
    )
    with pytest.raises(OptionsError, match=r"^preset: unknown 'nope'"):
        TableOptions.preset("nope")
    with pytest.raises(OptionsError, match=r"^players: "):
        TableOptions.preset("party", players=12)


def test_options_are_frozen() -> None:
    options = TableOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.players = 3  # type: ignore[misc]


GRID = [
    TableOptions(
        players=n,
        take=take,
        forced_foxtrot=forced,
        leftover_pile=leftover,
        most_cards_tie=tie,
        target=target,
    )
    for n, take, forced, leftover, tie, target in itertools.product(
        (2, 6, 7, 9),
        tuple(TakeRule),
        (False, True),
        tuple(LeftoverPile),
        tuple(MostCardsTie),
        (150, 400, 33),
    )
]


def test_G2_to_json_and_from_json_round_trip() -> None:
    for options in [*GRID, *PRESETS.values()]:
        data = options.to_json()
        assert list(data) == [
            "players",
            "decks",
            "take",
            "forced_foxtrot",
            "leftover_pile",
            "most_cards_tie",
            "target",
        ]
        assert data["decks"] == (2 if options.players <= 6 else 3)
        assert data["take"] in ("any", "match") and type(data["take"]) is str
        assert TableOptions.from_json(data) == options


@pytest.mark.parametrize(("players", "decks"), [(8, 2), (3, 3), (6, 3), (7, 2), (2, 1)])
def test_X7_decks_that_do_not_fit_the_players_are_refused(players: int, decks: int) -> None:
    data = TableOptions(players=players).to_json()
    data["decks"] = decks
    with pytest.raises(OptionsError) as info:
        TableOptions.from_json(data)
    assert str(info.value).startswith(f"options: decks is {decks}")
    assert "rule X7" in str(info.value)


def test_from_json_refuses_missing_keys_and_non_objects() -> None:
    for key in TableOptions().to_json():
        data = TableOptions().to_json()
        del data[key]
        with pytest.raises(OptionsError, match=f"^options: missing {key}"):
            TableOptions.from_json(data)
    with pytest.raises(OptionsError, match=r"^options: expected an object"):
        TableOptions.from_json([2, 2])  # type: ignore[arg-type]
    data = TableOptions().to_json()
    data["take"] = "foo"
    with pytest.raises(OptionsError, match=r"^take: 'foo'"):
        TableOptions.from_json(data)


def test_T2_take_match_is_the_default_everywhere() -> None:
    assert TableOptions().take is TakeRule.MATCH
    assert next(iter(TakeRule)) is TakeRule.MATCH  # the first value of a rule is its default
    assert PRESETS["original"] == TableOptions()
    assert TableOptions.preset("literal").take is TakeRule.ANY
    with pytest.raises(OptionsError, match=r"'classic' .* is now called 'literal'"):
        TableOptions.preset("classic")


def test_T2_a_record_written_before_take_match_became_the_default_loads_unchanged() -> None:
    """Written by the engine of 2026-11-30, when ``take = any`` was the default."""
    path = Path(__file__).parent / "data" / "record-before-take-match-default.json"
    text = path.read_text(encoding="utf-8")
    state = loads(text)
    assert state.options.take is TakeRule.ANY and state.is_over
    assert any(code & 63 == TAKE.code for log in state.deal_logs() for code in log.actions)
    assert dumps(state) == text  # re-saved byte for byte as it was
