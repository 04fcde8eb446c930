"""The grammar of the Russian and Ukrainian messages, judged by pymorphy3's dictionaries.

A card in words takes the case its sentence needs ("сыграйте короля бубен", never "сыграйте
король бубен"): each message names the case of its card slot (``{card_acc}``), and here every
such message is rendered with every card and the slot's word must be in that case, in the
singular, and be that rank's word. A counted message ("{n} карты") is rendered with 1, 2, 5
and 21 and its noun must have the case and number Russian or Ukrainian gives a noun after that
number, in the case its translator's ``# case: n=acc`` comment declares (the nominative if
none). No Latin word may be left in a Russian or Ukrainian message or rules text but key
names, file formats, commands to type and the like (docs/glossary.md).
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Any

import pymorphy3
import pytest

from foxtrot.bots.coach import cost_text, difference, explain
from foxtrot.core import CARDS, Card, CardPlayed, PlayResult, Rank, State, TableOptions, TakeRule
from foxtrot.i18n import (
    CASES,
    LANGUAGES,
    card_name,
    card_slots,
    card_text,
    catalog,
    cldr,
    computer_name,
    messages,
    slot_case,
    translations,
)
from foxtrot.i18n import compile as po
from foxtrot.i18n.rules import CARDS_MARK, SECTION_MARK, rules_markdown, rules_source
from foxtrot.narrate import narrate
from helpers import play_random

SLAVIC = ("ru", "uk")
#: Our case names -> the OpenCorpora tags both dictionaries use.
TAG = {"nom": "nomn", "acc": "accs", "gen": "gent", "ins": "ablt", "dat": "datv", "loc": "loct"}
#: Latin words a Russian or Ukrainian screen may show: key names, a file format, commands to
#: type, addresses, the names of the languages in their own language (docs/glossary.md).
ALLOWED_LATIN = frozenset(
    {"Enter", "Esc", "Tab", "Home", "End", "PgUp", "PgDn", "JSON", "English"}
    | {"foxtrot", "play", "resume", "replay", "rules", "verify", "https", "localhost"}
)
#: Prepositions and the cases they govern (of those the catalogs use before a card).
GOVERNS = {
    "ru": {"из-за": {"gen"}, "без": {"gen"}, "для": {"gen"}, "с": {"ins", "gen"}, "на": {"acc"}},
    "uk": {"через": {"acc"}, "без": {"gen"}, "для": {"gen"}, "з": {"ins", "gen"}, "на": {"acc"}},
}
#: Messages whose card slot takes another case in Ukrainian than in Russian, and why.
CASE_DIFFERS = {"coach_avoids"}  # «из-за дамы пик» (genitive), «через даму пік» (accusative)
COUNTS = (1, 2, 5, 21)
WORD = re.compile(r"[А-Яа-яЁёІіЇїЄєҐґ'’-]+")


@cache
def morph(lang: str) -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer(lang=lang)


def parses(lang: str, word: str) -> list[Any]:
    return list(morph(lang).parse(word.lower().replace("’", "'")))


def is_plural(tag: Any) -> bool:
    return "plur" in tag


@cache
def declared_counts(lang: str) -> dict[str, str]:
    """The case of each counted message's ``{n}``, from its ``# case: n=...`` comment."""
    found: dict[str, str] = {}
    for message in po.parse(po.po_path(lang).read_text("utf-8"), lang):
        for comment in message.user_comments:
            match = re.fullmatch(r"case: n=(\w+)", comment.strip())
            if match:
                key = message.id[0] if isinstance(message.id, tuple) else message.id
                found[str(key)] = match.group(1)
    return found


def forms(lang: str, key: str) -> list[str]:
    message = messages(lang)[key]
    return [message] if isinstance(message, str) else list(message)


def values_for(text: str, card: Card | None = None, lang: str = "ru") -> dict[str, object]:
    """Values for every field of ``text``: the card in words for a card slot, else dummies."""
    found: dict[str, object] = {}
    for _, name, spec, _ in string.Formatter().parse(text):
        if name is None:
            continue
        if slot_case(name)[0] == "card":
            found.update(card_slots(card or Card.parse("QS"), lang, words=True))
        elif spec and spec.endswith("d"):
            found[name] = 7
        else:
            found[name] = 3 if name == "n" else "Аня"
    return found


def card_messages(lang: str) -> Iterator[tuple[str, str, str]]:
    """(key, form, case) for every card slot of every message of ``lang``."""
    for key in messages(lang):
        for form in forms(lang, key):
            for name in po.fields(form):
                base, case = slot_case(name)
                if base == "card":
                    yield key, form, case


def words_before(form: str, placeholder: str) -> tuple[str, str]:
    """The word right before ``{placeholder}`` in ``form`` (particles skipped), and what lies
    between it and the slot."""
    before = form[: form.index("{" + placeholder)]
    before = re.sub(r"\{[^}]*\}", " ", before)
    words = list(WORD.finditer(before))
    while words and words[-1].group().lower() in {"только", "лише", "и", "і", "й", "ещё", "ще"}:
        words.pop()
    if not words:
        return "", before
    return words[-1].group(), before[words[-1].end() :]


# ----------------------------------------------------------------------------- cards


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_rank_has_a_form_in_every_case_of_that_case_and_the_singular(lang: str) -> None:
    for rank in Rank:
        nominative = catalog(lang).text(f"card_rank_name_{rank.symbol}")
        for case in CASES:
            suffix = "" if case == "nom" else f"_{case}"
            form = catalog(lang).text(f"card_rank_name_{rank.symbol}{suffix}")
            found = parses(lang, form)
            assert any(
                (p.normal_form == nominative and TAG[case] in p.tag and not is_plural(p.tag))
                or (case == "acc" and p.normal_form == nominative and "gent" in p.tag)
                for p in found
            ), (lang, rank, case, form, [str(p.tag) for p in found])
        own = [p for p in parses(lang, nominative) if p.normal_form == nominative]
        masculine = "nomn" in own[0].tag and own[0].tag.gender == "masc"
        if masculine:  # Jack, King, Ace: animate in card play («сыграйте короля»)
            acc = catalog(lang).text(f"card_rank_name_{rank.symbol}_acc")
            gen = catalog(lang).text(f"card_rank_name_{rank.symbol}_gen")
            assert acc == gen != nominative, (lang, rank)


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_card_slot_gets_the_card_in_the_case_the_message_declares(lang: str) -> None:
    checked = 0
    for key, form, case in card_messages(lang):
        for card in CARDS:
            text = form.format(**values_for(form, card, lang))
            words = card_name(card, lang, case)
            assert words in text, (lang, key, text)
            rank_word = words.split()[0]
            nominative = card_name(card, lang).split()[0]
            assert any(
                p.normal_form == nominative
                and not is_plural(p.tag)
                and (TAG[case] in p.tag or (case == "acc" and "gent" in p.tag))
                for p in parses(lang, rank_word)
            ), (lang, key, case, text)
            checked += 1
    assert checked >= 52 * 15


@pytest.mark.parametrize("lang", SLAVIC)
def test_a_card_slot_takes_the_case_its_governing_word_needs(lang: str) -> None:
    """After a transitive verb the accusative; after a preposition its case; never a bare
    nominative in apposition to a noun in another case ("картой дама пик")."""
    for key, form, case in card_messages(lang):
        name = "card" if case == "nom" else f"card_{case}"
        word, gap = words_before(form, name)
        if not word:
            continue
        found = parses(lang, word)
        if word.lower() in GOVERNS[lang]:
            assert case in GOVERNS[lang][word.lower()], (lang, key, word, case)
        elif lang == "ru" and found[0].tag.POS in {"VERB", "INFN"} and "tran" in found[0].tag:
            assert case == "acc", (lang, key, word, case)
        if gap.strip() == "" and all(p.tag.POS == "NOUN" and "nomn" not in p.tag for p in found):
            assert case != "nom", (lang, key, f"{word} {{{name}}}")


def test_russian_and_ukrainian_put_a_card_in_the_same_case() -> None:
    cases: dict[str, dict[str, set[str]]] = {lang: {} for lang in SLAVIC}
    for lang in SLAVIC:
        for key, _, case in card_messages(lang):
            cases[lang].setdefault(key, set()).add(case)
    assert set(cases["ru"]) == set(cases["uk"])
    assert {key for key in cases["ru"] if cases["ru"][key] != cases["uk"][key]} == CASE_DIFFERS


@pytest.mark.parametrize(
    ("lang", "card", "kind", "expected"),
    [
        ("ru", "KD", "hint", "Тренер советует: сыграйте короля бубен."),
        ("uk", "3D", "hint", "Тренер радить: зіграйте трійку бубон."),
        ("ru", "8S", "plays", "Аня кладёт восьмёрку пик."),
        ("ru", "QH", "plays", "Аня кладёт даму червей."),
        ("uk", "JD", "plays", "Аня кладе валета бубон."),
        ("ru", "AC", "plays", "Аня кладёт туза треф."),
        ("ru", "JC", "foxtrot", "Аня делает фокстрот валетом треф: +10."),
        ("uk", "QS", "foxtrot", "Аня робить фокстрот дамою пік: +10."),
        ("en", "QS", "plays", "Аня plays the Queen of spades."),
    ],
)
def test_the_sentences_the_native_reader_found(
    lang: str, card: str, kind: str, expected: str
) -> None:
    the_card = Card.parse(card)
    if kind == "hint":
        text = catalog(lang).text("web_hint_play", **card_slots(the_card, lang, words=True))
    else:
        result = PlayResult.LAID if kind == "plays" else PlayResult.FOXTROT
        taken = () if kind == "plays" else (the_card,)
        event = CardPlayed(seat=0, card=the_card, result=result, taken=taken)
        (text,) = narrate(event, ["Аня", "Боря"], lang, words=True)
    assert text == expected


# ---------------------------------------------------------------------------- counts


def noun_expected(lang: str, n: int, case: str) -> set[tuple[str, bool]]:
    """The (case tag, plural) a noun may have after the number ``n`` in a phrase in ``case``."""
    category = cldr.category(lang, n)
    direct = case in {"nom", "acc"}
    if category == "one":
        return {(TAG[case], False)}
    if not direct:
        return {(TAG[case], True)}
    if category == "few":
        if lang == "ru":
            return {("gent", False)}
        return {("nomn", True), ("accs", True)}
    return {("gent", True)}


def counted_noun(lang: str, text: str, n: int) -> list[tuple[str, list[Any]]]:
    """The words after the number ``n`` in ``text`` up to its noun (adjectives, then a noun)."""
    at = re.search(rf"(?<![\d+]){n}(?!\d)", text)
    assert at is not None, text
    found: list[tuple[str, list[Any]]] = []
    rest = text[at.end() :]
    if not rest.startswith(" "):
        return []  # "({n})", "{n}%": not a number of things
    words = [match.group() for match in WORD.finditer(rest)][:4]
    for i, word in enumerate(words):
        word_parses = parses(lang, word)
        found.append((word, word_parses))
        modifier = any(p.tag.POS in {"ADJF", "PRTF"} for p in word_parses)
        if not modifier and any(p.tag.POS == "NOUN" for p in word_parses):
            return found
        if modifier and i + 1 == len(words):
            return []
    return []


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_counted_noun_has_the_case_and_number_its_count_needs(lang: str) -> None:
    declared = declared_counts(lang)
    assert set(declared.values()) <= set(TAG)
    english = messages("en")
    checked = 0
    for key, message in messages(lang).items():
        if isinstance(message, str):
            continue
        case = declared.get(key, "nom")
        for n in COUNTS:
            form = translations(lang).ngettext(key, key, n)
            if "{n}" not in form:
                continue
            values = values_for(form, lang=lang)
            values["n"] = n
            text = form.format(**values)
            phrase = counted_noun(lang, text, n)
            if not phrase:
                continue
            *modifiers, (noun, noun_parses) = phrase
            want = noun_expected(lang, n, case)
            assert any(
                p.tag.POS == "NOUN" and (p.tag.case, is_plural(p.tag)) in want for p in noun_parses
            ), (lang, key, n, case, text, noun, [str(p.tag) for p in noun_parses])
            for _word, word_parses in modifiers:
                if all(p.tag.POS in {"ADJF", "PRTF"} for p in word_parses):
                    plural = cldr.category(lang, n) != "one"
                    assert any(is_plural(p.tag) == plural for p in word_parses), (lang, key, n)
            checked += 1
        assert isinstance(english[key], tuple)
    assert checked > 120


def test_a_count_in_the_wrong_case_is_found() -> None:
    """The check catches what it is for: «по 1 карта», «выигрывает матч с 5 очков»."""
    assert ("gent", True) in noun_expected("ru", 5, "nom")
    assert noun_expected("ru", 5, "ins") == {("ablt", True)}
    wrong = counted_noun("ru", "Аня выигрывает матч с 5 очков.", 5)
    assert not any(
        (p.tag.case, is_plural(p.tag)) in noun_expected("ru", 5, "ins") for p in wrong[-1][1]
    )
    right = counted_noun("ru", "Аня выигрывает матч с 5 очками.", 5)
    assert any(
        (p.tag.case, is_plural(p.tag)) in noun_expected("ru", 5, "ins") for p in right[-1][1]
    )


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("ru", 1, "Аня выигрывает матч с 1 очком."),
        ("ru", 290, "Аня выигрывает матч с 290 очками."),
        ("uk", 21, "Аня виграє матч з 21 очком."),
        ("uk", 290, "Аня виграє матч з 290 очками."),
    ],
)
def test_the_winner_wins_with_points_not_points_colon(lang: str, n: int, expected: str) -> None:
    assert catalog(lang).count("web_winner", n, name="Аня") == expected


def test_a_redeal_gives_each_player_cards_in_the_accusative() -> None:
    cat = catalog("ru")
    stock = cat.count("stock_left", 3)
    texts = [cat.count("redealt", n, stock=stock) for n in (1, 2, 5)]
    assert [text.split(": ", 1)[1].split(";")[0] for text in texts] == [
        "каждый получает 1 карту",
        "каждый получает 2 карты",
        "каждый получает 5 карт",
    ]


# ------------------------------------------------------------------------ no English


def latin(text: str) -> set[str]:
    return {word for word in re.findall(r"[A-Za-z]{3,}", text) if word not in ALLOWED_LATIN}


def rendered(lang: str) -> Iterator[tuple[str, str]]:
    for key in messages(lang):
        for form in forms(lang, key):
            yield key, form.format(**values_for(form, lang=lang))


@pytest.mark.parametrize("lang", SLAVIC)
def test_no_english_in_a_russian_or_ukrainian_message(lang: str) -> None:
    found = {key: latin(text) for key, text in rendered(lang) if latin(text)}
    assert found == {}


@pytest.mark.parametrize("lang", SLAVIC)
def test_no_english_in_the_russian_or_ukrainian_rules(lang: str) -> None:
    """Neither in the text as the terminal prints it, nor around the page's card pictures (the
    section ids are not shown)."""
    assert latin(rules_markdown(lang)) == set()
    shown = SECTION_MARK.sub(r"\1", CARDS_MARK.sub(" ", rules_source(lang)))  # ids are not
    assert latin(shown) == set()


#: Words of the rules pymorphy3's dictionaries do not hold, all of them right: the author's
#: name, the game's other name, and (Ukrainian) words the dictionary lacks. The rank letters
#: (В, Д, К, Т) are single letters, not checked.
UNKNOWN_RIGHT = {
    "ru": {"Васичек", "Васичека", "пишти"},
    "uk": {"Васічек", "Васічека", "пішті", "вже", "ще", "теж", "немає", "нероздані", "нерозданих"},
}


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_word_of_the_rules_is_in_the_dictionary(lang: str) -> None:
    """A spelling check: a typo, or a Ukrainian word in the Russian text (or the other way
    round), is a word the language's dictionary does not know."""
    words = {w.lower() for w in WORD.findall(rules_markdown(lang)) if len(w.strip("-")) > 1}
    unknown = {word for word in words if not morph(lang).word_is_known(word.replace("’", "'"))}
    assert unknown - {word.lower() for word in UNKNOWN_RIGHT[lang]} == set()
    assert {word.lower() for word in UNKNOWN_RIGHT[lang]} <= words  # no stale exception


#: Words of the catalogs the dictionaries do not hold, all of them right: column headers cut
#: short, the names of the languages in their own language, and words the dictionary lacks.
UNKNOWN_RIGHT_MESSAGES = {
    "ru": {"фокстр", "двойн", "українська", "четырёхцветная"},
    "uk": {"фокстр", "подв", "русский", "треф", "ще", "немає"},
}


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_word_of_every_message_is_in_the_dictionary(lang: str) -> None:
    found: dict[str, str] = {}
    for key in messages(lang):
        for form in forms(lang, key):
            for word in WORD.findall(re.sub(r"\{[^}]*\}", " ", form)):
                word = word.lower().replace("’", "'").strip("-'")
                if len(word) > 1 and not morph(lang).word_is_known(word):
                    found.setdefault(word, key)
    assert {
        word: key for word, key in found.items() if word not in UNKNOWN_RIGHT_MESSAGES[lang]
    } == {}
    assert UNKNOWN_RIGHT_MESSAGES[lang] <= set(found)  # no stale exception


def test_the_spelling_check_finds_a_typo_and_the_other_language() -> None:
    assert not morph("ru").word_is_known("очкав")
    assert not morph("ru").word_is_known("гравець")
    assert not morph("uk").word_is_known("игрок")


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_number_in_the_rules_has_its_noun_in_the_right_form(lang: str) -> None:
    """«22 очка», «31 карту», «30 карт», «4 гравці»: a number's noun (after an adjective at
    most) has the case and number a count gives it, in the nominative or the accusative."""
    text = " ".join(rules_markdown(lang).replace("**", "").split())
    checked = 0
    for found in re.finditer(rf"(?<![\d+−-])(\d+) ({WORD.pattern})(?: ({WORD.pattern}))?", text):
        n, first, second = int(found.group(1)), found.group(2), found.group(3)
        noun = None
        if all(p.tag.POS not in {"PREP", "CONJ"} for p in parses(lang, first)):
            if any(p.tag.POS == "NOUN" for p in parses(lang, first)):
                noun = first
            elif second and any(p.tag.POS in {"ADJF", "PRTF"} for p in parses(lang, first)):
                noun = second
        if noun is None:
            continue  # "10 за фокстрот", "от 7 до 9": not a count of things
        want = noun_expected(lang, n, "nom") | noun_expected(lang, n, "acc")
        assert any(
            p.tag.POS == "NOUN" and (p.tag.case, is_plural(p.tag)) in want
            for p in parses(lang, noun)
        ), (lang, found.group())
        checked += 1
    assert checked >= 30


def test_the_latin_check_finds_an_option_left_in_english() -> None:
    assert latin("валетом или такой же (take = match)") == {"take", "match"}
    assert latin("Enter — сыграть · Esc — закрыть · файл JSON") == set()


# ------------------------------------------------------------------------ names

#: The placeholders that hold a player's name (or names): a name has one form, the nominative
#: (a person types it; a computer seat's name is "Компьютер 3 (эксперт)").
NAME_SLOTS = frozenset({"name", "names", "dealer", "first"})


def name_slot_problem(lang: str, form: str, slot: str) -> str | None:
    """Why ``{slot}`` in ``form`` needs a case other than the nominative, or None: right
    after a preposition («для {name}») or after a noun or adjective in another case that it
    would stand in apposition to («карта игрока {name}»)."""
    word, gap = words_before(form, slot)
    if not word or gap.strip():
        return None  # the start, or after a colon, a dash, a bracket: the nominative is right
    found = parses(lang, word)
    if any(p.tag.POS == "PREP" for p in found):
        return f"after the preposition {word!r}"
    if all(p.tag.POS in {"NOUN", "ADJF", "PRTF"} and "nomn" not in p.tag for p in found):
        return f"after {word!r}, which is not in the nominative"
    return None


@pytest.mark.parametrize("lang", SLAVIC)
def test_a_name_stands_where_the_nominative_is_right(lang: str) -> None:
    """A name is never declined, so no message puts one where Russian or Ukrainian needs
    another case: «Карты игрока Компьютер 3 (эксперт)» reads wrong, «Компьютер 3 (эксперт):
    на руке …» and «кто положил: Компьютер 3 (эксперт)» read right."""
    problems = {}
    for key in messages(lang):
        for form in forms(lang, key):
            for slot in po.fields(form) & NAME_SLOTS:
                problem = name_slot_problem(lang, form, slot)
                if problem:
                    problems[key] = (form, problem)
    assert problems == {}


def test_the_name_check_finds_a_name_in_the_genitive_slot() -> None:
    assert name_slot_problem("ru", "карта игрока {name}", "name") is not None
    assert name_slot_problem("uk", "Розбір ходів гравця {name}", "name") is not None
    assert name_slot_problem("ru", "стол для {name}", "name") is not None
    assert name_slot_problem("ru", "Ходит {name}.", "name") is None
    assert name_slot_problem("uk", "кто поклав: {name}", "name") is None


@pytest.mark.parametrize(
    ("lang", "key", "expected"),
    [
        ("ru", "web_top_by", "кто положил: Компьютер 3 (эксперт)"),
        ("uk", "web_top_by", "хто поклав: Комп'ютер 3 (експерт)"),
        ("ru", "hand_of", "Компьютер 3 (эксперт): на руке 10♥ Д♠"),
        (
            "uk",
            "tui_review_offer",
            "Розбір ходів: Комп'ютер 3 (експерт). Комп'ютер перевірить кожен хід.",
        ),
    ],
)
def test_a_computer_seat_in_the_sentences_the_native_reader_found(
    lang: str, key: str, expected: str
) -> None:
    name = computer_name(2, "expert", lang)
    assert catalog(lang).text(key, name=name, cards=f"10♥ {card_text(Card.parse('QS'), lang)}") == (
        expected
    )


# ------------------------------------------------------- every message, every language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_translated_with_the_placeholders_of_english(lang: str) -> None:
    """Every key renders in every language with English's values (a card slot with the card
    in every case): none is empty, none keeps a placeholder, none is English left as it is."""
    english = messages("en")
    cat = catalog(lang)
    assert po.problems({"en": po.po_path("en").read_text("utf-8")}) == []
    for key, message in messages(lang).items():
        for index, form in enumerate(forms("en", key)):
            values = values_for(form, lang=lang)
            if isinstance(message, str):
                text = cat.text(key, **values)
            else:
                values.pop("n", None)
                text = cat.count(key, 1 + index * 4, **values)
            assert text.strip(), (lang, key)
            assert "{" not in text and "}" not in text, (lang, key, text)
            if lang != "en" and latin(str(english[key])):
                assert latin(text) == set(), (lang, key, text)


# ------------------------------------------------------------- the coach's costs

#: Words a verb phrase of the coach may start with before its verb (not, at once).
BEFORE_VERB = {"не", "сразу", "одразу"}


def starts_with_a_verb(lang: str, text: str) -> bool:
    words = list(WORD.findall(text))
    while words and words[0].lower() in BEFORE_VERB:
        words.pop(0)
    return bool(words) and any(p.tag.POS == "VERB" for p in parses(lang, words[0]))


@pytest.mark.parametrize("lang", SLAVIC)
def test_what_a_move_cost_is_a_verb_phrase_after_the_move_played(lang: str) -> None:
    """A review line says «сыгранный ход {cost}»: every cost phrase, in every kind of
    position, goes on with a verb in the third person («упускает», «оставляет»), as do the
    move's own reasons the cost may start with."""
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        players = 2 + seed % 3
        state = State(TableOptions(players=players, take=list(TakeRule)[seed % 2]), dealer=0)
        state.deal(rng)
        play_random(state, rng, max_actions=rng.randrange(40))
        seat = state.to_move
        if seat is None:
            continue
        obs = state.observation(seat)
        legal = obs.legal_actions
        if len(legal) < 2:  # "the only legal move: ..." is never compared
            continue
        for action in legal:
            assert starts_with_a_verb(lang, explain(obs, action, lang)), explain(obs, action, lang)
        for other in legal[1:]:
            diff = difference(obs, legal[0], other, -float(rng.randrange(0, 25)))
            text = cost_text(diff, obs, lang)
            assert starts_with_a_verb(lang, text), text
            checked += 1
    assert checked > 100
