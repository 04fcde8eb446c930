"""What each seat and each spectator may see: JSON computed from ``State.observation(seat)``.

A seat's view is its observation (rules V1, V2); the public view (V1 only) is
built from an observation with the private fields left out, so a spectator's
message is never the raw state filtered afterwards.  Engine events are public
by construction (``core.events``); ``event_data`` turns them into JSON and
``narration`` into words in the connection's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core import (
    CardPlayed,
    DealEnded,
    DealStarted,
    Event,
    MatchEnded,
    Observation,
    Phase,
    PileTaken,
    Redealt,
    State,
    UndoError,
    take_back,
)
from ...i18n import catalog, seat_name
from ...narrate import narrate
from ..protocol import EventOut
from .match_parts import match_parts

if TYPE_CHECKING:
    from .seats import Entry, SeatInfo


def _cards(cards: Sequence[object]) -> list[str]:
    return [str(card) for card in cards]


def public_view(obs: Observation) -> dict[str, Any]:
    """The public part of an observation (V1): no hand, no legal actions."""
    return {
        "players": obs.players,
        "names": list(obs.names),
        "options": obs.options.to_json(),
        "phase": obs.phase.name.lower(),
        "deal": obs.deal,
        "dealer": obs.dealer,
        "to_move": obs.to_move,
        "pile": _cards(obs.pile),
        "upturned": str(obs.upturned) if obs.upturned is not None else None,
        "stock": obs.stock,
        "hand_sizes": list(obs.hand_sizes),
        "taken": [len(cards) for cards in obs.taken],
        "foxtrots": [_cards(cards) for cards in obs.foxtrots],
        "last_taker": obs.last_taker,
        "totals": list(obs.totals),
        "history": [[seat, str(action)] for seat, action in obs.history],
        "deal_scores": [[line.to_json() for line in lines] for lines in obs.deal_scores],
        "winner": obs.winner,
    }


def seat_view(obs: Observation) -> dict[str, Any]:
    """A seat's view: the public view, its own hand (V2) and its legal actions."""
    view = public_view(obs)
    view["seat"] = obs.seat
    view["hand"] = _cards(obs.hand)
    view["legal"] = [str(action) for action in obs.legal_actions]
    # what each card in hand would do on this pile, for the player setting "mark the cards that
    # take" (the engine's rule, Observation.result_of); laid cards are left out. Only for the
    # seat to move: every seat's view is made at every event, and the marks show on a turn.
    mover = obs.to_move == obs.seat and obs.pile
    effects = {str(card): obs.result_of(card).value for card in set(obs.hand)} if mover else {}
    view["effects"] = {card: result for card, result in effects.items() if result != "laid"}
    return view


def spectator_view(obs: Observation) -> dict[str, Any]:
    """What a spectator sees: the public view of any seat's observation."""
    view = public_view(obs)
    view["seat"] = None
    return view


def view_of(state: State | None, seat: int | None, *, undo: bool = False) -> dict[str, Any] | None:
    """What ``seat`` sees of ``state`` (``None``: a spectator); ``None`` before any deal.

    ``undo``: the seat may take moves back (one person against computers); its view then says
    why the rules would refuse an undo now (``undo_refused``: ``none``, ``revealed``), so the
    page disables Undo with the reason instead of sending a request it knows is refused.
    """
    if state is None:
        return None
    obs = state.observation(seat or 0)
    view = seat_view(obs) if seat is not None else spectator_view(obs)
    if obs.phase is Phase.OVER:  # the match-end screen's sheet by category (public, V1)
        view["parts"] = match_parts(state)
    if undo and seat is not None and obs.phase is Phase.PLAYING:
        view["undo_refused"] = _undo_refused(state, seat)
    return view


def _undo_refused(state: State, seat: int) -> str | None:
    """Why ``take_back`` would refuse ``seat``'s undo now (its code), or ``None``."""
    if not any(mover == seat for mover, _ in state.observation(seat).history):
        return "none"
    try:
        take_back(state, seat)
    except UndoError as error:
        return error.code
    return None


def entry_data(entry: Entry) -> dict[str, Any]:
    """A logged event's public data, with its engine events as JSON."""
    data = dict(entry.data)
    if entry.events:
        data["events"] = [event_data(event) for event in entry.events]
    return data


def event_data(event: Event) -> dict[str, Any]:
    """An engine event as JSON (all of it public, V1)."""
    match event:
        case DealStarted():
            return {
                "event": "deal_started",
                "deal": event.deal,
                "dealer": event.dealer,
                "upturned": str(event.upturned),
                "first": event.first,
                "stock": event.stock,
            }
        case CardPlayed():
            return {
                "event": "card_played",
                "seat": event.seat,
                "card": str(event.card),
                "result": event.result.value,
                "taken": _cards(event.taken),
            }
        case PileTaken():
            return {"event": "pile_taken", "seat": event.seat, "taken": _cards(event.taken)}
        case Redealt():
            return {"event": "redealt", "cards_each": event.cards_each, "stock": event.stock}
        case DealEnded():
            return {
                "event": "deal_ended",
                "deal": event.deal,
                "scores": [line.to_json() for line in event.scores],
                "totals": list(event.totals),
                "undealt": event.undealt,
                "leftover": _cards(event.leftover),
                "leftover_to": event.leftover_to,
            }
        case MatchEnded():
            return {"event": "match_ended", "winner": event.winner, "totals": list(event.totals)}
    raise TypeError(f"not an event: {event!r}")


def narration(
    events: Sequence[Event], names: Sequence[str], lang: str, *, words: bool = False
) -> list[str]:
    """The events in words, from the catalogs (en, ru, uk); ``words``: the cards in words too."""
    return [line for event in events for line in narrate(event, names, lang, words=words)]


def event_text(
    entry: Entry, names: Sequence[str], seat_names: Sequence[str], lang: str, *, words: bool = False
) -> list[str]:
    """A logged event's lines: the engine's narration and the server's own, in their order
    (a ``deal`` event's own line first). ``words``: the cards in words, in their case."""
    engine = narration(entry.events, names, lang, words=words)
    own = server_narration(entry.kind, entry.data, seat_names, lang)  # names no card
    return own + engine if entry.kind == "deal" else engine + own


def server_narration(
    kind: str, data: Mapping[str, Any], names: Sequence[str], lang: str
) -> list[str]:
    """The server's own part of a logged event in words: seats, the fair deal, closing.

    ``names`` are the seats' names now (a seat without one is called by its
    number).  Everything said is public: a commitment, a player's seed (the
    server logs them publicly), a seed only once revealed; never a token.
    """
    cat = catalog(lang)

    def name(seat: int) -> str:
        return seat_name(names[seat], lang) if seat < len(names) and names[seat] else f"#{seat + 1}"

    if kind == "join":
        return [cat.text("web_join", name=str(data["name"]), seat=int(data["seat"]) + 1)]
    if kind == "leave":
        seat = int(data["seat"])
        if data.get("name"):
            return [cat.text("web_leave", name=str(data["name"]), seat=seat + 1)]
        return [cat.text("web_leave_seat", seat=seat + 1)]
    if kind == "start":
        return [cat.text("web_start", dealer=name(int(data["first_dealer"])))]
    if kind == "commit":
        short = str(data["commitment"])[:12]
        return [cat.text("web_commit", deal=int(data["deal"]) + 1, commitment=short)]
    if kind == "seed":
        return [cat.text("web_seed", name=name(int(data["seat"])), deal=int(data["deal"]) + 1)]
    if kind == "deal":
        given = sum(1 for seed in data.get("player_seeds", ()) if seed)
        seeds = cat.count("web_player_seeds", given) if given else cat.text("web_no_player_seeds")
        return [cat.text("web_deal", deal=int(data["deal"]) + 1, seeds=seeds)]
    if kind == "action" and "reveal" in data:
        return [cat.text("web_reveal", deal=int(data["reveal"]["deal"]) + 1)]
    if kind == "undo":
        return [cat.text("tui_undo_log", name=name(int(data["seat"])))]
    if kind == "rematch":
        return [cat.text("web_rematch_offered", name=name(int(data["seat"])))]
    if kind == "close":
        idle = data.get("reason") == "every person left"
        return [cat.text("web_closed_idle" if idle else "web_closed")]
    return []


#: An event's lines and spoken lines, by language (they do not depend on the seat).
Texts = dict[str, list[list[str]]]


def _alone(seats: Sequence[SeatInfo], seat: int | None) -> bool:
    """``seat`` is the table's only person: he may take moves back (against computers)."""
    return seat is not None and [i for i, info in enumerate(seats) if info.kind == "person"] == [
        seat
    ]


def event_json(  # noqa: PLR0917 (the table's parts one event message reads)
    entry: Entry,
    state: State | None,
    seats: Sequence[SeatInfo],
    seat: int | None,
    lang: str,
    texts: Texts,
    *,
    catchup: bool,
) -> str:
    """One ``event`` message for ``seat``'s connection in ``lang``.

    ``texts``: the narration by language, kept across one broadcast's seats (it is the
    same for every seat; only the view differs).
    """
    if lang not in texts:
        names = state.names if state is not None else ()
        seat_names = [info.name or "" for info in seats]
        texts[lang] = [
            event_text(entry, names, seat_names, lang, words=words) for words in (False, True)
        ]
    text, spoken = texts[lang]
    return EventOut(
        seq=entry.seq,
        kind=entry.kind,
        data=entry_data(entry),
        text=text,
        spoken=spoken,
        view=None if catchup else view_of(state, seat, undo=_alone(seats, seat)),
        catchup=catchup,
    ).model_dump_json()
