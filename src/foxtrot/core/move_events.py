"""The events of one move, made cheaply for the checked ``State.apply`` (rules T3-T4).

``apply`` returns a tuple of frozen event values every move, and the server, the
front ends and the environments call it every move.  A frozen dataclass's
``__init__`` sets each field through ``object.__setattr__``; here:

- a card laid on the pile (the commonest move) has a value that depends only on
  the seat and the card: each such one-event tuple is made once, at import;
- the other moves' events are made with their slots' setters, which costs half
  as much (the same type, the same fields, the same values: equal to the
  dataclass-made ones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .cards import CARDS, Card
from .events import CardPlayed, DealEnded, Event, MatchEnded, PileTaken, PlayResult
from .scoring import ScoreLine

#: ``(CardPlayed(seat, card, LAID, ()),)`` by ``seat << 6 | card id`` (9 players at most).
LAID_EVENTS: Final[dict[int, tuple[Event, ...]]] = {
    seat << 6 | card.id: (CardPlayed(seat, card, PlayResult.LAID, ()),)
    for seat in range(9)
    for card in CARDS
}


def _setters(cls: type) -> tuple[Callable[[object, object], None], ...]:
    fields: dict[str, object] = getattr(cls, "__dataclass_fields__")  # noqa: B009
    return tuple(getattr(cls, name).__set__ for name in fields)


_new = object.__new__
_played_seat, _played_card, _played_result, _played_taken = _setters(CardPlayed)
_took_seat, _took_taken = _setters(PileTaken)


def card_played(seat: int, card: Card, result: PlayResult, taken: tuple[Card, ...]) -> CardPlayed:
    """``CardPlayed(seat, card, result, taken)``, made with the slots' setters."""
    event: CardPlayed = _new(CardPlayed)
    _played_seat(event, seat)
    _played_card(event, card)
    _played_result(event, result)
    _played_taken(event, taken)
    return event


def pile_taken(seat: int, taken: tuple[Card, ...]) -> PileTaken:
    """``PileTaken(seat, taken)``, made with the slots' setters."""
    event: PileTaken = _new(PileTaken)
    _took_seat(event, seat)
    _took_taken(event, taken)
    return event


def deal_end_events(
    deal: int,
    scores: tuple[ScoreLine, ...],
    *,
    totals: Sequence[int],
    stock: int,
    table: Sequence[int],
    leftover_taker: int | None,
    winner: int | None,
) -> tuple[Event, ...]:
    """``DealEnded`` of deal ``deal``, and ``MatchEnded`` if it won the match (E1, E2, M2):
    ``table`` is the pile left when the deal ended, ``leftover_taker`` who took it (X5)."""
    events: tuple[Event, ...] = (
        DealEnded(
            deal,
            scores,
            tuple(totals),
            stock,
            tuple(CARDS[c] for c in table),
            leftover_taker,
        ),
    )
    if winner is not None:
        events += (MatchEnded(winner, tuple(totals)),)
    return events


__all__ = ["LAID_EVENTS", "card_played", "deal_end_events", "pile_taken"]
