"""The rules on integers: the one place where every rule the fast paths apply is written.

``State`` (the engine), the default policy of search (``bots.rollout``) and the
opponent model (``bots.inference``) all call these functions, so a rule changed
here changes everywhere.  They are plain functions over ints and lists of ints,
with named constants and precomputed tables, so that the compiled kernel
(``foxtrot.fast``) runs most of them as they are (``outcome_of``, ``can_take``,
``foxtrot_card``, ``redeal_size``, ``is_double``, ``match_winner``).  Not all: numba
cannot run ``State``, so ``legal_codes`` and ``State``'s move, redeal, deal end and deal
are written a second time there, as array code (``fast._rules``, ``fast.batch.deal``), held
equal by differential tests named after the rule ids (docs/library/fast.md lists them).

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

from collections.abc import Sequence
from math import comb
from typing import Final

from .actions import TAKE_CODE
from .cards import CARD_POINTS, Rank, Suit

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
]

HAND_SIZE: Final = 8  # cards dealt to each player, and at most at a redeal (D3, R1)
RANKS: Final = len(Rank)  # 13 ranks (C2)
SUITS: Final = len(Suit)  # 4 suits; a card id is rank * SUITS + suit
JACK: Final = int(Rank.JACK)
TEN: Final = int(Rank.TEN)
MAX_COPIES: Final = SUITS * 3  # cards of one rank in the largest pack (three decks, C3)

# --------------------------------------------------------------- scoring (P1)

FOXTROT_BONUS: Final = 10  # P1
DOUBLE_FOXTROT_BONUS: Final = 20  # P1: in place of 10, not in addition
MOST_CARDS_BONUS: Final = 5  # P3
_DOUBLE_RANKS: Final = (TEN, JACK)


def is_double(card: int) -> bool:
    """A foxtrot of two tens or two Jacks is a double foxtrot (rule T3b)."""
    return (card >> 2) in _DOUBLE_RANKS


def foxtrot_bonus(card: int) -> int:
    """The bonus of a foxtrot made with ``card`` (rule P1)."""
    return DOUBLE_FOXTROT_BONUS if is_double(card) else FOXTROT_BONUS


#: ``foxtrot_bonus`` by card id, for the hot loops.
FOXTROT_BONUSES: Final[tuple[int, ...]] = tuple(foxtrot_bonus(c) for c in range(len(CARD_POINTS)))

# ------------------------------------------------------- what a card does (T3)

LAYS: Final = 0  # the card is put on the pile, or starts a new one (T3e)
FOXTROT: Final = 1  # the card and the lone card of its rank are taken as a foxtrot (T3b)
TAKES: Final = 2  # the card takes the whole pile, not a foxtrot (T3a, T3c, T3d)


def outcome_of(size: int, top: int, rank: int, take_match: bool) -> int:
    """What a card of ``rank`` does on a pile of ``size`` cards whose top card has rank ``top``.

    Rules T3a-T3e with X1-X3: a same rank on a lone card is a foxtrot, Jacks
    included (X2); a Jack otherwise takes a non-empty pile; under take = match
    a card of the top card's rank takes it (X3: the top card only).
    """
    if size == 0:
        return LAYS  # a new pile; a Jack here just lies (T3e)
    if size == 1 and rank == top:
        return FOXTROT
    if rank == JACK or (take_match and rank == top):
        return TAKES
    return LAYS


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


def can_take(pile: Sequence[int], take_any: bool) -> bool:
    """Taking the pile without playing is allowed: under take = any, on a non-empty pile (T4)."""
    return take_any and len(pile) > 0


def foxtrot_card(hand: Sequence[int], pile: Sequence[int]) -> int:
    """The first card of ``hand`` that makes a foxtrot on ``pile``, or -1 (rule X4)."""
    if len(pile) == 1:
        rank = pile[0] >> 2
        for card in hand:
            if card >> 2 == rank:
                return card
    return -1


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
    codes = list(dict.fromkeys(hand))
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


def initial_stock(deck_size: int, players: int, hand_size: int = HAND_SIZE) -> int:
    """Cards left in the stock after the deal and the upturned card (D3); ``hand_size``
    is 8 but in a mini game (``TableOptions.hand_size``)."""
    return deck_size - hand_size * players - 1


def redeal_size(stock: int, players: int, hand_size: int = HAND_SIZE) -> int:
    """Cards each player gets when the player to move has none (R1); 0: the deal ends (R2).

    A redeal gives at most a first deal's hand: 8 cards, or ``hand_size`` in a mini game.
    """
    return min(hand_size, stock // players)


# ------------------------------------------------------------ the match (M2, X8)


def match_winner(totals: Sequence[float], target: float) -> int:
    """The seat that has won the match once a deal is scored, or -1 (another deal is played).

    The highest total wins if it reached the target (X8: total >= target) and nobody
    shares it (M2).  Written as plain loops so that the compiled environments run it as is.
    """
    best = 0
    for seat in range(1, len(totals)):
        if totals[seat] > totals[best]:
            best = seat
    if totals[best] < target:
        return -1
    for seat in range(len(totals)):
        if seat != best and totals[seat] == totals[best]:
            return -1
    return best


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
