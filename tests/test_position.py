"""The position as card ids (``core.position.PositionIds``): the same facts as the public
``Card`` reads, live, and ``apply_code_unchecked`` the same move as ``apply``."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from foxtrot.core import ACTIONS, CardPlayed, Phase, State, TableOptions, TakeRule
from helpers import into_deal, table_options

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ids(cards: object) -> list[int]:
    return [card.id for card in cards]  # type: ignore[attr-defined]


def check_views(state: State) -> None:
    """Every integer view against the ``Card`` reads of the same state."""
    n = state.players
    assert [list(hand) for hand in state.hand_ids] == [ids(state.hand(s)) for s in range(n)]
    assert list(state.pile_ids) == ids(state.pile)
    assert list(reversed(state.stock_ids)) == ids(state.stock)  # top card last
    assert [list(cards) for cards in state.taken_ids] == [ids(state.taken(s)) for s in range(n)]
    assert [list(c) for c in state.foxtrot_ids] == [ids(state.foxtrots(s)) for s in range(n)]
    assert state.take_match == (state.options.take is TakeRule.MATCH)
    if state.phase is Phase.PLAYING:
        assert state.turn == state.to_move
        obs = state.observation(state.turn)
        assert state.last_taker == obs.last_taker
        assert state.upturned == obs.upturned


@SETTINGS
@given(table_options((40, 120)), st.integers(0, 2**32 - 1))
def test_the_integer_views_are_the_card_reads_and_apply_code_is_apply(
    options: TableOptions, seed: int
) -> None:
    rng = random.Random(seed)
    state = State(options, dealer=rng.randrange(options.players))
    state.deal(rng)
    hands = state.hand_ids
    while state.phase is Phase.PLAYING:
        check_views(state)
        assert state.hand_ids is hands  # live: the same view through the deal
        code = rng.choice(state.legal_codes())
        checked = state.clone()
        played = checked.apply(next(a for a in state.legal_actions() if a.code == code))
        result = state.apply_code_unchecked(code)
        first = played[0]
        assert (first.result if isinstance(first, CardPlayed) else None) == result
        assert state.deal_logs() == checked.deal_logs()
        assert state.totals == checked.totals
    check_views(state)


@SETTINGS
@given(table_options((40, 120)), st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_at_position_refuses_and_allows_as_the_state_it_copies(
    options: TableOptions, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = into_deal(options, rng, steps)
    assume(state.phase is Phase.PLAYING)
    copy = State.at_position(
        options,
        dealer=state.dealer,
        turn=state.turn,
        hands=state.hand_ids,
        pile=state.pile_ids,
        stock=state.stock_ids,
    )
    assert copy.legal_codes() == state.legal_codes()
    for action in ACTIONS:  # every card and take: the same verdict, the same reason
        mine, theirs = copy.why_illegal(action), state.why_illegal(action)
        assert (mine and str(mine)) == (theirs and str(theirs))
    assert list(copy.stock_ids) == list(state.stock_ids) and copy.deal_logs()[-1].deck is None
