"""Message catalogs: every message in every language, with the same placeholders."""

from __future__ import annotations

import string

import pytest

from foxtrot.i18n import LANGUAGES, catalog, messages, plural_category


def _fields(message: object) -> set[str]:
    texts = [message] if isinstance(message, str) else list(message.values())  # type: ignore[attr-defined]
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_message_with_the_same_placeholders() -> None:
    english = messages("en")
    assert english
    for lang in LANGUAGES:
        local = messages(lang)
        assert set(local) == set(english), f"{lang}: {set(english) ^ set(local)}"
        for key, message in english.items():
            assert _fields(local[key]) == _fields(message), f"{lang}: {key}"
            if not isinstance(message, str):
                assert set(local[key]) == (
                    {"one", "other"} if lang == "en" else {"one", "few", "many"}
                ), f"{lang}: {key}"


@pytest.mark.parametrize(
    ("n", "ru", "uk"),
    [
        (0, "0 карт", "0 карт"),
        (1, "1 карта", "1 карта"),
        (2, "2 карты", "2 карти"),
        (4, "4 карты", "4 карти"),
        (5, "5 карт", "5 карт"),
        (11, "11 карт", "11 карт"),
        (12, "12 карт", "12 карт"),
        (21, "21 карта", "21 карта"),
        (22, "22 карты", "22 карти"),
        (104, "104 карты", "104 карти"),
        (111, "111 карт", "111 карт"),
    ],
)
def test_plural_forms_of_cards(n: int, ru: str, uk: str) -> None:
    assert catalog("ru").count("cards", n) == ru
    assert catalog("uk").count("cards", n) == uk
    assert catalog("en").count("cards", n) == (f"{n} card" if n == 1 else f"{n} cards")


def test_plural_category_rules() -> None:
    assert [plural_category("ru", n) for n in (1, 3, 7, 13, 101)] == [
        "one",
        "few",
        "many",
        "many",
        "one",
    ]
    assert plural_category("en", 0) == "other"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        catalog("de")
