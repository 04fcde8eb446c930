"""A seat's view as the server sends it (JSON), read back into the engine's ``Observation``.

The server's view (docs/protocol.md, "Views") holds everything of ``State.observation(seat)``
but the cards each seat took, of which it sends the counts: ``TakenCards`` collects them
from the events' public data (each taken card was seen face up), so that a bot of
``foxtrot.bots`` reads the same observation it would at a local table.  A client that came
in during a deal has not seen the cards taken before; those seats' taken cards stay short
of the counts (the bots only count cards with them).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Action, Card, Observation, Phase, ScoreLine, TableOptions

#: A card and an action as the server writes them, read once each: a view repeats the same
#: few dozen texts (the history above all), and parsing them was most of a view's reading.
_card = functools.cache(Card.parse)
_action = functools.cache(Action.parse)


def _cards(texts: Sequence[str]) -> tuple[Card, ...]:
    return tuple(_card(text) for text in texts)


@dataclasses.dataclass(slots=True)
class TakenCards:
    """The cards each seat took in the current deal, from the events' data."""

    taken: dict[int, list[str]] = dataclasses.field(default_factory=dict)

    def follow(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Note one logged event's engine events (``data.events``)."""
        for event in events:
            kind = event.get("event")
            if kind == "deal_started":
                self.taken = {}
            elif kind in ("card_played", "pile_taken"):
                self.taken.setdefault(int(event["seat"]), []).extend(event.get("taken", ()))

    def of(self, players: int) -> tuple[tuple[Card, ...], ...]:
        """The taken cards, one tuple a seat (empty for a seat nothing was seen of)."""
        return tuple(_cards(self.taken.get(seat, ())) for seat in range(players))


def observation_of(view: Mapping[str, Any], taken: TakenCards | None = None) -> Observation:
    """The engine's observation of the seat whose view this is.

    >>> from foxtrot.core import State, TableOptions
    >>> import random
    >>> from foxtrot.web.table.views import seat_view
    >>> state = State(TableOptions(players=2), dealer=0)
    >>> _ = state.deal(random.Random(3))
    >>> obs = state.observation(state.turn)
    >>> back = observation_of(seat_view(obs))
    >>> back.hand == obs.hand and back.legal_actions == obs.legal_actions
    True
    """
    players = int(view["players"])
    phase = Phase[str(view["phase"]).upper()]
    upturned = view.get("upturned")
    return Observation(
        seat=int(view["seat"]),
        options=TableOptions.from_json(view["options"]),
        names=tuple(str(name) for name in view["names"]),
        phase=phase,
        deal=int(view["deal"]),
        dealer=int(view["dealer"]),
        to_move=None if view.get("to_move") is None else int(view["to_move"]),
        hand=_cards(view.get("hand", ())),
        pile=_cards(view["pile"]),
        stock=int(view["stock"]),
        hand_sizes=tuple(int(size) for size in view["hand_sizes"]),
        taken=(taken or TakenCards()).of(players),
        foxtrots=tuple(_cards(cards) for cards in view["foxtrots"]),
        last_taker=None if view.get("last_taker") is None else int(view["last_taker"]),
        totals=tuple(int(total) for total in view["totals"]),
        upturned=None if upturned is None else _card(str(upturned)),
        history=tuple((int(seat), _action(str(action))) for seat, action in view["history"]),
        legal_actions=tuple(_action(str(action)) for action in view.get("legal", ())),
        deal_scores=tuple(
            tuple(ScoreLine.from_json(line) for line in lines) for lines in view["deal_scores"]
        ),
        winner=None if view.get("winner") is None else int(view["winner"]),
    )
