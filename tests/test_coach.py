"""The coach: card counting, hints with reasons, the review of a deal (rules V1-V3, P1, P2, T3b).

Search budgets are tiny (``iterations`` of 20-60, ``seconds=None`` so that the
results do not depend on the machine's speed).  Positions in which the test
needs the expert to find a move are played with three players: with two
players and ``take = any`` a whole-deal playout swings by about 175 points
(whoever must start the piles keeps starting them), and a search of a few
dozen iterations can miss even a double foxtrot there.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from math import comb

import pytest
from babel import Locale
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from foxtrot.bots.coach import (
    GOOD_BELOW,
    MISTAKE_FROM,
    Grade,
    ReviewItem,
    action_text,
    alternative_text,
    card_count,
    compared,
    cost_text,
    difference,
    explain,
    move_cost,
    observation_seed,
    reasons,
    review,
    shown_gap,
    suggest,
    summary,
)
from foxtrot.bots.counting import holds_any, next_hand_size, percent
from foxtrot.bots.greedy import Effect, GreedyBot, Odds, effects
from foxtrot.bots.verdict import DealVerdict, verdicts
from foxtrot.core import (
    TAKE,
    Action,
    Card,
    Observation,
    Rank,
    State,
    TableOptions,
    TakeRule,
    state_at,
    to_record,
)
from foxtrot.i18n import card_text
from helpers import deal_rigged, into_deal, new_state, play_random

#: "points" by the CLDR plural form of a number (Babel's rules, not the catalogs': a second source)
POINTS = {
    "ru": {"one": "очко", "few": "очка", "many": "очков", "other": "очка"},
    "uk": {"one": "очко", "few": "очки", "many": "очок", "other": "очка"},
}


def points_word(n: int, language: str) -> str:
    return POINTS[language][Locale(language).plural_form(abs(n))]


LANGS = ("en", "ru", "uk")
_CARD = re.compile(r"(10|[2-9JQKAВДКТ])([♠♥♦♣])")
_LOCAL_RANK = {"В": "J", "Д": "Q", "К": "K", "Т": "A"}


def mentioned(text: str) -> set[Card]:
    """Every card displayed in ``text`` (``10♥``, ``Q♠``, ``Д♠``, ``Т♣``)."""
    return {
        Card.parse(_LOCAL_RANK.get(rank, rank) + "SHDC"["♠♥♦♣".index(suit)])
        for rank, suit in _CARD.findall(text)
    }


_NUMBER = re.compile(r"[+-]\d+(?:[.,]\d+)?")


def _numbers(text: str) -> list[float]:
    """The signed numbers of ``text`` ("-5.0", "+10,0"), in order."""
    return [float(number.replace(",", ".")) for number in _NUMBER.findall(text)]


def _effect(obs: Observation, action: Action) -> Effect:
    return next(effect for effect in effects(obs) if effect.action == action)


def known(obs: Observation) -> set[Card]:
    """The cards a seat can know: its hand, the pile and every card seen this deal."""
    return set(obs.hand) | set(obs.pile) | set(obs.seen_cards())


def act(text: str) -> Action:
    return Action.parse(text)


def _position(players: int, hand: str, upturned: str, **options: object) -> State:
    """A fresh deal, dealer 0: seat 1 plays first with ``hand`` and the upturned card."""
    state = new_state(0, players=players, **options)
    deal_rigged(state, hands={1: hand}, upturned=upturned)
    return state


# ------------------------------------------------------------ card counting


def test_card_count_matches_a_count_by_hand() -> None:
    state = _position(2, "10H 10D JS AS QS 2C 3C 4C", "10S")
    count = card_count(state.observation(1))
    # 8 tens: two in the hand, one upturned; 8 Jacks, 8 Aces: one each in the hand
    assert (
        count.unseen_tens,
        count.unseen_jacks,
        count.unseen_aces,
        count.unseen_queens_of_spades,
    ) == (5, 7, 7, 1)
    assert (count.stock, count.next_seat, count.next_hand) == (104 - 17, 0, 8)
    assert count.lines("en")[:2] == [
        "Unseen: 5 tens, 7 Jacks, 7 Aces, 1 Queen of spades",
        "Stock: 87 cards",
    ]
    assert count.lines("ru")[:2] == [
        "Ещё не вышли: 5 десяток, 7 валетов, 7 тузов, 1 пиковая дама",
        "В запасе 87 карт",
    ]
    assert count.lines("uk")[:2] == [
        "Ще не вийшли: 5 десяток, 7 валетів, 7 тузів, 1 пікова дама",
        "У запасі 87 карт",
    ]
    assert count.lines("en")[2].startswith("Next player (Player 1) can match a lone card: ")
    state.apply("JS")  # takes the upturned 10S (T3c): seat 0 has now seen 10S and JS
    other = card_count(state.observation(0))  # seat 0 holds filler: no 10, J, A or Q♠
    assert (
        other.unseen_tens,
        other.unseen_jacks,
        other.unseen_aces,
        other.unseen_queens_of_spades,
        other.next_seat,
    ) == (7, 7, 8, 2, 1)


def test_lone_card_risk_is_the_hypergeometric_chance() -> None:
    state = _position(2, "10H 10D JS AS QS 2C 3C 4C", "10S")
    obs = state.observation(1)
    count = card_count(obs)
    pool = 104 - 8 - 1  # everything but the own hand and the upturned card
    by_rank = Counter(card.rank for card in obs.unseen_cards().elements())
    for rank in Rank:
        expected = 1 - comb(pool - by_rank[rank], 8) / comb(pool, 8)
        assert count.lone_card_risk[rank] == pytest.approx(expected)
        assert count.lone_card_risk[rank] == pytest.approx(Odds(obs).holds(rank))
    assert count.lone_card_risk[Rank.TWO] > count.lone_card_risk[Rank.TEN]  # 5 tens unseen


def test_R1_an_empty_next_hand_is_judged_by_the_redeal_it_is_about_to_get() -> None:
    state = State(TableOptions(players=2, take=TakeRule.MATCH), dealer=0)
    state.deal(random.Random(8))
    while state.hand(1) or len(state.hand(0)) != 1:  # seat 1 has played his last card
        state.apply(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs.hand_sizes[1] == 0 and next_hand_size(obs) == 8
    count = card_count(obs)
    pool = sum(obs.unseen_cards().values())
    sevens = sum(n for card, n in obs.unseen_cards().items() if card.rank == Rank.SEVEN)
    assert count.lone_card_risk[Rank.SEVEN] == pytest.approx(
        1 - comb(pool - sevens, 8) / comb(pool, 8)
    )


def test_a_rank_the_next_player_cannot_hold_is_safe() -> None:
    obs = _position(3, "2S 2S 2H 2H 2D 2D 2C 2C", "5H").observation(1)  # every 2 is here
    assert card_count(obs).lone_card_risk[Rank.TWO] == 0.0
    assert percent(0.0) == 0 and percent(0.001) == 1 and percent(0.999) == 99
    assert percent(1.0) == 100


# -------------------------------------------------------------------- hints


def test_T3b_a_forced_double_foxtrot_of_tens_is_worth_40() -> None:
    state = _position(2, "10D 2S", "10H", forced_foxtrot=True)
    obs = state.observation(1)
    hint = suggest(obs, iterations=30, seconds=None)
    assert hint.action == act("10D") and hint.value is None  # one legal action: no search
    assert hint.reason == "the only legal move: makes a double foxtrot: +40"
    assert suggest(obs, "ru").reason == "единственный возможный ход: делает двойной фокстрот: +40"
    assert suggest(obs, "uk").reason == "єдиний можливий хід: робить подвійний фокстрот: +40"
    hash(hint)  # frozen and hashable, although the risks are a dict


def test_T3b_the_expert_makes_an_obvious_double_foxtrot_and_says_why() -> None:
    state = _position(3, "10D 2S", "10H")
    obs = state.observation(1)
    hint = suggest(obs, iterations=60, seconds=None)
    assert hint.action == act("10D") and hint.alternative in (act("2S"), TAKE)
    assert hint.value is not None and hint.alternative_value is not None
    alt = hint.alternative
    gap = round(hint.value - hint.alternative_value)
    assert gap >= 10  # the foxtrot's bonus at least
    # compared with the alternative: by how much it is worse, and what it does differently
    _, other = reasons(obs, hint.action, alt, hint.value - hint.alternative_value)
    assert hint.reason == (
        f"makes a double foxtrot: +40; {alternative_text(alt)} instead is {gap} points worse"
        f" — it {other}"
    )
    # the foxtrot given up, by the points the alternative scores at once (the 10♥ if it takes)
    given_up = 40 - sum(card.points for card in _effect(obs, alt).taken)
    assert other.startswith(f"gives up the double foxtrot: {-given_up:+d} at once"), other
    assert alternative_text(TAKE) == "taking the pile"
    assert alternative_text(act("2S"), "ru") == "ход двойкой пик"  # «ход 2♠» lacks the case
    _, other_ru = reasons(obs, hint.action, alt, hint.value - hint.alternative_value, "ru")
    assert other_ru.startswith(f"упускает двойной фокстрот: {-given_up:+d} сразу"), other_ru
    assert suggest(obs, "ru", iterations=60, seconds=None).reason == (
        f"делает двойной фокстрот: +40; {alternative_text(alt, 'ru')} вместо этого — на {gap}"
        f" {points_word(gap, 'ru')} хуже: {other_ru}"
    )
    assert explain(obs, act("10D"), "ru") == "делает двойной фокстрот: +40"
    jacks = _position(3, "JD 2S", "JH").observation(1)
    assert explain(jacks, act("JD")) == "makes a double foxtrot: +22"  # 20 + 1 + 1 (P1, P2)


def test_suggest_is_legal_and_deterministic_for_the_same_observation() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        state = State(TableOptions(players=2 + seed), dealer=0)
        state.deal(rng)
        play_random(state, rng, max_actions=3 + 5 * seed)
        seat = state.to_move
        assert seat is not None
        obs = state.observation(seat)
        first = suggest(obs, iterations=20, seconds=None)
        assert first.action in obs.legal_actions
        assert suggest(obs, iterations=20, seconds=None) == first
        assert observation_seed(obs) == observation_seed(state.clone().observation(seat))


def test_reasons_name_what_the_move_does() -> None:
    lone = _position(3, "2C 5D", "5H")
    obs = lone.observation(1)
    assert explain(obs, act("5D")) == "makes a foxtrot: +10"
    assert explain(obs, TAKE) == "takes the lone 5♥: the next player must start a new pile"
    assert explain(obs, act("2C")) == "leaves no lone card for a foxtrot"
    assert explain(obs, TAKE, "uk") == (
        "забирає 5♥, єдину карту в стосі: наступному гравцеві доведеться починати новий стос"
    )

    small = _position(3, "2C QS", "QH")
    small.apply("2C")  # the pile: Q♥ 2♣; seat 2 (quiet filler cards) to move
    obs = small.observation(2)
    assert explain(obs, TAKE) == "takes 2 cards"
    assert explain(obs, obs.legal_actions[0]) == (
        "keeps the pile small: nothing in it is worth taking"
    )

    poison = _position(3, "QS 2C", "5H")
    obs = poison.observation(1)
    assert explain(obs, act("QS")) == "feeds the pile with the Q♠: -20 for whoever takes it"
    poison.apply("QS")  # the pile: 5H QS
    obs = poison.observation(2)
    assert explain(obs, TAKE) == "takes 2 cards despite the Q♠: -20"
    assert explain(obs, TAKE, "ru") == "забирает 2 карты, хоть там и Д♠: -20"
    quiet = next(a for a in obs.legal_actions if a.card is not None and a.card.rank != Rank.JACK)
    assert explain(obs, quiet) == "avoids taking the Q♠"

    ten = _position(3, "2C", "10H")
    ten.apply("2C")
    assert explain(ten.observation(2), TAKE) == "takes 10 points"
    assert explain(ten.observation(2), TAKE, "ru") == "забирает 10 очков"
    laid = ten.observation(2).hand[0]
    # under take = any the next player can take the pile at once: +10 for him, shared by the
    # two others of the seat's margin
    assert explain(ten.observation(2), Action.play(laid)) == (
        f"lays {card_text(laid, 'en')}: the pile holds 3 cards, +10 in points;"
        " the next player can take the pile at once (-10 × 1 ÷ 2 = -5.0)"
    )
    assert explain(ten.observation(2), Action.play(laid), "uk") == (
        f"кладе {card_text(laid, 'uk')}: у стосі 3 карти, разом +10;"
        " наступний гравець може одразу забрати стос (-10 × 1 ÷ 2 = -5,0)"
    )
    with pytest.raises(ValueError, match="seat 1 is not to move"):
        suggest(ten.observation(1))


def test_a_lone_card_reason_gives_the_risk_or_says_it_is_safe() -> None:
    state = _position(3, "2S 2S 2H 2H 2D 2D 2C 2C", "5H")
    state.apply("take")  # seat 1 takes the upturned card: seat 2 must start a new pile
    obs = state.observation(2)
    card = obs.hand[0]
    risk = card_count(obs).lone_card_risk[card.rank]
    assert 0 < risk < 1
    # the chance quoted is the count's, and the cost its product with the foxtrot (10 points,
    # his own: at three players the seat's margin loses half of it)
    chance = percent(risk) / 100
    assert explain(obs, Action.play(card)) == (
        f"leaves a lone {card_text(card, 'en')}: the next player holds a card of that rank in"
        f" {percent(risk)}% of the possible deals, a foxtrot for him"
        f" (-10 × {chance:.2f} ÷ 2 = {-10 * chance / 2:+.1f})"
    )
    state.apply(Action.play(card))
    state.apply("take")  # seat 0 takes it; seat 1 must start a pile, and holds every 2
    obs = state.observation(1)
    assert explain(obs, act("2S")) == "leaves a lone 2♠ the next player cannot match"
    assert explain(obs, act("2S"), "ru") == (
        "оставляет в стопке только 2♠: следующему игроку нечем ответить фокстротом"
    )


# ------------------------------------------------- hints never tell secrets


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    take=st.sampled_from(list(TakeRule)),
    forced=st.booleans(),
    actions=st.integers(0, 70),
    other=st.integers(0, 10**6),
)
def test_V3_hints_never_mention_a_card_the_seat_cannot_know(
    *, seed: int, players: int, take: TakeRule, forced: bool, actions: int, other: int
) -> None:
    rng = random.Random(seed)
    options = TableOptions(players=players, take=take, forced_foxtrot=forced)
    state = into_deal(options, rng, actions)
    seat = state.to_move
    assume(seat is not None)
    assert seat is not None
    obs = state.observation(seat)
    hint = suggest(obs, iterations=20, seconds=None)
    assert hint.action in obs.legal_actions
    seen = known(obs)
    for lang in LANGS:
        reason = explain(obs, hint.action, lang)
        assert mentioned(reason) <= seen, (lang, reason)
        lines = hint.counting.lines(lang)
        # the first line counts categories of unseen cards, in words: it names no card
        assert mentioned(lines[0]) == set(), lines[0]
        for line in lines[1:]:
            assert mentioned(line) <= seen, (lang, line)
    if hint.alternative is None:  # a single legal move: nothing to compare
        assert hint.value is None and hint.reason == explain(obs, hint.action, "en")
    else:
        assert hint.value is not None and hint.alternative_value is not None
        assert hint.alternative in obs.legal_actions and hint.alternative != hint.action
        assert hint.value >= hint.alternative_value
        gap = hint.value - hint.alternative_value
        assert hint.reason.startswith(explain(obs, hint.action, "en") + "; ")
        for lang in LANGS:
            reason = compared(obs, hint.action, hint.alternative, gap, lang)
            own, why_not = reasons(obs, hint.action, hint.alternative, gap, lang)
            assert own != why_not and reason.startswith(own) and reason.endswith(why_not)
            assert mentioned(reason) <= seen, (lang, reason)
        assert hint.reason == compared(obs, hint.action, hint.alternative, gap, "en")
    # non-interference: deal the hidden cards anew; the hint must not change at all
    resampled = state.resample(seat, random.Random(other))
    assert suggest(resampled.observation(seat), iterations=20, seconds=None) == hint


# ------------------------------------------------------------------- review


def _declined_foxtrot_record() -> dict[str, object]:
    """Seat 1 lays 2S on the upturned 10H instead of making a double foxtrot with 10D."""
    state = _position(3, "10D 10D 2S 2S 3S 3S 4S 4S", "10H")
    state.apply("2S")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    return to_record(state)


def test_review_calls_a_declined_double_foxtrot_a_mistake() -> None:
    record = _declined_foxtrot_record()
    items = review(record, 1, iterations=60)
    assert [(item.deal, item.index, item.played) for item in items] == [(0, 0, act("2S"))]
    item = items[0]
    assert item.best == act("10D")
    assert item.grade is Grade.MISTAKE and item.loss >= 10
    assert item.value is not None and item.best_value is not None
    assert item.loss == pytest.approx(item.best_value - item.value)
    # the sentence's figures agree with each other (the loss is the difference of the two
    # margins) and with the position (10♦ on the 10♥ over a Jack makes a double foxtrot)
    # the cost is named by its main part, the double foxtrot given up (-40 at once), and the
    # parts add up to the points lost
    found = re.fullmatch(
        r"Deal 1, move 1: 2♠ — mistake, -(\d+) points; better 10♦, expected margin ([+-]\d+)"
        r" against ([+-]\d+) \(the move played gives up the double foxtrot: -40 at once"
        r"(?:; besides, (.*))?\)\.",
        item.text(),
    )
    assert found is not None, item.text()
    lost, best, played = (int(x) for x in found.groups()[:3])
    assert lost == best - played >= 10
    assert -40 + sum(_numbers(found.group(4) or "")) == pytest.approx(-lost)
    assert item.text("ru").startswith(f"Раздача 1, ход 1: 2♠ — ошибка, -{lost} "), item.text("ru")
    assert "(сыгранный ход упускает двойной фокстрот: -40 сразу" in item.text("ru")
    assert (
        f"краще 10♦, очікувана різниця {best:+d} проти {played:+d}"
        " (зіграний хід пропускає подвійний фокстрот: -40 одразу"
    ) in item.text("uk")
    lost = round(item.loss)
    assert summary(items) == f"0 good moves, 0 inaccuracies, 1 mistake; {lost} points lost in all"
    assert summary(items, "ru").startswith("0 хороших ходов, 0 неточностей, 1 ошибка; всего")


def test_review_finds_the_foxtrot_good_and_skips_forced_moves() -> None:
    state = _position(3, "10D 2S", "10H")
    state.apply("10D")
    items = review(to_record(state), 1, iterations=60)
    assert len(items) == 1 and items[0].grade is Grade.GOOD and items[0].loss == 0.0
    good = items[0]
    second = good.second
    assert second in (act("2S"), TAKE)
    assert good.value is not None and good.second_value is not None
    gap = round(good.value - good.second_value)
    assert gap >= 10
    _, other = reasons(good.observation, act("10D"), second, good.value - good.second_value, "uk")
    assert other.startswith("пропускає подвійний фокстрот: ")
    assert good.text("uk") == (
        f"Роздача 1, хід 1: 10♦ — добрий хід (робить подвійний фокстрот: +40;"
        f" {alternative_text(second, 'uk')} натомість — на {gap} {points_word(gap, 'uk')} гірше:"
        f" {other})."
    )
    forced = _position(3, "10D 2S", "10H", forced_foxtrot=True)
    forced.apply("10D")
    assert review(to_record(forced), 1, iterations=30) == []


def test_review_refuses_a_bad_seat_or_deal() -> None:
    record = _declined_foxtrot_record()
    with pytest.raises(ValueError, match="not a seat"):
        review(record, 3, iterations=10)
    with pytest.raises(ValueError, match="no deal 4"):
        review(record, 1, iterations=10, deal=4)
    assert [item.index for item in review(record, 0, iterations=10, deal=0)] == [2]
    assert review(record, 2, iterations=10, deal=0)[0].index == 1


def test_grades_and_their_thresholds() -> None:
    assert [
        Grade.of(x)
        for x in (0, GOOD_BELOW - 0.01, GOOD_BELOW, MISTAKE_FROM - 0.01, MISTAKE_FROM, 55)
    ] == [Grade.GOOD, Grade.GOOD, Grade.INACCURACY, Grade.INACCURACY, Grade.MISTAKE, Grade.MISTAKE]
    assert [Grade.MISTAKE.text(lang) for lang in LANGS] == ["mistake", "ошибка", "помилка"]


def test_summary_counts_in_every_language() -> None:
    obs = _position(3, "10D 2S", "10H").observation(1)

    def item(grade: Grade, loss: float) -> ReviewItem:
        return ReviewItem(0, 0, act("2S"), act("10D"), loss, grade, obs)

    items = [
        item(Grade.GOOD, 0),
        item(Grade.INACCURACY, 4.2),
        *[item(Grade.MISTAKE, 10.0) for _ in range(5)],
    ]
    assert summary(items, "ru") == ("1 хороший ход, 1 неточность, 5 ошибок; всего потеряно 54 очка")
    assert summary(items, "uk") == (
        "1 добрий хід, 1 неточність, 5 помилок; усього втрачено 54 очки"
    )
    assert summary(items[:3], "en") == "1 good move, 1 inaccuracy, 1 mistake; 14 points lost in all"
    # good moves lose a little too: the line says how much of the loss is theirs
    slips = [item(Grade.GOOD, 2.4) for _ in range(5)]
    assert summary(slips, "en") == (
        "5 good moves, 0 inaccuracies, 0 mistakes; 12 points lost in all, 12 of them in good moves"
    )
    assert summary(slips, "ru").endswith(
        "всего потеряно 12 очков, из них 12 очков — в хороших ходах"
    )
    assert summary([*slips, items[1]], "uk").endswith(
        "усього втрачено 16 очок, з них 12 очок — у добрих ходах"
    )
    # no values: the parts still add up to the points lost (-40 - 5 + 41 = -4)
    assert items[1].text("ru") == (
        "Раздача 1, ход 1: 2♠ — неточность, -4 очка; лучше 10♦ (сыгранный ход упускает двойной"
        " фокстрот: -40 сразу; кроме того, -5,0 из-за шансов следующего игрока, +41,0 в"
        " дальнейшей игре)."
    )
    assert action_text(TAKE, "ru") == "забрать стопку" and action_text(TAKE, "uk") == "забрати стос"


# ------------------------------------------------------------ deal verdicts


def _played_deal(take: TakeRule) -> tuple[dict[str, object], list[int]]:
    """A whole 2-player deal, seat 0 at random against greedy; and the piles each seat started
    (cards played on an empty pile), counted on the live table."""
    rng = random.Random(5)
    state = State(TableOptions(players=2, take=take), dealer=0)
    state.deal(rng)
    started = [0, 0]
    while (seat := state.to_move) is not None:
        obs = state.observation(seat)
        action = (
            rng.choice(obs.legal_actions)
            if seat == 0
            else GreedyBot().choose(obs, obs.legal_actions, rng)
        )
        if action.card is not None and not state.pile:
            started[seat] += 1
        state.apply(action)
    return to_record(state), started


#: The verdict's sentence on the costliest move, in each language: move, card (value),
#: the better card (value).
COSTLIEST = {
    "en": r"The costliest move: move (\d+), (\S+) \(-(\d+) points?\); better (\S+)\.$",
    "ru": r"Самый дорогой ход: ход (\d+), (\S+) \(-(\d+) очк(?:о|а|ов)\); лучше было (\S+)\.$",
    "uk": r"Найдорожчий хід: хід (\d+), (\S+) \(-(\d+) оч(?:ко|ки|ок)\); краще було (\S+)\.$",
}


@pytest.mark.parametrize("take", list(TakeRule))
def test_the_verdict_on_a_lost_deal_names_an_alternative_in_every_language(
    take: TakeRule,
) -> None:
    """Checked against the record, not against the verdict's own fields: the scores, the
    margin and the piles started are the record's; the move named was seat 0's and played
    that card; the better card was legal then and is another; every language says the same."""
    record, started = _played_deal(take)
    items = review(record, 0, iterations=6, seconds=None)
    (verdict,) = verdicts(record, 0, items)
    scores = record["deals"][0]["scores"]  # type: ignore[index]
    mine, theirs = scores[0]["total"], scores[1]["total"]
    assert mine < theirs  # random play against greedy: the deal is lost
    heads = {"en": "Deal 1 lost: ", "ru": "Раздача 1 проиграна: ", "uk": "Роздачу 1 програно: "}
    said = {}
    for lang in LANGS:
        text = verdict.text(lang)
        assert text.startswith(heads[lang] + f"{mine:+d} "), text
        assert f"{theirs:+d}" in text and f"{mine - theirs:+d})" in text, text
        if take is TakeRule.ANY:  # the tempo is said with the piles seat 0 started
            of = {"en": "of", "ru": "из", "uk": "з"}[lang]
            assert f" {started[0]} {of} {sum(started)})" in text, text
        found = re.search(COSTLIEST[lang], text)
        assert found is not None, text
        said[lang] = found.groups()
    move, played, cost, better = said["en"]
    actions = record["deals"][0]["actions"]  # type: ignore[index]
    index = int(move) - 1
    card = Card.parse(actions[index]["play"])
    assert actions[index]["seat"] == 0 and card_text(card, "en") == played
    before = state_at(record, 0, index - 1 if index else None)
    legal = {action_text(action) for action in before.legal_actions()}
    assert better in legal and better != played
    assert int(cost) > 0  # the better move was worth more
    lost = re.search(r"cost (?:only )?(\d+) points", verdict.text())
    assert lost is not None and int(lost[1]) >= int(cost) - 1  # the deal's loss holds this move's
    for lang in ("ru", "uk"):  # the same move and figures, the cards in the language's letters
        alternative = next(a for a in before.legal_actions() if action_text(a) == better)
        assert said[lang] == (move, card_text(card, lang), cost, action_text(alternative, lang))


def _item(loss: float) -> ReviewItem:
    obs = _position(3, "10D 2S", "10H").observation(1)
    return ReviewItem(0, 6, act("2S"), act("10D"), loss, Grade.of(loss), obs, "en", -3.0, 32.0)


@pytest.mark.parametrize(
    ("value", "lang", "sentence"),
    [
        (
            -3.0,
            "en",
            "Deal 1, move 7: 2♠ — mistake, -35 points; better 10♦, expected margin +32"
            " against -3 (the move played gives up the double foxtrot: -40 at once; besides,"
            " -5.0 from the next player's chances, +10.0 in the play that follows).",
        ),
        (
            -3.0,
            "ru",
            "Раздача 1, ход 7: 2♠ — ошибка, -35 очков; лучше 10♦, ожидаемая разница +32"
            " против -3 (сыгранный ход упускает двойной фокстрот: -40 сразу; кроме того, -5,0"
            " из-за шансов следующего игрока, +10,0 в дальнейшей игре).",
        ),
        (11.0, "ru", "Раздача 1, ход 7: 2♠ — ошибка, -21 очко; лучше 10♦,"),
        (10.0, "ru", "Раздача 1, ход 7: 2♠ — ошибка, -22 очка; лучше 10♦,"),
        (20.0, "ru", "Раздача 1, ход 7: 2♠ — ошибка, -12 очков; лучше 10♦,"),
        (
            -3.0,
            "uk",
            "Роздача 1, хід 7: 2♠ — помилка, -35 очок; краще 10♦, очікувана різниця +32"
            " проти -3 (зіграний хід пропускає подвійний фокстрот: -40 одразу; крім того, -5,0"
            " через шанси наступного гравця, +10,0 у подальшій грі).",
        ),
    ],
)
def test_a_review_sentence_reads_as_written_here(value: float, lang: str, sentence: str) -> None:
    """Known answers: fixed figures (margin 32 for the best move) and the sentence each
    language must print for them, with the plural of "points" by the CLDR rule."""
    item = dataclasses.replace(_item(32.0 - value), value=value)
    assert item.text(lang).startswith(sentence), item.text(lang)


def test_a_deal_lost_by_the_cards_says_so_with_the_tempo_and_the_numbers() -> None:
    cards = DealVerdict(1, -12, 360.0, 8.0, 12, 14, 2, True, _item(35.0), None)
    assert cards.by_the_cards and cards.margin == -372
    assert cards.text() == (
        "Deal 2 lost: -12 against +360 for the other player (margin -372), yet your choices"
        " cost only 8 points of expected margin: the deal was lost by the cards and the tempo"
        " (under take = any whoever faces a pile can take it, so the player who starts the"
        " piles can hardly score: you started 12 of 14). The costliest move: move 7, 2♠"
        " (-35 points); better 10♦."
    )
    assert "раздачу решили карты и темп" in cards.text("ru") and "12 из 14" in cards.text("ru")
    assert "роздачу вирішили карти і темп" in cards.text("uk") and "12 з 14" in cards.text("uk")
    assert cards.text("ru").endswith("Самый дорогой ход: ход 7, 2♠ (-35 очков); лучше было 10♦.")
    three = dataclasses.replace(cards, players=3).text
    assert "-12 against +360 for the others on average" in three()
    assert "-12 против +360 в среднем у остальных" in three("ru")
    assert "-12 проти +360 у середньому в інших" in three("uk")
    fair = dataclasses.replace(cards, started=7)  # no more than a fair share: no tempo
    assert "the deal was lost by the cards." in fair.text()
    matched = dataclasses.replace(cards, take_any=False)
    assert "tempo" not in matched.text()
    choices = dataclasses.replace(cards, lost=200.0)
    assert not choices.by_the_cards
    assert choices.text().startswith(
        "Deal 2 lost: -12 against +360 for the other player (margin -372); your choices"
        " cost 200 points of expected margin. The costliest move"
    )
    won = dataclasses.replace(cards, score=400)
    assert won.text("ru").startswith("Раздача 2 выиграна: +400 против +360 у соперника")
    forced = dataclasses.replace(cards, costliest=None)
    for lang, tail in zip(
        LANGS,
        ("Every move was forced", "Все ходы были вынужденными", "Усі ходи були вимушені"),
        strict=True,
    ):
        assert tail in forced.text(lang)
    best = dataclasses.replace(_item(0.0), played=act("10D"), second=act("2S"), second_value=-3.0)
    closest = dataclasses.replace(cards, costliest=None, closest=best)
    assert closest.text().endswith("The choice that mattered most: move 7, 10♦ (+32) over 2♠ (-3).")
    assert closest.text("uk").endswith("Найважливіший вибір: хід 7, 10♦ (+32), а не 2♠ (-3).")


def test_an_unfinished_deal_has_no_verdict() -> None:
    record = _declined_foxtrot_record()
    assert verdicts(record, 1, review(record, 1, iterations=6, seconds=None)) == []


def test_a_comparison_says_how_much_worse_the_alternative_is_and_why() -> None:
    obs = _position(3, "2C 3C 5D", "5H").observation(1)
    same = "leaves no lone card for a foxtrot"
    # the same at once and for the next player: the difference is the search's, with its number
    assert compared(obs, act("2C"), act("3C"), 4.2) == (
        f"{same}; playing 3♣ instead is 4 points worse — it does the same at once and leaves"
        " the next player the same chances, but makes a difference of -4.0 in the play that"
        " follows, by the coach's search"
    )
    assert compared(obs, act("2C"), act("3C"), 0.4) == (
        f"{same}; playing 3♣ is about as good — it does the same at once and leaves the next"
        " player the same chances, but makes a difference of -0.4 in the play that follows,"
        " by the coach's search"
    )
    assert compared(obs, act("2C"), act("3C"), 1.0, "ru") == (
        "не оставляет одиночной карты для фокстрота; ход тройкой треф вместо этого — на 1 очко"
        " хуже: сразу делает то же и оставляет следующему игроку те же шансы, но даёт разницу"
        " -1,0 в дальнейшей игре, по расчёту тренера"
    )
    assert compared(obs, act("5D"), TAKE, 0.2, "uk") == (
        "робить фокстрот: +10; взяття стосу — майже так само добре: пропускає фокстрот:"
        " -10 одразу; крім того, +9,8 у подальшій грі"
    )
    # most of it later: what 2♣ does instead is said, then the parts, which add up to -21
    assert compared(obs, act("5D"), act("2C"), 21.0) == (
        f"makes a foxtrot: +10; playing 2♣ instead is 21 points worse — it {same}; the"
        " difference, -11.0, comes in the play that follows, by the coach's search; besides,"
        " -10 at once"
    )
    # an alternative the search found better (a negative gap): the parts still add up
    assert compared(obs, act("5D"), act("2C"), -3.0).endswith(
        "it leaves no lone card for a foxtrot; the difference, +13.0, comes in the play that"
        " follows, by the coach's search; besides, -10 at once"
    )


def test_the_page_hint_names_its_cards_in_words_in_the_case_of_each_sentence() -> None:
    """The page names the move in words ("сыграйте короля бубен"), so its reason does too."""
    state = _position(3, "2S 2S 2H 2H 2D 2D 2C 2C", "5H")
    state.apply("take")
    state.apply(Action.play(state.observation(2).hand[0]))
    state.apply("take")  # seat 1 must start a pile
    obs = state.observation(1)
    assert explain(obs, act("2S"), "ru", words=True) == (
        "оставляет в стопке только двойку пик: следующему игроку нечем ответить фокстротом"
    )
    assert explain(obs, act("2S"), "en", words=True) == (
        "leaves a lone two of spades the next player cannot match"
    )
    obs = _position(3, "2C 3C 5D", "5H").observation(1)
    assert compared(obs, act("5D"), TAKE, 0.2, "uk", words=True) == (
        "робить фокстрот: +10; взяття стосу — майже так само добре: пропускає фокстрот:"
        " -10 одразу; крім того, +9,8 у подальшій грі"
    )
    assert compared(obs, act("2C"), act("3C"), 1.0, "ru", words=True) == (
        "не оставляет одиночной карты для фокстрота; ход тройкой треф вместо этого — на 1 очко"
        " хуже: сразу делает то же и оставляет следующему игроку те же шансы, но даёт разницу"
        " -1,0 в дальнейшей игре, по расчёту тренера"
    )
    hint = suggest(obs, "ru", iterations=8, seconds=None, words=True)
    assert mentioned(hint.reason) == set()  # no card in short left in the sentence


# ------------------------------------------------------ what a move costs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 5),
    take=st.sampled_from(list(TakeRule)),
    forced=st.booleans(),
    actions=st.integers(0, 60),
    gap=st.floats(-30, 60),
)
def test_two_compared_moves_never_get_the_same_reason(
    *, seed: int, players: int, take: TakeRule, forced: bool, actions: int, gap: float
) -> None:
    """Every pair of legal moves, in every language: the chosen move's reason and what the
    other does differently are two different texts, and the parts of the difference add up to
    the gap the words show."""
    rng = random.Random(seed)
    options = TableOptions(players=players, take=take, forced_foxtrot=forced)
    state = into_deal(options, rng, actions)
    seat = state.to_move
    assume(seat is not None)
    assert seat is not None
    obs = state.observation(seat)
    legal = obs.legal_actions
    assume(len(legal) > 1)
    pairs = [(a, b) for a in legal for b in legal if a != b][:12]
    for action, other in pairs:
        diff = difference(obs, action, other, -shown_gap(gap))
        assert diff.now + diff.next + diff.later == pytest.approx(diff.total, abs=1e-9)
        for lang in LANGS:
            own, why_not = reasons(obs, action, other, gap, lang)
            assert own != why_not, (lang, own)


def test_the_chance_quoted_is_the_counts_and_the_cost_its_product() -> None:
    """A lone card: the percentage is ``percent`` of the count's risk, the formula multiplies
    the foxtrot the next player would make (bonus and both cards) by that chance, and the
    difference's ``next`` part is that product (at two players, all of it)."""
    state = _position(2, "2S 2S 2H 2H 2D 2D 2C 2C", "5H", take=TakeRule.ANY)
    state.apply("take")
    obs = state.observation(0)  # seat 0 must start a pile
    count = card_count(obs)
    card = next(c for c in obs.hand if 0 < count.lone_card_risk[c.rank] < 1)
    cost = move_cost(_effect(obs, Action.play(card)), obs, count)
    risk = count.lone_card_risk[card.rank]
    assert cost.lone and cost.chance == percent(risk) / 100
    points = 20 if card.rank in (Rank.TEN, Rank.JACK) else 10
    points += 2 * card.points
    assert cost.offer == points and cost.next == pytest.approx(-points * cost.chance)
    text = explain(obs, Action.play(card))
    assert f"in {percent(risk)}% of the possible deals" in text, text
    assert text.endswith(f"({-points:+d} × {cost.chance:.2f} = {-points * cost.chance:+.1f})")
    ru = explain(obs, Action.play(card), "ru")
    assert f"в {percent(risk)}% возможных раскладов" in ru
    assert ru.endswith(
        f"({-points:+d} × {cost.chance:.2f} = {-points * cost.chance:+.1f})".replace(".", ",")
    )
    # what it does differently from taking nothing yet leaving nothing: the lone card's risk
    other = next(a for a in obs.legal_actions if a.card is not None and a.card.rank != card.rank)
    diff = difference(obs, other, Action.play(card), -5.0, count=count)
    other_cost = move_cost(_effect(obs, other), obs, count)
    assert diff.next == round(cost.next - other_cost.next, 1)


def test_the_points_quoted_are_the_moves_points() -> None:
    """The ``now`` part is what each move scores at once (card points and the foxtrot bonus):
    taking a pile with the Queen of spades says so with her -20."""
    poison = _position(3, "QS 2C", "5H")
    poison.apply("QS")  # the pile: 5♥ Q♠
    obs = poison.observation(2)
    quiet = next(a for a in obs.legal_actions if a.card is not None and a.card.rank != Rank.JACK)
    diff = difference(obs, quiet, TAKE, -20.0)
    assert diff.now == -20 == sum(card.points for card in _effect(obs, TAKE).taken)
    assert diff.main == "now"
    for lang, said in zip(
        LANGS,
        ("takes the Q♠: -20 at once", "забирает Д♠: -20 сразу", "забирає Д♠: -20 одразу"),
        strict=True,
    ):
        assert cost_text(diff, obs, lang).startswith(said), cost_text(diff, obs, lang)
    lone = _position(3, "2C 5D", "5H").observation(1)
    diff = difference(lone, act("5D"), act("2C"), -12.0)
    assert (diff.chosen.now, diff.other.now, diff.now) == (10, 0, -10)
    assert cost_text(diff, lone).startswith("gives up the foxtrot: -10 at once")


@pytest.mark.parametrize("lang", LANGS)
def test_a_weaker_moves_cost_adds_up_to_the_points_lost(lang: str) -> None:
    """The review of a declined double foxtrot, in every language: the parts its line names
    add up to the points lost it shows, and the summary counts the same points."""
    record = _declined_foxtrot_record()
    (item,) = review(record, 1, lang, iterations=60)
    lost = round(item.loss)
    reason = item.reason()
    assert item.reason() in item.text()
    head = {"en": "the move played ", "ru": "сыгранный ход ", "uk": "зіграний хід "}[lang]
    assert reason.startswith(head)
    assert sum(_numbers(reason)) == pytest.approx(-lost)
    assert str(lost) in summary([item], lang)


def test_holds_any_counts_the_ranks_together() -> None:
    obs = _position(2, "10H 10D JS AS QS 2C 3C 4C", "10S").observation(1)
    count = card_count(obs)
    assert holds_any(obs, {Rank.SEVEN}) == pytest.approx(count.lone_card_risk[Rank.SEVEN])
    pool = 104 - 9
    unseen = Counter(card.rank for card in obs.unseen_cards().elements())
    both = unseen[Rank.JACK] + unseen[Rank.SEVEN]
    assert holds_any(obs, {Rank.JACK, Rank.SEVEN}) == pytest.approx(
        1 - comb(pool - both, 8) / comb(pool, 8)
    )


def test_a_move_that_leaves_the_next_player_less_says_what_it_does_and_his_chances() -> None:
    """A lone card against the Queen of spades on an empty pile: the Queen leaves him no
    foxtrot worth making, and the words give both sides of his chances and their difference."""
    state = _position(2, "3S QS 4C 5C 6C 7C 8C 9C", "5H", take=TakeRule.ANY)
    state.apply("4C")
    state.apply("take")  # seat 0 takes the pile: seat 1 must start a new one
    obs = state.observation(1)
    lone = move_cost(_effect(obs, act("3S")), obs)
    assert lone.lone and lone.next < 0
    diff = difference(obs, act("3S"), act("QS"), 1.0)
    assert diff.main == "next" and diff.next == round(-lone.next, 1)
    for lang, does in zip(
        LANGS,
        (
            "feeds the pile with the Q♠: -20 for whoever takes it; the next player's chances:",
            "подкладывает Д♠ в стопку: -20 тому, кто её заберёт; шансы следующего игрока:",
            "підкладає Д♠ у стос: -20 тому, хто його забере; шанси наступного гравця:",
        ),
        strict=True,
    ):
        text = cost_text(diff, obs, lang)
        assert text.startswith(does), text
        assert sum(_numbers(text.split(": ", 2)[2])[2:]) == pytest.approx(1.0), text
