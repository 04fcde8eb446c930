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

A position is named by a number made of its deals finished, the actions of its deal and its
phase (``_position``): every move (``State.apply_code_unchecked``, the search's fast path
included) appends an action, and a deal ending or starting changes the deal count or the
phase, so a cached view can never outlive its position.  The caches live on the state
(``State.observation`` keeps its ``Views``).  ``clone()`` gives the copy views of its own,
``seeded``: the same immutable parts and observations, read from the copy's own lists from
then on (a clone is a different game), so that its first observation after a move extends
them as the original's would.

The views read the state through its public, read-only API (``Seen``: the live id views of
``position.PositionIds`` and a few plain fields), never its private fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol

from .actions import ACTIONS
from .cards import CARDS, Card
from .deal_log import DealLog
from .observation import Observation
from .options import TableOptions
from .outcome import Phase

_PLAYING: Final = Phase.PLAYING
#: ``(seat, action)`` for every stored action ``seat << 6 | code`` (9 players at most), at
#: that index (None where no code is): the history's entries, made once.  Typed ``object``:
#: the compiled build would unpack a ``tuple[int, Action]`` and make a new one at every read.
_MOVES: Final[tuple[object, ...]] = tuple(
    (index >> 6, ACTIONS[index & 63]) if index & 63 < len(ACTIONS) else None
    for index in range(9 << 6)
)


#: Every seat's foxtrots when nobody has made one, by the number of seats: shared.
_NONE: Final = tuple(((),) * players for players in range(10))


def _position(state: Seen) -> int:
    """A number for the state's position: its finished deals, its deal's actions and its phase.

    It never repeats within a game: every move adds an action, and a deal ending or starting
    changes the deal count or the phase (the actions of a deal are fewer than 2**20).  An int,
    not a tuple: the compiled build keeps it without making an object.
    """
    return (state.deal_number << 20 | len(state.action_ids)) << 2 | state.phase


def _cards(ids: Sequence[int]) -> tuple[Card, ...]:
    """The cards of ``ids``: indexing ``CARDS`` in a loop, which the compiled build runs natively
    (an empty list, as most seats' foxtrots, costs nothing)."""
    if not ids:
        return ()
    cards = CARDS  # a global of another module: read once, not once a card
    return tuple([cards[card] for card in ids])


def _setter(name: str) -> Callable[[Observation, object], None]:
    setter: Callable[[Observation, object], None] = getattr(Observation, name).__set__
    return setter


_new: Final = object.__new__
# One setter a field, each ``Final`` so that the compiled build reads it as a constant, not
# from the module's namespace at every use.
_seat: Final = _setter("seat")
_options: Final = _setter("options")
_names: Final = _setter("names")
_phase: Final = _setter("phase")
_deal: Final = _setter("deal")
_dealer: Final = _setter("dealer")
_to_move: Final = _setter("to_move")
_hand: Final = _setter("hand")
_pile: Final = _setter("pile")
_stock: Final = _setter("stock")
_hand_sizes: Final = _setter("hand_sizes")
_taken: Final = _setter("taken")
_foxtrots: Final = _setter("foxtrots")
_last_taker: Final = _setter("last_taker")
_totals: Final = _setter("totals")
_upturned: Final = _setter("upturned")
_history: Final = _setter("history")
_legal: Final = _setter("legal_actions")
_deal_scores: Final = _setter("deal_scores")
_winner: Final = _setter("winner")


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
        self.key = -1  # ``_position`` of the position the parts are of; -1: none yet
        self.seats: list[Observation | None] = [None] * players
        # the public fields, in Observation's order from ``phase`` on, without the seat's own
        self.public: tuple[object, ...] = ()
        self.history: tuple[object, ...] = ()  # of ``(seat, action)``: see ``_MOVES``
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
        if key != _position(state):  # -1, no parts yet, is no position's
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

    def refresh(self, state: Seen, key: int) -> None:
        """Build the public part of the position ``key``; forget the seats' observations.

        ``key`` is set last, so that a reader never pairs it with the last position's parts.
        """
        seats = self.seats  # this views' own list (``seeded`` copies it)
        for seat in range(len(seats)):
            seats[seat] = None
        actions = state.action_ids
        history = self.history
        moves = _MOVES
        if self.history_of is actions and len(history) <= len(actions):
            if len(history) < len(actions):
                history += tuple([moves[move] for move in actions[len(history) :]])
        else:
            history = tuple([moves[move] for move in actions])
            self.history_of = actions
        self.history = history
        taken = self.taken
        taken_of = self.taken_of
        changed = False
        for seat, cards in enumerate(state.taken_ids):
            if taken_of[seat] is not cards or len(taken[seat]) != len(cards):
                taken[seat] = _cards(cards)
                taken_of[seat] = cards
                changed = True
        if changed or not self.public:
            made = state.foxtrot_ids
            self.foxtrots = (
                tuple([_cards(cards) for cards in made]) if any(made) else _NONE[len(made)]
            )
        deals = state.deal_number
        phase = state.phase
        if self.scored != deals:
            self.scored = deals
            logs = state.deal_logs() if deals else []
            self.deal_scores = tuple([log.scores for log in logs if log.scores is not None])
        playing = phase is _PLAYING
        self.public = (
            phase,
            deals if playing else deals - 1,
            state.dealer,
            state.turn if playing else None,
            _cards(state.pile_ids),
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
        key = _position(state)
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
        _hand(obs, _cards(state.hand_ids[seat]))
        _pile(obs, pile)
        _stock(obs, stock)
        _hand_sizes(obs, hand_sizes)
        _taken(obs, taken)
        _foxtrots(obs, foxtrots)
        _last_taker(obs, last_taker)
        _totals(obs, totals)
        _upturned(obs, upturned)
        _history(obs, history)
        if to_move == seat:
            actions = ACTIONS
            _legal(obs, tuple([actions[code] for code in state.legal_codes()]))
        else:
            _legal(obs, ())
        _deal_scores(obs, deal_scores)
        _winner(obs, winner)
        views.seats[seat] = obs
        return obs


__all__ = ["Seen", "Views"]
