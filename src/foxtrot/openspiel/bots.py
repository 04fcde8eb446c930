"""OpenSpiel's search bots as Foxtrot players (``--bots openspiel:ismcts,greedy``).

``OpenSpielBot(kind, simulations)`` is an honest ``Bot``: from the seat's
``Observation`` it builds a ``python_foxtrot`` state of the current deal
(``deals=1``, ``returns=margin``) whose hidden cards are dealt at random consistently
with the observation (``state_from_observation``), then asks OpenSpiel's Python bot:

- ``ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (it resamples the hidden
  cards itself at every simulation, with ``resample_from_infostate``);
- ``mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on that one sampled deal (a
  single determinization: it never sees the real hidden cards);

both with a random-rollout evaluator (one rollout to the end of the deal), UCT
constant 2 and ``simulations`` simulations a move (default 100).  The bot plays each
deal for its margin; it does not look at the match totals.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from ..core import ACTIONS, Action, Observation
from ..core.kernel import deal_order, redeal_size
from . import load
from .game import FoxtrotState, params_of
from .resample import ATTEMPTS, new_deck, split_rounds
from .track import DealTrack, Move

KINDS: Final = ("ismcts", "mcts")
SIMULATIONS: Final = 100
TAKE: Final = 52


def track_of(obs: Observation, rng: random.Random) -> DealTrack:
    """The current deal as ``obs.seat`` could have remembered it: the dealing rounds and
    the round of every move follow from the public moves; which of the seat's own cards
    came in which round is drawn (``split_rounds``)."""
    n = obs.players
    assert obs.upturned is not None
    hand = obs.options.hand_size
    sizes = [hand] * n
    stock = obs.options.deck_size - hand * n - 1
    rounds = [hand]
    moves: list[Move] = []
    mover = deal_order(obs.dealer, n)[0]
    for seat, action in obs.history:
        assert seat == mover
        moves.append(Move(seat, action.code, len(rounds) - 1))
        if action.code != TAKE:
            sizes[seat] -= 1
        mover = (mover + 1) % n
        if sizes[mover] == 0:
            each = redeal_size(stock, n, hand)
            stock -= each * n
            rounds.append(each)
            sizes = [size + each for size in sizes]
    own = [(m.round, m.code) for m in moves if m.seat == obs.seat and m.code != TAKE]
    own_split = split_rounds(own, [card.id for card in obs.hand], rounds, rng)
    track = DealTrack(dealer=obs.dealer, rounds=rounds, moves=moves, upturned=obs.upturned.id)
    track.received = [own_split if seat == obs.seat else [] for seat in range(n)]
    return track


def state_from_observation(obs: Observation, rng: random.Random) -> FoxtrotState:
    """A ``python_foxtrot`` state of the current deal (``deals=1``) that ``obs.seat``
    cannot tell from the real one: its hidden cards are dealt at random."""
    options = obs.options
    game = load(**params_of(options), dealer=obs.dealer)
    for _ in range(ATTEMPTS):
        track = track_of(obs, rng)
        deck = new_deck(options, track, obs.seat, rng)
        state: FoxtrotState = game.new_initial_state()
        for card in deck:
            state.apply_action(card)
        for _, action in obs.history:
            if action.code not in state.legal_actions():
                break  # forced_foxtrot: a sampled hand contradicts a move; draw again
            state.apply_action(action.code)
        else:
            return state
    raise ValueError(f"no deal consistent with seat {obs.seat}'s observation")


class OpenSpielBot:
    """An OpenSpiel search bot playing from its observation (see the module doc)."""

    def __init__(self, kind: str = "ismcts", simulations: int = SIMULATIONS) -> None:
        if kind not in KINDS:
            raise ValueError(f"openspiel bot: unknown {kind!r} (expected {', '.join(KINDS)})")
        if type(simulations) is not int or simulations < 1:
            raise ValueError(f"openspiel bot: {simulations!r} simulations is not a positive number")
        self.kind = kind
        self.simulations = simulations
        self.name = f"openspiel:{kind}:{simulations}"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The search's move (``legal`` has one action: that one, without a search)."""
        if len(legal) == 1:
            return legal[0]
        from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415 (heavy)

        state = state_from_observation(obs, rng)
        seeds = np.random.RandomState(rng.randrange(2**32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=seeds)
        game = state.get_game()
        searcher: Any
        if self.kind == "ismcts":
            searcher = ismcts.ISMCTSBot(
                game=game,
                evaluator=evaluator,
                uct_c=2.0,
                max_simulations=self.simulations,
                random_state=seeds,
            )
        else:
            searcher = mcts.MCTSBot(game, 2.0, self.simulations, evaluator, random_state=seeds)
        chosen = ACTIONS[int(searcher.step(state))]
        if chosen not in legal:
            raise ValueError(f"{self.name} chose {chosen}, which is not legal")
        return chosen


def parse(name: str) -> OpenSpielBot:
    """``openspiel:ismcts`` or ``openspiel:mcts:200`` (kind, then simulations a move)."""
    parts = name.split(":")
    if parts[0] != "openspiel" or not 2 <= len(parts) <= 3:
        raise ValueError(f"{name!r}: expected openspiel:KIND or openspiel:KIND:SIMULATIONS")
    simulations = SIMULATIONS
    if len(parts) == 3:
        if not parts[2].isdigit():
            raise ValueError(f"{name!r}: simulations must be a whole number")
        simulations = int(parts[2])
    return OpenSpielBot(parts[1], simulations)


__all__ = ["KINDS", "OpenSpielBot", "parse", "state_from_observation", "track_of"]
