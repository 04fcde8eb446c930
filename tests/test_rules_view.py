"""Rules V1-V3: what each player may see (observations, resampling, sampled states)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from foxtrot.core import TAKE, Action, Card, OptionsError, State
from foxtrot.core.outcome import Phase
from helpers import JACK_DEAL, card, cards, deal_rigged, jack_script, new_state, run_script


def _jack_deal_after(turns: int, players: int = 2) -> State:
    state = new_state(0, players=players)
    deal_rigged(
        state,
        hands={1: JACK_DEAL["first"], 0: JACK_DEAL["second"]},
        upturned=JACK_DEAL["upturned"],
        stock_bottom=JACK_DEAL["stock_bottom"],
    )
    run_script(state, jack_script(1, 0)[:turns])
    return state


def _values(value: object) -> list[object]:
    """``value`` and everything nested in it (tuples, dataclasses)."""
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found += _values(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            found += _values(item)
    return found


def test_V1_public_information_is_the_same_for_every_seat() -> None:
    state = _jack_deal_after(8)  # seat 0 has just taken JD 10H with JC
    views = [state.observation(seat) for seat in (0, 1)]
    for view in views:
        assert view.pile == ()
        assert view.hand_sizes == (4, 4)
        assert view.stock == 104 - 17
        assert view.taken_counts == (3, 6)
        assert view.taken == (tuple(cards("JD 10H JC")), tuple(cards("2C JS JS JH JH JD")))
        assert view.foxtrots == ((), (card("JH"), card("JD")))
        assert view.to_move == 1 and view.dealer == 0 and view.totals == (0, 0)
        assert view.upturned == card("2C") and view.last_taker == 0
        assert [(seat, str(action)) for seat, action in view.history] == [
            (seat, text) for seat, text, _ in jack_script(1, 0)[:8]
        ]
        assert view.phase is Phase.PLAYING and view.deal == 0
    public = [dataclasses.replace(v, seat=0, hand=(), legal_actions=()) for v in views]
    assert public[0] == public[1]
    assert views[1].legal_actions == tuple(state.legal_actions())
    assert views[0].legal_actions == ()  # not seat 0's turn


def test_V2_a_seat_sees_its_own_hand() -> None:
    state = _jack_deal_after(3)
    for seat in (0, 1):
        assert state.observation(seat).hand == state.hand(seat)
    assert state.observation(0).hand != state.observation(1).hand
    assert card("10H") in state.observation(1).hand


def test_V3_other_hands_and_the_stock_order_are_secret() -> None:
    state = new_state(0, players=4)
    state.deal(random.Random(21))
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    for seat in range(4):
        view = state.observation(seat)
        everything = _values(view)
        assert view.stock == len(state.stock)  # a count, not the cards
        for other in range(4):
            if other != seat:
                assert state.hand(other) not in everything
        assert state.stock not in everything
        assert tuple(reversed(state.stock)) not in everything


def test_V3_observation_does_not_depend_on_hidden_cards() -> None:
    state = _jack_deal_after(5)
    rng = random.Random(5)
    for seat in (0, 1):
        view = state.observation(seat)
        changed = 0
        for _ in range(10):
            other = state.resample(seat, rng)
            assert other.observation(seat) == view
            assert other.hand(seat) == state.hand(seat)
            changed += other.hand(1 - seat) != state.hand(1 - seat) or other.stock != state.stock
        assert changed  # the hidden cards really were dealt anew


def test_V3_a_state_sampled_from_an_observation_agrees_with_it() -> None:
    state = _jack_deal_after(7)
    for seat in (0, 1):
        view = state.observation(seat)
        sampled = State.from_observation(view, random.Random(seat))
        assert sampled.observation(seat) == view
        if seat == state.to_move:
            assert sampled.legal_actions() == state.legal_actions()
        # the sampled hidden cards are exactly the cards this seat has not seen
        hidden = [c for s in (0, 1) if s != seat for c in sampled.hand(s)] + list(sampled.stock)
        truth = [c for s in (0, 1) if s != seat for c in state.hand(s)] + list(state.stock)
        assert sorted(hidden) == sorted(truth)


def test_V1_history_lists_every_action_of_the_deal() -> None:
    state = new_state(0)
    deal_rigged(state, hands={1: "5H"}, upturned="9C")
    state.apply("5H")
    state.apply(TAKE)
    assert state.observation(1).history == ((1, Action.play(Card.parse("5H"))), (0, TAKE))


def test_V2_only_seats_of_the_table_have_a_view() -> None:
    state = _jack_deal_after(1)
    for seat in (-1, 2, "0"):
        with pytest.raises(OptionsError, match="seat"):
            state.observation(seat)
