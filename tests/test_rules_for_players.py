"""The rules for players (``foxtrot rules``, the terminal game's rules screen, the page's dialog).

They explain the game, not the program: no rule id of the rule book (``docs/rules.md`` keeps
them), no card typed as a program reads it (``10H``), no option as the command line spells it
(``take = match``). The three languages have the same sections and the same worked examples,
card for card, and name the table's options as the lobby and the setup screen name them. The
grammar of the Russian and Ukrainian texts is judged in ``test_i18n_grammar.py``.
"""

from __future__ import annotations

import re

import pytest

from foxtrot.core import Card
from foxtrot.i18n import LANGUAGES, card_text, catalog
from foxtrot.i18n.rules import (
    CARDS_MARK,
    for_terminal,
    marked_cards,
    rules_markdown,
    rules_source,
    section_ids,
)

#: A rule id of the rule book: C1, T3b, P1–P3, X10.
RULE_ID = re.compile(r"\b[CDTREPMVGX]\d{1,2}[a-e]?\b")
#: A card as a program reads it (rule C4): 10H, QS, JC.
TYPED_CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b")
#: An option as the command line or a record spells it.
OPTION_SYNTAX = re.compile(r"`|\w_\w|\b(?:take|target|players)\s*=|\b(?:true|false)\b")


def unmarked(text: str) -> str:
    """``text`` without its card marks (what a player reads around the pictures)."""
    return CARDS_MARK.sub(" ", text)


def section(lang: str, name: str) -> str:
    """The section ``{#name}`` of the rules in ``lang`` up to the next section, for a terminal,
    with its lines joined."""
    text = rules_source(lang)
    start = text.index(f"{{#{name}}}")
    end = text.find("\n## ", start)
    return " ".join(for_terminal(text[start : end if end >= 0 else len(text)], lang).split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rule_id_no_typed_card_no_option_syntax(lang: str) -> None:
    for text in (unmarked(rules_source(lang)), rules_markdown(lang)):
        assert RULE_ID.findall(text) == []
        assert TYPED_CARD.findall(text) == []
        assert OPTION_SYNTAX.findall(text) == []


def test_the_checks_find_what_the_old_rules_had() -> None:
    old = "take the pile (T3a); type `10H` or QS; `take = match`; forced_foxtrot = true (X4)"
    assert RULE_ID.findall(old) == ["T3a", "X4"]
    assert TYPED_CARD.findall(old) == ["10H", "QS"]
    assert len(OPTION_SYNTAX.findall(old)) >= 4


def test_every_language_has_the_same_sections_in_the_same_order() -> None:
    english = section_ids(rules_source("en"))
    assert len(english) == len(set(english)) >= 12
    for lang in LANGUAGES:
        text = rules_source(lang)
        assert section_ids(text) == english, lang
        headings = re.findall(r"^#{2,} .*$", text, re.MULTILINE)
        assert len(headings) == len(english), (lang, "a heading without its {#id}")


def test_every_language_has_the_same_examples_card_for_card() -> None:
    english = marked_cards(rules_source("en"))
    assert len(english) >= 20
    for lang in LANGUAGES:
        assert marked_cards(rules_source(lang)) == english, lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_shows_the_cards_in_short_in_its_language(lang: str) -> None:
    text = rules_markdown(lang)
    assert "[[" not in text and "]]" not in text and "{#" not in text
    queen = card_text(Card.parse("QS"), lang)  # Q♠, Д♠
    assert f"{queen} {queen}" in text  # the foxtrot of two Queens of spades
    for cards in marked_cards(rules_source(lang)):
        assert " ".join(card_text(card, lang) for card in cards) in text


def test_a_mark_that_is_not_a_card_names_its_line() -> None:
    with pytest.raises(ValueError, match=r"line 3: \[\[7X\]\]"):
        for_terminal("# Rules\n\nThe pile: [[7X]].", "en")
    with pytest.raises(ValueError, match="line 1: an empty card mark"):
        marked_cards("[[ ]]")
    with pytest.raises(ValueError, match=r"\[\[qs\]\]"):  # the page reads the canonical text only
        marked_cards("[[qs]]")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_options_are_named_as_the_lobby_names_them(lang: str) -> None:
    cat = catalog(lang)
    text = " ".join(rules_markdown(lang).split())
    options = section(lang, "options")
    for key in ("tui_setup_take", "tui_setup_forced", "tui_setup_leftover", "tui_setup_tie"):
        assert f"**{cat.text(key)}**" in options, key
    assert f"**{cat.text('tui_setup_target')}**" in options
    for key in ("tui_take_match", "tui_take_any", "tui_leftover_discard"):
        assert f"*{cat.text(key)}*" in options, key
    for key in ("tui_leftover_last_taker", "tui_tie_none", "tui_tie_all"):
        assert cat.text(key) in options, key
    assert f"«{cat.text('tui_setup_forced')}»" in text or lang == "en"
    assert cat.text("web_table_rules_title") in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_worked_scores_add_up(lang: str) -> None:
    """Every "a + b − c = d" of the examples is right (the figures are the same in every
    language: 40, 22, −30 and Ann's 28)."""
    text = rules_markdown(lang).replace("−", "-")
    sums = re.findall(r"(\d+(?: [+-] \d+)+) = \*\*(-?\d+)\*\*", text)
    assert len(sums) == 1  # 20 + 1 + 1 = 22; the others are written with words between
    for terms, total in sums:
        signed = terms.replace(" + ", " +").replace(" - ", " -").split()
        assert sum(int(term) for term in signed) == int(total), terms
    figures = re.findall(r"\*\*(-?\d+)\*\*", text)
    assert figures == ["40", "22", "-30", "28"]


@pytest.mark.parametrize(
    ("lang", "count"),
    [("en", "2 to 9 players (a third deck from 7)"), ("ru", "2–9 игроков"), ("uk", "2–9 гравців")],
)
def test_the_first_lines_say_how_many_may_play(lang: str, count: str) -> None:
    """As the lobby does: 2 to 9 players, a third deck from 7 (rules C3, X7)."""
    first = " ".join(rules_source(lang).split("\n\n")[1].split())
    assert count in first
    assert "2 to 6" not in first and "2–6" not in first
