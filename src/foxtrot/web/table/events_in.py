"""What a person's action may do, and what a logged event does to a table's game state: the
one place the server turns its event log into states, live (before the commit) and when a
table is restored or caught up.

``start`` seats the match, ``deal`` shuffles from the committed seeds (docs/fair.md),
``action`` applies a move, ``undo`` takes back the one person's last move and the computers'
replies (``take_back``: the terminal game's rule). The other kinds change seats, seeds or
status, not the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import Action, Event, FoxtrotError, State, TableOptions, UndoError, take_back
from .. import fair
from ..protocol import ActionIn, Code, ProtocolError
from ..store.event_log import LoggedEvent
from .seats import DealSeeds, SeatInfo


def next_state(  # noqa: PLR0917 (the table's parts the event reads)
    state: State | None,
    logged: LoggedEvent,
    seats: Sequence[SeatInfo],
    seeds: dict[int, DealSeeds],
    table_id: str,
    options: TableOptions,
) -> tuple[State | None, tuple[Event, ...]]:
    """The state after ``logged`` (a new object when it changes) and its engine events.

    A refused undo raises ``ProtocolError`` (``no_undo``, the rule's reason): nothing is
    logged. An accepted one notes in ``logged.data`` how many moves it took back.
    """
    data: dict[str, Any] = logged.data
    if logged.kind == "start":
        names = [seat.name or f"Seat {i + 1}" for i, seat in enumerate(seats)]
        return State(options, dealer=int(data["first_dealer"]), names=names), ()
    if logged.kind in ("deal", "action", "undo"):
        assert state is not None
    else:
        return state, ()
    if logged.kind == "deal":
        deal = int(data["deal"])
        deck = fair.shuffle(seeds[deal].seed, table_id, deal, data["player_seeds"], options.decks)
        after = state.clone()
        return after, after.deal(deck=deck)
    if logged.kind == "action":
        after = state.clone()
        return after, after.apply(Action.parse(data["action"]), int(data["seat"]))
    try:
        earlier, undone = take_back(state, int(data["seat"]))
    except UndoError as error:
        raise ProtocolError(Code.NO_UNDO, str(error), reason=error.code) from None
    data["undone"] = undone
    return earlier, ()


def checked_action(
    state: State | None, status: str, seqs: tuple[int, int], seat: int, msg: ActionIn
) -> Action:
    """The action ``msg`` of ``seat`` if the table may take it now; else ``ProtocolError``:
    not started, over, sent at an old sequence number, out of turn, or illegal (``why_illegal``).

    ``seqs``: the last event that changed the game, and the table's last event.  An action
    sent at any number between them saw the game as it is: an event that changes no game
    (a rated table's ``replaced``, web/table/actor.py) does not make it stale.
    """
    since, seq = seqs
    if status == "open" or state is None:
        raise ProtocolError(Code.NOT_STARTED, "the match has not started", msg.id)
    if state.is_over or status != "playing":
        raise ProtocolError(Code.MATCH_OVER, "the match is over", msg.id)
    if not since <= msg.seq <= seq:
        raise ProtocolError(
            Code.STALE_SEQ,
            f"the action was sent at sequence {msg.seq}; the table is at {seq}:"
            " look at the new view and send again",
            msg.id,
        )
    if state.to_move != seat:
        whose = "no deal is in progress" if state.to_move is None else f"seat {state.to_move}"
        raise ProtocolError(Code.NOT_YOUR_TURN, f"it is not your turn ({whose})", msg.id)
    try:
        action = Action.parse(msg.action)
    except FoxtrotError as bad:
        raise ProtocolError(Code.ILLEGAL, str(bad), msg.id) from None
    illegal = state.why_illegal(action, seat)
    if illegal is not None:
        raise ProtocolError(Code.ILLEGAL, str(illegal), msg.id, illegal.code)
    return action
