"""Property tests: random play at every table size under random options (hypothesis).

After every action of random deals the tests check, against a model of the
rules written here (not the engine's own helpers):

- every card is in exactly one place (hands + pile + stock + taken is the pack);
- what a played card did (T3) and the pile that is left;
- the deal scores, recomputed from the cards each player took (P1-P4, X5, X6, X9);
- an illegal action is refused and changes nothing (T7);
- ``legal_actions()`` and ``why_illegal()`` agree on all 53 actions;
- an observation depends on nothing hidden (V1-V3), a state sampled from it agrees with it;
- ``clone()`` is independent; the same seed gives the same record; save and load
  give the same state at any point (G1).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import (
    ACTIONS,
    CARDS,
    TAKE,
    Action,
    Card,
    CardPlayed,
    DealEnded,
    DealStarted,
    Event,
    IllegalActionError,
    LeftoverPile,
    MatchEnded,
    MostCardsTie,
    PileTaken,
    PlayResult,
    Rank,
    Redealt,
    State,
    Suit,
    TableOptions,
    TakeRule,
    dumps,
    loads,
    replay,
    to_record,
)
from foxtrot.core.outcome import Phase
from helpers import pack, play_random, random_state, table_options

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_strategy = table_options((1, 40, 150, 200, 300, 400))
seeds = st.integers(0, 2**32 - 1)


# ------------------------------------------------------------ the model


def points(c: Card) -> int:
    """P2, written out again."""
    if c.rank == Rank.TEN:
        return 10
    if c.rank in (Rank.ACE, Rank.JACK):
        return 1
    if c.rank == Rank.QUEEN and c.suit == Suit.SPADES:
        return -20
    return 0


def expected_result(pile: list[Card], c: Card, take: TakeRule) -> PlayResult:
    """T3a-T3e and X1-X3, written out again."""
    if not pile:
        return PlayResult.LAID
    if len(pile) == 1 and pile[0].rank == c.rank:
        double = c.rank in (Rank.TEN, Rank.JACK)
        return PlayResult.DOUBLE_FOXTROT if double else PlayResult.FOXTROT
    if c.rank == Rank.JACK or (take is TakeRule.MATCH and pile[-1].rank == c.rank):
        return PlayResult.TOOK
    return PlayResult.LAID


@dataclasses.dataclass
class Model:
    """Who took what in the deal in progress, kept from the events alone."""

    options: TableOptions
    pile: list[Card] = dataclasses.field(default_factory=list)
    taken: list[list[Card]] = dataclasses.field(default_factory=list)
    singles: list[int] = dataclasses.field(default_factory=list)
    doubles: list[int] = dataclasses.field(default_factory=list)
    last_taker: int | None = None
    deals: int = 0
    totals: list[int] = dataclasses.field(default_factory=list)
    dealer: int | None = None

    def start(self, event: DealStarted) -> None:
        n = self.options.players
        assert event.stock == self.options.deck_size - 8 * n - 1  # D3
        if self.dealer is not None:
            assert event.dealer == (self.dealer + 1) % n  # D2
        self.dealer = event.dealer
        self.pile = [event.upturned]
        self.taken = [[] for _ in range(n)]
        self.singles, self.doubles = [0] * n, [0] * n
        self.last_taker = None
        if not self.totals:
            self.totals = [0] * n

    def scores(self) -> list[tuple[int, int, int, int, int, int]]:
        """P1-P4 with X6 and X9, from the cards taken."""
        counts = [len(cards) for cards in self.taken]
        most = max(counts)
        leaders = counts.count(most)
        lines = []
        for seat, cards in enumerate(self.taken):
            card_points = sum(points(c) for c in cards)
            bonus = (
                5
                if counts[seat] == most
                and (leaders == 1 or self.options.most_cards_tie is MostCardsTie.ALL)
                else 0
            )
            total = 10 * self.singles[seat] + 20 * self.doubles[seat] + card_points + bonus
            lines.append(
                (self.singles[seat], self.doubles[seat], len(cards), card_points, bonus, total)
            )
        return lines

    def step(self, state: State, seat: int, events: tuple[Event, ...]) -> None:
        """Follow one action's events and check them against the rules."""
        first = events[0]
        if isinstance(first, PileTaken):
            assert first.seat == seat and self.options.take is TakeRule.ANY and self.pile
            assert list(first.taken) == self.pile
            self.taken[seat] += self.pile
            self.pile = []
            self.last_taker = seat
        else:
            assert isinstance(first, CardPlayed) and first.seat == seat
            result = expected_result(self.pile, first.card, self.options.take)
            assert first.result is result
            if result is PlayResult.LAID:
                assert first.taken == ()
                self.pile.append(first.card)
            else:
                assert list(first.taken) == [*self.pile, first.card]
                self.taken[seat] += first.taken
                self.pile = []
                self.last_taker = seat
                self.singles[seat] += result is PlayResult.FOXTROT
                self.doubles[seat] += result is PlayResult.DOUBLE_FOXTROT
        for event in events[1:]:
            if isinstance(event, Redealt):
                assert 1 <= event.cards_each <= 8
            elif isinstance(event, DealEnded):
                self.end(state, event)
            else:
                assert isinstance(event, MatchEnded)
                assert event.winner == state.winner and list(event.totals) == self.totals

    def end(self, state: State, event: DealEnded) -> None:
        n = self.options.players
        assert list(event.leftover) == self.pile
        assert event.undealt == len(state.stock) < n
        to_last = self.options.leftover_pile is LeftoverPile.LAST_TAKER
        if to_last and self.last_taker is not None:  # X5
            assert event.leftover_to == self.last_taker
            self.taken[self.last_taker] += self.pile
            self.pile = []
        else:
            assert event.leftover_to is None
        assert [list(state.taken(s)) for s in range(n)] == self.taken
        expected = self.scores()
        assert [dataclasses.astuple(line) for line in event.scores] == expected
        self.totals = [t + line[-1] for t, line in zip(self.totals, expected, strict=True)]
        assert list(event.totals) == self.totals == state.totals
        self.deals += 1
        # M2, X8: the match ends exactly when the top total is reached by one player alone
        best = max(self.totals)
        won = best >= self.options.target and self.totals.count(best) == 1
        assert state.is_over is won
        assert state.winner == (self.totals.index(best) if won else None)


# ------------------------------------------------------------ the checks


def check_cards(state: State) -> None:
    """Every card is in exactly one place; the pile is the model's."""
    found: Counter[Card] = Counter(state.pile) + Counter(state.stock)
    for seat in range(state.players):
        found += Counter(state.hand(seat)) + Counter(state.taken(seat))
    assert found == pack(state.options)


def expected_legal(state: State) -> set[object]:
    """T2-T4, T6 and X4, written out again: the actions the player to move may take."""
    if state.to_move is None:
        return set()
    hand = state.hand(state.to_move)
    pile = state.pile
    if (
        state.options.forced_foxtrot
        and len(pile) == 1
        and any(c.rank == pile[0].rank for c in hand)
    ):
        return {Action.play(c) for c in hand if c.rank == pile[0].rank}
    legal: set[object] = {Action.play(c) for c in hand}
    if pile and state.options.take is TakeRule.ANY:
        legal.add(TAKE)
    return legal


def check_legality(state: State, rng: random.Random) -> None:
    """legal_actions() and why_illegal() agree; an illegal action changes nothing (T7)."""
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    mover = state.to_move
    assert set(legal) == expected_legal(state)
    for action in ACTIONS:
        error = state.why_illegal(action)
        assert (error is None) == (action in legal), (action, error)
        if mover is not None:
            other = (mover + 1 + rng.randrange(state.players - 1)) % state.players
            refused = state.why_illegal(action, other)
            assert refused is not None and refused.code == "not_your_turn"
    illegal = [a for a in ACTIONS if a not in legal]
    if illegal:
        action = rng.choice(illegal)
        seat = rng.choice([None, *range(state.players)])
        before = dumps(state)
        views = [state.observation(s) for s in range(state.players)]
        try:
            state.apply(action, seat)
        except IllegalActionError as error:
            assert f"seat {error.seat} cannot " in str(error)
        else:
            raise AssertionError(f"{action} by {seat} was accepted")
        assert dumps(state) == before
        assert [state.observation(s) for s in range(state.players)] == views


def _nested(value: object) -> list[object]:
    found = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            found += _nested(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            found += _nested(item)
    return found


def _mentions(value: object) -> Counter[str]:
    """The text of every card anywhere inside ``value`` (cards, actions, strings)."""
    found: Counter[str] = Counter()
    for item in _nested(value):
        if isinstance(item, Card):
            found[str(item)] += 1
        elif isinstance(item, Action) and item.card is not None:
            found[str(item.card)] += 1
        elif isinstance(item, str):
            found.update(token for token in item.replace(",", " ").split() if token)
    return found


def check_views(state: State, rng: random.Random) -> None:
    """V1-V3 for one random seat: non-interference, own hand, nothing of the others."""
    seat = rng.randrange(state.players)
    view = state.observation(seat)
    assert view.hand == state.hand(seat)
    assert view.stock == len(state.stock)
    assert state.resample(seat, rng).observation(seat) == view
    # In any form: no card the seat has never seen (not in its hand, never face up) is
    # mentioned anywhere in the observation, as a card, an action or a card's text.
    visible = view.seen_cards() + Counter(view.hand)
    never_seen = {c for c in CARDS if not visible[c]}
    hidden = [c for s in range(state.players) if s != seat for c in state.hand(s)]
    hidden += state.stock
    mentioned = _mentions(view)
    leaked = {c for c in never_seen & set(hidden) if mentioned[str(c)]}
    assert not leaked, f"seat {seat} sees hidden cards {sorted(map(str, leaked))}"
    if state.phase is Phase.PLAYING:
        sampled = State.from_observation(view, rng)
        assert sampled.observation(seat) == view
        check_cards(sampled)


def play_checked(state: State, rng: random.Random, *, whole_match: bool, every: int = 1) -> Model:
    """Random play (one deal, or the whole match) with every check after every step.

    The model and the cards are checked after every step; legality and the
    observations after every ``every``-th step.
    """
    model = Model(state.options)
    steps = 0
    while not state.is_over:
        if state.to_move is None:
            if model.deals and not whole_match:
                break
            events = state.deal(rng)
            assert len(events) == 1 and isinstance(events[0], DealStarted)
            assert events[0].first == (events[0].dealer + 1) % state.players  # T1
            model.start(events[0])
        else:
            seat = state.to_move
            events = state.apply(rng.choice(state.legal_actions()))
            model.step(state, seat, events)
        check_cards(state)
        if state.phase is Phase.PLAYING:
            assert state.pile == tuple(model.pile)
        else:  # R2: what is left of the stock are the last cards of the deck, undealt
            deck = state.deal_logs()[-1].deck
            assert deck is not None
            assert [c.id for c in state.stock] == list(deck[len(deck) - len(state.stock) :])
        steps += 1
        if steps % every == 0 or state.phase is not Phase.PLAYING:
            check_legality(state, rng)
            check_views(state, rng)
    return model


# ------------------------------------------------------------ the properties


@pytest.mark.slow
@SETTINGS
@given(options=options_strategy, seed=seeds)
def test_random_deal_keeps_every_rule(options: TableOptions, seed: int) -> None:
    rng = random.Random(seed)
    state = State(options, dealer=rng.randrange(options.players))
    model = play_checked(state, rng, whole_match=False)
    assert model.deals == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=seeds)
def test_random_match_totals_and_winner(options: TableOptions, seed: int) -> None:
    options = options.replace(target=min(options.target, 150))
    rng = random.Random(seed)
    state = State(options, dealer=rng.randrange(options.players))
    model = play_checked(state, rng, whole_match=True, every=15)
    assert state.is_over and model.deals == state.deal_number
    assert state.outcome is not None and state.outcome.totals == tuple(model.totals)
    best = max(model.totals)
    assert best >= options.target and model.totals.count(best) == 1
    assert state.winner == model.totals.index(best)


@SETTINGS
@given(options=options_strategy, seed=seeds, actions=st.integers(0, 600))
def test_save_and_load_at_any_point(options: TableOptions, seed: int, actions: int) -> None:
    state = random_state(seed, options, actions)
    text = dumps(state)
    again = loads(text)
    assert dumps(again) == text
    for seat in range(options.players):
        assert again.observation(seat) == state.observation(seat)
        assert again.hand(seat) == state.hand(seat)
    assert again.stock == state.stock and again.phase is state.phase
    assert again.legal_actions() == state.legal_actions()
    # the replay passes through the very same state at its end
    last = None
    for step in replay(to_record(state)):
        last = step.state
    if last is not None:
        assert dumps(last) == text
    # and both go on identically
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    play_random(state, rng_a, max_actions=30)
    play_random(again, rng_b, max_actions=30)
    assert dumps(again) == dumps(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=seeds)
def test_same_seed_same_record(options: TableOptions, seed: int) -> None:
    def match() -> str:
        rng = random.Random(seed)
        state = State(options.replace(target=min(options.target, 150)), rng=rng)
        return dumps(play_random(state, rng, whole_match=True))

    first = match()
    assert first == match()
    assert '"winner": null' not in first


@SETTINGS
@given(options=options_strategy, seed=seeds, actions=st.integers(1, 300))
def test_clone_is_independent(options: TableOptions, seed: int, actions: int) -> None:
    options = options.replace(target=10_000)  # the match goes on: the clone can move
    state = random_state(seed, options, actions)
    before = dumps(state)
    views = [state.observation(s) for s in range(options.players)]
    hands = [state.hand(s) for s in range(options.players)]
    clone = state.clone()
    assert dumps(clone) == before
    rng = random.Random(seed)
    play_random(clone, rng, max_actions=25)
    if clone.to_move is None and not clone.is_over:
        clone.deal(rng)
    assert dumps(clone) != before
    assert dumps(state) == before
    assert [state.observation(s) for s in range(options.players)] == views
    assert [state.hand(s) for s in range(options.players)] == hands


@SETTINGS
@given(options=options_strategy, seed=seeds, actions=st.integers(1, 300))
def test_hidden_cards_do_not_leak_between_seats(
    options: TableOptions, seed: int, actions: int
) -> None:
    state = random_state(seed, options, actions)
    rng = random.Random(seed)
    for seat in range(options.players):
        view = state.observation(seat)
        assert view.hand == state.hand(seat)
        assert state.resample(seat, rng).observation(seat) == view
        if state.phase is Phase.PLAYING:
            assert State.from_observation(view, rng).observation(seat) == view


def test_the_model_knows_every_card() -> None:
    assert sum(points(c) for c in CARDS) * 2 == 80 + 8 + 8 - 40
