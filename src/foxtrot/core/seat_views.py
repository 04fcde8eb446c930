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
can never outlive its position.  The caches live on the state (``State.observation`` keeps
its ``Views``).  ``clone()`` gives the copy views of its own, ``seeded``: the same immutable
parts and observations, read from the copy's own lists from then on (a clone is a different
game), so that its first observation after a move extends them as the original's would.

The views read the state through its public, read-only API (``Seen``: the live id views of
``position.PositionIds`` and a few plain fields), never its private fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol

from .actions import ACTIONS, Action
from .cards import CARDS, Card
from .deal_log import DealLog
from .observation import Observation
from .options import TableOptions
from .outcome import Phase

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


class Seen(Protocol):
    """What an observation is made from: the parts of ``State`` the views read."""

    @property
    def options(self) -> TableOptions: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def dealer(self) -> int: ...
    @property
    def totals(self) -> Sequence[int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def hand_ids(self) -> Sequence[Sequence[int]]: ...
    @property
    def pile_ids(self) -> Sequence[int]: ...
    @property
    def stock_ids(self) -> Sequence[int]: ...
    @property
    def taken_ids(self) -> Sequence[Sequence[int]]: ...
    @property
    def foxtrot_ids(self) -> Sequence[Sequence[int]]: ...
    @property
    def action_ids(self) -> Sequence[int]: ...
    @property
    def last_taker(self) -> int | None: ...
    @property
    def upturned(self) -> Card | None: ...
    def deal_logs(self) -> list[DealLog]: ...
    def legal_codes(self) -> list[int]: ...


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

    def __init__(self, players: int = 0) -> None:  # 0: for unpickling (compiled build)
        self.key: tuple[int, int, Phase] | None = None
        self.seats: list[Observation | None] = [None] * players
        # the public fields, in Observation's order from ``phase`` on, without the seat's own
        self.public: tuple[object, ...] = ()
        self.history: tuple[tuple[int, Action], ...] = ()
        self.history_of: Sequence[int] | None = None  # the actions ``history`` was read from
        self.taken: list[tuple[Card, ...]] = [()] * players
        self.taken_of: list[Sequence[int] | None] = [None] * players
        self.foxtrots: tuple[tuple[Card, ...], ...] = ()
        self.scored = -1  # how many finished deals ``deal_scores`` holds
        self.deal_scores: tuple[tuple[object, ...], ...] = ()

    def seeded(self, state: Seen) -> Views | None:
        """These views for ``state``, a copy of their state made at its current position
        (``State.clone``), or None when they are of an older position.

        Everything shared is immutable (tuples, observations); the lists a refresh extends
        from are ``state``'s own from now on.  A state's key never repeats (every move adds
        an action, every deal's end and start changes the deal count or the phase), so views
        with ``state``'s key are of ``state``'s position.
        """
        key = self.key
        if key is None or key != (state.deal_number, len(state.action_ids), state.phase):
            return None
        other = Views(len(self.seats))
        other.seats = self.seats[:]
        other.public = self.public
        other.history = self.history
        other.history_of = state.action_ids
        other.taken = self.taken[:]
        other.taken_of = list(state.taken_ids)
        other.foxtrots = self.foxtrots
        other.scored = self.scored
        other.deal_scores = self.deal_scores
        other.key = key
        return other

    def refresh(self, state: Seen, key: tuple[int, int, Phase]) -> None:
        """Build the public part of the position ``key``; forget the seats' observations.

        ``key`` is set last, so that a reader never pairs it with the last position's parts.
        """
        self.seats = [None] * len(self.seats)
        actions = state.action_ids
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
        for seat, cards in enumerate(state.taken_ids):
            if taken_of[seat] is not cards or len(taken[seat]) != len(cards):
                taken[seat] = tuple(map(_card, cards))
                taken_of[seat] = cards
                changed = True
        if changed or not self.public:
            self.foxtrots = tuple([tuple(map(_card, cards)) for cards in state.foxtrot_ids])
        deals = key[0]
        if self.scored != deals:
            self.scored = deals
            logs = state.deal_logs()
            self.deal_scores = tuple([log.scores for log in logs if log.scores is not None])
        playing = key[2] is _PLAYING
        self.public = (
            key[2],
            deals if playing else deals - 1,
            state.dealer,
            state.turn if playing else None,
            tuple(map(_card, state.pile_ids)),
            len(state.stock_ids),
            tuple([len(hand) for hand in state.hand_ids]),
            tuple(taken),
            self.foxtrots,
            state.last_taker,
            tuple(state.totals),
            state.upturned,
            history,
            self.deal_scores,
            state.winner,
        )
        self.key = key

    def observe(self, state: Seen, seat: int) -> Observation:
        """``seat``'s observation of ``state`` (a checked seat): cached per position."""
        views = self
        key = (state.deal_number, len(state.action_ids), state.phase)
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
        _hand(obs, tuple(map(_card, state.hand_ids[seat])))
        _pile(obs, pile)
        _stock(obs, stock)
        _hand_sizes(obs, hand_sizes)
        _taken(obs, taken)
        _foxtrots(obs, foxtrots)
        _last_taker(obs, last_taker)
        _totals(obs, totals)
        _upturned(obs, upturned)
        _history(obs, history)
        _legal(obs, tuple(map(_action, state.legal_codes())) if to_move == seat else ())
        _deal_scores(obs, deal_scores)
        _winner(obs, winner)
        views.seats[seat] = obs
        return obs


__all__ = ["Seen", "Views"]
