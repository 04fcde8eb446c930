"""Game records in the G2 format: build, check, replay (rules G1-G3, X10).

Everything here works on JSON text and plain dicts; reading and writing files
is left to the callers (``foxtrot.storage``), so the core does no I/O.

Loading is replaying: ``replay`` deals every recorded deck and applies every
recorded action through the checked ``State.apply``, and checks the scores,
totals and winner against what the replay computed.  A bad record is refused
with a ``RecordError`` that names the deal, the action index and the rule.

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
from .errors import FoxtrotError, RecordError
from .events import Event
from .options import TableOptions
from .outcome import Phase
from .scoring import ScoreLine
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


def parse_record(text: str | bytes) -> dict[str, Any]:
    """JSON text to a dict, refusing anything that is not one JSON object."""
    try:
        data = json.loads(text)
    except UnicodeDecodeError as error:
        raise RecordError(
            f"not UTF-8 text: {error.reason} at byte {error.start} (rule G2)"
        ) from None
    except json.JSONDecodeError as error:
        raise RecordError(
            f"not JSON: {error.msg} at line {error.lineno}, column {error.colno} (rule G2)"
        ) from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__} (rule G2)")
    return data


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
        dealer = deal.get("dealer")
        expected = state.dealer if index == 0 else (state.dealer + 1) % n
        if dealer != expected or type(dealer) is not int:
            rule = "D1" if index == 0 else "D2"
            raise RecordError(
                f"dealer is {dealer!r}, expected {expected} (rule {rule})", deal=index
            )
        deck = _cards(deal.get("deck"), index)
        try:
            events = state.deal(deck=deck)
        except FoxtrotError as error:
            raise RecordError(str(error), deal=index) from None
        yield ReplayStep(index, None, None, None, events, state)
        actions = deal.get("actions")
        if not isinstance(actions, list):
            raise RecordError("actions: expected a list (rule G2)", deal=index)
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
    from_record(data)
    for step in replay(data):
        if step.deal == deal and step.action == action:
            return step.state.clone()
    where = f"action {action} of deal {deal}" if action is not None else f"deal {deal}"
    raise RecordError(f"the record has no {where}")


# ------------------------------------------------------------------ helpers


def _new_state(data: Mapping[str, Any]) -> State:
    if not isinstance(data, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__} (rule G2)")
    if data.get("format") != FORMAT:
        raise RecordError(f"format is {data.get('format')!r}, expected {FORMAT!r} (rule G2)")
    try:
        options = TableOptions.from_json(_field(data, "options", dict))
    except FoxtrotError as error:
        message = str(error) if "(rule" in str(error) else f"{error} (rule G2)"
        raise RecordError(message) from None
    names = _field(data, "names", list)
    if len(names) != options.players or not all(isinstance(name, str) for name in names):
        raise RecordError(
            f"names: expected {options.players} names as text, got {names!r} (rule G2)"
        )
    deals = _field(data, "deals", list)
    _field(data, "totals", list)
    if "winner" not in data:
        raise RecordError("winner: missing (null while nobody has won) (rule G2)")
    lot = _lot(data.get("lot"), options.players)
    first = data.get("first_dealer")
    if deals and isinstance(deals[0], dict):
        first = deals[0].get("dealer") if first is None else first
    if first is None and lot is not None:
        first = lot.dealer
    if first is None:
        first = 0
    if type(first) is not int or not 0 <= first < options.players:
        raise RecordError(f"first dealer is {first!r}, not a seat (rule D1)")
    if lot is not None and lot.dealer != first:
        raise RecordError(f"the lot makes seat {lot.dealer} the dealer, not {first} (rule D1)")
    state = State(options, dealer=first, names=names)
    state.lot = lot
    return state


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise RecordError(
            f"{key}: expected a {'list' if kind is list else 'JSON object'},"
            f" got {value!r} (rule G2)"
        )
    return value


def _lot(raw: Any, players: int) -> Lot | None:
    if raw is None:
        return None
    try:
        rounds = tuple(
            tuple((int(draw["seat"]), Card.parse(draw["card"])) for draw in rnd) for rnd in raw
        )
    except (FoxtrotError, KeyError, TypeError, ValueError):
        raise RecordError("lot: expected rounds of {seat, card} draws") from None
    dealer = lot_winner(rounds, players)
    if dealer is None:
        raise RecordError("lot: the draws do not decide a dealer (rule D1)")
    return Lot(dealer, rounds)


def _cards(raw: Any, deal: int) -> list[Card]:
    if not isinstance(raw, list):
        raise RecordError("deck: expected a list of cards (rule G2)", deal=deal)
    cards = []
    for position, token in enumerate(raw):
        try:
            cards.append(Card.parse(token) if isinstance(token, str) else Card.parse(repr(token)))
        except FoxtrotError as error:
            raise RecordError(f"deck[{position}]: {error} (rule C4)", deal=deal) from None
    return cards


def _action(item: Any, players: int, deal: int, number: int) -> tuple[int, Action]:
    if not isinstance(item, dict):
        raise RecordError(
            f"expected an object like {{'seat': 1, 'play': 'QS'}}, got {item!r} (rule G2)",
            deal=deal,
            action=number,
        )
    seat = item.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise RecordError(
            f"seat {seat!r} is not a seat (0 to {players - 1}) (rule C3)", deal=deal, action=number
        )
    if ("play" in item) == ("take" in item):
        raise RecordError(
            "an action has exactly one of 'play' and 'take' (rule G2)", deal=deal, action=number
        )
    if "take" in item:
        if item["take"] is not True:
            raise RecordError(
                f"take is {item['take']!r}, expected true (rule G2)", deal=deal, action=number
            )
        return seat, TAKE
    play = item["play"]
    try:
        return seat, Action.play(Card.parse(play if isinstance(play, str) else repr(play)))
    except FoxtrotError as error:
        raise RecordError(f"play: {error} (rule C4)", deal=deal, action=number) from None


def _verb(move: Action) -> str:
    return "take the pile" if move.card is None else f"play {move}"


def _check_scores(deal: Mapping[str, Any], state: State, index: int) -> None:
    raw = deal.get("scores")
    if state.phase is Phase.PLAYING:
        if raw is not None:
            raise RecordError("scores are given, but the deal has not ended (rule X10)", deal=index)
        return
    if raw is None:
        raise RecordError("the deal has ended but carries no scores (rule X10)", deal=index)
    computed = state.deal_logs()[index].scores
    assert computed is not None
    if not isinstance(raw, list) or len(raw) != len(computed):
        raise RecordError(
            f"scores: expected one entry for each of {len(computed)} seats (rule G2)", deal=index
        )
    for seat, (entry, line) in enumerate(zip(raw, computed, strict=True)):
        try:
            given = ScoreLine.from_json(entry)
        except RecordError as error:
            raise RecordError(f"scores of seat {seat}: {error} (rule G2)", deal=index) from None
        for name, rule in _SCORE_RULES.items():
            if getattr(given, name) != getattr(line, name):
                raise RecordError(
                    f"scores of seat {seat}: {name} is {getattr(given, name)}, the actions give"
                    f" {getattr(line, name)} (rule {rule}); the deal ended with action"
                    f" {len(deal['actions']) - 1} (rule G3)",
                    deal=index,
                )


def _check_end(data: Mapping[str, Any], state: State) -> None:
    totals = data["totals"]
    if totals != state.totals:
        raise RecordError(
            f"totals are {totals!r}, the deal scores add up to {state.totals} (rule M2)"
        )
    winner = data["winner"]
    if winner != state.winner or type(winner) not in (int, type(None)):
        expected = "null: nobody has won yet" if state.winner is None else state.winner
        raise RecordError(f"winner is {winner!r}, expected {expected} (rules M2, X8)")
