"""Game records in the G2 format: build, check, replay (rules G1-G3, X10).

Everything here works on JSON text and plain dicts; reading and writing files
is left to the callers (``foxtrot.storage``), so the core does no I/O.

Loading is replaying: ``replay`` deals every recorded deck and applies every
recorded action through the checked ``State.apply``, and checks the scores,
totals and winner against what the replay computed.  A bad record is refused
with a ``RecordError`` that names the deal, the action index and the rule.

What a record must hold, beyond the shape of G2 (records are written by
programs, so they are read strictly; people's typing is read leniently by
``Card.parse`` and ``Action.parse``):

- Text: UTF-8 without a byte order mark (UTF-16, UTF-32 and a BOM are
  refused), one JSON object, nested at most ``MAX_DEPTH`` levels, no ``NaN``
  or ``Infinity``.  (``foxtrot check`` and ``storage.load`` also read only
  regular files of at most ``storage.MAX_RECORD_BYTES``, 64 MiB.)
- Cards (``deck``, ``play``, ``lot``): exactly the canonical text of rule C4,
  ``"QS"`` or ``"10H"``; ``"qs"`` and ``" QS "`` are refused.
- The number policy: booleans are never numbers, and counts are whole numbers.
  ``players``, ``decks``, seats (``dealer``, ``seat``, ``winner``,
  ``first_dealer``), ``totals`` and every score field must be JSON integers
  (``3``, not ``3.0`` nor ``true``) of at most ``MAX_DIGITS`` digits.  Only
  the ``target`` may be any positive number (rule M1, ``200`` or ``250.5``),
  as other tools may write it; it is kept as written.
- ``names``: one for each seat, each a fair name (see ``options.name_problem``).
- Keys: no object holds a key twice, nor a key that is neither G2's nor one the
  project adds (``record_keys``; other tools' data goes in ``extensions``).
- The added keys, when present, must be right: ``first_dealer`` is the seat
  that deals deal 0, ``lot`` is a complete, fair drawing of lots (D1) whose
  winner is that seat, ``seats`` has a person or a known level for each seat,
  and ``settings``, ``table`` and ``fair`` have their shapes.  A record that
  contradicts them is refused with a message that names the key.

Every reader of records (``foxtrot check``, ``replay``, ``verify``, the server's
check, ``foxtrot play --resume``) goes through ``replay``, so they all refuse the
same records with the same messages.

Examples:
    >>> import random
    >>> state = State(TableOptions(), dealer=0, names=["Ann", "Bob"])
    >>> _ = state.deal(random.Random(5))
    >>> _ = state.apply(state.legal_actions()[0])
    >>> loads(dumps(state)).observation(1) == state.observation(1)
    True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from typing import Any, Final

from .actions import ACTIONS, TAKE, Action
from .cards import CARDS, Card
from .dealing import Lot, lot_winner
from .errors import FoxtrotError, NotationError, OptionsError, RecordError, UndoError
from .events import Event
from .options import TableOptions, check_names
from .outcome import Phase
from .record_keys import check_added, check_keys
from .record_text import json_kind, parse_record
from .state import State

FORMAT: Final = "foxtrot-record/1"
_SCORE_RULES: Final = {
    "foxtrots": "P1, X9",
    "double_foxtrots": "P1, X9",
    "cards": "P2",
    "card_points": "P2",
    "most_cards": "P3",
    "total": "P4, X9",
}


def to_record(state: State) -> dict[str, Any]:
    """The G2 record of ``state``: every deal with its deck, actions and scores."""
    if not isinstance(state, State):
        raise RecordError(f"to_record: expected a State, got {type(state).__name__}")
    deals = []
    for index, log in enumerate(state.deal_logs()):
        if log.deck is None:
            raise RecordError(
                "this state was sampled from an observation and has no record", deal=index
            )
        deal: dict[str, Any] = {
            "dealer": log.dealer,
            "deck": [str(CARDS[card]) for card in log.deck],
            "actions": [ACTIONS[a & 63].to_json(a >> 6) for a in log.actions],
        }
        if log.scores is not None:
            deal["scores"] = [line.to_json() for line in log.scores]
        deals.append(deal)
    logs = state.deal_logs()
    record: dict[str, Any] = {
        "format": FORMAT,
        "options": state.options.to_json(),
        "names": list(state.names),
        "deals": deals,
        "totals": list(state.totals),
        "winner": state.winner,
        "first_dealer": logs[0].dealer if logs else state.dealer,
    }
    if state.lot is not None:
        record["lot"] = state.lot.to_json()
    return record


def dumps(state: State) -> str:
    """The record of ``state`` as JSON text (one object, UTF-8 names kept as they are)."""
    return json.dumps(to_record(state), ensure_ascii=False) + "\n"


def loads(text: str | bytes) -> State:
    """Check and replay a record given as JSON text; the state after its last action."""
    return from_record(parse_record(text))


def record_seats(data: Mapping[str, Any], players: int) -> list[tuple[str, str]] | None:
    """The ``seats`` key of a terminal record, checked: ``(kind, level)`` for each seat
    (``("human", "")`` or ``("bot", "hard")``), or ``None`` when the record has none."""
    return check_added(data, players)


def from_record(data: Mapping[str, Any]) -> State:
    """Check and replay a record; the state after its last action."""
    state: State | None = None
    for step in replay(data):
        state = step.state
    if state is None:  # a record with no deals
        state = _new_state(data)
    return state


@dataclasses.dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: a deal dealt (``action`` is ``None``) or an action applied.

    ``state`` is the live replay state: clone it to keep it past the next step.
    """

    deal: int
    action: int | None
    seat: int | None
    move: Action | None
    events: tuple[Event, ...]
    state: State


def replay(data: Mapping[str, Any]) -> Iterator[ReplayStep]:
    """Every step of a record, checked as it goes (G3); the last checks come after the last step."""
    state = _new_state(data)
    deals = _field(data, "deals", list)
    n = state.options.players
    for index, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise RecordError("a deal is a JSON object (rule G2)", deal=index)
        if state.phase is Phase.OVER:
            raise RecordError(
                f"the match was won in deal {index - 1}; no deal may follow (rule M2)", deal=index
            )
        if state.phase is Phase.PLAYING:
            raise RecordError(
                f"deal {index - 1} has not ended, yet another deal follows (rule X10)", deal=index
            )
        dealer = _seat(deal, "dealer", n, "G2", deal=index)
        expected = state.dealer if index == 0 else (state.dealer + 1) % n
        if dealer != expected:
            rule = "D1" if index == 0 else "D2"
            raise RecordError(f"dealer is {dealer}, expected {expected} (rule {rule})", deal=index)
        deck = _cards(deal, index)
        try:
            events = state.deal(deck=deck)
        except FoxtrotError as error:
            raise RecordError(str(error), deal=index) from None
        yield ReplayStep(index, None, None, None, events, state)
        actions = deal.get("actions")
        if not isinstance(actions, list):
            raise RecordError(
                f"actions: expected a list, got {_shown(deal, 'actions')} (rule G2)", deal=index
            )
        for number, item in enumerate(actions):
            seat, move = _action(item, n, index, number)
            if state.to_move is None:
                raise RecordError(
                    f"seat {seat} cannot {_verb(move)}: the deal has already ended (rule E1)",
                    deal=index,
                    action=number,
                )
            try:
                events = state.apply(move, seat)
            except FoxtrotError as error:
                raise RecordError(str(error), deal=index, action=number) from None
            yield ReplayStep(index, number, seat, move, events, state)
        _check_scores(deal, state, index)
    _check_end(data, state)


def state_at(data: Mapping[str, Any], deal: int, action: int | None = None) -> State:
    """The state of a record just after ``action`` of ``deal`` (just after dealing if ``None``).

    The whole record is checked first, so that a bad record is refused
    whatever point is asked for.
    """
    if type(deal) is not int or not (action is None or type(action) is int):
        raise RecordError(f"state_at: deal {deal!r} and action {action!r} must be whole numbers")
    from_record(data)
    for step in replay(data):
        if step.deal == deal and step.action == action:
            return step.state.clone()
    where = f"action {action} of deal {deal}" if action is not None else f"deal {deal}"
    raise RecordError(f"the record has no {where}")


# ------------------------------------------------------------------ helpers


def _show(value: object) -> str:
    """A value as a short, one-line piece of a message (JSON spelling for JSON values)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if type(value) is int:
        return str(value) if -(10**30) < value < 10**30 else "a very large number"
    if type(value) is float:
        return repr(value)
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= 40 else text[:36] + "...'"
    return json_kind(value)


def _shown(data: Mapping[str, Any], key: str) -> str:
    """``data[key]`` for a message, or "nothing" when the key is missing."""
    return _show(data[key]) if key in data else "nothing (the key is missing)"


def _new_state(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object, not {json_kind(data)} (rule G2)")
    if data.get("format") != FORMAT:
        raise RecordError(f"format is {_shown(data, 'format')}, expected {FORMAT!r} (rule G2)")
    check_keys(data)
    try:
        options = TableOptions.from_json(_field(data, "options", dict))
    except FoxtrotError as error:
        message = str(error) if "(rule" in str(error) else f"{error} (rule G2)"
        # "players: 3.0 is ..." names the key; "options.players: ..." says where it is
        where = "" if message.startswith("options") else "options."
        raise RecordError(where + message) from None
    n = options.players
    names = _field(data, "names", list)
    try:
        names = list(check_names(names, n))
    except OptionsError as error:
        raise RecordError(f"{error} (rule G2)") from None
    check_added(data, n)
    deals = _field(data, "deals", list)
    totals = _field(data, "totals", list)
    if len(totals) != n:
        raise RecordError(f"totals: {len(totals)} entries for {n} players (rule G2)")
    for seat, total in enumerate(totals):
        if type(total) is not int:
            raise RecordError(f"totals[{seat}] is {_show(total)}, not a whole number (rule G2)")
    if "winner" not in data:
        raise RecordError("winner: missing (null while nobody has won) (rule G2)")
    winner = data["winner"]
    if winner is not None and (type(winner) is not int or not 0 <= winner < n):
        raise RecordError(
            f"winner is {_show(winner)}, not a seat (0 to {n - 1}) nor null (rule G2)"
        )
    first = _seat(data, "first_dealer", n, "D1") if "first_dealer" in data else None
    lot = _lot(data["lot"], n) if "lot" in data else None
    dealt = None  # the dealer of deal 0, when the record says it right (else replay refuses it)
    if deals and isinstance(deals[0], dict):
        dealer = deals[0].get("dealer")
        if type(dealer) is int and 0 <= dealer < n:
            dealt = dealer
    if dealt is not None and first is not None and dealt != first:
        raise RecordError(f"dealer is {dealt}, but first_dealer says {first} (rule D1)", deal=0)
    if lot is not None and dealt is not None and lot.dealer != dealt:
        raise RecordError(
            f"dealer is {dealt}, but the lot makes seat {lot.dealer} the first dealer (rule D1)",
            deal=0,
        )
    if lot is not None and first is not None and lot.dealer != first:
        raise RecordError(
            f"lot: the draws make seat {lot.dealer} the first dealer, but first_dealer says"
            f" {first} (rule D1)"
        )
    if dealt is None:
        dealt = first if first is not None else lot.dealer if lot is not None else 0
    state = State(options, dealer=dealt, names=names)
    state.lot = lot
    return state


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise RecordError(
            f"{key}: expected {'an array' if kind is list else 'an object'},"
            f" got {_shown(data, key)} (rule G2)"
        )
    return value


def _seat(
    data: Mapping[str, Any],
    key: str,
    players: int,
    rule: str,
    *,
    deal: int | None = None,
    action: int | None = None,
) -> int:
    """``data[key]`` if it is a seat number (a whole number 0..players-1)."""
    value = data.get(key)
    if type(value) is not int or not 0 <= value < players:
        raise RecordError(
            f"{key} is {_shown(data, key)}, not a seat (0 to {players - 1}) (rule {rule})",
            deal=deal,
            action=action,
        )
    return value


def _lot(raw: Any, players: int) -> Lot:
    """The ``lot`` key (an addition to G2): rounds of ``{"seat": 0, "card": "QS"}`` draws."""
    if not isinstance(raw, list):
        raise RecordError(f"lot: expected an array of rounds of draws, got {_show(raw)} (rule D1)")
    rounds = []
    for number, rnd in enumerate(raw):
        if not isinstance(rnd, list):
            raise RecordError(f"lot[{number}]: expected an array of draws, got {_show(rnd)}")
        draws = []
        for index, draw in enumerate(rnd):
            where = f"lot[{number}][{index}]"
            if not isinstance(draw, dict):
                raise RecordError(
                    f"{where}: expected an object like {{'seat': 0, 'card': 'QS'}},"
                    f" got {_show(draw)} (rule D1)"
                )
            seat = draw.get("seat")
            if type(seat) is not int or not 0 <= seat < players:
                raise RecordError(
                    f"{where}: seat is {_shown(draw, 'seat')}, not a seat (0 to {players - 1})"
                    " (rule D1)"
                )
            try:
                card = Card.parse_strict(draw.get("card"))
            except NotationError as error:
                raise RecordError(f"{where}: card: {error} (rule C4)") from None
            draws.append((seat, card))
        rounds.append(tuple(draws))
    dealer = lot_winner(rounds, players)
    if dealer is None:
        raise RecordError(
            "lot: the draws do not decide a dealer (every seat draws in the first round,"
            " then the seats tied for the highest rank, in seat order, until one is highest)"
            " (rule D1)"
        )
    return Lot(dealer, tuple(rounds))


def _cards(deal: Mapping[str, Any], index: int) -> list[Card]:
    raw = deal.get("deck")
    if not isinstance(raw, list):
        raise RecordError(
            f"deck: expected an array of cards, got {_shown(deal, 'deck')} (rule G2)", deal=index
        )
    cards = []
    for position, token in enumerate(raw):
        try:
            cards.append(Card.parse_strict(token))
        except NotationError as error:
            raise RecordError(f"deck[{position}]: {error} (rule C4)", deal=index) from None
    return cards


def _action(item: Any, players: int, deal: int, number: int) -> tuple[int, Action]:
    if not isinstance(item, dict):
        raise RecordError(
            f"expected an object like {{'seat': 1, 'play': 'QS'}}, got {_show(item)} (rule G2)",
            deal=deal,
            action=number,
        )
    seat = _seat(item, "seat", players, "C3", deal=deal, action=number)
    if ("play" in item) == ("take" in item):
        raise RecordError(
            "an action has exactly one of 'play' and 'take' (rule G2)", deal=deal, action=number
        )
    if "take" in item:
        if item["take"] is not True:
            raise RecordError(
                f"take is {_show(item['take'])}, expected true (rule G2)", deal=deal, action=number
            )
        return seat, TAKE
    try:
        return seat, Action.play(Card.parse_strict(item["play"]))
    except NotationError as error:
        raise RecordError(f"play: {error} (rule C4)", deal=deal, action=number) from None


def _verb(move: Action) -> str:
    return "take the pile" if move.card is None else f"play {move}"


def _check_scores(deal: Mapping[str, Any], state: State, index: int) -> None:
    if state.phase is Phase.PLAYING:
        if "scores" in deal:
            raise RecordError("scores are given, but the deal has not ended (rule X10)", deal=index)
        return
    if "scores" not in deal:
        raise RecordError("the deal has ended but carries no scores (rule X10)", deal=index)
    raw = deal["scores"]
    computed = state.deal_logs()[index].scores
    assert computed is not None
    if not isinstance(raw, list) or len(raw) != len(computed):
        raise RecordError(
            f"scores: expected one entry for each of {len(computed)} seats,"
            f" got {_show(raw) if not isinstance(raw, list) else len(raw)} (rule G2)",
            deal=index,
        )
    for seat, (entry, line) in enumerate(zip(raw, computed, strict=True)):
        if not isinstance(entry, dict):
            raise RecordError(
                f"scores of seat {seat}: expected an object, got {_show(entry)} (rule G2)",
                deal=index,
            )
        for name in _SCORE_RULES:
            value = entry.get(name)
            if type(value) is not int:
                raise RecordError(
                    f"scores of seat {seat}: {name} is {_shown(entry, name)},"
                    " not a whole number (rule G2)",
                    deal=index,
                )
        for name, rule in _SCORE_RULES.items():
            if entry[name] != getattr(line, name):
                raise RecordError(
                    f"scores of seat {seat}: {name} is {entry[name]}, the actions give"
                    f" {getattr(line, name)} (rule {rule}); the deal ended with action"
                    f" {len(deal['actions']) - 1} (rule G3)",
                    deal=index,
                )


def _check_end(data: Mapping[str, Any], state: State) -> None:
    totals = data["totals"]
    if totals != state.totals:
        raise RecordError(
            f"totals are {totals}, the deal scores add up to {state.totals} (rule M2)"
        )
    winner = data["winner"]
    if winner != state.winner:
        expected = "null: nobody has won yet" if state.winner is None else state.winner
        raise RecordError(f"winner is {_show(winner)}, expected {expected} (rules M2, X8)")


def take_back(state: State, seat: int) -> tuple[State, int]:
    """The state before ``seat``'s last move of the deal in progress, and how many moves that
    takes back (his move and every reply after it).

    Refused (``UndoError``; ``state`` is never changed) when no deal is in progress, when
    ``seat`` has no move in it, and when a card that was hidden has been revealed since that
    move: the stock was dealt again (R1), or a new deal began (the strict policy of Board
    Game Arena). Who may undo (one person against computers) is the front end's to say.
    """
    record = to_record(state)
    deals = record["deals"]
    if state.phase is not Phase.PLAYING or not deals:
        raise UndoError("none", "undo: no deal in progress")
    actions = deals[-1]["actions"]
    mine = [index for index, item in enumerate(actions) if item.get("seat") == seat]
    if not mine:
        raise UndoError("none", f"undo: seat {seat} has no move in this deal")
    deals[-1]["actions"] = actions[: mine[-1]]
    earlier = from_record(record)
    if len(earlier.stock) != len(state.stock):
        raise UndoError("revealed", "undo: the stock was dealt since that move (rule R1)")
    return earlier, len(actions) - mine[-1]
