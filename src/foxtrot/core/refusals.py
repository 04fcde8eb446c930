"""What may be done (rules T1-T7): ``State``'s legal actions, and why an action is refused.

The rule itself is the kernel's (``kernel.illegal_reason``, on integers); this module turns
its verdict, and the checks that come before it (the phase, the turn, the input's type),
into an ``IllegalActionError`` that names the seat, the action and the rule.  ``Legality``
is the base class that gives ``State`` its verbs of legality; it reads the state and writes nothing.

>>> from foxtrot.core import Action, Card
>>> error = refusal(Action.parse("QS"), 1, phase=Phase.PLAYING, to_move=0, hand=[],
...                 pile=[], take_allowed=False, forced_foxtrot=False)
>>> error.code, str(error)
('not_your_turn', "seat 1 cannot play QS: it is seat 0's turn (rule T1)")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import ACTIONS, TAKE_CODE, Action
from .cards import Rank
from .errors import IllegalActionError, OptionsError
from .kernel import EMPTY_PILE, NOT_IN_HAND, TAKE_NOT_ALLOWED, illegal_reason, legal_codes
from .outcome import Phase
from .position import PositionValue

__all__ = ["Legality", "as_action", "not_a_seat", "refusal"]

_PLAYING: Final = Phase.PLAYING


def as_action(action: object, seat: int) -> Action:
    """Text read as an action (rule C4); anything else that is not an ``Action`` is refused."""
    if isinstance(action, str):
        return Action.parse(action)
    raise IllegalActionError(
        "bad_action",
        seat,
        f"do {action!r}",
        "that is not an action (expected an Action or text like QS or take)",
    )


def not_a_seat(seat: object, players: int) -> str:
    """The message for a seat that is not a whole number in range."""
    return f"seat: {seat!r} is not a seat (a whole number 0 to {players - 1})"


def refusal(
    action: Action,
    seat: int,
    *,
    phase: Phase,
    to_move: int,
    hand: Sequence[int],
    pile: Sequence[int],
    take_allowed: bool,
    forced_foxtrot: bool,
) -> IllegalActionError | None:
    """Why ``seat`` may not do ``action`` in this position, or ``None`` if it may (T7)."""
    verb = "take the pile" if action.code == TAKE_CODE else f"play {action}"

    def refuse(code: str, reason: str) -> IllegalActionError:
        return IllegalActionError(code, seat, verb, reason)

    if phase is Phase.OVER:
        return refuse("match_over", "the match is over")
    if phase is Phase.AWAITING_DEAL:
        return refuse("no_deal", "no deal is in progress; the next deal must be dealt first")
    if seat != to_move:
        return refuse("not_your_turn", f"it is seat {to_move}'s turn (rule T1)")
    reason = illegal_reason(hand, pile, take_allowed, forced_foxtrot, action.code)
    if not reason:
        return None
    if reason == TAKE_NOT_ALLOWED:
        return refuse(
            "take_not_allowed",
            "taking without playing is not allowed with take = match (rule T4)",
        )
    if reason == EMPTY_PILE:
        return refuse("empty_pile", "the pile is empty (rule T4)")
    if reason == NOT_IN_HAND:
        return refuse("not_in_hand", f"{action} is not in the hand (rule T3)")
    return refuse(  # MUST_FOXTROT: the pile is one card, of the rank to play
        "must_foxtrot",
        f"a foxtrot with a {Rank(pile[0] >> 2).symbol} must be made (forced_foxtrot, rule X4)",
    )


class Legality(PositionValue):
    """The verbs of legality of ``State`` (a base class: it reads the state, writes nothing)."""

    __slots__ = ()

    def why_illegal(self, action: Action | str, seat: object = None) -> IllegalActionError | None:
        """Why ``action`` (by ``seat``, default the player to move) is illegal, or ``None`` (T7).

        A seat that is not a whole number raises ``OptionsError``; a value that
        is not an action (nor text naming one) raises ``IllegalActionError``.
        """
        if seat is None:
            seat = self._to_move
        elif type(seat) is not int:
            raise OptionsError(not_a_seat(seat, self.options.players))
        return refusal(
            action if type(action) is Action else as_action(action, seat),
            seat,
            phase=self.phase,
            to_move=self._to_move,
            hand=self._hands[self._to_move],  # read only when seat is to move
            pile=self._pile,
            take_allowed=not self._match,
            forced_foxtrot=self.options.forced_foxtrot,
        )

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, plays in card order then ``take``."""
        if self.phase is not _PLAYING:
            return []
        codes = legal_codes(self._hands[self._to_move], self._pile, not self._match, self._forced)
        actions = ACTIONS  # one look-up, not one per code (a global of another module)
        return [actions[code] for code in codes]

    def legal_codes(self) -> list[int]:
        """The ``code`` of every action of ``legal_actions()``, for loops that work on codes."""
        if self.phase is not _PLAYING:
            return []
        return legal_codes(self._hands[self._to_move], self._pile, not self._match, self._forced)

    def is_legal(self, action: Action | str, seat: object = None) -> bool:
        """True if ``why_illegal`` finds nothing wrong."""
        return self.why_illegal(action, seat) is None
