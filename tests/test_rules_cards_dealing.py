"""Rules C1-C4 (cards and seats) and D1-D4 (dealing), and the table sizes of C3/X7."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from foxtrot.core import (
    CARDS,
    Card,
    CardPlayed,
    DealStarted,
    DeckError,
    OptionsError,
    PlayResult,
    Rank,
    Redealt,
    State,
    TableOptions,
    dumps,
    to_record,
)
from foxtrot.core.dealing import check_deck, draw_lots, lot_winner
from foxtrot.i18n import card_text
from helpers import card, cards, deal_order, deal_rigged, lay_out, new_state, rigged_deck


def _everything(state: State) -> Counter[Card]:
    """Every card of the deal in progress: hands, pile, stock, taken."""
    found: Counter[Card] = Counter(state.pile) + Counter(state.stock)
    for seat in range(state.players):
        found += Counter(state.hand(seat)) + Counter(state.taken(seat))
    return found


# ------------------------------------------------------------------ C1-C4


def test_C1_two_decks_of_52_every_card_twice() -> None:
    state = new_state(0, players=4)
    state.deal(random.Random(11))
    found = _everything(state)
    assert sum(found.values()) == 104
    assert set(found) == set(CARDS) and len(CARDS) == 52
    assert all(count == 2 for count in found.values())


def test_C1_the_two_copies_are_interchangeable() -> None:
    state = new_state(0)
    deal_rigged(state, hands={1: "QS QS 5H"}, upturned="9C")
    assert state.hand(1).count(card("QS")) == 2
    legal = [str(a) for a in state.legal_actions()]
    assert legal.count("QS") == 1  # one action for both copies
    state.apply("QS")
    assert state.hand(1).count(card("QS")) == 1
    assert state.pile == (card("9C"), card("QS"))


@pytest.mark.parametrize(
    ("deck", "fault"),
    [
        (CARDS[:51] + CARDS * 1, "103 cards"),  # one card short
        ((*CARDS, *CARDS[:-1], CARDS[0]), "holds 2S 3 times"),  # 2S three times, AC once
    ],
)
def test_C1_a_deck_that_is_not_the_pack_is_refused(deck: tuple[Card, ...], fault: str) -> None:
    state = new_state(0)
    with pytest.raises(DeckError, match=fault) as info:
        state.deal(deck=list(deck))
    assert "rule C1" in str(info.value)
    assert state.to_move is None and state.deal_number == 0
    with pytest.raises(DeckError, match="rule C1"):
        check_deck(list(CARDS) * 3, 2)


def test_C2_rank_order_and_a_sorted_hand() -> None:
    assert [r.symbol for r in sorted(Rank)] == [
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    ]
    state = new_state(0)
    deal_rigged(state, hands={1: "AS 2H KD 10C JS QH 3S 9D"})
    assert [str(c) for c in state.hand(1)] == ["2H", "3S", "9D", "10C", "JS", "QH", "KD", "AS"]


def test_C2_russian_and_ukrainian_rank_labels() -> None:
    for lang in ("ru", "uk"):
        assert [card_text(card(t), lang) for t in ("JS", "QH", "KD", "AC", "10S")] == [
            "В♠",
            "Д♥",
            "К♦",
            "Т♣",
            "10♠",
        ]


def test_C3_seats_and_clockwise_turns() -> None:
    state = new_state(0, players=3)
    events = deal_rigged(state)
    assert isinstance(events[0], DealStarted) and events[0].first == 1
    movers = []
    for _ in range(7):
        movers.append(state.to_move)
        lay_out(state, actions=1)
    assert movers == [1, 2, 0, 1, 2, 0, 1]


@pytest.mark.parametrize("players", [1, 10, 0, -3])
def test_C3_player_count_outside_2_to_9_is_refused(players: int) -> None:
    with pytest.raises(OptionsError, match="players"):
        TableOptions(players=players)


@pytest.mark.parametrize(
    ("players", "decks"), [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3), (9, 3)]
)
def test_C3_X7_every_table_size_deals_eight_each(players: int, decks: int) -> None:
    options = TableOptions(players=players)
    assert options.decks == decks and options.deck_size == 52 * decks
    state = State(options, dealer=players - 1)
    events = state.deal(random.Random(players))
    assert events[0] == DealStarted(0, players - 1, state.pile[0], 0, 52 * decks - 8 * players - 1)
    assert [len(state.hand(s)) for s in range(players)] == [8] * players
    assert len(state.stock) == 52 * decks - 8 * players - 1
    found = _everything(state)
    assert all(found[c] == decks for c in CARDS)


def test_C4_notation_in_actions_and_records() -> None:
    state = new_state(0)
    deck = rigged_deck(state.options, 0, hands={1: "10H QS"}, upturned="JC")
    state.deal(deck=deck)
    events = state.apply("10h")  # case does not matter
    assert isinstance(events[0], CardPlayed) and str(events[0].card) == "10H"
    record = to_record(state)
    assert record["deals"][0]["deck"][:3] == [str(c) for c in deck[:3]]
    assert record["deals"][0]["deck"][16] == "JC"
    assert record["deals"][0]["actions"] == [{"seat": 1, "play": "10H"}]
    assert all(t == str(Card.parse(t)) for t in record["deals"][0]["deck"])


# ------------------------------------------------------------------ D1-D4


class RiggedShuffle:
    """A stand-in for ``random.Random`` whose shuffle puts ``top`` on top of the pack."""

    def __init__(self, top: str) -> None:
        self.top = cards(top)

    def shuffle(self, pack: list[int]) -> None:
        rest = Counter(pack)
        rest.subtract(Counter(c.id for c in self.top))
        pack[:] = [c.id for c in self.top] + sorted(rest.elements())


def test_D1_highest_rank_deals() -> None:
    lot = draw_lots(3, 2, RiggedShuffle("5H KS 9C"))  # type: ignore[arg-type]
    assert lot.dealer == 1
    assert lot.rounds == (((0, card("5H")), (1, card("KS")), (2, card("9C"))),)
    assert draw_lots(2, 2, RiggedShuffle("AS KS")).dealer == 0  # type: ignore[arg-type]


def test_D1_players_tied_for_highest_draw_again() -> None:
    # seats 0 and 2 draw Kings; they draw again from the same pack: 3D, AH
    lot = draw_lots(3, 2, RiggedShuffle("KS 2C KH 3D AH"))  # type: ignore[arg-type]
    assert lot.dealer == 2
    assert lot.rounds == (
        ((0, card("KS")), (1, card("2C")), (2, card("KH"))),
        ((0, card("3D")), (2, card("AH"))),
    )
    assert lot_winner(lot.rounds, 3) == 2
    assert lot_winner(lot.rounds[:1], 3) is None  # the tie is not decided yet
    assert lot_winner([[(1, card("AS")), (0, card("2S"))]], 2) is None  # wrong draw order


def test_D1_first_dealer_by_lot_or_by_choice() -> None:
    state = State(TableOptions(players=3), rng=RiggedShuffle("2S 3S AD"))  # type: ignore[arg-type]
    assert state.dealer == 2 and state.lot is not None and state.lot.dealer == 2
    assert state.deal(random.Random(1))[0].dealer == 2  # type: ignore[union-attr]
    chosen = State(TableOptions(players=3), dealer=1)
    assert chosen.dealer == 1 and chosen.lot is None
    with pytest.raises(OptionsError, match="dealer"):
        State(TableOptions(players=3), dealer=3)
    with pytest.raises(OptionsError, match="D1"):
        State(TableOptions(players=3))


def test_D2_dealer_passes_clockwise_every_deal() -> None:
    state = new_state(1, players=3, target=10_000)
    rng = random.Random(4)
    dealers, firsts = [], []
    for _ in range(4):
        started = state.deal(rng)[0]
        assert isinstance(started, DealStarted)
        dealers.append(started.dealer)
        firsts.append(started.first)
        while state.to_move is not None:
            state.apply(rng.choice(state.legal_actions()))
    assert dealers == [1, 2, 0, 1]
    assert firsts == [2, 0, 1, 2]


def test_D3_eight_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    deck = list(CARDS) * 2
    random.Random(9).shuffle(deck)
    state = new_state(1, players=3)
    events = state.deal(deck=deck)
    # dealer 1: seat 2 gets deck[0], deck[3], ...; seat 0 deck[1], ...; seat 1 deck[2], ...
    assert state.hand(2) == tuple(sorted(deck[0:24:3]))
    assert state.hand(0) == tuple(sorted(deck[1:24:3]))
    assert state.hand(1) == tuple(sorted(deck[2:24:3]))
    assert state.pile == (deck[24],)  # the upturned card is the single card of the pile
    assert state.stock == tuple(deck[25:])
    assert events == (DealStarted(0, 1, deck[24], 2, 79),)
    assert state.to_move == 2


def test_D4_canonical_order_stock_top_first_and_in_the_record() -> None:
    state = new_state(0)
    top = "AS KH 9D 8C 7S 6H 5D 4C 3S 2H QD KC 9S 8H 7D 6C"
    deck = rigged_deck(state.options, 0, upturned="QC", stock_top=top)
    assert deal_order(2, 0) == [1, 0]
    state.deal(deck=deck)
    assert state.stock[:16] == tuple(cards(top))
    events = lay_out(state, actions=16)  # both hands played out: the stock is dealt again
    assert events[-1] == Redealt(8, 87 - 16)
    assert all(
        isinstance(e, CardPlayed) and e.result is PlayResult.LAID
        for e in events
        if not isinstance(e, Redealt)
    )
    assert state.hand(1) == tuple(sorted(cards(top)[0::2]))  # dealer+1 first, one at a time
    assert state.hand(0) == tuple(sorted(cards(top)[1::2]))
    assert to_record(state)["deals"][0]["deck"] == [str(c) for c in deck]
    assert f'"deck": ["{deck[0]}", "{deck[1]}"' in dumps(state)
