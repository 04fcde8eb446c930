"""The rules on integers: the one place where every rule the fast paths apply is written.

``State`` (the engine), the default policy of search (``bots.rollout``) and the
opponent model (``bots.inference``) all call these functions, so a rule changed
here changes everywhere.  They are plain functions over ints and lists of ints,
with named constants and precomputed tables, so that the compiled kernel
(``foxtrot.fast``) runs most of them as they are (``outcome_of``, ``can_take``,
``foxtrot_card``, ``redeal_size``, ``is_double``, ``match_winner``: written in ``rules``,
which stays Python in every build, and exported here again).  Not all: numba
cannot run ``State``, so ``legal_codes`` and ``State``'s move, redeal, deal end and deal
are written a second time there, as array code (``fast._rules``, ``fast.batch.deal``), held
equal by differential tests named after the rule ids (docs/library/fast.md lists them).
The functions on lists written here (``outcomes``, ``legal_codes``, ``illegal_reason``,
``deal_out``, ...) are among the modules the optional ahead-of-time build compiles (mypyc,
docs/library/engine.md).

Encoding (as in ``State``): a card is its id ``rank * SUITS + suit`` (so its rank
is ``card >> 2``); a hand is a sorted list of ids; a pile is a list of ids, bottom
card first; the stock is a list of ids, top card last; an action is a card id or
``TAKE_CODE``.

>>> outcome_of(1, JACK, JACK, take_match=False) == FOXTROT  # X2: a Jack on a lone Jack
True
>>> outcome_of(3, 5, 5, take_match=True) == TAKES  # T3d
True
>>> redeal_size(stock=7, players=4), redeal_size(stock=3, players=4)  # R1, R2
(1, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb
from typing import Final

from .actions import TAKE_CODE
from .cards import CARD_POINTS
from .rules import (
    DOUBLE_FOXTROT_BONUS,
    FOXTROT,
    FOXTROT_BONUS,
    HAND_SIZE,
    JACK,
    LAYS,
    MAX_COPIES,
    MOST_CARDS_BONUS,
    RANKS,
    SUITS,
    TAKES,
    TEN,
    can_take,
    foxtrot_bonus,
    foxtrot_card,
    is_double,
    match_winner,
    outcome_of,
    redeal_size,
)

__all__ = [
    "CARD_POINTS",
    "DOUBLE_FOXTROT_BONUS",
    "EMPTY_PILE",
    "FOXTROT",
    "FOXTROT_BONUS",
    "FOXTROT_BONUSES",
    "HAND_SIZE",
    "JACK",
    "LAYS",
    "MAX_COPIES",
    "MOST_CARDS_BONUS",
    "MUST_FOXTROT",
    "NOT_IN_HAND",
    "RANKS",
    "SUITS",
    "TAKES",
    "TAKE_CODE",
    "TAKE_NOT_ALLOWED",
    "TEN",
    "can_take",
    "deal_order",
    "deal_out",
    "foxtrot_bonus",
    "foxtrot_card",
    "holds_chance",
    "illegal_reason",
    "initial_stock",
    "is_double",
    "legal_codes",
    "match_winner",
    "miss_chances",
    "outcome_of",
    "outcomes",
    "redeal_size",
    "shuffle",
    "shuffle_as_random",
]

# --------------------------------------------------------------- scoring (P1)

#: ``foxtrot_bonus`` by card id, for the hot loops.
FOXTROT_BONUSES: Final[tuple[int, ...]] = tuple(foxtrot_bonus(c) for c in range(len(CARD_POINTS)))

# ------------------------------------------------------- what a card does (T3)


def _row(size: int, top: int, take_match: bool) -> tuple[int, ...]:
    return tuple(outcome_of(size, top, rank, take_match) for rank in range(RANKS))


_ON_EMPTY: Final = _row(0, -1, False)
_ON_LONE: Final = tuple(_row(1, top, False) for top in range(RANKS))  # same for both rules
_ON_PILE: Final = (
    tuple(_row(2, top, False) for top in range(RANKS)),
    tuple(_row(2, top, True) for top in range(RANKS)),
)


def outcomes(pile: Sequence[int], take_match: bool) -> tuple[int, ...]:
    """``outcome_of`` for every rank at once on ``pile`` (indexed by rank), from a table."""
    size = len(pile)
    if size == 0:
        return _ON_EMPTY
    if size == 1:
        return _ON_LONE[pile[0] >> 2]
    return _ON_PILE[take_match][pile[-1] >> 2]


# ------------------------------------------------------------ legality (T3, T4, X4)


def legal_codes(
    hand: Sequence[int], pile: Sequence[int], take_any: bool, forced_foxtrot: bool
) -> list[int]:
    """Every legal action code: the distinct cards in hand order, then ``TAKE_CODE``.

    Any card may be played (T3); taking is allowed under take = any on a
    non-empty pile (T4); under ``forced_foxtrot`` a possible foxtrot is the
    only choice (X4).  ``illegal_reason`` checks the same rule one action at
    a time (a property test checks that both agree).
    """
    if forced_foxtrot:
        card = foxtrot_card(hand, pile)
        if card >= 0:
            rank = card >> 2
            return [c for c in dict.fromkeys(hand) if c >> 2 == rank]
    codes: list[int] = []
    previous = -1
    ordered = True  # a hand is sorted: a card seen before is then the one before it
    for card in hand:
        if card != previous:
            if card < previous:
                ordered = False  # a hand out of order: look the card up
            previous = card
            if ordered or card not in codes:
                codes.append(card)
    if can_take(pile, take_any):
        codes.append(TAKE_CODE)
    return codes


TAKE_NOT_ALLOWED: Final = 1  # taking without playing under take = match (T4)
EMPTY_PILE: Final = 2  # taking an empty pile (T4)
NOT_IN_HAND: Final = 3  # playing a card the hand does not hold (T3)
MUST_FOXTROT: Final = 4  # anything but the foxtrot under forced_foxtrot (X4)


def illegal_reason(
    hand: Sequence[int], pile: Sequence[int], take_any: bool, forced_foxtrot: bool, code: int
) -> int:
    """Why action ``code`` is illegal for the player holding ``hand`` (a reason above), or 0."""
    if code == TAKE_CODE:
        if not can_take(pile, take_any):
            return EMPTY_PILE if take_any else TAKE_NOT_ALLOWED
    elif code not in hand:
        return NOT_IN_HAND
    if forced_foxtrot:
        card = foxtrot_card(hand, pile)
        if card >= 0 and (code == TAKE_CODE or code >> 2 != card >> 2):
            return MUST_FOXTROT
    return 0


# ------------------------------------------------------------ dealing (D3, D4, R1, R2)


def deal_order(dealer: int, players: int) -> list[int]:
    """The seats in the order cards are dealt: the dealer's left first (D3, R1)."""
    return [(dealer + i) % players for i in range(1, players + 1)]


def deal_out(hands: Sequence[list[int]], stock: list[int], each: int) -> None:
    """Deal ``each`` cards to every hand, one at a time from the top of ``stock`` (top last),
    to the hands in the order given (D3, D4, R1); then sort the hands."""
    for _ in range(each):
        for hand in hands:
            hand.append(stock.pop())
    for hand in hands:
        hand.sort()


def shuffle(ids: list[int], rng: random.Random) -> None:
    """Shuffle ``ids`` in place as ``rng.shuffle(ids)`` does: the deal's shuffle (D3).

    For a plain ``random.Random``, CPython's ``shuffle`` written out (``shuffle_as_random``): the
    same swaps from the same draws, at a third of the cost (Python's shuffle was a tenth of a
    random match's time).  Where the two do not agree on this Python (``_WRITTEN_OUT``, checked
    once, at import), and for any other stream (``SplitMix64`` has a shuffle of its own),
    ``rng.shuffle``.
    """
    if type(rng) is random.Random and _WRITTEN_OUT:
        shuffle_as_random(ids, rng)
    else:
        rng.shuffle(ids)


def shuffle_as_random(ids: list[int], rng: random.Random) -> None:
    """``random.Random.shuffle`` with its ``_randbelow`` (rejection of ``getrandbits``) inlined:
    CPython's ``random.py`` (3.11 on; ``shuffle`` checks that it still agrees)."""
    getrandbits = rng.getrandbits
    for i in range(len(ids) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        ids[i], ids[j] = ids[j], ids[i]


def _agrees() -> bool:
    """``shuffle_as_random`` gives ``random.Random.shuffle``'s order, on 200 seeds and sizes."""
    for seed in range(200):
        mine, theirs = list(range(seed % 120)), list(range(seed % 120))
        shuffle_as_random(mine, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        if mine != theirs:
            return False
    return True


_WRITTEN_OUT: Final = _agrees()


def initial_stock(deck_size: int, players: int, hand_size: int = HAND_SIZE) -> int:
    """Cards left in the stock after the deal and the upturned card (D3); ``hand_size``
    is 8 but in a mini game (``TableOptions.hand_size``)."""
    return deck_size - hand_size * players - 1


# ------------------------------------------------ the odds of the next hand (counting)

_MISS_ROWS: dict[int, tuple[float, ...]] = {}


def _miss_row(pool: int, hand: int) -> tuple[float, ...]:
    hand = min(hand, pool)
    total = comb(pool, hand)
    return tuple(comb(pool - k, hand) / total if k <= pool else 0.0 for k in range(MAX_COPIES + 1))


def miss_chances(pool: int, hand: int) -> tuple[float, ...]:
    """For ``k`` = 0..MAX_COPIES: the chance that a random hand of ``hand`` cards out of
    ``pool`` holds none of ``k`` given cards.

    Hypergeometric: ``C(pool - k, hand) / C(pool, hand)``, the chance that every card of
    the hand comes from the ``pool - k`` others.  Exact, and cached per ``(pool, hand)``
    so that the hot loop of search pays a dictionary look-up for it.
    """
    key = pool << 8 | hand
    row = _MISS_ROWS.get(key)
    if row is None:
        row = _MISS_ROWS[key] = _miss_row(pool, hand)
    return row


def holds_chance(unseen_of_rank: int, pool: int, hand: int) -> float:
    """The chance that a random hand of ``hand`` cards out of ``pool`` holds one of
    ``unseen_of_rank`` given cards (``1 - miss_chances``): the next player's chance
    to hold a card of a rank, from the cards a seat has not seen."""
    if unseen_of_rank <= 0 or hand <= 0:
        return 0.0
    return 1.0 - miss_chances(pool, hand)[unseen_of_rank]
