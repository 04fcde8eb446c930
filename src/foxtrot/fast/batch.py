"""Many matches stepped at once in compiled code: the engine of ``env.BatchedGames`` (``[fast]``).

Each game is a row of a set of arrays, and ``step`` moves every game once: the move, a
redeal, the deal's end and its scores, the match's end, the next deal, the rewards, and the
observation array and action mask of the seat to move, into the caller's arrays.

**What is written twice, and why.**  numba cannot run ``State``, so this engine runs the
rules' compiled twin (``_rules``, which says what it re-writes and which tests hold it equal):

- the move, a redeal (R1) and a deal's end with its scores (R2, E1, E2, P1-P4, X5, X6) are
  ``_rules.do_move`` and ``_rules.run_out`` (``State.apply_code_unchecked`` and
  ``State._run_out`` on arrays);
- ``deal`` here re-writes ``State.deal`` (D2-D4): the shuffle of a fresh pack, the stock as
  the deck reversed, then eight cards each as ``run_out``'s redeal from a full stock
  (``redeal_size`` of a full pack is ``HAND_SIZE`` at every table: D3), the upturned card,
  the first player (T1);
- the legal actions are ``_rules.legal_codes`` (``kernel.legal_codes`` re-written); the
  match's end is ``kernel.match_winner`` and a double foxtrot ``kernel.is_double``,
  compiled as they are; the deal order is ``kernel.deal_order``'s, tabled by the caller
  (``Table.orders``);
- the shuffle is ``core.rng.SplitMix64.shuffle`` (``_random``, itself a twin), so a game
  deals exactly the deals ``State.deal(SplitMix64(seed))`` deals.

The observation is ``env.encoding.encode`` of the seat to move (the offsets of its blocks are
given, ``Table.at``), built from what that seat may see: its own hand and the public counts (V1,
V2).  The differential tests (tests/test_batch.py) hold all of it equal to the engine.

The arrays come in three small structs of arrays (``NamedTuple``s, which numba compiles as
structs, their fields named): ``Table``, what every game shares (the observation's offsets,
the deal orders, a fresh pack, the reward, the target); ``Games``, every game's state, a row
per game (row ``g`` of its first eight fields is the ``_rules.Position`` the rules' twin works
on); ``Outputs``, what a step writes for the caller (``BatchedGames``'s arrays).  So ``step``
is ``step(actions, limit, table, games, out)``.  Python passes the structs as plain tuples of
their fields, which ``step`` and ``start`` name again (see ``step``); the structs run at least
as fast as the 34 arrays passed one by one did (docs/library/fast.md, measured).

This module imports numba: it is loaded only when a compiled batch is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core import kernel
from ..core.kernel import TAKE_CODE
from ._compile import hot, inlined
from ._random import Words, shuffle
from ._rules import (  # the rules row's and the scalars' layout, re-exported for the env
    FORCED,
    LAST,
    LEFTOVER_TO_TAKER,
    MATCH,
    ORDER,
    PILE_N,
    PLAYING,
    SCALARS,
    STOCK_N,
    TIE_ALL,
    TO_MOVE,
    do_move,
    legal_codes,
    run_out,
    u,
)

Ints = NDArray[np.int64]
Floats = NDArray[np.float32]
Flags = NDArray[np.bool_]
Mask = NDArray[np.int8]
Plain = tuple[Any, ...]
"""A struct's fields as a plain tuple, in order: how Python passes the structs (see ``step``)."""

is_double: Callable[[int], bool] = hot(kernel.is_double)
match_winner: Callable[[Ints, float], int] = cast(Any, hot(kernel.match_winner))

#: The blocks of the observation, in the order of ``Table.at`` (names of ``env.encoding.layout``).
BLOCKS = (
    "hand",
    "pile",
    "top",
    "pile_size",
    "stock",
    "hand_sizes",
    "taken",
    "foxtrots",
    "double_foxtrots",
    "totals",
    "seen",
    "to_move",
    "dealer",
)
(HAND, PILE, TOP, PILE_SIZE, STOCK, SIZES, TAKEN, SINGLES, DOUBLES, TOTALS, SEEN, MOVER, DEALER) = (
    range(len(BLOCKS))
)
N_ACTIONS = TAKE_CODE + 1
KINDS = 52
#: The rewards (``env.game.REWARDS``), as numbers.
DEAL_REWARD, MATCH_REWARD, MARGIN_REWARD = 0, 1, 2


class Table(NamedTuple):
    """What every game of a batch shares: the table's constants (set once, never written)."""

    at: Ints
    """Where each block of the observation starts, in the order of ``BLOCKS``."""
    orders: Ints
    """``[dealer, i]``: the ``i``-th seat dealt to when ``dealer`` deals (``kernel.deal_order``)."""
    fresh: Ints
    """A fresh pack, in ``full_deck``'s order: what every deal shuffles."""
    reward: int
    """``DEAL_REWARD``, ``MATCH_REWARD`` or ``MARGIN_REWARD``."""
    target: float
    """The match's target score (M2)."""


class Games(NamedTuple):
    """Every game's state, a row per game (``G`` games, ``n`` players, ``D`` cards).

    Row ``g`` of the first eight fields is game ``g``'s ``_rules.Position``, and
    ``rules[g]`` its rules row: what the rules' twin (``do_move``, ``run_out``) works on."""

    hands: Ints
    """``[G, n, D]``: each hand sorted, its first ``hand_sizes[g, seat]`` entries."""
    hand_sizes: Ints
    """``[G, n]``: cards in each hand."""
    pile: Ints
    """``[G, D]``: card ids, bottom first: the first ``scalars[g, PILE_N]``."""
    stock: Ints
    """``[G, D]``: card ids, top **last**: the first ``scalars[g, STOCK_N]``."""
    taken_count: Ints
    """``[G, n]``: cards taken this deal (P3)."""
    taken_points: Ints
    """``[G, n]``: their card points (P2)."""
    bonuses: Ints
    """``[G, n]``: foxtrot bonuses this deal (P1)."""
    scalars: Ints
    """``[G, SCALARS]``: ``TO_MOVE``, ``LAST``, ``PILE_N``, ``STOCK_N``, ``PLAYING``."""
    rules: Ints
    """``[G, ORDER + n]``: the table's options (``MATCH``, ``FORCED``, ...), then the deal
    order of the current deal from ``ORDER``."""
    deal_scores: Ints
    """``[G, n]``: each seat's score of the deal, once it has ended (P4)."""
    singles: Ints
    """``[G, n]``: single foxtrots this deal."""
    doubles: Ints
    """``[G, n]``: double foxtrots this deal (X9)."""
    totals: Ints
    """``[G, n]``: the match's totals (M1)."""
    seen: Floats
    """``[G, 52]``: per card kind, the cards seen face up this deal (V2); as the observation's
    numbers, so that every observation copies them without converting (numba's conversion of
    an int64 to a float, a card at a time, was a seventh of a step)."""
    dealer: Ints
    """``[G]``: the seat dealing the current deal."""
    deals: Ints
    """``[G]``: the deals finished in this match."""
    rewarded: Ints
    """``[G, n]``: the points this deal already paid out as the margin reward."""
    words: Words
    """``[G, 1]``: each game's generator (a ``SplitMix64`` state, ``_random``)."""


class Outputs(NamedTuple):
    """What a step writes for the caller, a row per game (``BatchedGames``'s arrays of the
    same names), and ``codes``, the legal actions behind the mask."""

    codes: Ints
    """``[G, N_ACTIONS + 1]``: the legal action indices in order, their count last."""
    obs: Floats
    """``[G, size]``: the observation of the seat to move (``env.encoding.encode``)."""
    mask: Mask
    """``[G, N_ACTIONS]``: its legal actions."""
    to_move: Ints
    """``[G]``: the seat to move."""
    rewards: Floats
    """``[G, n]``: this step's rewards."""
    done: Flags
    """``[G]``: the match ended this step."""
    deal_ended: Flags
    """``[G]``: a deal ended this step."""
    scores: Ints
    """``[G, n, 6]``: the score sheet of the deal that ended (``env.batch.SCORE_FIELDS``)."""
    winner: Ints
    """``[G]``: the match's winner, -1 while none."""
    final_totals: Ints
    """``[G, n]``: the match's totals when it ended."""
    final: Floats
    """``[G, size]``: the observation of the position where a deal ended, as the seat that
    ended it sees it (nobody to move)."""


@hot
def show(g: int, table: Table, games: Games, out: Outputs) -> None:
    """Game ``g``'s seat to move, its observation array (``encode``) and its action mask."""
    seat = games.scalars[g, TO_MOVE]
    out.to_move[g] = seat
    view(g, seat, table, games, out.obs[g])
    out.obs[g, table.at[MOVER]] = 1  # relative seat 0 is the seat to move
    hand = games.hands[g, seat, : games.hand_sizes[g, seat]]
    on = games.pile[g, : games.scalars[g, PILE_N]]
    flags = out.mask[g]
    flags[:] = 0
    row = out.codes[g]  # the legal actions in index order (a hand is sorted, take is last) ...
    rules = games.rules[g]
    count = legal_codes(hand, on, rules[MATCH] == 0, rules[FORCED] != 0, row)
    for i in range(count):
        flags[row[i]] = 1
    row[N_ACTIONS] = count  # ... and how many


@inlined
def view(g: int, seat: int, table: Table, games: Games, obs: Floats) -> None:
    """What ``seat`` of game ``g`` sees, into ``obs`` (``encode``, nobody marked to move).

    Every index into ``obs`` is unsigned (``u``, see ``_rules``)."""
    n = u(games.hand_sizes.shape[1])
    at = table.at
    obs[:] = 0
    hand_at = u(at[HAND])
    hand = games.hands[g, seat]
    for i in range(u(games.hand_sizes[g, seat])):
        obs[hand_at + u(hand[i])] += 1
    size = games.scalars[g, PILE_N]
    on = games.pile[g]
    pile_at = u(at[PILE])
    for i in range(u(size)):
        obs[pile_at + u(on[i])] += 1
    if size > 0:
        obs[u(at[TOP]) + u(on[size - 1])] = 1
    obs[u(at[PILE_SIZE])] = size
    obs[u(at[STOCK])] = games.scalars[g, STOCK_N]
    sizes_at, taken_at, singles_at = u(at[SIZES]), u(at[TAKEN]), u(at[SINGLES])
    doubles_at, totals_at, dealer_at = u(at[DOUBLES]), u(at[TOTALS]), u(at[DEALER])
    sizes, taken, singles = games.hand_sizes[g], games.taken_count[g], games.singles[g]
    doubles, totals, dealer = games.doubles[g], games.totals[g], u(games.dealer[g])
    s = u(seat)
    for rel in range(n):  # seats in order relative to the observer
        obs[sizes_at + rel] = sizes[s]
        obs[taken_at + rel] = taken[s]
        obs[singles_at + rel] = singles[s]
        obs[doubles_at + rel] = doubles[s]
        obs[totals_at + rel] = totals[s]
        if s == dealer:
            obs[dealer_at + rel] = 1
        s += u(1)
        if s == n:
            s = u(0)
    seen_at = u(at[SEEN])
    seen = games.seen[g]
    for k in range(u(KINDS)):
        obs[seen_at + k] = seen[k]


@hot
def deal(g: int, table: Table, games: Games) -> None:
    """A new deal in game ``g`` by its dealer (``games.dealer``), shuffled by its generator
    (D3, D4)."""
    n = games.hand_sizes.shape[1]
    dealer = games.dealer[g]
    for i in range(n):
        games.rules[g, ORDER + i] = table.orders[dealer, i]
    cards = len(table.fresh)
    deck = games.stock[g]
    for i in range(cards):
        deck[i] = table.fresh[i]
    shuffle(games.words[g], deck, cards)  # the deck, index 0 the top (D4) ...
    for i in range(cards // 2):  # ... and the stock is the deck reversed: its top card last
        deck[i], deck[cards - 1 - i] = deck[cards - 1 - i], deck[i]
    for s in range(n):
        games.hand_sizes[g, s] = 0
        games.taken_count[g, s] = 0
        games.taken_points[g, s] = 0
        games.bonuses[g, s] = 0
        games.singles[g, s] = 0
        games.doubles[g, s] = 0
        games.rewarded[g, s] = 0
    scalars = games.scalars[g]
    scalars[STOCK_N] = cards
    scalars[PILE_N] = 0
    scalars[LAST] = -1
    scalars[PLAYING] = 1
    # eight cards each, one at a time in deal order: the redeal from a full stock (R1 = D3)
    run_out(
        games.hands[g],
        games.hand_sizes[g],
        games.pile[g],
        deck,
        games.taken_count[g],
        games.taken_points[g],
        games.bonuses[g],
        scalars,
        games.rules[g],
        games.deal_scores[g],
    )
    scalars[STOCK_N] -= 1
    upturned = deck[scalars[STOCK_N]]
    games.pile[g, 0] = upturned  # the upturned card is the pile (D3)
    scalars[PILE_N] = 1
    scalars[TO_MOVE] = table.orders[dealer, 0]  # the dealer's left plays first (T1)
    games.seen[g, :] = 0
    games.seen[g, upturned] = 1


@hot
def lot(  # noqa: PLR0917 - compiled code takes its arrays by position
    words: Words, fresh: Ints, players: int, pack: Ints, drawing: Ints, ranks: Ints
) -> int:
    """``dealing.draw_lots`` for the real game's pack (D1), drawing from generator ``words``:
    every player draws a card of a shuffled pack (``shuffled_deck``: ``fresh`` shuffled, index
    0 the top), the highest rank deals, the tied highest draw again from what is left (a new
    shuffled pack when it runs out); returns the dealer.  ``pack``, ``drawing`` and ``ranks``
    are scratch (the pack's size, the players').  ``tests/test_batch.py`` holds it equal to
    ``draw_lots``: the lot in Python cost a third of a batch's time at 4 players."""
    count = players
    for i in range(players):
        drawing[i] = i
    cards = len(fresh)
    at = cards  # the next card of the pack: none left yet
    while True:
        best = -1
        for k in range(count):
            if at == cards:
                for i in range(cards):
                    pack[i] = fresh[i]
                shuffle(words, pack, cards)
                at = 0
            ranks[k] = pack[at] >> 2
            at += 1
            best = max(best, ranks[k])
        kept = 0
        for k in range(count):
            if ranks[k] == best:
                drawing[kept] = drawing[k]
                kept += 1
        count = kept
        if count == 1:
            return int(drawing[0])


@hot
def start(g: int, table: Table | Plain, games: Games | Plain, out: Outputs | Plain) -> None:
    """A new match's first deal in game ``g`` (its dealer, generator and totals set by the
    caller), and what its seat to move sees.  Called from Python: the structs may be plain
    tuples (see ``step``)."""
    table, games, out = Table(*table), Games(*games), Outputs(*out)
    deal(g, table, games)
    show(g, table, games, out)


@hot
def step(
    actions: Ints, limit: int, table: Table | Plain, games: Games | Plain, out: Outputs | Plain
) -> int:
    """One action in each of the first ``limit`` games; returns ``limit``, or the index of the
    first game whose action is not legal (that game and those after it have not moved).

    A game whose match ended is marked ``done`` and left for the caller to start anew.

    The structs may come as plain tuples of their fields, in order (``tuple(games)``), and
    are named again here: numba's dispatcher types a plain tuple of arrays in C (about 1.5 µs
    a call) but a named one in Python (5-8 µs), 6-9 % of a step of 256 games."""
    table, games, out = Table(*table), Games(*games), Outputs(*out)
    n = games.hand_sizes.shape[1]
    for g in range(limit):
        code = actions[g]
        if code < 0 or code >= N_ACTIONS or out.mask[g, code] == 0:
            return g
        out.rewards[g, :] = 0
        out.done[g] = False
        out.deal_ended[g] = False
        out.winner[g] = -1
        scalars = games.scalars[g]
        mover = scalars[TO_MOVE]
        bonus = games.bonuses[g, mover]
        do_move(
            code,
            games.hands[g],
            games.hand_sizes[g],
            games.pile[g],
            games.stock[g],
            games.taken_count[g],
            games.taken_points[g],
            games.bonuses[g],
            scalars,
            games.rules[g],
            games.deal_scores[g],
        )
        if code != TAKE_CODE:
            games.seen[g, code] += 1  # every card played is seen
            if games.bonuses[g, mover] != bonus:  # a foxtrot
                if is_double(code):
                    games.doubles[g, mover] += 1
                else:
                    games.singles[g, mover] += 1
        if scalars[PLAYING]:
            if table.reward == MARGIN_REWARD:  # only the mover's points can have grown
                points = games.taken_points[g, mover] + games.bonuses[g, mover]
                gain = points - games.rewarded[g, mover]
                if gain != 0:
                    games.rewarded[g, mover] += gain
                    for s in range(n):
                        out.rewards[g, s] = -gain / (n - 1)
                    out.rewards[g, mover] = gain
        else:
            won = _deal_ended(g, table, games, out)
            view(g, mover, table, games, out.final[g])  # the end, as the seat that made it sees it
            if won:
                out.done[g] = True
                continue
            games.dealer[g] = (games.dealer[g] + 1) % n  # the deal passes clockwise (D2)
            deal(g, table, games)
        show(g, table, games, out)
    return limit


@hot
def _deal_ended(g: int, table: Table, games: Games, out: Outputs) -> bool:
    """The score sheet of the deal that ended (P4, X9), the rewards, the match totals; True if
    the match is won (M2)."""
    n = games.hand_sizes.shape[1]
    out.deal_ended[g] = True
    dscore = games.deal_scores[g]
    gains = 0
    for s in range(n):
        line = out.scores[g, s]
        line[0] = games.singles[g, s]
        line[1] = games.doubles[g, s]
        line[2] = games.taken_count[g, s]
        line[3] = games.taken_points[g, s]
        line[4] = dscore[s] - games.bonuses[g, s] - games.taken_points[g, s]  # most cards (P3)
        line[5] = dscore[s]
        games.totals[g, s] += dscore[s]
        gains += dscore[s] - games.rewarded[g, s]
    if table.reward == DEAL_REWARD:
        for s in range(n):
            out.rewards[g, s] = dscore[s]
    elif table.reward == MARGIN_REWARD:  # each seat's gain minus the mean of the others'
        for s in range(n):
            gain = dscore[s] - games.rewarded[g, s]
            out.rewards[g, s] = gain - (gains - gain) / (n - 1)
    games.deals[g] += 1
    seat = match_winner(games.totals[g], table.target)
    if seat < 0:
        return False
    out.winner[g] = seat
    for s in range(n):
        out.final_totals[g, s] = games.totals[g, s]
    if table.reward == MATCH_REWARD:
        out.rewards[g, seat] = 1
    return True


@hot
def first_illegal(actions: Ints, mask: Mask) -> int:
    """The first game whose action is not a legal index of its mask (``-1``: none), so that a
    caller can refuse a step before any game moves (``FoxtrotVectorEnv``)."""
    for g in range(len(actions)):
        code = actions[g]
        if code < 0 or code >= N_ACTIONS or mask[g, code] == 0:
            return g
    return -1


@hot
def pick(codes: Ints, draws: NDArray[np.float64], out: Ints) -> None:
    """In every game the legal action number ``int(draw * count)`` in index order
    (``BatchedGames``'s random action: uniform over the legal ones), from ``show``'s codes."""
    for g in range(len(out)):
        count = codes[g, N_ACTIONS]
        out[g] = codes[g, min(int(draws[g] * count), count - 1)]


__all__ = [
    "BLOCKS",
    "DEAL_REWARD",
    "FORCED",
    "LAST",
    "LEFTOVER_TO_TAKER",
    "MARGIN_REWARD",
    "MATCH",
    "MATCH_REWARD",
    "N_ACTIONS",
    "ORDER",
    "PILE_N",
    "PLAYING",
    "SCALARS",
    "STOCK_N",
    "TIE_ALL",
    "TO_MOVE",
    "Games",
    "Outputs",
    "Plain",
    "Table",
    "Words",
    "deal",
    "first_illegal",
    "is_double",
    "lot",
    "match_winner",
    "pick",
    "show",
    "shuffle",
    "start",
    "step",
    "view",
]
