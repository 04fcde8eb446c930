"""``State.observation(seat)`` made cheap: once per position, the public part shared by seats.

The server asks for every seat's observation after every move, and the
front ends, bots and environments ask again for the same position; building
one from scratch copied the whole deal's history and every seat's taken cards
into new tuples each time.  Here:

- an observation is kept per position and seat, so asking again costs a look-up;
- the public part (pile, taken cards, history, totals, ...) is built once per
  position and shared by every seat's observation; only the hand and the legal
  actions are the seat's own;
- between positions the history and each seat's taken cards are extended, not
  rebuilt, since within a deal they only grow;
- the ``Observation`` is made with its slots' setters, bypassing the frozen
  dataclass ``__init__`` (the same fields, the same values: twice as fast).

A position is named by ``(deals finished, actions in this deal, phase)``: every
move (``State.apply_code_unchecked``, the search's fast path included) appends an action, and a
deal ending or starting changes the deal count or the phase, so a cached view
can never outlive its position.  The caches live on the state and are dropped by
``clone()`` (a clone is a different game from then on).

This module reads ``State``'s private fields, as the search's rollout does; it
is part of the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from .actions import ACTIONS, Action
from .cards import CARDS, Card
from .kernel import legal_codes
from .observation import Observation
from .outcome import Phase

if TYPE_CHECKING:
    from .state import State

_PLAYING: Final = Phase.PLAYING
_card = CARDS.__getitem__
_action = ACTIONS.__getitem__
#: ``(seat, action)`` for every stored action ``seat << 6 | code`` (9 players at most):
#: the history's entries, made once.
_MOVES: Final[dict[int, tuple[int, Action]]] = {
    seat << 6 | action.code: (seat, action) for seat in range(9) for action in ACTIONS
}
_move = _MOVES.__getitem__


def _setter(name: str) -> Callable[[Observation, object], None]:
    setter: Callable[[Observation, object], None] = getattr(Observation, name).__set__
    return setter


_new = object.__new__
(
    _seat,
    _options,
    _names,
    _phase,
    _deal,
    _dealer,
    _to_move,
    _hand,
    _pile,
    _stock,
    _hand_sizes,
    _taken,
    _foxtrots,
    _last_taker,
    _totals,
    _upturned,
    _history,
    _legal,
    _deal_scores,
    _winner,
) = (_setter(name) for name in Observation.__dataclass_fields__)


class Views:
    """One state's cached observations and the public parts they share (see the module doc)."""

    __slots__ = (
        "deal_scores",
        "foxtrots",
        "history",
        "history_of",
        "key",
        "public",
        "scored",
        "seats",
        "taken",
        "taken_of",
    )

    def __init__(self, players: int) -> None:
        self.key: tuple[int, int, Phase] | None = None
        self.seats: list[Observation | None] = [None] * players
        # the public fields, in Observation's order from ``phase`` on, without the seat's own
        self.public: tuple[object, ...] = ()
        self.history: tuple[tuple[int, Action], ...] = ()
        self.history_of: list[int] | None = None  # the action list ``history`` was read from
        self.taken: list[tuple[Card, ...]] = [()] * players
        self.taken_of: list[list[int] | None] = [None] * players
        self.foxtrots: tuple[tuple[Card, ...], ...] = ()
        self.scored = -1  # how many finished deals ``deal_scores`` holds
        self.deal_scores: tuple[tuple[object, ...], ...] = ()

    def refresh(self, state: State, key: tuple[int, int, Phase]) -> None:
        """Build the public part of the position ``key``; forget the seats' observations.

        ``key`` is set last, so that a reader never pairs it with the last position's parts.
        """
        self.seats = [None] * len(self.seats)
        actions = state._actions
        history = self.history
        if self.history_of is actions and len(history) <= len(actions):
            if len(history) < len(actions):
                history += tuple(map(_move, actions[len(history) :]))
        else:
            history = tuple(map(_move, actions))
            self.history_of = actions
        self.history = history
        taken = self.taken
        taken_of = self.taken_of
        changed = False
        for seat, cards in enumerate(state._taken):
            if taken_of[seat] is not cards or len(taken[seat]) != len(cards):
                taken[seat] = tuple(map(_card, cards))
                taken_of[seat] = cards
                changed = True
        if changed or not self.public:
            self.foxtrots = tuple([tuple(map(_card, cards)) for cards in state._foxtrots])
        deals = state._deals
        if self.scored != len(deals):
            self.scored = len(deals)
            self.deal_scores = tuple([log.scores for log in deals if log.scores is not None])
        playing = key[2] is _PLAYING
        upturned = state._upturned
        last_taker = state._last_taker
        self.public = (
            key[2],
            len(deals) if playing else len(deals) - 1,
            state.dealer,
            state._to_move if playing else None,
            tuple(map(_card, state._pile)),
            len(state._stock),
            tuple([len(hand) for hand in state._hands]),
            tuple(taken),
            self.foxtrots,
            last_taker if last_taker >= 0 else None,
            tuple(state.totals),
            CARDS[upturned] if upturned >= 0 else None,
            history,
            self.deal_scores,
            state.winner,
        )
        self.key = key


def _legal_actions(state: State) -> tuple[Action, ...]:
    hand = state._hands[state._to_move]
    codes = legal_codes(hand, state._pile, not state._match, state.options.forced_foxtrot)
    return tuple(map(_action, codes))


def observe(state: State, seat: int) -> Observation:
    """``seat``'s observation of ``state`` (a checked seat): cached per position."""
    key = (len(state._deals), len(state._actions), state.phase)
    views = state._views
    if views is None:
        views = state._views = Views(len(state._hands))
    if views.key != key:
        views.refresh(state, key)
    else:
        cached = views.seats[seat]
        if cached is not None:
            return cached
    (
        phase,
        deal,
        dealer,
        to_move,
        pile,
        stock,
        hand_sizes,
        taken,
        foxtrots,
        last_taker,
        totals,
        upturned,
        history,
        deal_scores,
        winner,
    ) = views.public
    obs = _new(Observation)
    _seat(obs, seat)
    _options(obs, state.options)
    _names(obs, state.names)
    _phase(obs, phase)
    _deal(obs, deal)
    _dealer(obs, dealer)
    _to_move(obs, to_move)
    _hand(obs, tuple(map(_card, state._hands[seat])))
    _pile(obs, pile)
    _stock(obs, stock)
    _hand_sizes(obs, hand_sizes)
    _taken(obs, taken)
    _foxtrots(obs, foxtrots)
    _last_taker(obs, last_taker)
    _totals(obs, totals)
    _upturned(obs, upturned)
    _history(obs, history)
    _legal(obs, _legal_actions(state) if to_move == seat else ())
    _deal_scores(obs, deal_scores)
    _winner(obs, winner)
    views.seats[seat] = obs
    return obs


__all__ = ["Views", "observe"]
