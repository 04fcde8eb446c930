"""Exact endgames: the rest of a deal solved by alpha-beta search once the hidden cards are known.

Near the end of a two-player deal almost nothing is hidden.  When the stock can no longer be
dealt (fewer cards than players, rule R2) the cards a seat has not seen are the other hand and
the few undealt cards, and the other hand is one of a handful of sets; when only one set is
consistent with the observation (``determined``) the rest of the deal is a game of perfect
information and ``solve`` finds its exact value.  Sampling worlds and averaging greedy
playouts, as the expert's search does, is then only noise and a weaker policy.

Two facts of the rules shape what this can do (both measured in docs/reports/strength.md):

- the stock is never empty at the end of a deal: 104 cards less the hands and the upturned
  card leave an odd stock at 2 players, and the last redeal (R1: ``stock // players`` each)
  leaves one card undealt.  Under ``take = match`` the last redeal gives 3 cards each, so the
  seat sees 3 + 1 unseen cards and the other hand is one of up to 4 sets: ``determined`` holds
  only when every unseen card is a copy of one card (rule C1), or at a forced last move;
- so the expert also solves every consistent deal when they are few (``hidden_deals``, at most
  ``WORLD_LIMIT``): each deal exactly, weighted by how likely it is (the ways the unseen copies
  make it, times the opponent model's likelihood, ``inference``).  That is not the exact value
  of the game of imperfect information (a move may be best in every deal and still reveal
  something), but it replaces sampled worlds and greedy futures by every world and perfect
  play in each.  ``Analysis.solved`` says which: 1 is exact, more is that many deals solved.

The objective is the expert's (``expert.search``): the seat's deal score minus the other's at
the end of the deal (rules P1-P4, X5, X6) — at 2 players exactly what the deal adds to the
difference of the match totals (M2) — plus, with a ``stake``, ``stake`` points times the
seat's chance to win the match from the totals after the deal (``match_odds.win_chance``:
1 or 0 when the deal ends the match, M2, X8).  The other player is taken to minimise it, as
in any two-player zero-sum search.  Only two players: at more, the others' interests differ
and no single value exists (``solve`` refuses).

The search is negamax-style alpha-beta with a transposition table keyed by a compact position
(both hands, whose turn, the pile's size, top rank and points, the taken-card difference, the
last taker if the leftover pile goes to him, the stock; with a stake the points so far too),
moves ordered by what they take, bounded by a node budget (``NODES``): over it, ``solve``
returns ``None`` and the caller samples as before.

Bots import only the core: this module reads ``State`` through its public integer API.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from ..core import (
    ACTIONS,
    Action,
    Card,
    LeftoverPile,
    MostCardsTie,
    Observation,
    Phase,
    State,
    TakeRule,
)
from ..core.kernel import (
    CARD_POINTS,
    FOXTROT,
    FOXTROT_BONUSES,
    LAYS,
    MOST_CARDS_BONUS,
    TAKE_CODE,
    deal_order,
    outcome_of,
    redeal_size,
)
from .inference import RATIONALITY, SURPRISE, decisions, log_likelihood
from .match_odds import PACE, win_chance

#: Positions a solve may visit, for all the deals of one decision together: under ``take =
#: match`` the last three cards each take at most a few hundred; under ``take = any`` hands
#: can hold twenty cards and the budget is what keeps the decision inside hard's second (a
#: pure-Python node costs about 10 µs: at most about 0.2 s of CPU, and a search over budget
#: has the rest of the bot's time).
NODES: Final = 20_000
#: At most this many consistent deals of the hidden cards are solved one by one
#: (``hidden_deals``); with more, the expert samples.
WORLD_LIMIT: Final = 24
#: With an infinite stake the chance to win the match decides and the margin breaks ties:
#: points per unit of chance (no deal margin comes near it).
MATCH_WEIGHT: Final = 1_000_000.0


#: Both hands, seat 0's first, each a sorted tuple of card ids.
Hands = tuple[tuple[int, ...], tuple[int, ...]]
#: A position: hands, turn, pile size, top card, pile points, taken-card difference, last
#: taker, stock, points and cards so far (``_Solver``).
Position = tuple[Hands, int, int, int, int, int, int, tuple[int, ...], tuple[int, ...]]


class _OverBudgetError(Exception):
    """The node budget ran out: the caller falls back to sampling."""


@dataclasses.dataclass(frozen=True, slots=True)
class Solution:
    """The exact value of every legal action (the objective in points, ``solve``), the best
    action (ties to the lowest action code, so a seed always plays the same), nodes used."""

    best: Action
    values: dict[Action, float]
    nodes: int


class _Solver:
    """One alpha-beta search of a two-player position of perfect information."""

    def __init__(self, state: State, seat: int, stake: float, budget: int) -> None:
        options = state.options
        self.match = state.take_match
        self.forced = options.forced_foxtrot
        self.to_last = options.leftover_pile is LeftoverPile.LAST_TAKER
        self.tie_all = options.most_cards_tie is MostCardsTie.ALL
        self.order = deal_order(state.dealer, 2)
        self.hand_size = options.hand_size  # the most a redeal gives (R1)
        self.seat = seat
        self.stake = MATCH_WEIGHT if math.isinf(stake) else stake
        self.totals = list(state.totals)
        self.target = options.target
        self.pace = PACE[2, not self.match]
        self.table: dict[tuple[object, ...], tuple[float, float]] = {}
        self.nodes = 0
        self.budget = budget

    # The position: ``hands`` (two sorted tuples of ids), ``turn``, the pile as ``size``,
    # ``top`` (card id, -1 if empty) and ``points``, ``diff`` (cards taken by seat 0 minus
    # seat 1), ``last`` (the last taker, -1 if none), ``stock`` (top last), ``acc`` (with a
    # stake: both seats' points and taken cards so far; else empty, values being what is
    # still to come).  Values are the solving seat's, future points only without a stake.

    def moves(self, hand: tuple[int, ...], size: int, top: int) -> list[int]:
        """The legal codes (``kernel.legal_codes``'s rule), best-looking first."""
        codes = list(dict.fromkeys(hand))
        made = (
            [code for code in codes if code >> 2 == top >> 2] if self.forced and size == 1 else []
        )
        if made:
            codes = made
        elif not self.match and size:
            codes.append(TAKE_CODE)
        top_rank = top >> 2 if size else -1
        return sorted(codes, key=lambda code: -self.gain(code, size, top_rank))

    def gain(self, code: int, size: int, top_rank: int) -> int:
        """A rough order: foxtrots and takes first (the pile's size), lays by the card's cost."""
        if code == TAKE_CODE:
            return size
        outcome = outcome_of(size, top_rank, code >> 2, self.match)
        if outcome == LAYS:
            return -100 - abs(CARD_POINTS[code])
        return 100 + size + FOXTROT_BONUSES[code] * (outcome == FOXTROT)

    def leaf(self, size: int, points: int, diff: int, last: int, acc: tuple[int, ...]) -> float:
        """The deal is over (E1): the leftover pile (E2, X5), most cards (P3, X6), the value."""
        if not acc:
            future = 0.0
            if self.to_last and last >= 0:
                future = points if last == 0 else -points
                diff += size if last == 0 else -size
            if diff:
                future += MOST_CARDS_BONUS if diff > 0 else -MOST_CARDS_BONUS
            return future if self.seat == 0 else -future
        scores, counts = [acc[0], acc[1]], [acc[2], acc[3]]
        if self.to_last and last >= 0:
            scores[last] += points
            counts[last] += size
        most = max(counts)
        for s in (0, 1):
            if counts[s] == most and most > 0 and (counts[0] != counts[1] or self.tie_all):
                scores[s] += MOST_CARDS_BONUS
        mine, other = scores[self.seat], scores[1 - self.seat]
        after = [total + score for total, score in zip(self.totals, scores, strict=True)]
        chance = win_chance(after, self.seat, self.target, final=True, pace=self.pace)
        return mine - other + self.stake * chance

    def value(self, position: Position, alpha: float, beta: float) -> float:
        """The position's value for the solving seat, exact inside ``(alpha, beta)``, else a
        bound on the side it fell (fail-soft alpha-beta)."""
        hands, turn, size, top, points, diff, last, stock, acc = position
        if not hands[turn]:
            each = redeal_size(len(stock), 2, self.hand_size)
            if not each:
                return self.leaf(size, points, diff, last, acc)
            pack, dealt = list(stock), [list(hands[0]), list(hands[1])]
            for _ in range(each):  # rule R1, as ``kernel.deal_out``
                for seat in self.order:
                    dealt[seat].append(pack.pop())
            hands = (tuple(sorted(dealt[0])), tuple(sorted(dealt[1])))
            stock = tuple(pack)
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OverBudgetError
        key = (hands, turn, size, top >> 2, points, diff, last if self.to_last else -1, stock, acc)
        low, high = self.table.get(key, (-math.inf, math.inf))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        start_alpha, start_beta = alpha, beta
        alpha, beta = max(alpha, low), min(beta, high)
        mine = turn == self.seat
        best = -math.inf if mine else math.inf
        here = (hands, turn, size, top, points, diff, last, stock, acc)
        for code in self.moves(hands[turn], size, top):
            now, after = self.step(here, code)
            found = now + self.value(after, alpha - now, beta - now)
            if mine:
                best = max(best, found)
                alpha = max(alpha, found)
            else:
                best = min(best, found)
                beta = min(beta, found)
            if alpha >= beta:
                break
        if best <= start_alpha:
            high = min(high, best)
        elif best >= start_beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)
        return best

    def step(self, position: Position, code: int) -> tuple[float, Position]:
        """Action ``code`` by the player to move (rules T3-T5, as ``State.apply_code_unchecked``):
        the points it brings the solving seat now (without a stake) and the position after."""
        hands, turn, size, top, points, diff, last, stock, acc = position
        hand = hands[turn]
        taken = gained = 0
        if code == TAKE_CODE:
            taken, gained = size, points
            size, top, points = 0, -1, 0
        else:
            index = hand.index(code)
            hand = hand[:index] + hand[index + 1 :]
            outcome = outcome_of(size, top >> 2 if size else -1, code >> 2, self.match)
            if outcome == LAYS:
                size, top, points = size + 1, code, points + CARD_POINTS[code]
            else:
                taken, gained = size + 1, points + CARD_POINTS[code]
                if outcome == FOXTROT:
                    gained += FOXTROT_BONUSES[code]
                size, top, points = 0, -1, 0
        now = 0.0
        if taken:
            last = turn
            diff += taken if turn == 0 else -taken
            if acc and turn == 0:
                acc = (acc[0] + gained, acc[1], acc[2] + taken, acc[3])
            elif acc:
                acc = (acc[0], acc[1] + gained, acc[2], acc[3] + taken)
            else:
                now = gained if turn == self.seat else -gained
        new = (hand, hands[1]) if turn == 0 else (hands[0], hand)
        return now, (new, 1 - turn, size, top, points, diff, last, stock, acc)


def _start(state: State, stake: float) -> tuple[float, tuple[int, ...]]:
    """The points taken so far: without a stake the seat's lead (values are what is to come),
    with one every seat's points and cards (the match odds need the absolute scores)."""
    so_far = [
        sum(CARD_POINTS[card] for card in taken) + sum(FOXTROT_BONUSES[card] for card in made)
        for taken, made in zip(state.taken_ids, state.foxtrot_ids, strict=True)
    ]
    if stake:
        counts = [len(taken) for taken in state.taken_ids]
        return 0.0, (so_far[0], so_far[1], counts[0], counts[1])
    seat = state.turn
    return float(so_far[seat] - so_far[1 - seat]), ()


def solve(state: State, *, stake: float = 0.0, nodes: int = NODES) -> Solution | None:
    """The exact value of every legal action of the player to move in a two-player deal whose
    every card is known (a determinized state: ``determined_state``), or ``None`` when more
    than ``nodes`` positions would be needed.

    A value is the seat's deal score minus the other's at the end of the deal, in points (the
    points already taken included), plus ``stake`` points times its chance to win the match
    (``math.inf``: the chance decides, ``MATCH_WEIGHT``), the other player minimising it.

    A worked example: the seat to move holds 10♥ and 5♣, the other 10♠ and 5♦, the pile is a
    lone 10♦.  The double foxtrot with 10♥ is worth 40, and then the other takes 5♣ and 10♠
    with 5♦ (10 points and most cards, 5): 40 - 15 = 25.  Laying 5♣ first gives him 5♦ on it
    and then the double foxtrot of tens: -55.

    >>> from foxtrot.core import Card, State, TableOptions
    >>> ids = lambda text: [Card.parse(card).id for card in text.split()]
    >>> state = State.at_position(
    ...     TableOptions(players=2), dealer=1, turn=0,
    ...     hands=[ids("10H 5C"), ids("10S 5D")], pile=ids("10D"))
    >>> found = solve(state)
    >>> str(found.best), {str(action): value for action, value in found.values.items()}
    ('10H', {'5C': -55.0, '10H': 25.0})
    """
    if state.players != 2 or state.phase is not Phase.PLAYING:
        raise ValueError("solve: a two-player deal in progress only")
    seat = state.turn
    solver = _Solver(state, seat, stake, nodes)
    pile = state.pile_ids
    hands: Hands = (tuple(state.hand_ids[0]), tuple(state.hand_ids[1]))
    size, top = len(pile), pile[-1] if pile else -1
    points = sum(CARD_POINTS[card] for card in pile)
    taken = state.taken_ids
    diff = len(taken[0]) - len(taken[1])
    stock = tuple(state.stock_ids)
    last = state.last_taker
    base, acc = _start(state, stake)
    root = (hands, seat, size, top, points, diff, -1 if last is None else last, stock, acc)
    values: dict[Action, float] = {}
    try:
        for code in state.legal_codes():
            now, after = solver.step(root, code)
            values[ACTIONS[code]] = base + now + solver.value(after, -math.inf, math.inf)
    except _OverBudgetError:
        return None
    best = max(values, key=lambda action: (values[action], -action.code))
    return Solution(best, values, solver.nodes)


#: One consistent deal of the hidden cards: the other seats' hands, and how many ways the
#: unseen copies of the cards make it (its weight before the opponent model).
Deal = tuple[dict[int, tuple[Card, ...]], int]


def _hands_of(kinds: list[Card], counts: list[int], size: int) -> Iterator[tuple[list[int], int]]:
    """Every way to hold ``size`` of the cards (``counts`` copies of each of ``kinds``): how
    many of each, and in how many ways the copies make that hand."""
    if not kinds:
        if size == 0:
            yield [], 1
        return
    for many in range(min(size, counts[0]), -1, -1):
        if sum(counts[1:]) < size - many:
            break
        for rest, ways in _hands_of(kinds[1:], counts[1:], size - many):
            yield [many, *rest], ways * math.comb(counts[0], many)


def hidden_deals(obs: Observation, limit: int = WORLD_LIMIT) -> list[Deal] | None:
    """Every deal of the cards ``obs.seat`` has not seen that agrees with its observation, or
    ``None`` if there are more than ``limit`` or the order of a stock still to be dealt matters.

    Read from the observation only (V1, V2): the unseen cards go to the other hands (their
    sizes are public) and the rest stays in the stock; a stock with fewer cards than players is
    never dealt (R2), so its order does not matter.  Two deals differ when some hand differs.
    """
    if obs.phase is not Phase.PLAYING:
        return None
    unseen = obs.unseen_cards()
    kinds = sorted(unseen, key=lambda card: card.id)
    if len(kinds) > 1 and redeal_size(obs.stock, obs.players, obs.options.hand_size) > 0:
        return None
    others = [s for s in range(obs.players) if s != obs.seat and obs.hand_sizes[s] > 0]
    found: list[Deal] = []

    def fill(index: int, counts: list[int], shown: dict[int, tuple[Card, ...]], ways: int) -> bool:
        if index == len(others):
            found.append((dict(shown), ways))
            return len(found) <= limit
        seat = others[index]
        for many, more in _hands_of(kinds, counts, obs.hand_sizes[seat]):
            shown[seat] = tuple(card for card, k in zip(kinds, many, strict=True) for _ in range(k))
            left = [count - k for count, k in zip(counts, many, strict=True)]
            if not fill(index + 1, left, shown, ways * more):
                return False
        return True

    if not fill(0, [unseen[card] for card in kinds], {}, 1):
        return None
    return found


def determined(obs: Observation) -> bool:
    """True when exactly one deal of the hidden cards agrees with the observation: every card
    the seat has not seen is known to be in one place (``hidden_deals``)."""
    deals = hidden_deals(obs, 1)
    return deals is not None and len(deals) == 1


def world(obs: Observation, deal: Deal) -> State:
    """The full state of one consistent deal, built from the observation
    (``State.from_observation`` with the other hands shown; the stock, never dealt again or
    all copies of one card, in an arbitrary fixed order): no hidden card of the true state."""
    return State.from_observation(obs, random.Random(0), shown=deal[0])


def determined_state(obs: Observation) -> State | None:
    """The full state when the observation determines the hidden cards (``determined``)."""
    deals = hidden_deals(obs, 1)
    if deals is None or len(deals) != 1:
        return None
    return world(obs, deals[0])


@dataclasses.dataclass(frozen=True, slots=True)
class Solved:
    """The endgame values of an observation: every legal action's value, the weighted mean over
    the consistent deals of its exact value in each (``solve``), the best action, how many
    deals were solved (1: the values are exact) and the nodes searched."""

    best: Action
    values: dict[Action, float]
    deals: int
    nodes: int

    @property
    def exact(self) -> bool:
        """One deal was consistent: the values are the exact values of the position."""
        return self.deals == 1


def _plain(logs: Sequence[float]) -> list[float]:
    top = max(logs)
    return [math.exp(log - top) for log in logs]


def solve_observation(
    obs: Observation,
    *,
    stake: float = 0.0,
    nodes: int = NODES,
    limit: int = WORLD_LIMIT,
    weigh: Callable[[Sequence[float]], list[float]] = _plain,
    model: tuple[float, float] = (RATIONALITY, SURPRISE),
) -> Solved | None:
    """The seat's endgame, from its observation only: every consistent deal (at most
    ``limit``) solved exactly within ``nodes`` positions in all, or ``None`` (two players only).

    Each deal weighs the ways its copies can be dealt times the opponent model's likelihood of
    the other player's moves with that hand (``inference``), its log-likelihoods made weights
    by ``weigh`` (the expert passes its tempering); ``model`` is the model's rationality and
    surprise (``styles``: the table's reading).
    """
    if obs.players != 2 or obs.phase is not Phase.PLAYING or obs.to_move != obs.seat:
        return None
    deals = hidden_deals(obs, limit)
    if not deals:
        return None
    take_any, forced = obs.options.take is TakeRule.ANY, obs.options.forced_foxtrot
    moves = decisions(obs) if len(deals) > 1 else []
    budget, rows, logs = nodes, [], []
    for deal in deals:
        state = world(obs, deal)
        found = solve(state, stake=stake, nodes=budget)
        if found is None:
            return None
        budget -= found.nodes
        rows.append(found.values)
        logs.append(
            log_likelihood(
                state.hand_ids, moves, take_any, forced, rationality=model[0], surprise=model[1]
            )
        )
    weights = [w * ways for w, (_, ways) in zip(weigh(logs), deals, strict=True)]
    total = sum(weights)
    values = {
        action: sum(w * row[action] for w, row in zip(weights, rows, strict=True)) / total
        for action in rows[0]
    }
    best = max(values, key=lambda action: (values[action], -action.code))
    return Solved(best, values, len(deals), nodes - budget)


__all__ = [
    "MATCH_WEIGHT",
    "NODES",
    "WORLD_LIMIT",
    "Deal",
    "Solution",
    "Solved",
    "determined",
    "determined_state",
    "hidden_deals",
    "solve",
    "solve_observation",
    "world",
]
