"""The expert (level ``hard``): information-set Monte Carlo tree search over the hidden cards.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every
iteration deals the cards this seat cannot see at random, consistent with
its observation (``State.resample``: other hands keep their sizes, the stock
its size), walks the one shared tree, choosing among the actions available in
that determinization by UCB with availability counts, adds one node, plays the
deal out with the fast default policy (``rollout``), and backs up each
player's deal result.  The reward of a player is his deal score minus the mean
of the others', in points: search maximizes the expected margin of the deal.

The oracle runs the same search on the true state: it sees every card.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Sequence

from ..core import ACTIONS, Action, Observation, Phase, State
from .rollout import rollout

EXPLORATION = 0.7  # UCB constant, in units of SCALE
SCALE = 40.0  # rewards are deal-score margins divided by this


class Node:
    """A tree node: the move into it was made by ``player``; rewards are from his side."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """A search result: for every root action, its visits and mean deal margin in points."""

    best: Action
    visits: dict[Action, int]
    values: dict[Action, float]
    iterations: int
    seconds: float


def _margins(state: State) -> list[float]:
    scores = [line.total for line in state._deals[-1].scores or ()]
    total = sum(scores)
    n = len(scores)
    return [(s - (total - s) / (n - 1)) / SCALE for s in scores]


def search(root_state: State, seat: int, rng: random.Random, *, iterations: int,
           seconds: float | None, resample: bool) -> Analysis:
    """ISMCTS from ``root_state`` for ``seat``; hidden cards are resampled when ``resample``."""
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    root = Node(-1)
    done = 0
    while done < iterations and (done & 15 or time.perf_counter() < deadline):
        state = root_state.resample(seat, rng) if resample else root_state.clone()
        node = root
        path = [root]
        while state.phase is Phase.PLAYING:
            mover = state._to_move
            legal = [action.code for action in state.legal_actions()]
            children = node.children
            fresh = [code for code in legal if code not in children]
            if fresh:
                code = fresh[int(rng.random() * len(fresh))]
                child = children[code] = Node(mover)
                for other in legal:
                    if other != code and other in children:
                        children[other].avail += 1
                state._do(code)
                path.append(child)
                break
            best_score = -math.inf
            best_code = legal[0]
            for other in legal:
                child = children[other]
                child.avail += 1
                log_avail = math.log(child.avail)
                score = child.reward / child.visits + EXPLORATION * math.sqrt(
                    log_avail / child.visits)
                if score > best_score:
                    best_score, best_code = score, other
            node = children[best_code]
            state._do(best_code)
            path.append(node)
        if state.phase is Phase.PLAYING:
            rollout(state, rng)
        margins = _margins(state)
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += margins[visited.player]
        done += 1
    visits = {ACTIONS[code]: child.visits for code, child in root.children.items()}
    values = {ACTIONS[code]: child.reward / child.visits * SCALE
              for code, child in root.children.items() if child.visits}
    best = max(visits, key=lambda action: (visits[action], values.get(action, -math.inf)))
    return Analysis(best, visits, values, done, time.perf_counter() - start)


class ExpertBot:
    """ISMCTS over the hidden cards, with a budget of iterations and of time per move."""

    name = "expert"

    def __init__(self, iterations: int = 2000, seconds: float | None = 0.9) -> None:
        self.iterations = iterations
        self.seconds = seconds

    def analyse(self, obs: Observation, rng: random.Random) -> Analysis:
        """Search from ``obs``: the value of every legal action by expected deal margin."""
        if obs.phase is not Phase.PLAYING or obs.to_move != obs.seat:
            raise ValueError(f"seat {obs.seat} is not to move")
        state = State.from_observation(obs, rng)
        return search(state, obs.seat, rng, iterations=self.iterations, seconds=self.seconds,
                      resample=True)

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The most visited action of the search."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(obs, rng).best


class OracleBot:
    """The same search on the true state: sees every card (for measurement only)."""

    name = "oracle"

    def __init__(self, iterations: int = 2000, seconds: float | None = 0.9) -> None:
        self.iterations = iterations
        self.seconds = seconds

    def choose_with_state(self, state: State, rng: random.Random) -> Action:
        """The most visited action of a search that knows every card."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        assert seat is not None
        return search(state, seat, rng, iterations=self.iterations, seconds=self.seconds,
                      resample=False).best
