"""Message catalogs: PO files checked against English and CLDR, compiled .mo files up to date.

The PO files are the one source of every message; the checks of ``foxtrot.i18n.compile`` are
run on them here, and each check is shown to catch the fault it is for on a spoiled copy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from foxtrot.i18n import LANGUAGES, catalog, catalog_json, cldr, messages, translations
from foxtrot.i18n import compile as po

TEXTS = {lang: po.po_path(lang).read_text("utf-8") for lang in po.present()}


def test_the_po_files_have_every_message_with_the_same_placeholders_and_every_plural() -> None:
    assert po.problems(TEXTS) == []
    assert set(TEXTS) == set(LANGUAGES)
    english = messages("en")
    assert len(english) > 200
    for lang in LANGUAGES:
        local = messages(lang)
        assert set(local) == set(english), f"{lang}: {set(english) ^ set(local)}"
        for key, message in local.items():
            assert isinstance(message, str) == isinstance(english[key], str), (lang, key)
            if not isinstance(message, str):
                assert len(message) == len(cldr.categories(lang)), (lang, key)
                assert all(message), (lang, key)


def test_the_mo_files_are_what_babel_compiles_from_the_po_files() -> None:
    for lang in LANGUAGES:
        assert not po.stale(lang), f"{lang}: run python -m foxtrot.i18n.compile"
        assert po.main(["--check"]) == 0


def test_a_po_file_edited_after_compiling_makes_its_mo_file_stale(tmp_path: Path) -> None:
    shutil.copytree(po.LOCALE, tmp_path / "locale")
    path = po.po_path("ru", tmp_path / "locale")
    text = path.read_text("utf-8")
    path.write_text(text.replace("{name} кладёт {card_acc}.", "{name} ходит {card_acc}."), "utf-8")
    assert po.stale("ru", tmp_path / "locale")
    assert not po.stale("uk", tmp_path / "locale")
    assert po.main(["--check", "--locale", str(tmp_path / "locale")]) == 1
    assert po.main(["--locale", str(tmp_path / "locale")]) == 0
    assert not po.stale("ru", tmp_path / "locale")


def _entry(text: str, key: str) -> str:
    """The block of a PO file's text that defines ``key``."""
    start = text.index(f'\nmsgid "{key}"\n')
    end = text.find("\n\n", start + 1)
    return text[start : len(text) if end < 0 else end]


def _spoiled(lang: str, change: Callable[[str], str]) -> list[str]:
    return po.problems({**TEXTS, lang: change(TEXTS[lang])})


def test_a_missing_or_extra_message_is_found() -> None:
    found = _spoiled("uk", lambda text: text.replace(_entry(text, "plays"), ""))
    assert found == ["uk: 'plays' is missing"]
    extra = '\n\nmsgid "only_here"\nmsgstr "тільки тут"\n'
    assert _spoiled("uk", lambda text: text + extra) == ["uk: 'only_here' is not in the en catalog"]


def test_a_placeholder_that_differs_from_english_is_found() -> None:
    found = _spoiled(
        "ru", lambda text: text.replace("{name} кладёт {card_acc}.", "{who} кладёт {card_acc}.")
    )
    assert found == [
        "ru: 'plays' (text) has placeholders ['card_acc', 'who'], en has ['card_acc', 'name']"
    ]
    found = _spoiled(
        "ru", lambda text: text.replace("{name} кладёт {card_acc}.", "{name} кладёт {card_dat}.")
    )
    assert found == [
        "ru: 'plays' (text) has placeholders ['card_dat', 'name'], en has ['card_acc', 'name']"
    ]
    found = _spoiled("uk", lambda text: text.replace('"{n} карти"', '"карти"', 1))
    assert found == ["uk: 'cards' (few) has placeholders [], en has ['n']"]
    found = _spoiled(
        "en", lambda text: text.replace('"{name} plays {card_acc}."', '"{name plays."')
    )
    assert len(found) == 1 and "'plays' (text): not a valid format string" in found[0]


def test_a_card_slot_may_take_another_case_than_in_english() -> None:
    """Each language puts the card in the case its sentence needs: only the slots must match."""
    assert po.slots({"card_acc", "name"}) == po.slots({"card", "name"}) == {"card", "name"}
    found = _spoiled("uk", lambda text: text.replace("{name} кладе {card_acc}.", "{name}: {card}."))
    assert found == []


def test_a_counted_message_lacking_a_cldr_category_is_found() -> None:
    def drop_other(text: str) -> str:
        block = _entry(text, "cards")
        return text.replace(block, block.rsplit("\nmsgstr[3]", 1)[0])

    assert _spoiled("ru", drop_other) == ["ru: 'cards' lacks its other form"]
    found = _spoiled("en", lambda text: text.replace('msgstr[1] "{n} cards"', 'msgstr[1] ""'))
    assert found == ["en: 'cards' lacks its other form"]
    assert "ru: 'cards' must be a counted message, as in en" in _spoiled(
        "ru",
        lambda text: text.replace(_entry(text, "cards"), '\nmsgid "cards"\nmsgstr "{n} карт"'),
    )


def test_a_wrong_plural_header_an_empty_fuzzy_or_doubled_message_is_found() -> None:
    old = cldr.plural_forms("uk")
    found = _spoiled("uk", lambda text: text.replace("nplurals=4;", "nplurals=3;", 1))
    assert found[0] == f"uk: the Plural-Forms header must be CLDR's: {old}"
    forms = "one, few, many, other"
    assert f"uk: 'cards' has 3 forms; uk needs one for each CLDR category: {forms}" in found
    found = _spoiled("uk", lambda text: text.replace('"Language: uk\\n"', '"Language: ru\\n"'))
    assert found == ["uk: the Language header must be 'uk', not ru"]
    found = _spoiled(
        "ru", lambda text: text.replace('msgstr "{name} кладёт {card_acc}."', 'msgstr ""')
    )
    assert found == ["ru: 'plays' lacks its text form"]
    found = _spoiled(
        "ru", lambda text: text.replace('\nmsgid "plays"', '\n#, fuzzy\nmsgid "plays"')
    )
    assert found == ["ru: 'plays' is marked fuzzy (not compiled): check it, drop the flag"]
    found = _spoiled("en", lambda text: text + _entry(text, "plays"))
    assert "en: 'plays' is defined twice" in found


def test_a_new_language_starts_with_every_key_untranslated(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(po.LOCALE, root)
    assert po.main(["--new", "pl", "--locale", str(root)]) == 0
    text = po.po_path("pl", root).read_text("utf-8")
    assert cldr.categories("pl") == ("one", "few", "many", "other")
    found = po.problems({"en": TEXTS["en"], "pl": text})
    assert f"pl: 'cards' lacks its {cldr.categories('pl')[0]} form" in found
    assert len(found) == sum(
        len(cldr.categories("pl")) if isinstance(message, tuple) else 1
        for message in messages("en").values()
    )
    with pytest.raises(FileExistsError):
        po.new_language("pl", root)


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


def test_a_negative_count_takes_the_form_of_its_absolute_value() -> None:
    assert catalog("en").count("points", -1) == "-1 point"
    assert catalog("ru").count("points", -21) == "-21 очко"
    assert catalog("uk").count("points", -3) == "-3 очки"


def test_cldr_categories_of_counts() -> None:
    assert [cldr.category("ru", n) for n in (1, 3, 7, 13, 101)] == [
        "one",
        "few",
        "many",
        "many",
        "one",
    ]
    assert cldr.category("en", 0) == "other"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_plural_rule_is_cldrs(lang: str) -> None:
    compiled = translations(lang)
    assert compiled.info()["plural-forms"] == cldr.plural_forms(lang)
    categories = cldr.categories(lang)
    for n in range(1000):
        assert categories[compiled.plural(n)] == cldr.category(lang, n), (lang, n)


def test_lookups_refuse_unknown_keys_and_the_wrong_kind() -> None:
    en = catalog("en")
    with pytest.raises(KeyError, match="no message 'nothing' in the en catalog"):
        en.text("nothing")
    with pytest.raises(KeyError, match="'cards' is a counted message: use count"):
        en.text("cards")
    with pytest.raises(KeyError, match="'plays' is not a counted message: use text"):
        en.count("plays", 2)
    assert en.count("coach_others", 3, points=4) == "+4 for the others on average"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'de'"):
        catalog("de")
    with pytest.raises(ValueError, match="unknown language 'de'"):
        catalog_json("de")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_catalog_has_every_message_and_its_plural_rule(lang: str) -> None:
    data = json.loads(json.dumps(catalog_json(lang)))
    assert data["lang"] == lang
    categories = data["plural"]["categories"]
    assert categories == list(cldr.categories(lang))
    assert data["plural"]["gettext"] == cldr.plural_forms(lang)
    assert set(data["messages"]) == set(messages(lang))
    for key, message in messages(lang).items():
        if isinstance(message, str):
            assert data["messages"][key] == message
        else:
            assert list(data["messages"][key]) == categories
            for n in (1, 2, 5):
                form = translations(lang).ngettext(key, key, n)
                assert data["messages"][key][cldr.category(lang, n)] == form


def test_the_python_front_ends_read_catalogs_without_babel() -> None:
    script = (
        "import sys; from foxtrot.i18n import catalog;"
        "print(catalog('uk').count('cards', 3), 'babel' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True
    )
    assert done.stdout.split() == ["3", "карти", "False"], done.stderr
