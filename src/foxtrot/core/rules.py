"""The rules on scalars: what the compiled twin (``foxtrot.fast``, numba) runs as it is.

``kernel`` is the one place where every rule the fast paths apply is written; the part of it
that numba compiles from its Python source (``outcome_of``, ``can_take``, ``foxtrot_card``,
``redeal_size``, ``is_double``, ``match_winner``) and the constants they read live here, and
``kernel`` imports and exports them again.  This module stays Python in every build: the
optional ahead-of-time build of the engine (mypyc, see docs/library/engine.md) compiles
``kernel``'s list functions and the state, and numba needs these as Python functions.

>>> outcome_of(1, JACK, JACK, take_match=False) == FOXTROT  # X2: a Jack on a lone Jack
True
>>> redeal_size(stock=7, players=4), redeal_size(stock=3, players=4)  # R1, R2
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Rank, Suit

__all__ = [
    "DOUBLE_FOXTROT_BONUS",
    "FOXTROT",
    "FOXTROT_BONUS",
    "HAND_SIZE",
    "JACK",
    "LAYS",
    "MAX_COPIES",
    "MOST_CARDS_BONUS",
    "RANKS",
    "SUITS",
    "TAKES",
    "TEN",
    "can_take",
    "foxtrot_bonus",
    "foxtrot_card",
    "is_double",
    "match_winner",
    "outcome_of",
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


# ------------------------------------------------------------ legality (T4, X4)


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


# ------------------------------------------------------------ dealing (R1, R2)


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
