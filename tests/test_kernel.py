"""The rules kernel (``core.kernel``) agrees with the engine, and its odds are exact.

``State`` calls the kernel, so agreement with ``State`` alone would prove little;
the tests compare each kernel function with what the engine's public interface
does on random positions (events, legal actions, refusals, the stock) and with
the rule book's own statements (T3a-T3e, X1-X4, R1, R2, P1), and the odds with
a count of every possible hand.
"""

from __future__ import annotations

import itertools
import random
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    ACTIONS,
    CardPlayed,
    DealEnded,
    LeftoverPile,
    MostCardsTie,
    Phase,
    PlayResult,
    Rank,
    Redealt,
    State,
    TableOptions,
    TakeRule,
    kernel,
)
from foxtrot.core.kernel import (
    EMPTY_PILE,
    FOXTROT,
    HAND_SIZE,
    JACK,
    LAYS,
    MUST_FOXTROT,
    NOT_IN_HAND,
    RANKS,
    TAKE_CODE,
    TAKE_NOT_ALLOWED,
    TAKES,
    TEN,
)
from foxtrot.core.rng import SplitMix64

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

tables = st.builds(
    TableOptions,
    players=st.integers(2, 9),
    take=st.sampled_from(TakeRule),
    forced_foxtrot=st.booleans(),
    leftover_pile=st.sampled_from(LeftoverPile),
    most_cards_tie=st.just(MostCardsTie.NONE),
    target=st.just(200),
)
REASONS = {
    0: None,
    TAKE_NOT_ALLOWED: "take_not_allowed",
    EMPTY_PILE: "empty_pile",
    NOT_IN_HAND: "not_in_hand",
    MUST_FOXTROT: "must_foxtrot",
}
RESULTS = {
    PlayResult.LAID: LAYS,
    PlayResult.FOXTROT: FOXTROT,
    PlayResult.DOUBLE_FOXTROT: FOXTROT,
    PlayResult.TOOK: TAKES,
}


def check_position(state: State) -> None:
    """Legal codes, refusals and what every legal card does, against the public interface."""
    seat = state.to_move
    assert seat is not None
    hand, pile = state.hand_ids[seat], state.pile_ids
    take_any, forced = state.options.take is TakeRule.ANY, state.options.forced_foxtrot
    legal = kernel.legal_codes(hand, pile, take_any, forced)
    assert legal == [action.code for action in state.legal_actions()]
    for code in range(TAKE_CODE + 1):
        error = state.why_illegal(ACTIONS[code])
        reason = kernel.illegal_reason(hand, pile, take_any, forced, code)
        assert REASONS[reason] == (error.code if error is not None else None)
        assert (reason == 0) == (code in legal)
    top = pile[-1] >> 2 if pile else -1
    row = kernel.outcomes(pile, not take_any)
    for code in legal:
        if code == TAKE_CODE:
            continue
        events = state.clone().apply(ACTIONS[code])
        played = events[0]
        assert isinstance(played, CardPlayed)
        assert RESULTS[played.result] == row[code >> 2]
        assert row[code >> 2] == kernel.outcome_of(len(pile), top, code >> 2, not take_any)
        if played.result in (PlayResult.FOXTROT, PlayResult.DOUBLE_FOXTROT):
            double = played.result is PlayResult.DOUBLE_FOXTROT
            assert kernel.is_double(code) == double
            assert kernel.foxtrot_bonus(code) == (20 if double else 10)  # P1


@SETTINGS
@given(tables, st.integers(0, 2**32 - 1))
def test_the_kernel_agrees_with_the_engine_through_a_deal(options: TableOptions, seed: int) -> None:
    """Every position of a random deal: legal moves, refusals, outcomes, redeals (R1, R2)."""
    rng = random.Random(seed)
    state = State(options, dealer=rng.randrange(options.players))
    state.deal(rng)
    n = options.players
    assert len(state.stock_ids) == kernel.initial_stock(options.deck_size, n)  # D3
    while state.phase is Phase.PLAYING:
        check_position(state)
        stock = len(state.stock_ids)
        events = state.apply(rng.choice(state.legal_actions()))
        each = kernel.redeal_size(stock, n)
        redealt = [event for event in events if isinstance(event, Redealt)]
        ended = any(isinstance(event, DealEnded) for event in events)
        if redealt:
            assert redealt[0].cards_each == each > 0
            assert len(state.stock_ids) == stock - each * n
        elif ended:
            assert each == 0 and stock < n  # R2
        else:
            assert len(state.stock_ids) == stock


def test_what_a_card_does_follows_the_rule_book() -> None:
    """T3a-T3e, X1-X3, for every pile size class, top rank and rank, under both take rules."""
    for size, top, rank, match in itertools.product(range(4), range(RANKS), range(RANKS), (0, 1)):
        found = kernel.outcome_of(size, top, rank, bool(match))
        if size == 0:
            expected = LAYS  # T3e: a new pile, even a Jack just lies
        elif size == 1 and rank == top:
            expected = FOXTROT  # T3b, X1, X2 (a Jack on a lone Jack too)
        elif rank == JACK:
            expected = TAKES  # T3a, T3c
        elif match and rank == top:
            expected = TAKES  # T3d, X3
        else:
            expected = LAYS
        assert found == expected, (size, top, rank, match)
        pile = [rank * 4 + 1] * (size - 1) + [top * 4] if size else []
        assert kernel.outcomes(pile, bool(match))[rank] == found


def test_forced_foxtrot_leaves_only_the_foxtrot() -> None:
    """X4: with a lone card and a card of its rank in hand, only that rank may be played."""
    ten, two, jack = TEN * 4, 0, JACK * 4
    hand = [two, ten + 1, ten + 2, jack]
    assert kernel.foxtrot_card(hand, [ten]) == ten + 1
    assert kernel.legal_codes(hand, [ten], True, True) == [ten + 1, ten + 2]
    assert kernel.legal_codes(hand, [ten], True, False) == [*hand, TAKE_CODE]
    assert kernel.illegal_reason(hand, [ten], True, True, TAKE_CODE) == MUST_FOXTROT
    assert kernel.illegal_reason(hand, [ten], False, True, TAKE_CODE) == TAKE_NOT_ALLOWED
    assert kernel.foxtrot_card(hand, [ten, ten]) == -1  # two cards: no foxtrot
    assert kernel.illegal_reason(hand, [], True, False, TAKE_CODE) == EMPTY_PILE
    # T4: taking without playing only under take = any, and only a non-empty pile
    assert [kernel.can_take(p, a) for p in ([], [two]) for a in (False, True)] == [
        False,
        False,
        False,
        True,
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 51), max_size=24),
    st.lists(st.integers(0, 51), max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_T3_T4_X4_the_legal_codes_of_any_hand(
    hand: list[int], pile: list[int], take_any: bool, forced: bool
) -> None:
    """Each card once, in the order the hand holds it, then take: for sorted hands (the
    engine's) and for hands out of order or with repeats (a caller's), by ``illegal_reason``."""
    for cards in (hand, sorted(hand)):
        legal = kernel.legal_codes(cards, pile, take_any, forced)
        allowed = [
            c
            for c in dict.fromkeys([*cards, TAKE_CODE])
            if not kernel.illegal_reason(cards, pile, take_any, forced, c)
        ]
        assert legal == allowed


class OwnStream(random.Random):
    """A stream of its own: ``shuffle`` must leave it to its own draws."""

    def random(self) -> float:
        return super().random() ** 2


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 160))
def test_D3_the_shuffle_is_the_streams_own(seed: int, size: int) -> None:
    """``kernel.shuffle`` (the deal's) gives the order ``rng.shuffle`` gives, and draws as much
    from the stream: for Python's ``random.Random``, ``SplitMix64`` and a stream of its own."""
    for make in (random.Random, SplitMix64, OwnStream):
        mine, theirs = make(seed), make(seed)
        cards, expected = list(range(size)), list(range(size))
        kernel.shuffle(cards, mine)
        theirs.shuffle(expected)
        assert cards == expected
        assert mine.random() == theirs.random()  # the same draws were taken
    # the written-out copy of Python's own, which the deal uses where it agrees: on the
    # Pythons this project supports it does, or the deal has lost its fast shuffle
    cards, expected = list(range(size)), list(range(size))
    kernel.shuffle_as_random(cards, random.Random(seed))
    random.Random(seed).shuffle(expected)
    assert cards == expected, "random.Random.shuffle changed: update kernel.shuffle_as_random"


def test_dealing_follows_d4_and_r1() -> None:
    """Cards go one at a time from the top, the dealer's left first; a redeal gives at most 8."""
    hands: list[list[int]] = [[], [], []]
    order = kernel.deal_order(1, 3)
    assert order == [2, 0, 1]
    stock = list(reversed(range(30)))  # top card (0) last
    kernel.deal_out([hands[seat] for seat in order], stock, HAND_SIZE)
    assert hands[2] == list(range(0, 24, 3)) and hands[0] == list(range(1, 24, 3))
    assert stock == [29, 28, 27, 26, 25, 24]
    assert [kernel.redeal_size(s, 4) for s in (3, 4, 7, 31, 32, 33, 100)] == [0, 1, 1, 7, 8, 8, 8]


def _holds_by_counting(k: int, pool: int, hand: int) -> float:
    """The share of all hands of ``hand`` cards from ``pool`` that hold a card of ``k``."""
    hands = list(itertools.combinations(range(pool), min(hand, pool)))
    return sum(1 for cards in hands if any(card < k for card in cards)) / len(hands)


@pytest.mark.parametrize("pool", [1, 2, 5, 9, 12])
def test_holds_chance_is_exact(pool: int) -> None:
    """The hypergeometric chance equals a count of every possible hand, for every k and size."""
    for k in range(min(pool, kernel.MAX_COPIES) + 1):
        for hand in range(pool + 3):
            chance = kernel.holds_chance(k, pool, hand)
            assert chance == pytest.approx(_holds_by_counting(k, pool, hand), abs=1e-12)
            if 0 < hand <= pool:
                assert chance == 1.0 - comb(pool - k, hand) / comb(pool, hand)
            assert kernel.miss_chances(pool, hand)[k] == pytest.approx(1.0 - chance, abs=1e-12)


def test_holds_chance_grows_with_the_cards_and_the_hand() -> None:
    for pool, hand in ((80, 8), (40, 3), (9, 8)):
        chances = [kernel.holds_chance(k, pool, hand) for k in range(9)]
        assert chances == sorted(chances) and chances[0] == 0.0 < chances[1] < chances[-1]
    assert [kernel.holds_chance(4, 80, h) for h in range(9)] == sorted(
        kernel.holds_chance(4, 80, h) for h in range(9)
    )
    assert kernel.holds_chance(1, 10, 10) == 1.0  # the hand is the whole pool


def test_the_bonus_table_is_the_rule() -> None:
    """P1 by card id: 20 for a ten or a Jack, 10 for any other rank."""
    for card in range(52):
        double = card >> 2 in (Rank.TEN, Rank.JACK)
        assert kernel.FOXTROT_BONUSES[card] == kernel.foxtrot_bonus(card) == (20 if double else 10)
