"""Rules P1-P4 (scoring a deal), X6 and X9, with the worked examples of docs/rules.md."""

from __future__ import annotations

import pytest

from foxtrot.core import DealEnded, MostCardsTie, ScoreLine, score_deal
from helpers import cards, new_state, play_jack_deal, play_tie_deal

NONE, ALL = MostCardsTie.NONE, MostCardsTie.ALL


def _ids(text: str) -> list[int]:
    return [c.id for c in cards(text)]


def _score(taken: list[str], foxtrots: list[str], tie: MostCardsTie = NONE) -> list[ScoreLine]:
    return list(score_deal([_ids(t) for t in taken], [_ids(f) for f in foxtrots], tie))


# The other seat takes three cards worth nothing, so the example seat has no most-cards bonus.
@pytest.mark.parametrize(
    ("taken", "foxtrot", "expected"),
    [
        ("10H 10D", "10D", ScoreLine(0, 1, 2, 20, 0, 40)),  # 20 + 10 + 10
        ("JS JD", "JD", ScoreLine(0, 1, 2, 2, 0, 22)),  # 20 + 1 + 1
        ("QS QS", "QS", ScoreLine(1, 0, 2, -40, 0, -30)),  # 10 - 20 - 20
        ("7D 7S", "7S", ScoreLine(1, 0, 2, 0, 0, 10)),  # a plain foxtrot: 10
    ],
)
def test_P1_foxtrot_bonus_and_the_worked_examples(
    taken: str, foxtrot: str, expected: ScoreLine
) -> None:
    line, other = _score([taken, "2C 3C 4C"], [foxtrot, ""])
    assert line == expected
    assert other == ScoreLine(0, 0, 3, 0, 5, 5)


def test_P1_double_foxtrot_is_20_in_place_of_10() -> None:
    (line,) = _score(["10H 10H JC JS"], ["10H JS"])
    assert (line.foxtrots, line.double_foxtrots) == (0, 2)
    assert line.total == 2 * 20 + (10 + 10 + 1 + 1) + 5  # not 2 * 30


def test_P2_card_points() -> None:
    # tens 10, Aces 1, Jacks 1, Queen of spades -20, everything else 0
    line, _ = _score(["10S AS JS QS QH KS 2C 9D", "3C"], ["", ""])
    assert line.card_points == 10 + 1 + 1 - 20 == -8
    line, _ = _score(["10S 10H 10D 10C AS AH AD AC", "3C"], ["", ""])
    assert line.card_points == 44


def test_P2_foxtrot_cards_and_the_taking_card_count() -> None:
    state = new_state(0)
    ended = play_jack_deal(state)[-1]
    assert isinstance(ended, DealEnded)
    # seat 1 took 2C with JS, then JS+JH and JH+JD as double foxtrots: 5 Jacks = 5 points
    assert state.taken(1) == tuple(cards("2C JS JS JH JH JD"))
    assert ended.scores[1].card_points == 5
    # seat 0 took JD 10H with JC: 1 + 10 + 1
    assert ended.scores[0].card_points == 12


def test_P3_most_cards_needs_strictly_more_than_every_other() -> None:
    lines = _score(["2C 3C 4C", "5C 6C", "7C"], ["", "", ""])
    assert [line.most_cards for line in lines] == [5, 0, 0]
    lines = _score(["2C 3C", "5C 6C", "7C"], ["", "", ""])
    assert [line.most_cards for line in lines] == [0, 0, 0]


def test_P4_deal_score_is_the_sum_of_its_parts_and_can_be_negative() -> None:
    line, other = _score(["QS QS 2C", "3C"], ["", ""])
    assert line == ScoreLine(0, 0, 3, -40, 5, -35)
    assert other.total == 0
    state = new_state(0)
    ended = play_jack_deal(state)[-1]
    assert isinstance(ended, DealEnded)
    assert ended.scores == (ScoreLine(0, 0, 3, 12, 0, 12), ScoreLine(0, 2, 6, 5, 5, 50))
    for line in ended.scores:
        assert (
            line.total
            == 10 * line.foxtrots + 20 * line.double_foxtrots + line.card_points + line.most_cards
        )


def test_X6_most_cards_tie_all_gives_each_tied_player_5() -> None:
    lines = _score(["2C 3C", "5C 6C", "7C"], ["", "", ""], ALL)
    assert [line.most_cards for line in lines] == [5, 5, 0]


@pytest.mark.parametrize(("tie", "bonus"), [("none", 0), ("all", 5)])
def test_X6_most_cards_tie_in_a_whole_deal(tie: str, bonus: int) -> None:
    # the tie deal: both players take six cards
    state = new_state(0, most_cards_tie=tie)
    ended = play_tie_deal(state)[-1]
    assert isinstance(ended, DealEnded)
    assert ended.scores == (
        ScoreLine(0, 0, 6, 13, bonus, 13 + bonus),  # JD 10H JC, JC 5S 2S
        ScoreLine(0, 2, 6, 5, bonus, 45 + bonus),  # 2C JS, JS JH, JH JD
    )
    assert ended.totals == (13 + bonus, 45 + bonus)


def test_X9_foxtrots_counts_single_ones_only() -> None:
    (line,) = _score(["7D 7S 10H 10C JD JH 2C"], ["7S 10C JH"])
    assert (line.foxtrots, line.double_foxtrots) == (1, 2)
    assert line.total == 10 * 1 + 20 * 2 + (0 + 20 + 2 + 0) + 5 == 77
    assert line.to_json() == {
        "foxtrots": 1,
        "double_foxtrots": 2,
        "cards": 7,
        "card_points": 22,
        "most_cards": 5,
        "total": 77,
    }
