"""Card and action notation (rule C4), localized display (C2, C4)."""

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


LABELS = {
    "en": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
    "ru": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"],
    "uk": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"],
}
GLYPHS = dict(zip(SUITS, "♠♥♦♣", strict=True))


@pytest.mark.parametrize("lang", sorted(LABELS))
def test_C2_C4_display_in_every_language(lang: str) -> None:
    for text in ALL_TEXTS:
        rank, suit = text[:-1], text[-1]
        expected = LABELS[lang][RANKS.index(rank)] + GLYPHS[suit]
        assert Card.parse(text).display(lang) == expected
    assert format_cards(parse_cards("10H QS"), lang) == f"10♥ {LABELS[lang][10]}♠"


def test_C2_card_names_in_words() -> None:
    qs = Card.parse("QS")
    assert qs.name("en") == "Queen of spades"
    assert qs.name("ru") == "дама пик"
    assert qs.name("uk") == "дама пік"
    assert Card.parse("10H").name() == "ten of hearts"
    assert Card.parse("AC").display() == "A♣"


def test_C4_unknown_language_is_refused() -> None:
    with pytest.raises(NotationError, match="'de'"):
        Card.parse("QS").display("de")


def test_C1_cards_and_actions_are_immutable_values() -> None:
    c = Card.parse("QS")
    with pytest.raises(AttributeError):
        c.rank = 0  # type: ignore[assignment]
    with pytest.raises(AttributeError):
        TAKE.code = 1
    assert Card.parse("QS") is c and hash(c) == hash(Card.parse("qs"))
    assert sorted(parse_cards("AS 2C 10D JH")) == parse_cards("2C 10D JH AS")
