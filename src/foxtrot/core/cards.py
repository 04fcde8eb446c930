"""Cards and their notation (rules C1, C2, C4).

A card is a frozen value with one canonical text: rank ``2``..``10``, ``J``,
``Q``, ``K``, ``A`` followed by suit ``S``, ``H``, ``D`` or ``C``.  The two (or
three) copies of a card in the pack are interchangeable, so a card is just a
rank and a suit.  Inside the engine a card is its ``id`` (``rank * 4 + suit``):
small integers keep the hot paths fast.  The core knows only this notation: a card in
words or with a localized rank ("Queen of spades", "Д♠") is a front end's business
(``foxtrot.i18n.card_name`` / ``card_text``, from the message catalogs).

Examples:
    >>> Card.parse("10H")
    Card('10H')
    >>> str(Card.parse("qs"))
    'QS'
    >>> Card.parse("QS").points, Card.parse("10D").points
    (-20, 10)
    >>> [str(c) for c in sorted(parse_cards("AS 2H 10D"))]
    ['2H', '10D', 'AS']
    >>> Card.parse("1H")
    Traceback (most recent call last):
    ...
    foxtrot.core.errors.NotationError: bad card '1H': unknown rank '1' (expected 2-10, J, Q, K or A)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Final

from .errors import NotationError


class Rank(enum.IntEnum):
    """Ranks in the order of rule C2 (used for lots and for sorting a hand)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        """The canonical text of the rank (``10``, ``J``, ...)."""
        return _RANK_TEXT[self]


class Suit(enum.IntEnum):
    """Suits in the order spades, hearts, diamonds, clubs."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        """The canonical letter of the suit (``S``, ``H``, ``D``, ``C``)."""
        return "SHDC"[self]

    @property
    def glyph(self) -> str:
        """The suit as a symbol for display: ♠ ♥ ♦ ♣."""
        return "♠♥♦♣"[self]


_RANK_TEXT: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Card points of rule P2, indexed by card id.
CARD_POINTS: Final[tuple[int, ...]] = tuple(
    10
    if r == Rank.TEN
    else 1
    if r in (Rank.ACE, Rank.JACK)
    else -20
    if (r == Rank.QUEEN and s == Suit.SPADES)
    else 0
    for r in Rank
    for s in Suit
)


class Card:
    """One card: a rank and a suit.  Instances are interned, one per card id."""

    __slots__ = ("id", "rank", "suit")
    id: int
    rank: Rank
    suit: Suit

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        return CARDS[rank * 4 + suit]

    @classmethod
    def _make(cls, card_id: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "id", card_id)
        object.__setattr__(card, "rank", Rank(card_id >> 2))
        object.__setattr__(card, "suit", Suit(card_id & 3))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_from_id, (self.id,))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as a person types it: rule C4, in any case, spaces around allowed.

        Records are stricter (``parse_strict``): what people type is forgiven,
        what programs write must be canonical.
        """
        if not isinstance(text, str):
            raise NotationError(f"bad card {text!r}: expected text like 10H or QS")
        token = text.strip().upper()
        if len(token) < 2:
            raise NotationError(f"bad card {text!r}: expected a rank and a suit, like 10H or QS")
        rank_text, suit_text = token[:-1], token[-1]
        if rank_text not in _RANK_INDEX:
            raise NotationError(
                f"bad card {text!r}: unknown rank {rank_text!r} (expected 2-10, J, Q, K or A)"
            )
        if suit_text not in "SHDC":
            raise NotationError(
                f"bad card {text!r}: unknown suit {suit_text!r} (expected S, H, D or C)"
            )
        return CARDS[_RANK_INDEX[rank_text] * 4 + "SHDC".index(suit_text)]

    @classmethod
    def parse_strict(cls, text: object) -> Card:
        """Read a card written exactly in the canonical text of rule C4 (records, protocol).

        ``"QS"`` and ``"10H"`` are cards; ``"qs"``, ``" QS "`` and ``"T H"`` are not.
        """
        card = _BY_TEXT.get(text) if isinstance(text, str) else None
        if card is None:
            if isinstance(text, str) and text.strip().upper() in _BY_TEXT:
                raise NotationError(
                    f"bad card {text!r}: write it as {text.strip().upper()!r}"
                    " (upper case, no spaces)"
                )
            cls.parse(text)  # type: ignore[arg-type]  # the lenient reader says what is wrong
            raise NotationError(f"bad card {text!r}: expected a card like 10H or QS")
        return card

    def __str__(self) -> str:
        return _TEXT[self.id]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self.id]!r})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __le__(self, other: Card) -> bool:
        return self.id <= other.id

    def __gt__(self, other: Card) -> bool:
        return self.id > other.id

    def __ge__(self, other: Card) -> bool:
        return self.id >= other.id

    def __hash__(self) -> int:
        return self.id

    @property
    def points(self) -> int:
        """What the card scores when taken (rule P2)."""
        return CARD_POINTS[self.id]


_RANK_INDEX: Final = {text: i for i, text in enumerate(_RANK_TEXT)}
_TEXT: Final = tuple(r + s for r in _RANK_TEXT for s in "SHDC")
CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
_BY_TEXT: Final = {text: CARDS[i] for i, text in enumerate(_TEXT)}


def card_from_id(card_id: int) -> Card:
    """The card with this id (0..51)."""
    return CARDS[card_id]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or given as a list of tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical text separated by spaces (``foxtrot.i18n.cards_text`` for display)."""
    return " ".join(str(c) for c in cards)


def full_deck(decks: int, copies: Sequence[int] | None = None) -> list[int]:
    """The ids of ``decks`` standard packs together, unshuffled (rule C1); or, for a mini
    game, ``copies[id]`` of each card id (``TableOptions.copies``)."""
    if copies is not None:
        return [card_id for card_id in range(52) for _ in range(copies[card_id])]
    pack = _PACKS.get(decks)
    if pack is None:  # made once per number of decks: every deal starts from a copy
        pack = _PACKS[decks] = tuple(card_id for card_id in range(52) for _ in range(decks))
    return list(pack)


_PACKS: dict[int, tuple[int, ...]] = {}
