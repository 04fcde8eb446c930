"""Shuffling, checking a deck, and drawing lots for the first dealer (rules C1, D1, D4).

Randomness always comes from a ``random.Random`` the caller passes in; nothing
here touches the global random state.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

from .cards import CARDS, Card, full_deck
from .errors import DeckError, OptionsError
from .kernel import shuffle


def shuffled_deck(
    decks: int, rng: random.Random, copies: Sequence[int] | None = None
) -> tuple[int, ...]:
    """A shuffled pack of ``decks`` decks in canonical order: index 0 is the top (D4); or of
    ``copies[id]`` of each card (a mini game's pack, ``TableOptions.copies``)."""
    cards = full_deck(decks, copies)
    shuffle(cards, rng)
    return tuple(cards)


def check_deck(
    deck: Sequence[Card], decks: int, copies: Sequence[int] | None = None
) -> tuple[int, ...]:
    """The card ids of ``deck`` if it holds every card exactly ``decks`` times (C1), or,
    for a mini game, ``copies[id]`` times (none of a card left out of its pack).

    ``deck`` is a sequence of ``Card`` values (read text with ``parse_cards``).
    """
    if not isinstance(deck, Sequence) or isinstance(deck, str | bytes):
        raise DeckError(f"deck: expected a list of cards, got {type(deck).__name__} (rule D4)")
    for position, card in enumerate(deck):
        if type(card) is not Card:
            raise DeckError(
                f"deck[{position}]: {card!r} is not a Card (read text with parse_cards) (rule D4)"
            )
    if copies is not None:
        size = sum(copies)
        if len(deck) != size:
            raise DeckError(f"deck has {len(deck)} cards, expected {size} (the mini game's pack)")
        counts = Counter(deck)
        for card in CARDS:
            if counts[card] != copies[card.id]:
                raise DeckError(
                    f"deck holds {card} {counts[card]} times, expected {copies[card.id]} times"
                    " (the mini game's pack)"
                )
        return tuple(card.id for card in deck)
    if len(deck) != 52 * decks:
        raise DeckError(
            f"deck has {len(deck)} cards, expected {52 * decks} ({decks} packs of 52) (rule C1)"
        )
    counts = Counter(deck)
    for card in CARDS:
        if counts[card] != decks:
            raise DeckError(
                f"deck holds {card} {counts[card]} times, expected {decks} times (rule C1)"
            )
    return tuple(card.id for card in deck)


@dataclasses.dataclass(frozen=True, slots=True)
class Lot:
    """Drawing lots for the first dealer (D1): each round, the tied players' draws."""

    dealer: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]

    def to_json(self) -> list[list[dict[str, object]]]:
        """The ``lot`` key of a record (an addition to G2)."""
        return [[{"seat": seat, "card": str(card)} for seat, card in rnd] for rnd in self.rounds]


def draw_lots(
    players: int, decks: int, rng: random.Random, copies: Sequence[int] | None = None
) -> Lot:
    """Every player draws a card; the highest rank deals; the tied highest draw again (D1).

    The cards come from the table's pack (a mini game's ``copies`` if given).  A pack of
    one rank would tie for ever: it is refused (the players choose the first dealer).
    """
    if copies is not None and len({card >> 2 for card in range(52) if copies[card]}) < 2:
        raise OptionsError(
            "dealer: a pack of one rank cannot draw lots, every draw ties (D1);"
            " choose the first dealer"
        )
    pack: list[int] = []
    drawing = list(range(players))
    rounds = []
    while True:
        draws = []
        for seat in drawing:
            if not pack:
                pack = list(shuffled_deck(decks, rng, copies))
            draws.append((seat, CARDS[pack.pop(0)]))
        rounds.append(tuple(draws))
        best = max(card.rank for _, card in draws)
        drawing = [seat for seat, card in draws if card.rank == best]
        if len(drawing) == 1:
            return Lot(drawing[0], tuple(rounds))


def lot_winner(rounds: Sequence[Sequence[tuple[int, Card]]], players: int) -> int | None:
    """Who deals after these draws, or ``None`` if they are not a complete, fair lot."""
    drawing = list(range(players))
    for rnd in rounds:
        if len(drawing) == 1 or [seat for seat, _ in rnd] != drawing:
            return None  # a round after the lot was decided, or the wrong players drew
        best = max(card.rank for _, card in rnd)
        drawing = [seat for seat, card in rnd if card.rank == best]
    return drawing[0] if len(drawing) == 1 and rounds else None
