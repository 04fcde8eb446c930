"""The errors of the engine: a small hierarchy of ``ValueError`` subclasses.

Every message names the input and where it failed, so that a front end can show
it as it is and a log line explains itself.  No message ever carries hidden
information (another seat's hand, the stock order or a seed).
"""

from __future__ import annotations


class FoxtrotError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(FoxtrotError):
    """Text that is not a card or an action (rule C4)."""


class OptionsError(FoxtrotError):
    """Table options that are not allowed (rules C3, M1, X7)."""


class DeckError(FoxtrotError):
    """A deck that is not a legal shuffled pack for the table (rules C1, D4)."""


class IllegalActionError(FoxtrotError):
    """An action that is not legal in the current state (rule T7).

    ``code`` is a short machine-readable reason (``"not_your_turn"``,
    ``"not_in_hand"``, ...); the message names the seat, the action and the
    reason.  The state is never changed by a refused action.
    """

    def __init__(self, code: str, seat: int, action: str, reason: str) -> None:
        self.code = code
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat} cannot {action}: {reason}")


class PositionTextError(FoxtrotError):
    """A position text (``State.from_text``) that cannot be read.

    ``field`` names the field that failed (``"hands"``, ``"stock"``, ...), ``token`` the
    text found there that is wrong, and ``text`` the whole position: the message carries
    all three, so that a bad position in a log or a test explains itself.  The text is the
    caller's own, so repeating it reveals nothing the caller did not have.
    """

    def __init__(self, field: str, token: str, reason: str, text: str) -> None:
        self.field = field
        self.token = token
        self.reason = reason
        self.text = text
        super().__init__(f"position text, {field}: {token!r} {reason} (in {text!r})")


class RecordError(FoxtrotError):
    """A game record that is malformed or breaks a rule (rules G1-G3, X10).

    ``deal`` and ``action`` are the 0-based indexes of the deal and action
    where the record went wrong (``None`` where the fault is not inside one).
    """

    def __init__(self, message: str, deal: int | None = None, action: int | None = None) -> None:
        self.deal = deal
        self.action = action
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if action is not None:
            where.append(f"action {action}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class UndoError(FoxtrotError):
    """A move that cannot be taken back; ``code`` names why (``none``, ``revealed``, and in
    the front ends ``hot_seat``: undo is only for one person against computers)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
