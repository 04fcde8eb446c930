"""Card and action notation (rule C4); the localized display is in tests/test_i18n_cards.py."""

from __future__ import annotations

import pytest

from foxtrot.core import (
    ACTIONS,
    CARDS,
    TAKE,
    Action,
    Card,
    NotationError,
    format_cards,
    parse_cards,
)

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "SHDC"
ALL_TEXTS = [rank + suit for rank in RANKS for suit in SUITS]


def test_C4_the_52_cards_are_every_rank_with_every_suit() -> None:
    assert len(CARDS) == 52 and len(set(ALL_TEXTS)) == 52
    assert sorted(str(c) for c in CARDS) == sorted(ALL_TEXTS)


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_C4_card_round_trip_and_lowercase(text: str) -> None:
    c = Card.parse(text)
    assert str(c) == text
    assert Card.parse(text.lower()) is c
    assert Card.parse(f"  {text}\n") is c
    assert Card.parse(str(c)) is c
    assert RANKS[c.rank] + SUITS[c.suit] == text
    assert repr(c) == f"Card({text!r})"


def test_C4_all_53_actions_round_trip() -> None:
    assert len(ACTIONS) == 53
    texts = [str(a) for a in ACTIONS]
    assert sorted(texts) == sorted([*ALL_TEXTS, "take"])
    for action in ACTIONS:
        assert Action.parse(str(action)) is action
        assert Action.parse(str(action).lower()) is action
        assert Action.parse(str(action).upper()) is action
    assert Action.parse("Take") is TAKE and TAKE.is_take and TAKE.card is None
    qs = Action.parse("qs")
    assert qs.card is Card.parse("QS") and not qs.is_take and Action.play(Card.parse("QS")) is qs
    assert qs.to_json(2) == {"seat": 2, "play": "QS"}
    assert TAKE.to_json(1) == {"seat": 1, "take": True}


@pytest.mark.parametrize("token", ["1H", "11S", "QX", "Q", "", "10", "TH", "JOKER", "♠A", "10HH"])
def test_C4_bad_card_token_is_refused_naming_it(token: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(token)
    assert str(info.value).startswith(f"bad card {token!r}")


@pytest.mark.parametrize("token", ["pass", "QX", "", "takes", "10"])
def test_C4_bad_action_token_is_refused_naming_it(token: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(token)
    assert str(info.value).startswith(f"bad action {token!r}")


def test_C4_lists_of_cards() -> None:
    parsed = parse_cards("10h, QS js  2c")
    assert [str(c) for c in parsed] == ["10H", "QS", "JS", "2C"]
    assert parse_cards(["ad", "3c"]) == [Card.parse("AD"), Card.parse("3C")]
    assert format_cards(parsed) == "10H QS JS 2C"
    assert parse_cards(format_cards(CARDS)) == list(CARDS)
    with pytest.raises(NotationError, match="'ZZ'"):
        parse_cards("2C ZZ 3C")


def test_C4_the_core_holds_the_canonical_notation_only() -> None:
    # words and localized ranks live in the message catalogs (tests/test_i18n_cards.py)
    qs = Card.parse("QS")
    assert not hasattr(qs, "display") and not hasattr(qs, "name")
    assert str(qs) == "QS" and qs.suit.glyph == "♠"
