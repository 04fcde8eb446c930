"""The one authoritative state of a Foxtrot match (rules D1-D4, T1-T7, R1-R2, E1-E2, M1-M2).

The verbs are few, as in python-chess and pokerkit:

- ``deal(rng)`` (or ``deal(deck=...)``) deals the next deal: the chance step;
- ``legal_actions()``, ``why_illegal(action)``, checked ``apply(action)`` that
  returns the public events of the step, and ``apply_unchecked(action)`` for
  search;
- ``observation(seat)``, the only thing a bot or a front end reads;
- ``clone()``, ``is_over``, ``outcome``;
- ``text()`` and ``State.from_text(text)``, the position in one canonical line (its
  ``repr`` is ``State.from_text('...')``), and ``==``, which compares positions
  (``snapshot()``; a state changes in place, so it has no hash).

The state alone writes its fields: its readers (``position``'s base classes,
``refusals.Legality``, ``seat_views``) read them through its public API, and whoever builds
a state at a given position (``from_text``, ``from_observation``, ``at_position``) hands
``from_snapshot`` a value.

Search and the compiled kernel read the position as card ids instead (``hand_ids``,
``pile_ids``, ``stock_ids``, ``taken_ids``, ``foxtrot_ids``, ``turn``, ``take_match``:
``position.PositionIds``) and move with ``apply_code_unchecked(code)``.

Every rule of play is written once, on integers, in ``kernel``, which the
bots' fast paths (the default policy of search, the opponent model) call too:
``why_illegal`` and ``legal_actions`` ask ``kernel.illegal_reason`` and
``kernel.legal_codes`` (a property test checks that both agree on every
action), ``apply_code_unchecked`` asks ``kernel.outcomes`` what a card does, ``deal`` and
``_run_out`` deal with ``kernel.deal_out`` and ``kernel.redeal_size``.  A move is
carried out in one place, ``apply_code_unchecked``; the checked path derives its events from
what it changed (``move_events`` makes them cheaply), and ``seat_views``
builds the observations, once per position, the public part shared by every seat.
The compiled kernel (``foxtrot.fast``) cannot run this class: its twin of the move, the
redeal, the deal's end and the deal is ``fast._rules`` and ``fast.batch.deal``, held equal to
this one by differential tests.

Cards are ids (``rank * 4 + suit``) inside; hands are sorted lists of ids; the
stock is a list with its top card last.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final, Self

from .actions import TAKE_CODE, Action
from .cards import CARDS, Card
from .deal_log import DealLog
from .dealing import Lot, check_deck, draw_lots, shuffled_deck
from .determinize import sampled
from .errors import DeckError, OptionsError
from .events import (
    DealStarted,
    Event,
    PlayResult,
    Redealt,
)
from .kernel import (
    FOXTROT,
    HAND_SIZE,
    LAYS,
    deal_order,
    deal_out,
    illegal_reason,
    is_double,
    match_winner,
    outcomes,
    redeal_size,
)
from .move_events import LAID_EVENTS, card_played, deal_end_events, pile_taken
from .observation import Observation
from .options import LeftoverPile, TableOptions, TakeRule, check_names, default_names
from .outcome import Outcome, Phase
from .refusals import Legality, as_action, not_a_seat
from .scoring import score_deal
from .seat_views import Views
from .snapshot import Snapshot, in_play

__all__ = ["HAND_SIZE", "DealLog", "State"]


def _pack(options: TableOptions) -> tuple[int, ...] | None:
    """A mini game's pack (``TableOptions.copies``); None: the real game's whole decks."""
    return options.copies if options.is_mini else None


# Enum members as module constants: in Python 3.11 ``PlayResult.LAID`` costs a
# class-attribute look-up far slower than a global, and these are read every move.
_PLAYING: Final = Phase.PLAYING
_LAID: Final = PlayResult.LAID
_FOXTROT: Final = PlayResult.FOXTROT
_DOUBLE_FOXTROT: Final = PlayResult.DOUBLE_FOXTROT
_TOOK: Final = PlayResult.TOOK
_card = CARDS.__getitem__


class State(Legality):
    """A match of Foxtrot: its options, match totals, and the deal in progress.

    Its position as card ids, for search and compiled code, is ``PositionIds``'s; as cards,
    ``PositionCards``'s.  A worked deal, every verb once:

    >>> import random
    >>> from foxtrot.core import State, TableOptions
    >>> state = State(TableOptions(players=2), dealer=0, names=["Ann", "Bob"])
    >>> state.deal(random.Random(3))
    (DealStarted(deal=0, dealer=0, upturned=Card('9S'), first=1, stock=87),)
    >>> state.to_move, state.pile, [str(action) for action in state.legal_actions()]
    (1, (Card('9S'),), ['2C', '7C', '8C', '9H', '9D', '10S', 'JS', 'KH'])
    >>> state.legal_codes()[:3], state.is_legal("take")
    ([3, 23, 27], False)
    >>> print(state.why_illegal("take"))
    seat 1 cannot take the pile: taking without playing is not allowed with take = match (rule T4)
    >>> state.apply("9H")  # a nine on a lone nine: a foxtrot (rule T3b)
    (CardPlayed(seat=1, card=Card('9H'), result=<PlayResult.FOXTROT: 'foxtrot'>, \
taken=(Card('9S'), Card('9H'))),)
    >>> state.apply("AS", seat=1)
    Traceback (most recent call last):
    ...
    foxtrot.core.errors.IllegalActionError: seat 1 cannot play AS: it is seat 0's turn (rule T1)

    An observation is what one seat may know; a clone is an equal, independent copy:

    >>> obs = state.observation(1)
    >>> obs.pile, obs.hand_sizes, obs.foxtrots[1], obs.history
    ((), (8, 7), (Card('9H'),), ((1, Action('9H')),))
    >>> state.names, state.dealer, state.phase.name, state.totals, state.winner, state.lot
    (('Ann', 'Bob'), 0, 'PLAYING', [0, 0], None, None)
    >>> state.options.players, state.take_match, state.last_taker, state.upturned
    (2, True, 1, Card('9S'))

    Search reads the same position as card ids (live views, ``position.PositionIds``):

    >>> state.pile_ids, len(state.stock_ids), state.taken_ids[1], state.foxtrot_ids[1]
    ([], 87, [28, 29], [29])
    >>> state.action_ids, state.turn, len(state.hand_ids[0])
    ([93], 0, 8)
    >>> before = state.clone()
    >>> before == state, before is state
    (True, False)
    >>> state.apply_unchecked(state.legal_actions()[0])  # search's path: no checks, no events
    >>> state.apply_code_unchecked(state.legal_codes()[0])  # the same, on integer codes
    <PlayResult.LAID: 'laid'>
    >>> before == state, state.pile, state.hand(0)[:2]
    (False, (Card('3D'), Card('2C')), (Card('4H'), Card('5S')))

    The position as text, read back equal (``position_text`` has its grammar); its
    ``repr`` is that text:

    >>> text = state.text()
    >>> text[:63]
    '2:match:no:discard:none:200 Ann,Bob playing 0 0 4H5S7H7D8H10CJC'
    >>> State.from_text(text) == state, eval(repr(state)) == state
    (True, True)
    >>> State.from_snapshot(state.snapshot()) == state
    True
    >>> State.from_text(text.replace("playing", "dealing"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    foxtrot.core.errors.PositionTextError: position text, phase: 'dealing' is not a phase ...
    >>> hash(state)
    Traceback (most recent call last):
    ...
    TypeError: unhashable type: 'State'

    Search samples what a seat cannot see; an ``at_position`` state answers for arrays:

    >>> guess = State.from_observation(obs, random.Random(1))
    >>> guess.observation(1) == obs, guess.hand(1) == before.hand(1)
    (True, True)
    >>> state.resample(0, random.Random(2)).observation(0) == state.observation(0)
    True
    >>> probe = State.at_position(TableOptions(), dealer=0, turn=1, hands=[[0], [4]], pile=[8])
    >>> probe.text()
    '2:match:no:discard:none:200 - playing 0 1 2S/3S 4S - -/- -/- - - - 0,0 - -'

    A deal ends when the hands and the stock run out; the match when someone reaches the
    target:

    >>> rng = random.Random(4)
    >>> while not state.is_over:
    ...     if state.to_move is None:
    ...         _ = state.deal(rng)
    ...     else:
    ...         _ = state.apply(rng.choice(state.legal_actions()))
    >>> state.outcome, state.deal_number, len(state.deal_logs()), state.players
    (Outcome(winner=0, totals=(212, 181), deals=6), 6, 6, 2)
    """

    __slots__ = (
        "_actions",
        "_deals",
        "_deck",
        "_forced",
        "_foxtrots",
        "_hands",
        "_last_taker",
        "_match",
        "_pile",
        "_stock",
        "_taken",
        "_to_move",
        "_upturned",
        "_views",
        "dealer",
        "lot",
        "names",
        "options",
        "phase",
        "totals",
        "winner",
    )

    options: TableOptions
    names: tuple[str, ...]
    lot: Lot | None
    phase: Phase
    dealer: int
    totals: list[int]
    winner: int | None

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A bare state, its fields unset: ``__init__`` fills them, ``clone`` copies them in.

        Written out (not inherited from ``object``) so that the compiled build (mypyc) can
        make an instance without running ``__init__`` as ``clone`` does.
        """
        return object.__new__(cls)

    def __init__(
        self,
        options: TableOptions | None = None,
        *,
        dealer: object = None,  # checked below: object, so that the compiled build checks it too
        rng: random.Random | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        """A new match waiting for its first deal.

        The first dealer is ``dealer`` if the players chose one, else drawn by
        lot with ``rng`` (D1).
        """
        if options is None:
            options = TableOptions()
        elif type(options) is not TableOptions:
            raise OptionsError(f"options: expected TableOptions, got {type(options).__name__}")
        self.options = options
        self._match = options.take is TakeRule.MATCH
        self._forced = options.forced_foxtrot  # read every move: a field, not a look-up
        n = options.players
        self.names = check_names(names, n) if names is not None else default_names(n)
        if dealer is None:
            if rng is None:
                raise OptionsError("dealer: choose a first dealer or pass rng to draw lots (D1)")
            if not callable(getattr(rng, "shuffle", None)):  # duck-typed, like random.Random
                raise OptionsError(f"rng: expected a random.Random, got {type(rng).__name__}")
            self.lot = draw_lots(n, options.decks, rng, _pack(options))
            dealer = self.lot.dealer
        else:
            self.lot = None
            if type(dealer) is not int or not 0 <= dealer < n:
                raise OptionsError(f"dealer: {dealer!r} is not a seat (0 to {n - 1})")
        self.dealer = dealer
        self.phase = Phase.AWAITING_DEAL
        self.totals = [0] * n
        self.winner = None
        self._deals: list[DealLog] = []
        self._deck: tuple[int, ...] | None = None
        self._actions: list[int] = []
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._pile: list[int] = []
        self._stock: list[int] = []
        self._taken: list[list[int]] = [[] for _ in range(n)]
        self._foxtrots: list[list[int]] = [[] for _ in range(n)]
        self._last_taker = -1
        self._to_move = (dealer + 1) % n
        self._upturned = -1
        self._views: Views | None = None

    # ----------------------------------------------------------------- dealing

    def deal(
        self, rng: random.Random | None = None, *, deck: Sequence[Card] | None = None
    ) -> tuple[Event, ...]:
        """Deal the next deal from a deck shuffled with ``rng``, or from ``deck`` (D2-D4)."""
        if self.phase is not Phase.AWAITING_DEAL:
            raise DeckError(
                "the match is over" if self.phase is Phase.OVER else "a deal is in progress"
            )
        options = self.options
        decks = options.decks
        if deck is not None:
            ids = check_deck(deck, decks, _pack(options))
        elif rng is not None:
            if not callable(getattr(rng, "shuffle", None)):  # duck-typed, like random.Random
                raise DeckError(f"rng: expected a random.Random, got {type(rng).__name__}")
            ids = shuffled_deck(decks, rng, _pack(options))
        else:
            raise DeckError("deal: pass rng to shuffle, or a deck")
        n = self.options.players
        if self._deals:
            self.dealer = (self.dealer + 1) % n
        dealer = self.dealer
        hands: list[list[int]] = [[] for _ in range(n)]
        order = deal_order(dealer, n)
        stock = list(reversed(ids))  # top card last (D4)
        deal_out([hands[seat] for seat in order], stock, self.options.hand_size)
        upturned = stock.pop()
        self._hands = hands
        self._upturned = upturned
        self._pile = [upturned]
        self._stock = stock
        self._taken = [[] for _ in range(n)]
        self._foxtrots = [[] for _ in range(n)]
        self._last_taker = -1
        self._to_move = order[0]
        self._deck = ids
        self._actions = []
        self.phase = Phase.PLAYING
        return (DealStarted(len(self._deals), dealer, CARDS[upturned], order[0], len(stock)),)

    # ------------------------------------------------------------------ moving

    def apply(self, action: Action | str, seat: object = None) -> tuple[Event, ...]:
        """Check and apply ``action``; return what happened.  Illegal: raise, change nothing."""
        if type(action) is not Action:
            if seat is not None and type(seat) is not int:
                raise OptionsError(not_a_seat(seat, self.options.players))
            action = as_action(action, self._to_move if seat is None else seat)
        mover = self._to_move
        code = action.code
        table = self._pile  # X5 may hand this list to the last taker when the deal ends
        if (  # the kernel's rule checked inline; why_illegal says what is wrong
            self.phase is not _PLAYING
            or (seat is not None and (type(seat) is not int or seat != mover))
            or illegal_reason(self._hands[mover], table, not self._match, self._forced, code)
        ):
            error = self.why_illegal(action, seat)
            assert error is not None
            raise error
        before = table[:]
        stock = len(self._stock)
        deals = len(self._deals)
        result = self.apply_code_unchecked(code)
        events: tuple[Event, ...]
        if result is _LAID:
            events = LAID_EVENTS[mover << 6 | code]  # frozen values, made once (move_events)
        elif result is None:
            events = (pile_taken(mover, tuple(map(_card, before))),)
        else:
            card = CARDS[code]
            events = (card_played(mover, card, result, (*map(_card, before), card)),)
        if len(self._deals) > deals:
            events += self._deal_end_events(table)
        elif len(self._stock) < stock:
            each = (stock - len(self._stock)) // self.options.players
            events += (Redealt(each, len(self._stock)),)
        return events

    def apply_unchecked(self, action: Action) -> None:
        """Apply a legal action without checking it (for search).  Illegal input corrupts."""
        self.apply_code_unchecked(action.code)

    def apply_code_unchecked(self, code: int) -> PlayResult | None:
        """Apply action ``code`` (``Action.code``) for the player to move, unchecked: the fast
        path of search, like python-chess's ``push`` without ``is_legal``.

        Rules T3-T5 and R1-R2: the single implementation of a move, which ``apply`` calls
        after its checks.  Returns what a played card did (``None`` for a take).  The caller
        guarantees a deal is in progress and ``code`` is one of ``legal_codes()``; anything
        else leaves the state corrupt, silently.
        """
        mover = self._to_move
        self._actions.append(mover << 6 | code)
        pile = self._pile
        result: PlayResult | None
        if code == TAKE_CODE:
            self._taken[mover].extend(pile)
            pile.clear()
            self._last_taker = mover
            result = None
        else:
            self._hands[mover].remove(code)
            outcome = outcomes(pile, self._match)[code >> 2]  # rules T3a-T3e, X1-X3
            if outcome == LAYS:
                pile.append(code)
                result = _LAID
            else:
                taken = self._taken[mover]
                taken.extend(pile)
                taken.append(code)
                pile.clear()
                self._last_taker = mover
                if outcome == FOXTROT:
                    self._foxtrots[mover].append(code)
                    result = _DOUBLE_FOXTROT if is_double(code) else _FOXTROT
                else:
                    result = _TOOK
        n = len(self._hands)
        nxt = mover + 1
        if nxt == n:
            nxt = 0
        self._to_move = nxt
        if not self._hands[nxt]:
            self._run_out()
        return result

    def _run_out(self) -> None:
        """The player to move has no cards: deal the stock again (R1) or end the deal (R2, E1)."""
        stock = self._stock
        hands = self._hands
        each = redeal_size(len(stock), len(hands), self.options.hand_size)
        if each:
            deal_out([hands[seat] for seat in deal_order(self.dealer, len(hands))], stock, each)
            return
        if self.options.leftover_pile is LeftoverPile.LAST_TAKER and self._last_taker >= 0:
            self._taken[self._last_taker].extend(self._pile)  # X5
            self._pile = []  # the pile is his now: no card is in two places
        scores = score_deal(self._taken, self._foxtrots, self.options.most_cards_tie)
        for seat, line in enumerate(scores):
            self.totals[seat] += line.total
        self._deals.append(DealLog(self.dealer, self._deck, tuple(self._actions), scores))
        winner = match_winner(self.totals, self.options.target)  # M2, X8
        if winner >= 0:
            self.winner = winner
            self.phase = Phase.OVER
        else:
            self.phase = Phase.AWAITING_DEAL

    def _deal_end_events(self, table: list[int]) -> tuple[Event, ...]:
        scores = self._deals[-1].scores
        assert scores is not None
        to_last = self.options.leftover_pile is LeftoverPile.LAST_TAKER and self._last_taker >= 0
        return deal_end_events(
            len(self._deals) - 1,
            scores,
            totals=self.totals,
            stock=len(self._stock),
            table=table,
            leftover_taker=self._last_taker if to_last else None,
            winner=self.winner,
        )

    # --------------------------------------------------------------- reading

    @property
    def outcome(self) -> Outcome | None:
        """The winner and the final totals, once the match is over."""
        if self.winner is None:
            return None
        return Outcome(self.winner, tuple(self.totals), len(self._deals))

    @property
    def deal_number(self) -> int:
        """0-based index of the current deal (or of the next one, between deals)."""
        return len(self._deals)

    def deal_logs(self) -> list[DealLog]:
        """Every deal so far as its record keeps it; the deal in progress last, without scores."""
        logs = list(self._deals)
        if self.phase is Phase.PLAYING:
            logs.append(DealLog(self.dealer, self._deck, tuple(self._actions), None))
        return logs

    def observation(self, seat: object) -> Observation:
        """What ``seat`` may know (V1, V2) and nothing it may not (V3).

        ``seat`` is typed ``object`` because it is checked here: anything but a seat's number
        is an ``OptionsError`` in the compiled build too, not mypyc's ``TypeError``.
        """
        n = self.options.players
        if type(seat) is not int or not 0 <= seat < n:
            raise OptionsError(not_a_seat(seat, n))
        views = self._views  # cached per position, the public part shared (seat_views)
        if views is None:
            views = self._views = Views(n)
        return views.observe(self, seat)

    # ------------------------------------------------------------- search aids

    def clone(self) -> State:
        """An independent copy (immutable parts are shared).

        Observations this position already answered are shared too, and the parts they are
        made of carry over (``seat_views``), so the copy's next observation, after a move,
        extends them instead of building them anew: search's clone, move, observe.
        """
        other = State.__new__(State)
        other.options = self.options
        other._match = self._match
        other._forced = self._forced
        other.names = self.names
        other.lot = self.lot
        other.phase = self.phase
        other.dealer = self.dealer
        other.totals = self.totals[:]
        other.winner = self.winner
        other._deals = self._deals[:]
        other._deck = self._deck
        other._actions = self._actions[:]
        other._hands = [hand[:] for hand in self._hands]
        other._pile = self._pile[:]
        other._stock = self._stock[:]
        other._taken = [cards[:] for cards in self._taken]
        other._foxtrots = [cards[:] for cards in self._foxtrots]
        other._last_taker = self._last_taker
        other._to_move = self._to_move
        other._upturned = self._upturned
        views = self._views  # the observations of this position, if it answered any, carry over
        other._views = None if views is None else views.seeded(other)
        return other

    def resample(self, seat: int, rng: random.Random) -> State:
        """A copy in which the cards ``seat`` cannot see are dealt anew at random.

        Other hands keep their sizes and the stock its size; everything public
        and the seat's own hand stay as they are.  Used by tests to show that an
        observation depends on nothing hidden.  The copy has no known deck.
        """
        other = self.clone()
        hidden = [s for s in range(self.options.players) if s != seat]
        pool = [card for s in hidden for card in other._hands[s]] + other._stock
        rng.shuffle(pool)
        for s in hidden:
            size = len(other._hands[s])
            other._hands[s] = sorted(pool[:size])
            del pool[:size]
        other._stock = pool
        other._deck = None
        other._views = None  # the hands changed: no observation of the original holds
        return other

    @classmethod
    def from_observation(
        cls, obs: Observation, rng: random.Random, *, shown: Mapping[int, Sequence[Card]] = {}
    ) -> State:
        """A full state consistent with ``obs``: the unseen cards dealt at random.

        This is the determinization of search (``determinize.sampled``): the result agrees
        with every public fact and with the seat's hand; its hidden cards are a guess.  It
        has no known deck, so it cannot be saved as a record.  ``shown`` gives other seats'
        hands as known too (the oracle that sees some hidden cards, ``bots.OracleBot``).
        """
        return cls.from_snapshot(sampled(obs, rng, shown))

    @classmethod
    def at_position(
        cls,
        options: TableOptions,
        *,
        dealer: int,
        turn: int,
        hands: Sequence[Sequence[int]],
        pile: Sequence[int],
        stock: Sequence[int] = (),
    ) -> State:
        """A ``State`` with a deal in progress at this position, given as card ids (``hands``
        by seat, ``pile`` bottom first, ``stock`` top last): for code that keeps positions as
        arrays and asks the engine about one (why an action is illegal, say).

        Nothing is taken yet and the history is empty; it has no known deck, so it cannot be
        saved as a record.  The ids are not checked against the pack.
        """
        return cls.from_snapshot(
            in_play(options, dealer=dealer, turn=turn, hands=hands, pile=pile, stock=stock)
        )

    # ------------------------------------------------------- the position as a value

    def snapshot(self) -> Snapshot:
        """The position as one immutable value: every fact ``==`` compares (``snapshot``)."""
        return Snapshot(
            options=self.options,
            names=self.names,
            phase=self.phase,
            dealer=self.dealer,
            to_move=self._to_move,
            hands=tuple(map(tuple, self._hands)),
            pile=tuple(self._pile),
            stock=tuple(self._stock),
            taken=tuple(map(tuple, self._taken)),
            foxtrots=tuple(map(tuple, self._foxtrots)),
            last_taker=self._last_taker if self._last_taker >= 0 else None,
            upturned=self._upturned if self._upturned >= 0 else None,
            actions=tuple(self._actions),
            deal_scores=tuple(log.scores for log in self._deals if log.scores is not None),
            totals=tuple(self.totals),
            winner=self.winner,
        )

    @classmethod
    def from_snapshot(cls, snap: Snapshot) -> State:
        """A state at the position ``snap``, unchecked (``from_text`` checks its text).

        What a snapshot leaves out is unknown: the deck of every deal and the actions of
        the finished ones (``deal_logs`` shows them as ``None`` and ``()``), and the lot.
        """
        n = snap.options.players
        state = cls(snap.options, dealer=snap.dealer, names=snap.names)
        finished = len(snap.deal_scores)
        last = snap.dealer if snap.phase is Phase.PLAYING else snap.dealer + 1
        state._deals = [  # the dealer moves one seat on every deal (D1)
            DealLog((last - finished + i) % n, None, (), scores)
            for i, scores in enumerate(snap.deal_scores)
        ]
        state._actions = list(snap.actions)
        state._hands = [list(hand) for hand in snap.hands]
        state._pile = list(snap.pile)
        state._stock = list(snap.stock)
        state._taken = [list(cards) for cards in snap.taken]
        state._foxtrots = [list(cards) for cards in snap.foxtrots]
        state._last_taker = -1 if snap.last_taker is None else snap.last_taker
        state._to_move = snap.to_move
        state._upturned = -1 if snap.upturned is None else snap.upturned
        state.totals = list(snap.totals)
        state.winner = snap.winner
        state.phase = snap.phase
        return state
