"""Rules R1-R2 (running out of cards), E1-E2 (end of a deal) and X5 (the leftover pile)."""

from __future__ import annotations

import random

import pytest

from foxtrot.core import (
    Action,
    CardPlayed,
    DealEnded,
    Event,
    PileTaken,
    PlayResult,
    Redealt,
    State,
    TableOptions,
    TakeRule,
)
from foxtrot.core.outcome import Phase
from helpers import (
    JACK_DEAL,
    card,
    cards,
    deal_rigged,
    lay_out,
    new_state,
    play_jack_deal,
    play_tie_deal,
    run_script,
)

LAID = PlayResult.LAID

# The stock after dealing is 52 * decks - 8 * n - 1 cards; every redeal gives
# k = min(8, stock // n) cards to each player while the stock holds n or more.
# Worked out by hand for every table size: (cards each, stock after) per redeal,
# then the undealt cards (R2).
REDEALS = {
    2: ([(8, 71), (8, 55), (8, 39), (8, 23), (8, 7), (3, 1)], 1),  # 104 - 17 = 87
    3: ([(8, 55), (8, 31), (8, 7), (2, 1)], 1),  # 104 - 25 = 79
    4: ([(8, 39), (8, 7), (1, 3)], 3),  # 104 - 33 = 71
    5: ([(8, 23), (4, 3)], 3),  # 104 - 41 = 63
    6: ([(8, 7), (1, 1)], 1),  # 104 - 49 = 55
    7: ([(8, 43), (6, 1)], 1),  # 156 - 57 = 99
    8: ([(8, 27), (3, 3)], 3),  # 156 - 65 = 91
    9: ([(8, 11), (1, 2)], 2),  # 156 - 73 = 83
}


def test_R1_stock_is_dealt_again_from_the_dealers_left_and_the_pile_stays() -> None:
    state = new_state(0)
    top = "AS KH 9D 8C 7S 6H 5D 4C 3S 2H QD KC 9S 8H 7D 6C"
    deal_rigged(state, upturned="QC", stock_top=top)
    events = lay_out(state, actions=15)
    assert not any(isinstance(e, Redealt) for e in events)
    pile = state.pile
    assert state.to_move == 0 and len(state.hand(0)) == 1 and state.hand(1) == ()
    final = state.hand(0)[0]
    assert state.apply(Action.play(final)) == (CardPlayed(0, final, LAID, ()), Redealt(8, 71))
    assert state.pile == (*pile, final)  # the pile is left as it is
    assert state.hand(1) == tuple(sorted(cards(top)[0::2]))
    assert state.hand(0) == tuple(sorted(cards(top)[1::2]))
    assert state.to_move == 1


def test_R1_players_keep_their_cards_and_the_stopped_player_moves() -> None:
    # seat 1 takes the upturned card, seat 0 lays a card, seat 1 takes it: seat 1 has
    # one card more than seat 0 from then on.  Seat 0 (the dealer) runs out first.
    state = new_state(0)
    deal_rigged(
        state,
        hands={0: "KD"},
        upturned="9C",
        stock_top="AS AH AD AC 10S 10H 10D 10C 3C 4C 5C 6C 7C 8C 9D 9H",
    )
    run_script(state, [(1, "take", "take"), (0, "KD", LAID), (1, "take", "take")])
    assert (len(state.hand(0)), len(state.hand(1))) == (7, 8)
    events = lay_out(state, actions=13)  # seat 0 plays its 7 cards, seat 1 six of its 8
    assert not any(isinstance(e, Redealt) for e in events)
    assert state.to_move == 1 and len(state.hand(1)) == 2 and state.hand(0) == ()
    kept = state.hand(1)
    events = lay_out(state, actions=1)  # seat 1 plays; seat 0 is to move with no cards
    assert events[-1] == Redealt(8, 71)
    played = events[0].card  # type: ignore[union-attr]
    rest = list(kept)
    rest.remove(played)
    # the redeal starts with seat 1 (the dealer's left): it gets the 1st, 3rd, ... cards
    assert state.hand(1) == tuple(sorted([*rest, *cards("AS AD 10S 10D 3C 5C 7C 9D")]))
    assert state.hand(0) == tuple(sorted(cards("AH AC 10H 10C 4C 6C 8C 9H")))
    assert state.to_move == 0  # the stopped player takes his turn


@pytest.mark.parametrize("players", sorted(REDEALS))
@pytest.mark.parametrize("take", ["any", "match"])
def test_R1_R2_how_many_cards_each_redeal_gives_and_what_stays_undealt(
    players: int, take: str
) -> None:
    state = State(TableOptions(players=players, take=TakeRule(take)), dealer=0)
    rng = random.Random(players * 10 + len(take))
    state.deal(rng)
    deck = state.deal_logs()[-1].deck
    assert deck is not None
    events: list[Event] = []
    while state.to_move is not None:
        events += state.apply(rng.choice(state.legal_actions()))
    redeals, undealt = REDEALS[players]
    assert [(e.cards_each, e.stock) for e in events if isinstance(e, Redealt)] == redeals
    ended = events[-1]
    assert isinstance(ended, DealEnded) and ended.undealt == undealt
    # R2: the undealt cards are the bottom of the deck, and they stay where they are
    assert [c.id for c in state.stock] == list(deck[-undealt:])


def test_R2_E1_deal_ends_when_the_player_to_move_is_out_and_the_stock_is_short() -> None:
    state = new_state(0)
    events = play_jack_deal(state)
    ended = [e for e in events if isinstance(e, DealEnded)]
    assert len(ended) == 1 and events[-1] is ended[0]  # the very last event of the deal
    assert ended[0].undealt == 1 and state.stock == (card(JACK_DEAL["stock_bottom"]),)
    assert state.to_move is None and state.phase is Phase.AWAITING_DEAL
    assert state.legal_actions() == []
    assert all(state.hand(s) == () for s in (0, 1))


def test_E1_deal_ends_although_another_player_still_holds_a_card() -> None:
    state = new_state(0)
    events = play_tie_deal(state)
    # seat 0 took without playing (T4), so it holds one card when seat 1, to move, is out
    assert isinstance(events[-1], DealEnded)
    assert state.hand(1) == () and len(state.hand(0)) == 1
    assert state.to_move is None


def test_E2_hands_undealt_cards_and_the_pile_score_nothing() -> None:
    state = new_state(0)
    events = play_tie_deal(state)
    ended = events[-1]
    assert isinstance(ended, DealEnded)
    held = state.hand(0)[0]
    assert held not in state.taken(0) + state.taken(1)
    # seat 0 took JD 10H JC and JC 5S 2S: 6 cards, 13 points; the card in its hand is not counted
    assert (ended.scores[0].cards, ended.scores[0].card_points) == (6, 13)
    assert ended.leftover_to is None and len(ended.leftover) == 104 - 12 - 1 - 1
    assert state.pile == ended.leftover  # discarded: it stays on the table, nobody's
    assert card("2D") not in state.taken(0) + state.taken(1)  # the undealt bottom card


@pytest.mark.parametrize("take", ["any", "match"])
def test_X5_leftover_pile_to_the_last_taker_counts_as_cards_not_as_foxtrot(take: str) -> None:
    state = new_state(0, take=take, leftover_pile="last_taker")
    events = play_jack_deal(state)
    ended = events[-1]
    assert isinstance(ended, DealEnded)
    # seat 0 took last (JC on JD 10H); everything played after that is the pile
    takes = [
        e
        for e in events
        if isinstance(e, PileTaken) or (isinstance(e, CardPlayed) and e.result is not LAID)
    ]
    assert takes[-1] == CardPlayed(0, card("JC"), PlayResult.TOOK, tuple(cards("JD 10H JC")))
    assert ended.leftover_to == 0
    assert len(ended.leftover) == 104 - 6 - 3 - 1 == 94
    # the pack holds 8 tens (80), 8 Aces (8), 8 Jacks (8), 2 Queens of spades (-40): 56
    # seat 1 holds 5 of it, the undealt 2D none: seat 0 gets 56 - 5 = 51 from 3 + 94 cards
    line = ended.scores[0]
    assert (line.foxtrots, line.double_foxtrots, line.cards, line.card_points) == (0, 0, 97, 51)
    assert line.most_cards == 5 and line.total == 56  # the pile decides most cards too
    assert ended.scores[1].most_cards == 0 and ended.scores[1].total == 45
    assert state.taken(0)[3:] == ended.leftover
    assert state.pile == ()  # the pile is seat 0's now, no longer on the table


def test_X5_pile_discarded_by_default() -> None:
    state = new_state(0)
    events = play_jack_deal(state)
    ended = events[-1]
    assert isinstance(ended, DealEnded)
    assert ended.leftover_to is None and len(ended.leftover) == 94
    assert ended.scores[0].cards == 3 and ended.scores[0].total == 12


def test_R1_the_last_redeal_gives_fewer_than_eight() -> None:
    state = new_state(0)
    events = play_jack_deal(state)
    assert [e for e in events if isinstance(e, Redealt)] == [
        Redealt(8, 71),
        Redealt(8, 55),
        Redealt(8, 39),
        Redealt(8, 23),
        Redealt(8, 7),
        Redealt(3, 1),
    ]
