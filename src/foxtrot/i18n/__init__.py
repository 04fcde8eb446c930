"""Message catalogs for every front end: gettext catalogs, one per language, with CLDR plurals.

Every text the terminal game, the narration, the coach and the browser page show comes from
here.  The source is one gettext PO file per language,
``locale/<lang>/LC_MESSAGES/foxtrot.po`` beside this module; translators edit those.  At run
time the standard library's :mod:`gettext` reads the compiled ``foxtrot.mo`` next to each PO
file, so the engine, the bots and the command line need no third-party package.  Babel (the
``test`` extra) compiles the PO files and writes their ``Plural-Forms`` header from CLDR's
plural rules: ``python -m foxtrot.i18n.compile``.  The compiled files are committed and a test
fails when one is stale.

The msgids are keys (``plays``, ``tui_setup_title``), not English sentences: the program looks
messages up by key, the English text is a translation like the others (``en.po``), and a change
of English wording does not orphan every translation.  A counted message is a plural entry
whose ``msgid_plural`` repeats the key; it has one form per CLDR plural category of its
language, in the order of the ``Plural-Forms`` header (English: one, other; Russian and
Ukrainian: one, few, many, other, the last one for fractions, which no count here is).

Placeholders are :meth:`str.format` fields: ``{name}``, and ``{points:+d}`` for a signed
number.  A counted message gets its count as ``{n}``.

>>> ru = catalog("ru")
>>> [ru.count("cards", n) for n in (1, 2, 5, 11, 21, 22, 25)]
['1 карта', '2 карты', '5 карт', '11 карт', '21 карта', '22 карты', '25 карт']
>>> catalog("uk").count("cards", 3)
'3 карти'
>>> catalog("en").text("plays", name="Ann", card_acc="Q♠")
'Ann plays Q♠.'

The cards in words and in short come from the catalogs too (the core knows only the
canonical notation of rule C4, ``QS``):

>>> from foxtrot.core import Card
>>> [card_name(Card.parse("QS"), lang) for lang in LANGUAGES]
['Queen of spades', 'дама пик', 'дама пік']
>>> card_text(Card.parse("JC"), "ru"), cards_text([Card.parse("10H"), Card.parse("AS")], "uk")
('В♣', '10♥ Т♠')

A card in words takes the grammatical case its sentence needs: each rank has one form per case
in the catalogs (``card_rank_name_K_acc``), and a message names the case of its card slot in
the placeholder: ``{card}`` is the nominative, ``{card_acc}`` the accusative, ``{card_gen}``
the genitive, ``{card_ins}`` the instrumental.  Each language picks the case its own sentence
needs (the catalog check compares the slots, not their cases, with English).
:func:`card_slots` gives a card's text for every slot at once, short or in words:

>>> ru, king = catalog("ru"), Card.parse("KD")
>>> ru.text("web_hint_play", **card_slots(king, "ru", words=True))
'Тренер советует: сыграйте короля бубен.'
>>> ru.text("web_hint_play", **card_slots(king, "ru"))
'Тренер советует: сыграйте К♦.'
>>> card_name(Card.parse("JC"), "uk", "ins")
'валетом треф'
"""

from __future__ import annotations

import gettext
import locale
import os
import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from typing import IO, Any, Final

from ..core.cards import Card, Rank

LANGUAGES: Final = ("en", "ru", "uk")
#: The gettext domain: one catalog per language holds the messages of every area.
DOMAIN: Final = "foxtrot"

#: A message: its text, or (a counted message) its forms in the order of the plural rule.
Message = str | tuple[str, ...]


class Translations(gettext.GNUTranslations):
    """A compiled catalog, which also lists its messages (for the page and the tests)."""

    # Set by GNUTranslations when it reads the file; the stubs do not declare them.
    _catalog: dict[str | tuple[str, int], str]
    plural: Callable[[int], int]

    def __init__(self, fp: IO[bytes], lang: str) -> None:
        self.lang = lang
        super().__init__(fp)

    def messages(self) -> dict[str, Message]:
        """Every message by key, in key order; a counted message as its tuple of forms."""
        texts: dict[str, str] = {}
        forms: dict[str, dict[int, str]] = {}
        for key, value in self._catalog.items():
            if isinstance(key, tuple):
                forms.setdefault(key[0], {})[key[1]] = value
            elif key:  # "" is the header
                texts[key] = value
        found: dict[str, Message] = dict(texts)
        for key, by_index in forms.items():
            found[key] = tuple(by_index[i] for i in range(len(by_index)))
        return dict(sorted(found.items()))


def check_language(lang: str) -> str:
    """``lang`` if it is one of ``LANGUAGES``; a ``ValueError`` naming the choices if not."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected {', '.join(LANGUAGES)})")
    return lang


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of ``lang``, read from the package's ``locale`` folder."""
    folder = check_language(lang)
    path = resources.files(__name__).joinpath(f"locale/{folder}/LC_MESSAGES/{DOMAIN}.mo")
    try:
        with path.open("rb") as fp:
            return Translations(fp, lang)
    except FileNotFoundError:
        raise FileNotFoundError(
            f"the {lang} catalog {DOMAIN}.mo is missing: run python -m foxtrot.i18n.compile"
        ) from None


def messages(lang: str) -> dict[str, Message]:
    """Every message of ``lang`` by key; a counted message as its forms, in plural-rule order."""
    return translations(lang).messages()


class Catalog:
    """The messages of one language, looked up by key."""

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        self._translations = translations(lang)
        found = self._translations.messages()
        self._texts = frozenset(key for key, value in found.items() if isinstance(value, str))
        self._counted = frozenset(found) - self._texts

    def text(self, key: str, /, **values: object) -> str:
        """The message ``key`` with ``values`` filled in."""
        if key not in self._texts:
            raise KeyError(self._missing(key, counted=False))
        return self._translations.gettext(key).format(**values)

    def count(self, key: str, n: int, /, **values: object) -> str:
        """The counted message ``key`` in the plural form for ``n``, with ``n`` filled in.

        A negative count takes the form of its absolute value, as in CLDR: -1 point.
        """
        if key not in self._counted:
            raise KeyError(self._missing(key, counted=True))
        return self._translations.ngettext(key, key, abs(n)).format(n=n, **values)

    def _missing(self, key: str, *, counted: bool) -> str:
        if counted and key in self._texts:
            return f"{key!r} is not a counted message: use text()"
        if not counted and key in self._counted:
            return f"{key!r} is a counted message: use count()"
        return f"no message {key!r} in the {self.lang} catalog"


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (en, ru or uk)."""
    return Catalog(lang)


def catalog_json(lang: str) -> dict[str, Any]:
    """Every message of ``lang`` and its plural rule, as JSON for the browser page.

    Needs Babel (the ``web`` extra) for the plural rule's JavaScript.  The shape::

        {
          "lang": "ru",
          "plural": {
            "categories": ["one", "few", "many", "other"],
            "gettext": "nplurals=4; plural=(...);",
            "javascript": "(function(n) { ... return 'one'; ... })"
          },
          "messages": {
            "plays": "{name} кладёт {card}.",
            "cards": {"one": "{n} карта", "few": "{n} карты", "many": "{n} карт",
                      "other": "{n} карты"}
          }
        }

    ``messages`` maps each key to its text or, for a counted message, to its forms by CLDR
    plural category; a counted message has a form for every category in ``categories``.  Pick
    a form with ``new Intl.PluralRules(lang).select(n)`` or with the ``javascript`` function
    (CLDR's rule compiled by ``babel.plural.to_javascript``: a function expression from a count
    to its category).  ``gettext`` is the ``Plural-Forms`` header of the catalog the Python
    front ends read: the same rule.  Placeholders are Python format fields: ``{name}``
    (replace with the value) and ``{name:+d}`` (a signed integer: ``+5``, ``-3``, ``0``); a
    counted message's count is ``{n}``.

    >>> data = catalog_json("uk")
    >>> data["plural"]["categories"], data["messages"]["cards"]["few"]
    (['one', 'few', 'many', 'other'], '{n} карти')
    """
    from . import cldr  # noqa: PLC0415 (Babel: only the page needs it at run time)

    categories = cldr.categories(check_language(lang))
    found: dict[str, str | dict[str, str]] = {}
    for key, message in messages(lang).items():
        if isinstance(message, str):
            found[key] = message
        else:
            found[key] = dict(zip(categories, message, strict=True))
    return {
        "lang": lang,
        "plural": {
            "categories": list(categories),
            "gettext": cldr.plural_forms(lang),
            "javascript": cldr.javascript(lang),
        },
        "messages": found,
    }


def rank_text(rank: Rank, lang: str) -> str:
    """A rank as printed on a card in ``lang``: ``Q`` in English, ``Д`` in Russian."""
    return catalog(lang).text(f"card_rank_{rank.symbol}")


def card_text(card: Card, lang: str) -> str:
    """A card in short for the screen: ``10♥``, ``Д♠`` (rule C4: localized rank, suit symbol)."""
    return rank_text(card.rank, lang) + card.suit.glyph


def cards_text(cards: Iterable[Card], lang: str) -> str:
    """Cards in short, separated by spaces: ``10♥ Д♠``."""
    return " ".join(card_text(card, lang) for card in cards)


#: The grammatical cases a card in words has (the suffix of a card slot: ``{card_acc}``):
#: nominative, accusative, genitive, instrumental.  English has one form for all but the
#: nominative: the card with its article, as a sentence names it ("plays the ten of hearts").
CASES: Final = ("nom", "acc", "gen", "ins")
#: The cases a short card (``Д♠``) cannot stand in, by language: the screen spells the card out
#: there («забирает стопку валетом треф»). A language not listed reads ``Д♠`` in every case.
SPELLED_CASES: Final[dict[str, tuple[str, ...]]] = {"ru": ("gen", "ins"), "uk": ("gen", "ins")}
#: The placeholder of a card slot: ``card``, or ``card_`` and a case.
CARD_SLOT: Final = "card"


def _case(case: str) -> str:
    if case not in CASES:
        raise ValueError(f"unknown case {case!r} (expected {', '.join(CASES)})")
    return case


def card_name(card: Card, lang: str, case: str = "nom") -> str:
    """A card in words, as a screen reader says it, in ``case``: ``дама пик``, ``даму пик``."""
    cat = catalog(lang)
    suffix = "" if _case(case) == "nom" else f"_{case}"
    return cat.text(
        "card_name",
        rank=cat.text(f"card_rank_name_{card.rank.symbol}{suffix}"),
        suit=cat.text(f"card_suit_of_{card.suit.symbol}"),
    )


def cards_name(cards: Iterable[Card], lang: str) -> str:
    """Cards in words, in the nominative, separated by commas: ``десятка червей, дама пик``."""
    return ", ".join(card_name(card, lang) for card in cards)


def card_slots(card: Card, lang: str, *, words: bool = False) -> dict[str, str]:
    """The card for every card slot a message may have (``card``, ``card_acc``, ...).

    In short (``words=False``, the screen) a slot is ``Д♠`` in the cases it reads in (in
    Russian the nominative and accusative, «кладёт Д♠»; in English every one), the card in
    words in the language's ``SPELLED_CASES`` («забирает стопку валетом треф», never «… В♣»); in
    words (a screen reader, ``foxtrot replay --words``) each slot is the card in its case.
    Pass them all to
    :meth:`Catalog.text`: a language's message uses the one its sentence needs.

    >>> slots = card_slots(Card.parse("JC"), "ru")
    >>> slots["card_ins"], slots["card_acc"]
    ('валетом треф', 'В♣')
    """
    if not words:
        short = card_text(card, lang)
        spelled = {case: card_name(card, lang, case) for case in SPELLED_CASES.get(lang, ())}
        return {
            CARD_SLOT: short,
            **{f"{CARD_SLOT}_{case}": spelled.get(case, short) for case in CASES},
        }
    forms = {case: card_name(card, lang, case) for case in CASES}
    return {CARD_SLOT: forms["nom"], **{f"{CARD_SLOT}_{case}": forms[case] for case in CASES}}


def slot_case(placeholder: str) -> tuple[str, str]:
    """A placeholder's slot and case: ``card_acc`` -> ``(card, acc)``, ``name`` -> ``(name, nom)``.

    >>> slot_case("card_ins"), slot_case("card"), slot_case("cards")
    (('card', 'ins'), ('card', 'nom'), ('cards', 'nom'))
    """
    base, _, case = placeholder.rpartition("_")
    if base and case in CASES:
        return base, case
    return placeholder, "nom"


#: The levels a computer seat may have (as named in ``tui_level_*``); a server's operator may
#: add learned policies, ``learned:NAME`` (``computer_level_learned``).
COMPUTER_LEVELS: Final = ("easy", "medium", "hard", "expert", "learned")
#: An operator's learned level: ``learned:`` and the policy's name (web/table/learned.py).
_LEARNED_NAMED: Final = "learned:"


def level_name(level: str, lang: str = "en") -> str:
    """A computer level in words: ``medium`` -> "средний"; an operator's policy
    ``learned:NAME`` -> "обученный: NAME" (the name as it is).

    >>> level_name("learned", "uk"), level_name("learned:mine", "ru")
    ('навчений', 'обученный: mine')
    """
    cat = catalog(lang)
    if level.startswith(_LEARNED_NAMED):
        return cat.text("computer_level_learned", name=level[len(_LEARNED_NAMED) :])
    return cat.text(f"tui_level_{level}")


def computer_name(seat: int, level: str, lang: str = "en") -> str:
    """The name of a computer seat nobody named: ``Computer 2 (medium)`` for seat 1.

    The server stores (and its records keep) the English name; every front end shows it
    in its own language through :func:`seat_name`.

    >>> computer_name(1, "medium"), computer_name(1, "medium", "ru")
    ('Computer 2 (medium)', 'Компьютер 2 (средний)')
    >>> computer_name(0, "learned:mine")
    'Computer 1 (learned: mine)'
    """
    return catalog(lang).text("computer_seat", n=seat + 1, level=level_name(level, lang))


@cache
def _computer_names() -> dict[str, tuple[int, str]]:
    return {
        computer_name(seat, level): (seat, level) for seat in range(9) for level in COMPUTER_LEVELS
    }


@cache
def _learned_names() -> re.Pattern[str]:
    """The English default name of a seat of an operator's policy, its seat and name read."""
    marked = computer_name(0, _LEARNED_NAMED + "\x02").replace("1", "\x01", 1)
    pattern = (
        re.escape(marked)
        .replace("\x01", "([1-9])")
        .replace("\x02", "([A-Za-z0-9][A-Za-z0-9_.-]{0,15})")
    )
    return re.compile(pattern)


def seat_name(name: str, lang: str) -> str:
    """A player's name as ``lang`` shows it: a computer seat's English default name translated.

    >>> seat_name("Computer 3 (expert)", "uk"), seat_name("Ann", "uk")
    ("Комп'ютер 3 (експерт)", 'Ann')
    >>> seat_name("Computer 2 (learned: mine)", "ru")
    'Компьютер 2 (обученный: mine)'
    """
    found = _computer_names().get(name)
    if found is not None:
        return computer_name(found[0], found[1], lang)
    named = _learned_names().fullmatch(name)
    if named is not None:
        return computer_name(int(named[1]) - 1, _LEARNED_NAMED + named[2], lang)
    return name


def system_language() -> str:
    """en, ru or uk from the environment's locale; en if it is none of them."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "")[:2].lower()
    return code if code in LANGUAGES else "en"
