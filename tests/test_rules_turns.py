"""Rules T1-T7 (a turn) and X1-X4, and every refusal code of IllegalActionError (T7)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from foxtrot.core import (
    TAKE,
    Action,
    CardPlayed,
    IllegalActionError,
    NotationError,
    PileTaken,
    PlayResult,
    State,
    dumps,
)
from helpers import card, cards, deal_rigged, lay_out, new_state, play_jack_deal, run_script

LAID, TOOK = PlayResult.LAID, PlayResult.TOOK
FOXTROT, DOUBLE = PlayResult.FOXTROT, PlayResult.DOUBLE_FOXTROT


def _two(upturned: str, first: str = "", second: str = "", **options: object) -> State:
    """Two players, dealer 0: seat 1 plays first with ``first`` in hand, seat 0 holds ``second``."""
    state = new_state(0, **options)
    deal_rigged(state, hands={1: first, 0: second}, upturned=upturned)
    return state


def _legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


# ------------------------------------------------------------------ T1, T2


def test_T1_left_of_dealer_plays_first_then_clockwise() -> None:
    state = new_state(3, players=4)
    started = deal_rigged(state)[0]
    assert started.first == 0  # type: ignore[union-attr]
    order = []
    for _ in range(6):
        order.append(state.to_move)
        lay_out(state, actions=1)
    assert order == [0, 1, 2, 3, 0, 1]


def test_T2_pile_is_public_and_take_rule_decides_the_actions() -> None:
    state = _two("9C", "5H 6D")
    state.apply("5H")
    for seat in (0, 1):
        assert state.observation(seat).pile == (card("9C"), card("5H"))
    assert "take" in _legal(state)  # take = any (the default)
    match = _two("9C", "5H 6D", take="match")
    assert "take" not in _legal(match)
    assert len(_legal(match)) == len(set(match.hand(1)))


# ------------------------------------------------------------------ T3


@pytest.mark.parametrize("take", ["any", "match"])
def test_T3_T2_a_turn_is_one_action_and_a_played_card_leaves_the_hand(take: str) -> None:
    state = _two("9C", "5H 6S", "8D", take=take)
    before = state.hand(1)
    events = state.apply("5H")
    assert len(events) == 1 and state.to_move == 0
    assert len(state.hand(1)) == len(before) - 1 and card("5H") not in state.hand(1)
    assert len(state.hand(0)) == 8
    state.apply("8D")
    assert state.to_move == 1
    assert state.observation(0).history == ((1, Action.parse("5H")), (0, Action.parse("8D")))


@pytest.mark.parametrize("take", ["any", "match"])
def test_T3a_jack_on_a_pile_takes_it_with_the_jack(take: str) -> None:
    state = _two("9C", "5H", "JS", take=take)
    run_script(state, [(1, "5H", LAID)])
    (played,) = state.apply("JS")
    assert played == CardPlayed(0, card("JS"), TOOK, tuple(cards("9C 5H JS")))
    assert state.taken(0) == tuple(cards("9C 5H JS"))
    assert state.foxtrots(0) == ()
    assert state.pile == ()


def test_T3b_foxtrot_on_single_card() -> None:
    state = _two("7D", "7S 3H")
    (played,) = state.apply("7S")
    assert played == CardPlayed(1, card("7S"), FOXTROT, (card("7D"), card("7S")))
    assert state.taken(1) == (card("7D"), card("7S"))
    assert state.foxtrots(1) == (card("7S"),)  # kept apart: one entry per foxtrot
    assert state.pile == ()


@pytest.mark.parametrize(("upturned", "played"), [("10C", "10H"), ("JD", "JS")])
def test_T3b_pair_of_tens_or_jacks_is_a_double_foxtrot(upturned: str, played: str) -> None:
    state = _two(upturned, played)
    (event,) = state.apply(played)
    assert isinstance(event, CardPlayed) and event.result is DOUBLE
    assert event.taken == (card(upturned), card(played))
    assert state.foxtrots(1) == (card(played),)


def test_T3b_same_rank_on_two_cards_is_no_foxtrot_under_take_any() -> None:
    state = _two("9C", "5H 7S", "7D")
    run_script(state, [(1, "5H", LAID), (0, "7D", LAID), (1, "7S", LAID)])
    assert state.pile == tuple(cards("9C 5H 7D 7S"))
    assert state.foxtrots(1) == () and state.taken(1) == ()


def test_T3b_foxtrot_on_a_card_laid_on_the_empty_pile() -> None:
    state = _two("9C", "JS 4H", "4C")
    run_script(state, [(1, "JS", TOOK), (0, "4C", LAID), (1, "4H", FOXTROT)])
    assert state.taken(1) == tuple(cards("9C JS 4C 4H"))
    assert state.foxtrots(1) == (card("4H"),)


def test_T3c_jack_on_a_single_card_takes_it_but_is_no_foxtrot() -> None:
    state = _two("7D", "JS")
    (event,) = state.apply("JS")
    assert event == CardPlayed(1, card("JS"), TOOK, (card("7D"), card("JS")))
    assert state.foxtrots(1) == ()
    assert state.taken(1) == (card("7D"), card("JS"))


def test_T3d_match_takes_a_pile_of_two_or_more() -> None:
    state = _two("9C", "5H", "5D", take="match")
    run_script(state, [(1, "5H", LAID)])
    (event,) = state.apply("5D")
    assert event == CardPlayed(0, card("5D"), TOOK, tuple(cards("9C 5H 5D")))
    assert state.foxtrots(0) == () and state.pile == ()
    # the same play under take = any just lays the card
    anyway = _two("9C", "5H", "5D")
    run_script(anyway, [(1, "5H", LAID), (0, "5D", LAID)])
    assert anyway.pile == tuple(cards("9C 5H 5D"))


def test_T3e_a_card_that_takes_nothing_is_laid_and_a_jack_lies_on_an_empty_pile() -> None:
    state = _two("9C", "5H 6S", "JS JH")
    run_script(state, [(1, "5H", LAID), (0, "JS", TOOK)])
    (event,) = state.apply("6S")  # a new pile
    assert event == CardPlayed(1, card("6S"), LAID, ())
    assert state.pile == (card("6S"),)
    state = _two("9C", "JS 6S", "JH")
    run_script(state, [(1, "JS", TOOK)])
    (event,) = state.apply("JH")
    assert event == CardPlayed(0, card("JH"), LAID, ())
    assert state.pile == (card("JH"),) and state.taken(0) == ()


# ------------------------------------------------------------------ T4-T7


def test_T4_take_without_playing_and_a_single_card_is_no_foxtrot() -> None:
    state = _two("9C", "5H 6S")
    hand = state.hand(1)
    (event,) = state.apply("take")
    assert event == PileTaken(1, (card("9C"),))
    assert state.taken(1) == (card("9C"),) and state.foxtrots(1) == ()
    assert state.hand(1) == hand  # nothing played
    assert state.pile == () and state.to_move == 0


def test_T4_take_refused_under_match_and_on_an_empty_pile() -> None:
    match = _two("9C", "5H", take="match")
    with pytest.raises(IllegalActionError) as info:
        match.apply("take")
    assert info.value.code == "take_not_allowed"
    state = _two("9C", "JS")
    state.apply("JS")
    assert "take" not in _legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(TAKE)
    assert info.value.code == "empty_pile"


def test_T5_taken_cards_go_to_the_taker_and_the_next_player_starts_a_new_pile() -> None:
    state = _two("9C", "5H 6S", "QH JS 8D")
    run_script(state, [(1, "5H", LAID), (0, "JS", TOOK)])
    assert len(state.pile) == 0 and len(state.taken(0)) == 3
    assert state.observation(1).taken_counts == (3, 0)
    assert state.to_move == 1
    assert _legal(state) == [str(c) for c in dict.fromkeys(state.hand(1))]  # any card, no take
    state.apply("6S")
    assert list(state.pile) == [card("6S")]  # a list: mypy narrowed the tuple to empty above


def test_T6_making_a_foxtrot_is_optional_by_default() -> None:
    state = _two("7D", "7S 3H")
    assert _legal(state) == [str(c) for c in dict.fromkeys(state.hand(1))] + ["take"]
    (event,) = state.apply("3H")
    assert event == CardPlayed(1, card("3H"), LAID, ())
    assert state.pile == (card("7D"), card("3H"))


def test_X1_upturned_card_is_a_one_card_pile() -> None:
    assert _two("QS", "QS").apply("QS")[0].result is FOXTROT  # type: ignore[union-attr]
    assert _two("JC", "JD").apply("JD")[0].result is DOUBLE  # type: ignore[union-attr]
    assert _two("8C", "JD").apply("JD")[0].result is TOOK  # type: ignore[union-attr]
    assert _two("8C").apply("take") == (PileTaken(1, (card("8C"),)),)


def test_X2_jack_on_a_single_jack_is_a_double_foxtrot_not_a_plain_take() -> None:
    state = _two("9C", "JS JD 4H", "JH")
    run_script(state, [(1, "JS", TOOK), (0, "JH", LAID)])
    (event,) = state.apply("JD")
    assert event == CardPlayed(1, card("JD"), DOUBLE, (card("JH"), card("JD")))
    assert state.foxtrots(1) == (card("JD"),)
    assert state.taken(1) == tuple(cards("9C JS JH JD"))


def test_X3_match_compares_with_the_top_card_only() -> None:
    state = _two("5H", "9C 9D", "5D 9S", take="match")
    run_script(state, [(1, "9C", LAID), (0, "5D", LAID), (1, "9D", LAID)])
    assert state.pile == tuple(cards("5H 9C 5D 9D"))
    (event,) = state.apply("9S")
    assert event == CardPlayed(0, card("9S"), TOOK, tuple(cards("5H 9C 5D 9D 9S")))


def test_X4_forced_foxtrot_only_foxtrot_cards_legal() -> None:
    state = _two("7D", "7S 7C 3H", forced_foxtrot=True)
    assert _legal(state) == ["7S", "7C"]
    for bad in ("3H", "take"):
        with pytest.raises(IllegalActionError) as info:
            state.apply(bad)
        assert info.value.code == "must_foxtrot"
        assert "X4" in str(info.value)
    assert state.apply("7C")[0].result is FOXTROT  # type: ignore[union-attr]
    # a Jack on a single Jack is a foxtrot too (X2), a Jack on another card is not
    jacks = _two("JD", "JS 3H", forced_foxtrot=True)
    assert _legal(jacks) == ["JS"]
    free = _two("KD", "JS 3H", forced_foxtrot=True)
    assert set(_legal(free)) == {str(c) for c in free.hand(1)} | {"take"}


def test_X4_forced_foxtrot_only_on_a_single_card_pile() -> None:
    state = _two("9C", "5H 7S", "7D 4C", forced_foxtrot=True)
    run_script(state, [(1, "5H", LAID), (0, "7D", LAID)])
    assert len(state.pile) == 3
    assert set(_legal(state)) == {str(c) for c in state.hand(1)} | {"take"}


# --------------------------------------------------- T7: every refusal code


def _after_match() -> State:
    state = new_state(0, target=50)
    play_jack_deal(state)  # seat 1 scores 50 and wins (X8)
    assert state.is_over
    return state


def _emptied() -> State:
    state = _two("9C", "JS")
    state.apply("JS")  # seat 1 takes the upturned card: the pile is empty for seat 0
    return state


def _forced() -> State:
    return _two("7D", "7S 3H", forced_foxtrot=True)


REFUSALS: list[tuple[str, Callable[[], State], object, int | None, int, str, str]] = [
    # code, state, action, seat given, seat named, action text, reason text
    ("not_your_turn", lambda: _two("9C", "5H", "6D"), "6D", 0, 0, "play 6D", "seat 1's turn"),
    ("not_in_hand", lambda: _two("9C", "5H"), "AS", None, 1, "play AS", "not in the hand"),
    (
        "take_not_allowed",
        lambda: _two("9C", take="match"),
        "take",
        None,
        1,
        "take the pile",
        "take = match",
    ),
    ("empty_pile", _emptied, "take", 0, 0, "take the pile", "pile is empty"),
    ("must_foxtrot", _forced, "3H", None, 1, "play 3H", "foxtrot with a 7"),
    ("no_deal", lambda: new_state(0), "5H", None, 1, "play 5H", "no deal"),
    ("match_over", _after_match, "take", 0, 0, "take the pile", "match is over"),
    ("bad_action", lambda: _two("9C"), 42, None, 1, "do 42", "not an action"),
]


@pytest.mark.parametrize("case", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_T7_illegal_action_refused_and_changes_nothing(
    case: tuple[str, Callable[[], State], object, int | None, int, str, str],
) -> None:
    code, make, action, seat, named, verb, reason = case
    state = make()
    before = dumps(state)
    views = [state.observation(s) for s in range(state.players)]
    legal = state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, seat)  # type: ignore[arg-type]
    error = info.value
    assert error.code == code
    assert error.seat == named
    assert str(error).startswith(f"seat {named} cannot {verb}: ")
    assert reason in str(error)
    assert dumps(state) == before
    assert [state.observation(s) for s in range(state.players)] == views
    assert state.legal_actions() == legal
    if isinstance(action, str):
        why = state.why_illegal(Action.parse(action), seat)
        assert why is not None and why.code == code


def test_T7_text_that_is_no_action_is_refused_and_changes_nothing() -> None:
    state = _two("9C", "5H")
    before = dumps(state)
    with pytest.raises(NotationError, match="'pass'"):
        state.apply("pass")
    assert dumps(state) == before
