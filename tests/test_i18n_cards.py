"""Cards on the screen and in words, from the message catalogs (rules C2, C4).

The core knows the canonical notation only (``QS``); the short display with a
localized rank (``Д♠``) and the words a screen reader says (``дама пик``) are
messages of the PO files, shared by the terminal game, the narration, the coach
and the page.
"""

from __future__ import annotations

import pytest

from foxtrot.core import CARDS, Card, CardPlayed, PlayResult, parse_cards
from foxtrot.i18n import (
    CASES,
    LANGUAGES,
    card_name,
    card_slots,
    card_text,
    cards_text,
    catalog,
    computer_name,
    seat_name,
)
from foxtrot.narrate import narrate
from foxtrot.web.http.page import catalog_payload

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
LABELS = {
    "en": RANKS,
    "ru": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"],
    "uk": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"],
}
GLYPHS = dict(zip("SHDC", "♠♥♦♣", strict=True))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_C2_C4_display_in_every_language(lang: str) -> None:
    for card in CARDS:
        text = str(card)
        expected = LABELS[lang][RANKS.index(text[:-1])] + GLYPHS[text[-1]]
        assert card_text(card, lang) == expected
    assert cards_text(parse_cards("10H QS"), lang) == f"10♥ {LABELS[lang][10]}♠"


def test_C2_card_names_in_words_with_the_genitive_suit() -> None:
    qs = Card.parse("QS")
    assert [card_name(qs, lang) for lang in LANGUAGES] == [
        "Queen of spades",
        "дама пик",
        "дама пік",
    ]
    assert card_name(Card.parse("10H"), "en") == "ten of hearts"
    assert card_name(Card.parse("10H"), "ru") == "десятка червей"
    assert card_name(Card.parse("5D"), "uk") == "п'ятірка бубон"
    assert card_name(Card.parse("AC"), "ru") == "туз треф"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_its_own_name_and_short_text(lang: str) -> None:
    names = {card_name(card, lang) for card in CARDS}
    shorts = {card_text(card, lang) for card in CARDS}
    assert len(names) == 52 and len(shorts) == 52
    assert not any("{" in name or "card_" in name for name in names)


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="'de'"):
        card_text(Card.parse("QS"), "de")
    with pytest.raises(ValueError, match="'de'"):
        card_name(Card.parse("QS"), "de")


def test_narration_shows_cards_in_the_catalog_short_form() -> None:
    event = CardPlayed(seat=0, card=Card.parse("QS"), result=PlayResult.LAID, taken=())
    assert narrate(event, ["Ann", "Bob"], "ru") == [
        catalog("ru").text("plays", name="Ann", card_acc="Д♠")
    ]


def test_computer_seats_are_named_in_the_viewers_language() -> None:
    english = computer_name(1, "medium")
    assert english == "Computer 2 (medium)"
    assert seat_name(english, "ru") == "Компьютер 2 (средний)"
    assert seat_name(english, "uk") == "Комп'ютер 2 (середній)"
    assert seat_name(computer_name(3, "expert"), "ru") == "Компьютер 4 (эксперт)"
    assert seat_name(english, "en") == english
    assert seat_name("Ann", "ru") == "Ann"  # a person's name is never translated
    event_names = [english, "Ann"]
    event = CardPlayed(seat=0, card=Card.parse("10H"), result=PlayResult.LAID, taken=())
    assert narrate(event, event_names, "ru")[0].startswith("Компьютер 2 (средний) ")


@pytest.mark.parametrize(
    ("card", "lang", "forms"),
    [
        ("KD", "ru", ("король бубен", "короля бубен", "короля бубен", "королём бубен")),
        ("QS", "ru", ("дама пик", "даму пик", "дамы пик", "дамой пик")),
        ("3D", "uk", ("трійка бубон", "трійку бубон", "трійки бубон", "трійкою бубон")),
        ("JD", "uk", ("валет бубон", "валета бубон", "валета бубон", "валетом бубон")),
        ("QS", "en", ("Queen of spades", *["the Queen of spades"] * 3)),
    ],
)
def test_a_card_in_words_in_every_case(card: str, lang: str, forms: tuple[str, ...]) -> None:
    the_card = Card.parse(card)
    assert tuple(card_name(the_card, lang, case) for case in CASES) == forms
    slots = card_slots(the_card, lang, words=True)
    assert [slots[f"card_{case}"] for case in CASES] == list(forms)
    assert slots["card"] == forms[0] == card_name(the_card, lang)
    short = card_slots(the_card, lang)
    # the screen: the short text where it reads right, the card in words in the other cases
    assert [short["card"], short["card_nom"], short["card_acc"]] == [card_text(the_card, lang)] * 3
    spelled = lang != "en"  # English says "with Q♠"; Russian «дамой пик», not «Д♠»
    expected = list(forms[2:]) if spelled else [card_text(the_card, lang)] * 2
    assert [short["card_gen"], short["card_ins"]] == expected
    with pytest.raises(ValueError, match="unknown case 'dat'"):
        card_name(the_card, lang, "dat")


def test_the_page_gets_every_card_in_every_case() -> None:
    data = catalog_payload("ru")
    assert data["cards"]["KD"] == ["К♦", "король бубен"]  # cardName(code): the nominative
    assert data["card_cases"]["KD"] == {
        "nom": "король бубен",
        "acc": "короля бубен",
        "gen": "короля бубен",
        "ins": "королём бубен",
    }
    assert set(data["card_cases"]) == {str(card) for card in CARDS}


def test_narration_in_words_puts_the_card_in_its_case() -> None:
    laid = CardPlayed(seat=0, card=Card.parse("8S"), result=PlayResult.LAID, taken=())
    assert narrate(laid, ["Аня", "Боря"], "ru", words=True) == ["Аня кладёт восьмёрку пик."]
    assert narrate(laid, ["Аня", "Боря"], "ru") == ["Аня кладёт 8♠."]
    took = CardPlayed(
        seat=1, card=Card.parse("JD"), result=PlayResult.TOOK, taken=tuple(parse_cards("JD 4C 5C"))
    )
    assert narrate(took, ["Аня", "Богдан"], "uk", words=True) == [
        "Богдан забирає стос валетом бубон (3 карти)."
    ]


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("ru", "Аня забирает стопку валетом треф (2 карты)."),
        ("uk", "Аня забирає стос валетом треф (2 карти)."),
        ("en", "Аня takes the pile with J♣ (2 cards)."),
    ],
)
def test_the_short_narration_takes_the_instrumental(lang: str, line: str) -> None:
    """On the screen a take names its card in the case the sentence needs, as the log does."""
    jack = Card.parse("JC")
    event = CardPlayed(seat=0, card=jack, result=PlayResult.TOOK, taken=(jack, Card.parse("5H")))
    assert narrate(event, ["Аня", "Борис"], lang) == [line]
