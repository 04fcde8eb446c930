"""The analysis board: a position as one seat saw it, moves tried forward, the coach's values.

A board starts from a position: a record's deal and move (``Board.from_record``: the table
just before that move, as in a replay), or a position text (``Board.from_text``, see
docs/library/position.md).  From there anyone may try moves ("what if I had played the 7?"):
``Board.at(line)`` is the table after the moves of ``line``, each checked by the engine, and
``Frame.values`` gives the coach's value of every legal move of the seat to move — the expected
deal margin of ``bots.coach``'s search, from that seat's observation only, with the generator
seeded from the observation (``coach.observation_rng``) and no time budget, so that the values
are the ones ``coach.suggest`` (and ``foxtrot hint``) gives for the same position and the same
number of samples (``iterations``).

Hidden cards.  A board is ``open`` when every card may be shown: the match is over, or the
position was written by the user (a position text or a record file holds every card anyway).
Otherwise only the analysing seat's own hand is shown, the other seats' moves can only be the
moves they made (``PLAYED``, while the line still follows the record), and a frame offers the
values of the analysing seat's moves only: nothing in a frame depends on a card that seat
could not see.

>>> text = "2:match:no:discard:none:200 - playing 0 1 2SKH/3S 4S 6S5S -/- -/- - - - 0,0 - -"
>>> board = Board.from_text(text)
>>> board.seat, board.open
(1, True)
>>> frame = board.at(["3S"])
>>> [str(card) for card in frame.state.pile], frame.mover
(['4S', '3S'], 0)
>>> board.at(["QS"])
Traceback (most recent call last):
...
foxtrot.analysis.LineError: move 1 of the line: QS is not a legal move of Player 2 (legal: 3S)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .bots.coach import observation_rng
from .bots.expert import ExpertBot
from .core import Action, FoxtrotError, NotationError, Observation, Phase, State, replay

#: The coach's samples for a value (as many as ``coach.suggest``'s default, ``foxtrot hint``'s).
ITERATIONS: Final = 100
#: A line of tried moves is at most this long (a deal of nine players has 108 cards).
LONGEST_LINE: Final = 400
#: In a line, the move the seat made in the record (only while the line follows the record).
PLAYED: Final = "played"


class LineError(FoxtrotError):
    """A tried move that cannot be made: not an action, not legal, or a hidden seat's choice."""


@dataclasses.dataclass(frozen=True, slots=True)
class Value:
    """One legal move and the coach's value of it (the expected deal margin, in points)."""

    action: Action
    value: float | None
    best: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Frame:
    """The table after a line of moves: the state, who moves, what the record played next.

    ``line`` is the line as actions (``PLAYED`` resolved); ``recorded`` is the record's next
    move when the line still follows the record (None otherwise, and None at a position text).
    ``choosable``: the seat to move may be moved by the user (its own seat, or any seat of an
    open board).
    """

    state: State
    line: tuple[Action, ...]
    recorded: Action | None
    choosable: bool

    @property
    def mover(self) -> int | None:
        """The seat to move, None when the deal or the match is over."""
        return self.state.to_move if self.state.phase is Phase.PLAYING else None

    def values(self, iterations: int = ITERATIONS) -> tuple[list[Value], int]:
        """The coach's value of every legal move of the seat to move, best first, and
        ``Analysis.solved`` (1: exact values); no values (and 0) when the user may not choose
        this seat's move.  A single legal move has no value: there is nothing to compare."""
        mover = self.mover
        if mover is None or not self.choosable:
            return [], 0
        return coach_values(self.state.observation(mover), iterations)


def coach_values(obs: Observation, iterations: int = ITERATIONS) -> tuple[list[Value], int]:
    """The coach's value of each legal move of ``obs`` (its seat to move), best first, and
    whether the coach solved the position (``Analysis.solved``): ``coach.suggest``'s search
    with no time budget, so the values are reproducible."""
    legal = obs.legal_actions
    if len(legal) == 1:
        return [Value(legal[0], None, True)], 0
    analysis = ExpertBot(iterations, None).analyse(obs, observation_rng(obs))
    ranked = sorted(legal, key=lambda action: (-analysis.values[action], action.code))
    values = [Value(a, analysis.values[a], a == analysis.best) for a in ranked]
    return values, analysis.solved


@dataclasses.dataclass(frozen=True)
class Board:
    """Where an analysis starts: a position, the seat whose eyes look at it, whether every
    card may be shown (``open``) and the record's moves from there (``recorded``)."""

    start: State = dataclasses.field(repr=False)
    seat: int
    open: bool
    recorded: tuple[Action, ...] = ()
    #: (deal, move), both 1-based, of a board opened from a record; None for a position text.
    where: tuple[int, int] | None = None

    @classmethod
    def from_text(cls, text: str, seat: int | None = None) -> Board:
        """A board at a position text (every card known: open); ``seat`` defaults to the
        seat to move."""
        state = State.from_text(text)
        return cls(state, _seat(state, seat), True)

    @classmethod
    def from_record(
        cls,
        record: Mapping[str, Any],
        deal: int,
        move: int = 1,
        seat: int | None = None,
        *,
        open: bool | None = None,
    ) -> Board:
        """A board just before move ``move`` (1-based; one more than the deal's moves: after
        its last) of deal ``deal`` (1-based) of a checked or unchecked record.  ``open``
        defaults to: the match is over."""
        if type(deal) is not int or type(move) is not int:
            raise LineError(f"deal {deal!r} and move {move!r} must be whole numbers")
        dealt = False
        moves: list[Action] = []
        at: State | None = None
        final: State | None = None
        for step in replay(record):  # checks the whole record as it goes
            final = step.state
            if step.deal != deal - 1:
                continue
            dealt = True
            if step.action is not None and step.move is not None:
                moves.append(step.move)
            if len(moves) == move - 1 and at is None:
                at = step.state.clone()
        deals = 0 if final is None else final.deal_number
        if not dealt:
            raise LineError(f"deal {deal}: the record has {deals} deal{'s' * (deals != 1)}")
        if not 1 <= move <= len(moves) + 1 or at is None:
            raise LineError(
                f"move {move}: deal {deal} has {len(moves)} moves"
                f" (1 to {len(moves) + 1}, {len(moves) + 1} being after the last)"
            )
        over = final is not None and final.phase is Phase.OVER
        shown = over if open is None else open
        return cls(at, _seat(at, seat), shown, tuple(moves[move - 1 :]), (deal, move))

    def at(self, line: Sequence[str | Action] = ()) -> Frame:
        """The table after ``line`` (each a move like ``7H``, ``take`` or ``PLAYED``), every
        move checked; a bad one is refused with a ``LineError`` naming it and its place."""
        if len(line) > LONGEST_LINE:
            raise LineError(f"a line has at most {LONGEST_LINE} moves, not {len(line)}")
        state = self.start.clone()
        done: list[Action] = []
        on_record = bool(self.recorded)
        for number, item in enumerate(line, 1):
            mover = state.to_move if state.phase is Phase.PLAYING else None
            if mover is None:
                raise LineError(f"move {number} of the line: the deal is over")
            recorded = self._next(on_record, len(done))
            if isinstance(item, str) and item == PLAYED:
                if recorded is None:
                    raise LineError(
                        f"move {number} of the line: {PLAYED!r} follows the record,"
                        " and the line has left it"
                    )
                action = recorded
            else:
                action = _action(item, number)
                if mover != self.seat and not self.open and action != recorded:
                    raise LineError(
                        f"move {number} of the line: {state.names[mover]}'s cards are hidden"
                        f" until the match is over; only the move made ({PLAYED!r}) can be"
                        " played"
                    )
            if action not in state.observation(mover).legal_actions:
                legal = ", ".join(map(str, state.observation(mover).legal_actions))
                raise LineError(
                    f"move {number} of the line: {action} is not a legal move of"
                    f" {state.names[mover]} (legal: {legal})"
                )
            on_record = on_record and action == recorded
            state.apply(action)
            done.append(action)
        mover = state.to_move if state.phase is Phase.PLAYING else None
        choosable = mover is not None and (self.open or mover == self.seat)
        recorded = self._next(on_record, len(done)) if mover is not None else None
        return Frame(state, tuple(done), recorded, choosable)

    def _next(self, on_record: bool, done: int) -> Action | None:
        """The record's move after ``done`` moves of a line that still follows it."""
        return self.recorded[done] if on_record and done < len(self.recorded) else None


def _seat(state: State, seat: int | None) -> int:
    players = state.players
    if seat is None:
        return state.to_move if state.to_move is not None else 0
    if type(seat) is not int or not 0 <= seat < players:
        raise LineError(f"seat {seat!r} is not a seat of this table (0 to {players - 1})")
    return seat


def _action(item: str | Action, number: int) -> Action:
    if isinstance(item, Action):
        return item
    try:
        return Action.parse(item)
    except NotationError as error:
        raise LineError(f"move {number} of the line: {error}") from None


def parse_line(text: str) -> list[str]:
    """A line as typed: moves separated by commas or spaces (``7H, take, played``)."""
    return [part for part in text.replace(",", " ").split() if part]


__all__ = [
    "ITERATIONS",
    "LONGEST_LINE",
    "PLAYED",
    "Board",
    "Frame",
    "LineError",
    "Value",
    "coach_values",
    "parse_line",
]
