"""Helpers for the rules tests: rigged decks (rule D4), scripted deals, random play.

``rigged_deck`` builds a full deck in the canonical order of rule D4 (index 0 is
the top; 8 rounds dealt one card at a time to seats dealer+1, dealer+2, ...;
then the upturned card; then the stock, top first) from the few cards a test
cares about, filling everything else deterministically with the remaining
cards of the pack.  Hands a test leaves open get "quiet" cards first (2-9, K
and the red and club Queens, in suit order, so no two of a rank next to each
other): no Jacks, no tens, no Aces and no Queen of spades.  The stock gets the
rest in suit order (ranks spread out), with the Jacks last.

>>> from foxtrot.core import TableOptions
>>> deck = rigged_deck(TableOptions(players=2), dealer=0, hands={1: "JS 10H"}, upturned="QS")
>>> [str(c) for c in deck[:4]], str(deck[16]), len(deck)
(['JS', '8S', '10H', '9S'], 'QS', 104)
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from hypothesis import strategies as st

from foxtrot.core import (
    CARDS,
    Action,
    Card,
    CardPlayed,
    Event,
    LeftoverPile,
    MostCardsTie,
    Phase,
    PileTaken,
    PlayResult,
    Rank,
    State,
    Suit,
    TableOptions,
    TakeRule,
    parse_cards,
)

HAND = 8
CardsLike = str | Iterable[Card | str]


def cards(spec: CardsLike) -> list[Card]:
    """Cards from text like ``"10H QS"`` or from a list of cards / tokens."""
    if isinstance(spec, str):
        return parse_cards(spec)
    return [c if isinstance(c, Card) else Card.parse(c) for c in spec]


def card(text: str) -> Card:
    """One card from its notation."""
    return Card.parse(text)


def pack(options: TableOptions) -> Counter[Card]:
    """The full pack of the table as a multiset: every card ``decks`` times (C1, X7)."""
    return Counter({c: options.decks for c in CARDS})


def _filler_key(item: tuple[Card, int]) -> tuple[int, int, int, int]:
    c, copy = item
    if c.rank == Rank.JACK:
        group = 2
    elif c.rank in (Rank.TEN, Rank.ACE) or (c.rank == Rank.QUEEN and c.suit == Suit.SPADES):
        group = 1
    else:
        group = 0
    return (group, copy, c.suit, c.rank)


def _spread(multiset: Counter[Card], key: Callable[[tuple[Card, int]], object]) -> list[Card]:
    items = [(c, copy) for c, count in multiset.items() for copy in range(count)]
    return [c for c, _ in sorted(items, key=key)]  # type: ignore[arg-type]


def deal_order(players: int, dealer: int) -> list[int]:
    """Seats in the order cards are dealt to them: dealer+1, dealer+2, ... (D3, D4)."""
    return [(dealer + i) % players for i in range(1, players + 1)]


def rigged_deck(
    options: TableOptions,
    dealer: int,
    *,
    hands: Mapping[int, CardsLike] | None = None,
    upturned: str | Card | None = None,
    stock_top: CardsLike = (),
    stock_bottom: CardsLike = (),
) -> list[Card]:
    """A full deck in canonical order (D4) that deals exactly the given cards.

    ``hands`` maps seats to at most 8 cards each (the rest of each hand is
    filler), ``upturned`` is the card turned up, ``stock_top`` the first cards
    of the stock (the first redeal takes them, one at a time, starting with
    dealer+1), ``stock_bottom`` the last cards of the deck (top first; with
    fewer than ``players`` of them they stay undealt at the end, R2).
    """
    n = options.players
    given_hands = {seat: cards(spec) for seat, spec in (hands or {}).items()}
    for seat, hand in given_hands.items():
        assert 0 <= seat < n, f"no seat {seat}"
        assert len(hand) <= HAND, f"seat {seat} is given {len(hand)} cards"
    up = [] if upturned is None else cards([upturned])
    top = cards(stock_top)
    bottom = cards(stock_bottom)
    remaining = pack(options)
    for c in [*up, *top, *bottom, *(c for hand in given_hands.values() for c in hand)]:
        remaining[c] -= 1
        assert remaining[c] >= 0, f"the rigged deck uses {c} more than {options.decks} times"
    filler = iter(_spread(remaining, _filler_key))
    order = deal_order(n, dealer)
    full = {
        seat: given_hands.get(seat, [])
        + [next(filler) for _ in range(HAND - len(given_hands.get(seat, [])))]
        for seat in order
    }
    deck = [full[seat][r] for r in range(HAND) for seat in order]
    deck.append(up[0] if up else next(filler))
    deck += top
    rest = Counter(filler)
    deck += _spread(
        rest, lambda item: (item[0].rank == Rank.JACK, item[1], item[0].suit, item[0].rank)
    )
    deck += bottom
    assert len(deck) == options.deck_size
    assert Counter(deck) == pack(options)
    return deck


def next_dealer(state: State) -> int:
    """Who deals the next deal of ``state`` (D1 for the first deal, D2 after)."""
    if state.deal_number == 0:
        return state.dealer
    return (state.dealer + 1) % state.players


def deal_rigged(state: State, **spec: Any) -> tuple[Event, ...]:
    """Deal the next deal of ``state`` from ``rigged_deck(**spec)``; the events of dealing."""
    deck = rigged_deck(state.options, next_dealer(state), **spec)
    return state.deal(deck=deck)


def new_state(dealer: int = 0, **options: Any) -> State:
    """A fresh match with the given options and first dealer.

    The rule tests' scripted deals were written for ``take = any`` (where T4 lets a player
    take the pile): that is the take rule here unless a test names another.  Tests of the
    table's default options use ``TableOptions()`` itself.
    """
    options.setdefault("take", TakeRule.ANY)
    return State(TableOptions(**options), dealer=dealer)


def mid_deal(seed: int, players: int, take: TakeRule, forced: bool = False) -> State:
    """A deal in progress after a random number (up to 90) of random actions (a fresh deal if
    the first one ended)."""
    rng = random.Random(seed)
    state = State(
        TableOptions(players=players, take=take, forced_foxtrot=forced),
        dealer=rng.randrange(players),
    )
    state.deal(rng)
    for _ in range(rng.randrange(0, 90)):
        if state.phase is not Phase.PLAYING:
            break
        state.apply(rng.choice(state.legal_actions()))
    if state.phase is not Phase.PLAYING:
        state = State(state.options, dealer=0)
        state.deal(rng)
    return state


Step = tuple[int, str, PlayResult | str | None]


def run_script(state: State, steps: Sequence[Step]) -> list[tuple[Event, ...]]:
    """Apply ``(seat, action, expected)`` steps, checking whose turn it is and what happened.

    ``expected`` is a ``PlayResult`` for a play, ``"take"`` for a take, or ``None``.
    """
    done = []
    for seat, text, expected in steps:
        assert state.to_move == seat, f"expected seat {seat} to move before {text}"
        events = state.apply(text)
        first = events[0]
        if expected == "take":
            assert isinstance(first, PileTaken) and first.seat == seat, events
        elif expected is not None:
            assert isinstance(first, CardPlayed), events
            assert (first.seat, str(first.card), first.result) == (seat, text.upper(), expected)
        done.append(events)
    return done


def _quiet(state: State, action: Action) -> bool:
    """True if playing ``action`` cannot take anything (T3a-T3d)."""
    pile = state.pile
    c = action.card
    if c is None:
        return False
    if not pile:
        return True
    if c.rank == Rank.JACK:
        return False
    if len(pile) == 1 and pile[0].rank == c.rank:
        return False
    return not (state.options.take is TakeRule.MATCH and pile[-1].rank == c.rank)


def _leaves_quiet(state: State, action: Action) -> bool:
    after = state.clone()
    after.apply_unchecked(action)
    if after.to_move is None:
        return True
    return any(_quiet(after, a) for a in after.legal_actions() if a.card is not None)


def lay_out(state: State, *, quiet: bool = True, actions: int | None = None) -> list[Event]:
    """Finish the deal (or play ``actions`` turns) by playing cards only, never T4.

    With ``quiet`` every card played must lay on the pile (nothing is taken
    any more); the caller arranged the deck so that this is possible.
    """
    events: list[Event] = []
    while state.to_move is not None and (actions is None or actions > 0):
        if actions is not None:
            actions -= 1
        plays = [a for a in state.legal_actions() if a.card is not None]
        calm = [a for a in plays if _quiet(state, a)]
        # prefer a card after which the next player can still lay quietly (one-step lookahead)
        choice = next((a for a in calm if _leaves_quiet(state, a)), calm[0] if calm else None)
        if choice is None:
            assert not quiet, f"no quiet card for seat {state.to_move}: {state.hand(state.to_move)}"
            choice = plays[0]
        step = state.apply(choice)
        if quiet:
            assert isinstance(step[0], CardPlayed) and step[0].result is PlayResult.LAID, step
        events += step
    return events


# --------------------------------------------------------------- random play


def random_options(rng: random.Random, players: int | None = None) -> TableOptions:
    """Table options with every rule chosen at random."""
    return TableOptions(
        players=players if players is not None else rng.randint(2, 9),
        take=rng.choice(list(TakeRule)),
        forced_foxtrot=rng.random() < 0.5,
        leftover_pile=rng.choice(list(LeftoverPile)),
        most_cards_tie=rng.choice(list(MostCardsTie)),
        target=rng.choice((1, 50, 150, 200, 300, 400)),
    )


def play_random(
    state: State,
    rng: random.Random,
    *,
    max_actions: int | None = None,
    whole_match: bool = False,
    each: Callable[[State, Action | None, tuple[Event, ...]], None] | None = None,
) -> State:
    """Play uniformly random legal actions (dealing with ``rng`` as needed).

    Stops at the end of the deal in progress (or of the match with
    ``whole_match``), or after ``max_actions`` actions.  ``each`` is called after
    every deal (with ``None``) and every action.
    """
    played = 0
    while not state.is_over and (max_actions is None or played < max_actions):
        if state.to_move is None:
            if not whole_match and played > 0:
                break
            events = state.deal(rng)
            if each is not None:
                each(state, None, events)
            continue
        action = rng.choice(state.legal_actions())
        events = state.apply(action)
        played += 1
        if each is not None:
            each(state, action, events)
    return state


def into_deal(options: TableOptions, rng: random.Random, steps: int) -> State:
    """A first deal dealt from ``rng`` and played ``steps`` random legal moves into (fewer if
    the deal ends first)."""
    state = State(options, dealer=rng.randrange(options.players))
    state.deal(rng)
    for _ in range(steps):
        if state.phase is not Phase.PLAYING:
            break
        state.apply_code_unchecked(rng.choice(state.legal_codes()))
    return state


def random_state(
    seed: int, options: TableOptions | None = None, actions: int | None = None
) -> State:
    """A match after a random number of random actions (from ``seed``), maybe between deals."""
    rng = random.Random(seed)
    options = options if options is not None else random_options(rng)
    state = State(options, dealer=rng.randrange(options.players))
    budget = actions if actions is not None else rng.randrange(0, 400)
    if budget == 0:
        return state
    return play_random(state, rng, max_actions=budget, whole_match=True)


# ------------------------------------------------------------ the Jack deal

#: A two-player deal in which all eight Jacks are played in the first nine
#: turns and nothing is taken afterwards (see ``jack_script``).
JACK_DEAL: Final = {
    "first": "JS JH JD JC 10H",
    "second": "JS JH JD JC",
    "upturned": "2C",
    "stock_bottom": "2D",
}


def jack_script(first: int, second: int) -> list[Step]:
    """The first nine turns of the Jack deal.

    ``first`` takes the upturned 2C with a Jack (T3c, X1), makes two double
    foxtrots of Jacks (T3b, X2) on the Jacks ``second`` lays on the empty pile
    (T3e), lays 10H on the third; ``second`` takes JD 10H with JC (T3a);
    ``first`` lays his last Jack on the empty pile.  No Jack is left, so from
    then on every card can be laid without taking anything.
    """
    took, laid, double = PlayResult.TOOK, PlayResult.LAID, PlayResult.DOUBLE_FOXTROT
    return [
        (first, "JS", took),
        (second, "JS", laid),
        (first, "JH", double),
        (second, "JH", laid),
        (first, "JD", double),
        (second, "JD", laid),
        (first, "10H", laid),
        (second, "JC", took),
        (first, "JC", laid),
    ]


def play_jack_deal(state: State) -> list[Event]:
    """Deal and play a whole Jack deal (two players); every event of it, dealing included."""
    assert state.players == 2
    first = (next_dealer(state) + 1) % 2
    second = 1 - first
    events = list(
        deal_rigged(
            state,
            hands={first: JACK_DEAL["first"], second: JACK_DEAL["second"]},
            upturned=JACK_DEAL["upturned"],
            stock_bottom=JACK_DEAL["stock_bottom"],
        )
    )
    for step in run_script(state, jack_script(first, second)):
        events += step
    return events + lay_out(state)


def tie_script(first: int, second: int) -> list[Step]:
    """The Jack deal's first eight turns, then ``second`` takes a pile of three (T4).

    Both players have then taken six cards; ``second`` keeps one card more in
    his hand to the end of the deal.
    """
    laid = PlayResult.LAID
    return [
        *jack_script(first, second)[:8],
        (first, "JC", laid),
        (second, "5S", laid),
        (first, "2S", laid),
        (second, "take", "take"),
    ]


def play_tie_deal(state: State) -> list[Event]:
    """Deal and play a whole tie deal (two players, ``take = any``); all its events."""
    assert state.players == 2 and state.options.take is TakeRule.ANY
    first = (next_dealer(state) + 1) % 2
    second = 1 - first
    events = list(
        deal_rigged(
            state,
            hands={first: JACK_DEAL["first"], second: JACK_DEAL["second"]},
            upturned=JACK_DEAL["upturned"],
            stock_bottom=JACK_DEAL["stock_bottom"],
        )
    )
    assert set(state.hand(first)) >= set(cards("2S")) and card("5S") in state.hand(second)
    for step in run_script(state, tie_script(first, second)):
        events += step
    return events + lay_out(state)


def table_options(targets: Sequence[float] = (40, 120, 200)) -> st.SearchStrategy[TableOptions]:
    """Any table: 2–9 players and every rule option, with a target from ``targets``."""
    return st.builds(
        TableOptions,
        players=st.integers(2, 9),
        take=st.sampled_from(TakeRule),
        forced_foxtrot=st.booleans(),
        leftover_pile=st.sampled_from(LeftoverPile),
        most_cards_tie=st.sampled_from(MostCardsTie),
        target=st.sampled_from(targets),
    )


def fair_vectors() -> list[dict[str, Any]]:
    """The frozen known-answer vectors of fx/v1 in docs/fair.md (seeds -> deck), as printed
    there, for the Python and the browser tests alike."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "fair.md").read_text("utf-8")
    section = text.split("## Known-answer vectors", 1)[1]
    block = section.split("```json\n", 1)[1].split("\n```", 1)[0]
    vectors: list[dict[str, Any]] = json.loads(block)
    return vectors
