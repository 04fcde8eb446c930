"""The rules for players: ``foxtrot rules``, the terminal game's rules screen, the page's dialog.

The texts are Markdown, one per language, in ``foxtrot/data/rules/{lang}.md``: the game as a
player learns it, with worked examples; the rule book with its ids is ``docs/rules.md``.
Two marks of their own, so that one text serves the page and the terminal:

- **Cards:** ``[[7H]]`` is a card, ``[[4C 9D QH]]`` a row of cards (the notation of rule C4,
  inside the mark only).  The page draws them as small card pictures (its own SVG cards) named
  in words for a screen reader; the terminal shows them in short in its language: ``7♥``,
  ``4♣ 9♦ Д♥``.  A mark stands where a name in the nominative reads well ("The pile: [[7H]].").
- **Sections:** a heading ends with its id, ``## Your turn {#turn}``.  Every language has the
  same ids in the same order (a test compares them); the page makes them element ids, the
  terminal drops them.

>>> text = "## Foxtrot {#foxtrot}\\nThe pile: [[7H]]. You play [[7S 10D]]."
>>> print(for_terminal(text, "ru"))
## Foxtrot
The pile: 7♥. You play 7♠ 10♦.
>>> section_ids(text), marked_cards(text)
(['foxtrot'], [(Card('7H'),), (Card('7S'), Card('10D'))])
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Final

from ..core.cards import Card
from . import cards_text, check_language

#: A card mark: one card or a row of cards in rule C4's notation, between double brackets.
CARDS_MARK: Final = re.compile(r"\[\[([^\[\]\n]*)\]\]")
#: A heading with its section id at the end: ``## Scoring {#scoring}``.
SECTION_MARK: Final = re.compile(r"^(#{1,6} .*?)\s*\{#([a-z0-9-]+)\}[ \t]*$", re.MULTILINE)


def rules_source(lang: str) -> str:
    """The rules for players in ``lang`` as written, with their marks (what the page reads)."""
    path = resources.files("foxtrot").joinpath(f"data/rules/{check_language(lang)}.md")
    return path.read_text("utf-8")


def _cards(inside: str, line: int) -> tuple[Card, ...]:
    codes = inside.split()
    if not codes:
        raise ValueError(f"line {line}: an empty card mark [[]]")
    try:
        return tuple(Card.parse_strict(code) for code in codes)
    except ValueError as error:
        raise ValueError(f"line {line}: [[{inside}]] is not a row of cards: {error}") from None


def marked_cards(text: str) -> list[tuple[Card, ...]]:
    """The cards of every mark of ``text``, in order; a mark that is not cards is a ValueError
    naming its line."""
    return [
        _cards(found.group(1), text.count("\n", 0, found.start()) + 1)
        for found in CARDS_MARK.finditer(text)
    ]


def section_ids(text: str) -> list[str]:
    """The section ids of ``text``'s headings, in order."""
    return [found.group(2) for found in SECTION_MARK.finditer(text)]


def for_terminal(text: str, lang: str) -> str:
    """``text`` with its cards in short in ``lang`` (``Д♠``) and no section ids."""
    marked_cards(text)  # a bad mark is an error here, not a line printed as it is

    def cards(found: re.Match[str]) -> str:
        return cards_text(_cards(found.group(1), 0), lang)

    return SECTION_MARK.sub(r"\1", CARDS_MARK.sub(cards, text))


def rules_markdown(lang: str) -> str:
    """The rules for players in ``lang`` for a terminal: the cards in short, no marks."""
    return for_terminal(rules_source(lang), lang)
