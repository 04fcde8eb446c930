"""Actions: play a card, or take the pile (rules T3, T4).

An action is a frozen, interned value with a canonical text: the card's text
for a play, ``take`` for taking the pile.  Inside the engine an action is its
``code``: the card id (0..51) for a play, ``TAKE_CODE`` (52) for a take.

Examples:
    >>> Action.parse("10H")
    Action('10H')
    >>> Action.parse("take") is TAKE
    True
    >>> [str(a) for a in (Action.play(Card.parse("QS")), TAKE)]
    ['QS', 'take']
    >>> Action.parse("pass")
    Traceback (most recent call last):
    ...
    foxtrot.core.errors.NotationError: bad action 'pass': expected a card like QS or 10H, or 'take'
"""

from __future__ import annotations

from typing import Final

from .cards import CARDS, Card
from .errors import NotationError

TAKE_CODE: Final = 52


class Action:
    """Play ``card``, or take the pile when ``card`` is ``None``."""

    __slots__ = ("card", "code")
    card: Card | None
    code: int

    @classmethod
    def _make(cls, code: int) -> Action:
        action = object.__new__(cls)
        object.__setattr__(action, "code", code)
        object.__setattr__(action, "card", CARDS[code] if code < TAKE_CODE else None)
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (action_from_code, (self.code,))

    @staticmethod
    def play(card: Card) -> Action:
        """The action of playing ``card``."""
        if type(card) is not Card:
            raise NotationError(f"bad card {card!r}: expected a Card (use Card.parse)")
        return ACTIONS[card.id]

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action as a person types it: a card (rule C4, any case) or ``take``."""
        if not isinstance(text, str):
            raise NotationError(f"bad action {text!r}: expected text like QS, 10H or take")
        token = text.strip()
        if token.lower() == "take":
            return TAKE
        try:
            return ACTIONS[Card.parse(token).id]
        except NotationError:
            raise NotationError(
                f"bad action {text!r}: expected a card like QS or 10H, or 'take'"
            ) from None

    @property
    def is_take(self) -> bool:
        """True for taking the pile without playing (rule T4)."""
        return self.code == TAKE_CODE

    def __str__(self) -> str:
        return "take" if self.card is None else str(self.card)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: Action) -> bool:
        return self.code < other.code

    def to_json(self, seat: int) -> dict[str, object]:
        """The action as a G2 record writes it, with the seat that made it."""
        if self.card is None:
            return {"seat": seat, "take": True}
        return {"seat": seat, "play": str(self.card)}


ACTIONS: Final[tuple[Action, ...]] = tuple(Action._make(code) for code in range(TAKE_CODE + 1))
TAKE: Final = ACTIONS[TAKE_CODE]


def action_from_code(code: int) -> Action:
    """The action with this code (card id 0..51, or 52 for take)."""
    return ACTIONS[code]
