"""The fast default policy of search: greedy, on integers, a few microseconds a move.

It works on the engine's integer views (``State.hand_ids``, ``.pile_ids``,
``.apply_code_unchecked``) because a rollout is the hot loop of search; it lives in this
package, and every move it makes is one of ``legal_actions()`` (a property
test checks it).  The rules it needs (what a card does on the pile, the forced
foxtrot, the bonuses) and the odds of the next hand are the engine's own, from
``core.kernel``.  It values each move as the greedy bot does — what it takes
now minus what it offers the next player, by the odds of what the next hand
holds (``move_values``) — and plays the best with a little random jitter.

With the ``[fast]`` extra the expert's search runs a compiled twin of this module
(``foxtrot.fast._playout``: the same numbers, in the same order, from the same
random numbers); a change here must be made there too, and
``tests/test_fast_kernel.py`` fails until both agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..core import Phase, State
from ..core.kernel import (
    CARD_POINTS,
    FOXTROT,
    FOXTROT_BONUSES,
    JACK,
    LAYS,
    RANKS,
    TAKE_CODE,
    TAKES,
    can_take,
    foxtrot_card,
    miss_chances,
    outcomes,
)
from .values import CARD_VALUE, JACK_COST, NOISE

_PLAYING = Phase.PLAYING


class Draws(Protocol):
    """What the policy draws its jitter from: any ``random.Random``, or a sample's numbers
    replayed for each of its actions (``expert.search``)."""

    def random(self) -> float:
        """A float in [0, 1)."""
        ...


def unseen_by_rank(state: State) -> list[int]:
    """Cards of each rank not seen face up this deal: those in hands and in the stock."""
    unseen = [0] * RANKS
    for hand in state.hand_ids:
        for card in hand:
            unseen[card >> 2] += 1
    for card in state.stock_ids:
        unseen[card >> 2] += 1
    return unseen


def move_values(
    hand: Sequence[int], pile: Sequence[int], take_any: bool, unseen: list[int], next_size: int
) -> dict[int, float]:
    """The default policy's value of every distinct move (action code -> points).

    A move is worth what it takes now minus what it offers the next player,
    judged by the odds: ``unseen`` counts, per rank, the cards the mover has
    not seen (his own hand excluded), ``next_size`` is the next hand's size.
    What each card does on the pile is the engine's rule (``kernel.outcomes``);
    the chance that the next hand holds a rank is the one formula of the project
    (``kernel.miss_chances``, exact and cached).
    The opponent model of ``inference`` values past moves with this same function.
    """
    size = len(pile)
    does = outcomes(pile, not take_any)
    # By unseen count, the chance that the next hand holds none; needed only where he must
    # hold a card to take: a lone card, or any pile under take = match.
    odds = size == 0 or not take_any
    miss = miss_chances(sum(unseen), next_size) if odds else ()
    no_jack = miss[unseen[JACK]] if odds else 1.0
    worth = 0
    for card in pile:
        worth += CARD_POINTS[card]
    # The moves are those of ``kernel.legal_codes`` without a forced foxtrot (the caller's,
    # X4): taking first, if allowed, then each distinct card of the hand.
    values: dict[int, float] = {}
    if can_take(pile, take_any):
        values[TAKE_CODE] = worth + CARD_VALUE * size
    for card in hand:
        if card in values:
            continue
        rank = card >> 2
        points = CARD_POINTS[card]
        outcome = does[rank]
        if size == 0:  # a lone card: the next player may foxtrot it, or take it
            match = 1.0 - miss[unseen[rank]]
            foxtrot = FOXTROT_BONUSES[card] + 2 * points + 2 * CARD_VALUE
            if take_any:
                other = points + CARD_VALUE if points >= 0 else 0.0
            elif rank != JACK and points > JACK_COST - CARD_VALUE:
                other = (1.0 - no_jack) * (points + CARD_VALUE - JACK_COST)
            else:
                other = 0.0
            value = -(match * foxtrot if foxtrot > 0 else 0.0) - (1 - match) * other
        elif outcome == FOXTROT:
            value = FOXTROT_BONUSES[card] + worth + points + 2 * CARD_VALUE
        elif outcome == TAKES:  # a Jack, or a match under take = match
            value = worth + points + CARD_VALUE * (size + 1) - (JACK_COST if rank == JACK else 0)
        else:  # laid on the pile
            after = worth + points + CARD_VALUE * (size + 1)
            if after <= 0:
                value = 0.0
            elif take_any:
                value = -after
            else:
                value = -after * (1 - no_jack * miss[unseen[rank]])
        values[card] = value
    return values


def policy_move(state: State, rng: Draws, unseen: list[int], tempo: float = 0.0) -> int:
    """The default policy's action code for the player to move: the best ``move_values``,
    with a little jitter.

    The mover judges the next hand by the odds, from the cards he has not seen
    (``unseen`` counts the cards of each rank not seen face up), never by peeking.
    ``tempo`` points are added to every move that takes the pile: the searcher's own
    playout moves value the turn that taking gives (``ExpertBot``'s ``tempo``).
    """
    hands = state.hand_ids
    mover = state.turn
    next_size = len(hands[(mover + 1) % len(hands)])
    forced = state.options.forced_foxtrot
    return _choose(
        hands[mover], state.pile_ids, state.take_match, forced, next_size, rng, unseen, tempo
    )


def _choose(  # noqa: PLR0917 - the hot loop's one call a move
    hand: Sequence[int],
    pile: Sequence[int],
    take_match: bool,
    forced_foxtrot: bool,
    next_size: int,
    rng: Draws,
    unseen: list[int],
    tempo: float,
    next_hand: Sequence[int] | None = None,
    calm: bool = False,
) -> int:
    """``policy_move`` from the position's parts (``rollout`` reads them once a deal).

    With ``next_hand`` the mover values the moves by that hand (a sampled world's: the
    whole pool, so each chance is 0 or 1) instead of by the odds; ``calm`` plays without the
    jitter (its numbers are still drawn, so that every move reads the same ones)."""
    if forced_foxtrot:
        forced = foxtrot_card(hand, pile)  # the only legal move (X4)
        if forced >= 0:
            return forced
    if next_hand is not None:
        unseen = [0] * RANKS
        for card in next_hand:
            unseen[card >> 2] += 1
    else:
        unseen = unseen[:]
        for card in hand:
            unseen[card >> 2] -= 1
    values = move_values(hand, pile, not take_match, unseen, next_size)
    jitter = rng.random
    does = outcomes(pile, take_match) if tempo and pile else None
    best, best_value = TAKE_CODE, -1e9
    for code, value in values.items():
        if does is not None and (code == TAKE_CODE or does[code >> 2] != LAYS):
            value += tempo
        drawn = jitter()
        if not calm:
            value += NOISE * drawn
        if value > best_value:
            best_value, best = value, code
    return best


def rollout(
    state: State,
    rng: Draws,
    horizon: int = 1 << 30,
    unseen: list[int] | None = None,
    *,
    own: int = -1,
    tempo: float = 0.0,
    peek: int = 0,
    calm: bool = False,
) -> None:
    """Play the deal in progress with the default policy, to its end or ``horizon`` moves.

    ``unseen`` (updated in place) saves recounting ``unseen_by_rank(state)`` when the
    caller has it.  Seat ``own`` adds ``tempo`` to its taking moves (``policy_move``).
    ``peek`` 1: seat ``own`` values its moves by the next hand of this (sampled) world,
    2: every seat does; ``calm``: the other seats play without jitter (``_choose``)."""
    do = state.apply_code_unchecked
    if unseen is None:
        unseen = unseen_by_rank(state)
    # live views, the same lists until the deal ends (core.position): read once, not a move
    hands, pile = state.hand_ids, state.pile_ids
    take_match, forced = state.take_match, state.options.forced_foxtrot
    n = len(hands)
    while state.phase is _PLAYING and horizon > 0:
        mover = state.turn
        nxt = mover + 1 if mover + 1 < n else 0
        mine = mover == own
        code = _choose(
            hands[mover],
            pile,
            take_match,
            forced,
            len(hands[nxt]),
            rng,
            unseen,
            tempo if mine else 0.0,
            hands[nxt] if peek == 2 or (peek == 1 and mine) else None,
            calm and not mine,
        )
        if code != TAKE_CODE:
            unseen[code >> 2] -= 1
        do(code)
        horizon -= 1
