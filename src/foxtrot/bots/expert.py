"""The expert (level ``hard``): determinized Monte Carlo search over the hidden cards.

Every iteration deals the cards this seat cannot see at random, consistent
with its observation (``State.resample``: other hands keep their sizes, the
stock its size, every card seen stays where it was seen), and weighs that deal
by how well it explains the other players' moves (``inference``: a model of
sensible players; one who passed up a valuable take probably lacked the card
for it).  In that deal it tries every legal action and plays on with the fast
default policy (``rollout``) for three rounds, all actions with the same random numbers
(common random numbers: the actions are compared on the same futures).  The
reward is the seat's margin: its points minus the others' mean, at the end of
the deal or, at the horizon, of the points taken so far.  The action with the
best weighted mean margin is played.

Why this and not a deeper tree: from a position one deal's results spread by
well over 100 points, so a search that compares actions by separate samples
needs thousands of playouts per action before it sees a difference of a few
points.  Comparing all actions on the same deals and futures, and scoring
them a few moves ahead, brings that noise down to where the differences show.

The oracle runs the same search on the true state: it sees every card.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Sequence

from ..core import ACTIONS, Action, Observation, Phase, State
from ..core.kernel import CARD_POINTS, FOXTROT_BONUSES, TAKE_CODE
from .inference import Decision, decisions, log_likelihood
from .rollout import rollout, unseen_by_rank
from .values import CARD_VALUE

#: Rounds played past the action before scoring.  Under take = any who holds the tempo (taking
#: every lone card) decides a deal, and only whole rounds show it; under take = match, what
#: the others were shown to lack pays off over the next rounds too (mean deal margin over
#: greedy in 200 duplicate 2-player deals: one round +9 points, two +17, three +23).
ROUNDS = 3


def horizon(players: int) -> int:
    """How many moves a playout runs past the action before it is scored."""
    return ROUNDS * players


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """A search result: every legal action's mean deal margin in points, and the work done."""

    best: Action
    values: dict[Action, float]
    samples: int
    rollouts: int
    seconds: float


_WORTH = tuple(points + CARD_VALUE for points in CARD_POINTS)  # a taken card, by id


def margin(state: State, seat: int) -> float:
    """The seat's result minus the others' mean: deal scores once the deal is over, else the
    points taken so far (card points, foxtrot bonuses, a share of most cards per card)."""
    if state.phase is Phase.PLAYING:
        worth, bonus = _WORTH.__getitem__, FOXTROT_BONUSES.__getitem__
        scores = [
            sum(map(worth, taken)) + sum(map(bonus, foxtrots))
            for taken, foxtrots in zip(state._taken, state._foxtrots, strict=True)
        ]
    else:
        log = state._deals[-1]
        assert log.scores is not None
        scores = [line.total for line in log.scores]
    others = (sum(scores) - scores[seat]) / (len(scores) - 1)
    return scores[seat] - others


def search(
    root: State,
    seat: int,
    rng: random.Random,
    *,
    iterations: int,
    seconds: float | None,
    resample: bool,
    moves: Sequence[Decision],
    horizon: int,
) -> Analysis:
    """Determinized search from ``root`` for ``seat`` (hidden cards resampled if ``resample``)."""
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    codes = [action.code for action in root.legal_actions()]
    logs: list[float] = []  # per sample: how well it explains the others' moves
    margins: list[list[float]] = []  # per sample: each action's margin
    take_any = not root._match
    forced = root.options.forced_foxtrot
    while len(logs) < iterations and (len(logs) < 2 or time.perf_counter() < deadline):
        world = root.resample(seat, rng) if resample else root
        logs.append(log_likelihood(world._hands, moves, take_any, forced))
        seed = rng.getrandbits(64)
        unseen = unseen_by_rank(world)
        found = []
        for code in codes:
            state = world.clone()
            state._do(code)
            after = unseen[:]
            if code != TAKE_CODE:
                after[code >> 2] -= 1
            rollout(state, random.Random(seed), horizon, after)
            found.append(margin(state, seat))
        margins.append(found)
    top = max(logs)
    weights = [math.exp(log - top) for log in logs]
    total = sum(weights)
    values = {
        ACTIONS[code]: sum(w * row[i] for w, row in zip(weights, margins, strict=True)) / total
        for i, code in enumerate(codes)
    }
    best = max(values, key=lambda action: (values[action], -action.code))
    return Analysis(best, values, len(logs), len(logs) * len(codes), time.perf_counter() - start)


class ExpertBot:
    """Determinized search over the hidden cards, budgeted by samples and by time per move."""

    name = "expert"

    def __init__(
        self, iterations: int = 150, seconds: float | None = 0.9, horizon: int | None = None
    ) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon

    def analyse(self, obs: Observation, rng: random.Random) -> Analysis:
        """Search from ``obs``: the value of every legal action by expected deal margin."""
        if obs.phase is not Phase.PLAYING or obs.to_move != obs.seat:
            raise ValueError(f"seat {obs.seat} is not to move")
        state = State.from_observation(obs, rng)
        depth = self.horizon if self.horizon is not None else horizon(obs.players)
        return search(
            state,
            obs.seat,
            rng,
            iterations=self.iterations,
            seconds=self.seconds,
            resample=True,
            moves=decisions(obs),
            horizon=depth,
        )

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action of best expected margin."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(obs, rng).best


class OracleBot:
    """The same search on the true state: sees every card (for measurement only)."""

    name = "oracle"

    def __init__(
        self, iterations: int = 150, seconds: float | None = 0.9, horizon: int | None = None
    ) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon

    def choose_with_state(self, state: State, rng: random.Random) -> Action:
        """The action of best margin in a search that knows every card."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        assert seat is not None
        depth = self.horizon if self.horizon is not None else horizon(state.players)
        samples = max(1, self.iterations // 10)  # only the rollouts' own randomness to average
        return search(
            state,
            seat,
            rng,
            iterations=samples,
            seconds=self.seconds,
            resample=False,
            moves=(),
            horizon=depth,
        ).best
