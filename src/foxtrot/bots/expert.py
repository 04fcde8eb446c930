"""The expert (level ``hard``): determinized Monte Carlo search over the hidden cards.

Every iteration deals the cards this seat cannot see at random, consistent
with its observation (``State.resample``: other hands keep their sizes, the
stock its size, every card seen stays where it was seen), and weighs that deal
by how well it explains the other players' moves (``inference``: a model of
sensible players; one who passed up a valuable take probably lacked the card
for it).  In that deal it tries every legal action and plays on with the fast
default policy (``rollout``) for three rounds, or to the end of the deal at the large
budgets the compiled kernel affords (``horizon``), all actions with the same random
numbers (common random numbers: the actions are compared on the same futures).  The
reward is the seat's margin: its points minus the others' mean, at the end of
the deal or, at the horizon, of the points taken so far (with a ``stake``, plus the chance
to win the match from the totals the deal leaves, ``match_odds``).  The action with the
best weighted mean reward is played.  With two players under ``take = any`` the seat's own
playout moves value the turn that taking the pile gives (``tempo``): there the taker gets
every card the other lays, and greedy, the default policy, leaves a pile that holds the
Queen of spades to the other player.

Why this and not a deeper tree: from a position one deal's results spread by
well over 100 points, so a search that compares actions by separate samples
needs thousands of playouts per action before it sees a difference of a few
points.  Comparing all actions on the same deals and futures, and scoring
them a few moves ahead, brings that noise down to where the differences show.

The opponent model's weights are tempered (``temper``): raised to the largest
power λ ≤ 1 that keeps the effective sample size at least ``ESS_SHARE`` of the
samples.  The model is only a model; at full strength a few deals that happen
to fit the others' moves best carry nearly all the weight, and the mean margin
becomes the margin of a couple of deals: noise.

Near the end of a two-player deal, once the stock can no longer be dealt, the hidden cards are
one of a few deals: then the expert solves each of them exactly instead of sampling
(``endgame``; ``Analysis.solved``), unless made with ``endgame=False`` (for measurement).

The oracle runs the same search on the true state: it sees every card.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence

from .. import fast
from ..core import ACTIONS, Action, Observation, Phase, SplitMix64, State, TakeRule
from ..core.kernel import CARD_POINTS, FOXTROT_BONUSES, TAKE_CODE
from .endgame import solve_observation
from .inference import RATIONALITY, SURPRISE, Decision, decisions, log_likelihood
from .match_odds import PACE, win_chance
from .rollout import rollout, unseen_by_rank
from .styles import read
from .values import CARD_VALUE, JACK_COST, NOISE

#: Rounds played past the action before scoring at small budgets.  Under take = any who holds
#: the tempo (taking every lone card) decides a deal, and only whole rounds show it; under take =
#: match, what the others were shown to lack pays off over the next rounds too (150 samples a
#: move, mean deal margin over greedy in 200 duplicate 2-player deals: one round +9 points, two
#: +17, three +23).
ROUNDS = 3
#: From this many samples a move, playouts run to the end of the deal: a longer playout is a
#: noisier sample, and with ten times the samples (the compiled kernel's budget) the whole deal
#: measured better than three rounds (docs/reports/strength.md).
WHOLE_DEAL_SAMPLES = 1500
TO_THE_END = 1 << 30
#: Level ``hard``: samples and seconds a move (an opponent: the p95 decision under 1 s with the
#: compiled kernel, where the samples always come before the seconds).
HARD_ITERATIONS, HARD_SECONDS = 1500, 0.9
#: Level ``expert``: for hints, reviews and analysis, where a few seconds are welcome.
EXPERT_ITERATIONS, EXPERT_SECONDS = 5000, 5.0
#: The levels' samples without the compiled kernel (``foxtrot.bots.budget``): pure Python plays
#: a twentieth of the kernel's samples in the same time, and 1500 samples to the end of the deal
#: would take it 10-100 s a move; capped at 0.9 s it would play far fewer samples than these.
PURE_HARD_ITERATIONS, PURE_EXPERT_ITERATIONS = 150, 1000


def horizon(players: int, iterations: int = HARD_ITERATIONS) -> int:
    """How many moves a playout runs past the action before it is scored: three rounds at
    small budgets, to the end of the deal from ``WHOLE_DEAL_SAMPLES`` samples a move."""
    return TO_THE_END if iterations >= WHOLE_DEAL_SAMPLES else ROUNDS * players


#: At 2 players under take = any: the points the searcher's own playout moves add to taking the
#: pile.  The taker there takes every card the other lays next, so the turn is worth more than
#: a Queen of spades' -20; greedy's policy, blind to it, leaves such a pile to the other player
#: (2 players, 60 duplicate deals at 500 samples: +44 ± 24 points a deal; docs/reports/strength.md).
TEMPO_TWO_ANY = 30.0


def default_tempo(players: int, take_any: bool) -> float:
    """The ``tempo`` of a table: ``TEMPO_TWO_ANY`` at 2 players under take = any, else 0 (at 4
    players under take = any, 30 decks: +4.7 ± 10.9 points a deal; not adopted)."""
    return TEMPO_TWO_ANY if players == 2 and take_any else 0.0


#: The least effective sample size the tempered weights may leave, as a share of the samples.
ESS_SHARE = 1 / 3


def effective_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size, ``(sum w)^2 / sum w^2``: how many equally weighted
    samples would give an estimate as steady as these weighted ones (``n`` if all equal)."""
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return total * total / squares if squares > 0 else 0.0


def tempered(logs: Sequence[float], power: float) -> list[float]:
    """The weights ``exp(power * (log - max))``: the largest is 1, so nothing overflows."""
    top = max(logs)
    return [math.exp(power * (log - top)) for log in logs]


def tempering_power(logs: Sequence[float], share: float = ESS_SHARE, steps: int = 24) -> float:
    """The largest power ``λ <= 1`` (to ``2**-steps``) whose weights ``exp(λ * (log - max))``
    keep an effective sample size of at least ``share`` of the samples.

    Bisection finds it because the effective size never grows with λ: the
    derivative of its log is ``2 (E_λ[log] - E_2λ[log])``, and the weighted mean
    log-likelihood only grows with the power.  λ = 0 gives every sample the same
    weight (effective size ``n``), so a λ that meets the bound always exists.
    """
    floor = share * len(logs)
    if not logs or effective_size(tempered(logs, 1.0)) >= floor:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(steps):
        mid = (low + high) / 2
        if effective_size(tempered(logs, mid)) >= floor:
            low = mid
        else:
            high = mid
    return low


def temper(logs: Sequence[float], share: float = ESS_SHARE) -> list[float]:
    """The weights of samples of these log-likelihoods, tempered (``tempering_power``)."""
    return tempered(logs, tempering_power(logs, share)) if logs else []


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """A search result: every legal action's value (its mean deal margin in points; with a
    ``stake``, plus that many points times its chance to win the match: ``search``), and
    the work done.

    ``solved`` is 0 for a sampling search; otherwise the endgame was solved (``endgame``):
    1 when the hidden cards were determined and the values are exact, more when that many
    consistent deals were each solved exactly and weighed (then ``samples`` counts the deals
    and ``rollouts`` the positions searched).
    """

    best: Action
    values: dict[Action, float]
    samples: int
    rollouts: int
    seconds: float
    solved: int = 0

    @property
    def exact(self) -> bool:
        """The position was determined and solved: the values are exact, not estimates."""
        return self.solved == 1


def solved(
    obs: Observation,
    stake: float = 0.0,
    share: float = ESS_SHARE,
    model: tuple[float, float] = (RATIONALITY, SURPRISE),
) -> Analysis | None:
    """The endgame solved from ``obs`` (``endgame.solve_observation``, its deals weighed by the
    opponent model tempered as the search's samples are), or ``None``: not an endgame the
    solver takes, or over its node budget (then the expert samples).  ``model``: the opponent
    model's rationality and surprise (``search``)."""
    start = time.perf_counter()
    found = solve_observation(
        obs,
        stake=stake,
        weigh=lambda logs: temper(logs, share) if share > 0 else tempered(logs, 1.0),
        model=model,
    )
    if found is None:
        return None
    seconds = time.perf_counter() - start
    return Analysis(found.best, found.values, found.deals, found.nodes, seconds, found.deals)


#: The weights the compiled kernel's policy and model use: these bots' own (``fast.Weights``).
KERNEL_WEIGHTS = fast.Weights(CARD_VALUE, JACK_COST, NOISE, RATIONALITY, SURPRISE)

_WORTH = tuple(points + CARD_VALUE for points in CARD_POINTS)  # a taken card, by id


def seat_scores(state: State) -> list[float]:
    """Every seat's result: its deal score once the deal is over, else the points it has
    taken so far (card points, foxtrot bonuses, a share of most cards per card)."""
    if state.phase is Phase.PLAYING:
        worth, bonus = _WORTH.__getitem__, FOXTROT_BONUSES.__getitem__
        return [
            sum(map(worth, taken)) + sum(map(bonus, foxtrots))
            for taken, foxtrots in zip(state.taken_ids, state.foxtrot_ids, strict=True)
        ]
    log = state.deal_logs()[-1]
    assert log.scores is not None
    return [float(line.total) for line in log.scores]


def margin_of(scores: Sequence[float], seat: int, rival: float = 0.0) -> float:
    """The seat's score minus the others' mean (``seat_scores``).

    With ``rival`` above 0 the others count as ``(1 - rival) * mean + rival * best``: at
    more than two players a point given to one rival costs more than his share of the mean
    (an experiment)."""
    mine = scores[seat]
    others = (sum(scores) - mine) / (len(scores) - 1)
    if rival:
        best = max(score for index, score in enumerate(scores) if index != seat)
        others = (1 - rival) * others + rival * best
    return mine - others


def margin(state: State, seat: int, rival: float = 0.0) -> float:
    """The seat's margin over the others in this state (``seat_scores``, ``margin_of``)."""
    return margin_of(seat_scores(state), seat, rival)


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
    share: float = ESS_SHARE,
    pool: int = 1,
    rival: float = 0.0,
    stake: float = 0.0,
    tempo: float = 0.0,
    peek: int = 0,
    calm: bool = False,
    model: tuple[float, float] = (RATIONALITY, SURPRISE),
) -> Analysis:
    """Determinized search from ``root`` for ``seat`` (hidden cards resampled if ``resample``).

    ``share`` bounds the tempering of the weights (``temper``; 0: none, the model's
    own weights).  With ``pool`` above 1 each sample is the pick of ``pool`` drawn
    deals, chosen in proportion to the model's weight (rollouts go to deals that
    explain the others' moves), and weighs the mean weight of its pool, which keeps
    the estimate the same in expectation (importance sampling with a resampled
    proposal): a sharper sampler when few deals fit.  ``rival`` scores against the best
    other seat rather than the others' mean (``margin_of``).  Neither
    measured better than the defaults at 4 players, take = match: ``rival`` in played deals
    (``benchmarks/strength_deals.py``), ``pool`` 8 and 32 at 1,500 samples decision by
    decision (``benchmarks/strength_judged.py``, docs/reports/strength.md).

    ``stake`` above 0 plays for the match too: an action's value is its margin plus
    ``stake`` points times its chance to win the match after the deal
    (``match_odds.win_chance`` of the totals plus each sample's deal scores; outright only if
    the playouts run to the end of the deal); ``math.inf`` values the chance alone, with the
    margin to break ties.  ``tempo`` points are added to the seat's own playout moves that take
    the pile (``rollout.policy_move``; ``default_tempo``).  ``peek`` and ``calm`` switch the
    playouts' policy (``rollout.rollout``): with ``peek`` 1 the seat's own playout moves value
    the next hand of the sampled world rather than the odds (a sampled card, never a real
    hidden one), with 2 every seat's do; ``calm`` plays the other seats without jitter.
    ``model`` is the opponent model's rationality and surprise (``styles``: a table's reading).
    """
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else math.inf
    codes = [action.code for action in root.legal_actions()]
    # the search's own stream, from one draw of the caller's: the compiled kernel draws the
    # same numbers from its twin, whatever generator the caller holds (core.rng)
    stream = SplitMix64(rng.getrandbits(64))
    # per sample: how well it explains the others' moves, and every seat's score after each
    # action; computed by the compiled kernel if installed (the same numbers), else below
    # rival 0 and no stake: the kernel weighs its samples too (the same arithmetic)
    plain = not rival and not stake and share > 0
    logs, scores, weighed = fast.samples(
        root,
        seat,
        stream,
        codes,
        iterations=iterations,
        deadline=deadline,
        resample=resample,
        moves=moves,
        horizon=horizon,
        weights=KERNEL_WEIGHTS._replace(
            rationality=model[0],
            surprise=model[1],
            own=float(seat),
            peek=float(peek),
            calm=float(calm),
        ),
        pool=pool,
        tempo=tempo,
        share=share if plain else None,
    )
    take_any = not root.take_match
    forced = root.options.forced_foxtrot

    def draw() -> tuple[State, float]:
        world = root.resample(seat, stream)
        return world, log_likelihood(
            world.hand_ids, moves, take_any, forced, rationality=model[0], surprise=model[1]
        )

    while (
        weighed is None  # the kernel stops only at the deadline, as this loop would
        and len(logs) < iterations
        and (len(logs) < 2 or time.perf_counter() < deadline)
    ):
        if pool > 1 and resample and moves:
            world, log = _pick(draw, pool, stream)
        else:
            world, log = draw() if resample else (root, 0.0)
        logs.append(log)
        jitter = SplitMix64(stream.getrandbits(64))  # the playouts' own stream this sample
        drawn: list[float] = []
        unseen = unseen_by_rank(world)
        found = []
        for code in codes:
            state = world.clone()
            state.apply_code_unchecked(code)
            after = unseen[:]
            if code != TAKE_CODE:
                after[code >> 2] -= 1
            rollout(
                state,
                _Replay(drawn, jitter),
                horizon,
                after,
                own=seat,
                tempo=tempo,
                peek=peek,
                calm=calm,
            )
            found.append(seat_scores(state))
        scores.append(found)
    if weighed is not None:
        best = max(range(len(codes)), key=lambda i: (weighed[i], weighed[i], -codes[i]))
        values = {ACTIONS[code]: weighed[i] for i, code in enumerate(codes)}
        seconds = time.perf_counter() - start
        return Analysis(ACTIONS[codes[best]], values, len(logs), len(logs) * len(codes), seconds)
    weights = temper(logs, share) if share > 0 else tempered(logs, 1.0)
    total = sum(weights)

    def mean(value: Callable[[list[float]], float]) -> list[float]:
        """Each action's weighted mean of ``value`` of the seats' scores."""
        return [
            sum(w * value(sample[i]) for w, sample in zip(weights, scores, strict=True)) / total
            for i in range(len(codes))
        ]

    margins = mean(lambda row: margin_of(row, seat, rival))
    goals = margins
    if stake > 0:
        totals, target = root.totals, root.options.target
        final = horizon >= TO_THE_END
        pace = PACE[root.players, take_any]
        chances = mean(
            lambda row: win_chance(
                [t + s for t, s in zip(totals, row, strict=True)],
                seat,
                target,
                final=final,
                pace=pace,
            )
        )
        goals = (
            chances
            if math.isinf(stake)
            else [m + stake * c for m, c in zip(margins, chances, strict=True)]
        )
    best = max(range(len(codes)), key=lambda i: (goals[i], margins[i], -codes[i]))
    values = {ACTIONS[code]: goals[i] for i, code in enumerate(codes)}
    return Analysis(
        ACTIONS[codes[best]], values, len(logs), len(logs) * len(codes), time.perf_counter() - start
    )


class _Replay:
    """A sample's jitter for one action's playout: every action of a sample plays with the
    same numbers, drawn once from the sample's stream and replayed (as the compiled kernel
    memoises them, ``fast._playout.Jitter``): a Python ``SplitMix64`` draw costs ~0.4 µs, a
    replayed one a list read."""

    __slots__ = ("random",)

    def __init__(self, drawn: list[float], stream: SplitMix64) -> None:
        self.random = _replayed(drawn, stream).__next__


def _replayed(drawn: list[float], stream: SplitMix64) -> Iterator[float]:
    """``drawn``'s numbers, then ``stream``'s next ones, kept in ``drawn`` for the next action."""
    yield from drawn[:]
    while True:
        drawn.append(value := stream.random())
        yield value


def _pick(
    draw: Callable[[], tuple[State, float]], pool: int, rng: random.Random
) -> tuple[State, float]:
    """One of ``pool`` deals from ``draw`` (each with its log-likelihood), picked in
    proportion to the model's weight, and the log of the pool's mean weight (``search``)."""
    drawn = [draw() for _ in range(pool)]
    weights = tempered([log for _, log in drawn], 1.0)
    total = sum(weights)
    point = rng.random() * total
    chosen = pool - 1
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0:
            chosen = index
            break
    top = max(log for _, log in drawn)
    return drawn[chosen][0], top + math.log(total / pool)


class ExpertBot:
    """Determinized search over the hidden cards, budgeted by samples and by time per move."""

    name = "expert"

    def __init__(
        self,
        iterations: int = HARD_ITERATIONS,
        seconds: float | None = HARD_SECONDS,
        horizon: int | None = None,
        *,
        share: float = ESS_SHARE,
        pool: int = 1,
        rival: float = 0.0,
        stake: float = 0.0,
        tempo: float | None = None,
        peek: int = 0,
        calm: bool = False,
        endgame: bool = True,
        reads: bool = False,
    ) -> None:
        if peek not in {0, 1, 2}:
            raise ValueError(f"peek: {peek!r} is not 0, 1 (the own seat's moves) or 2 (all)")
        if tempo is not None and not 0 <= tempo < math.inf:
            raise ValueError(f"tempo: {tempo!r} is not a finite number of points of at least 0")
        if not stake >= 0:
            raise ValueError(f"stake: {stake!r} is not a number of points of at least 0")
        if not 0 <= share <= 1:
            raise ValueError(f"share: {share!r} is not between 0 and 1")
        if pool < 1:
            raise ValueError(f"pool: {pool!r} is not at least 1")
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon
        self.share = share
        self.pool = pool
        self.rival = rival
        self.stake = stake
        self.tempo = tempo
        self.peek = peek
        self.calm = bool(calm)
        self.endgame = bool(endgame)
        self.reads = bool(reads)

    def analyse(self, obs: Observation, rng: random.Random) -> Analysis:
        """Search from ``obs``: the value of every legal action (``search``: its expected deal
        margin, with ``stake`` its chance to win the match too), or the endgame solved
        (``solved``) when it can be, before any sampling, on either path of the search."""
        if obs.phase is not Phase.PLAYING or obs.to_move != obs.seat:
            raise ValueError(f"seat {obs.seat} is not to move")
        seconds = self.seconds
        moves, model = decisions(obs), (RATIONALITY, SURPRISE)
        if self.reads:  # each other player's style, from the hands he played out (``styles``)
            reading = read(obs)
            moves = [move for move in moves if move.seat not in reading.ignored]
            model = (reading.style.rationality, reading.style.surprise)
        if self.endgame:
            start = time.perf_counter()
            if (found := solved(obs, self.stake, self.share, model)) is not None:
                return found
            if seconds is not None:  # over the node budget: the search has the rest of the time
                seconds = max(0.0, seconds - (time.perf_counter() - start))
        state = State.from_observation(obs, rng)
        depth = self.horizon if self.horizon is not None else horizon(obs.players, self.iterations)
        return search(
            state,
            obs.seat,
            rng,
            iterations=self.iterations,
            seconds=seconds,
            resample=True,
            moves=moves,
            horizon=depth,
            share=self.share,
            pool=self.pool,
            rival=self.rival,
            stake=self.stake,
            tempo=(
                self.tempo
                if self.tempo is not None
                else default_tempo(obs.players, obs.options.take is TakeRule.ANY)
            ),
            peek=self.peek,
            calm=self.calm,
            model=model,
        )

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action of best expected margin."""
        if len(legal) == 1:
            return legal[0]
        return self.analyse(obs, rng).best


#: What the oracle may see besides the public cards and its own hand: every card, the other
#: hands but not the stock, the next seat's hand only, or nothing (``OracleBot``).
SEES = ("all", "hands", "next", "none")


class OracleBot:
    """The same search on the true state: sees every card (for measurement only).

    With ``sees`` other than ``"all"`` it sees only part of the hidden cards (``SEES``): each
    of its ``iterations`` samples (as many as the expert's) deals the rest at random
    (``State.from_observation`` with those hands shown), weighs the deal by the others' moves
    as the expert does (``inference``, tempered), and plays one playout an action in it.  A
    measuring device: how much of the oracle's edge seeing the others' hands is worth, and how
    much the stock's order, which no player can infer.  ``"none"`` is an honest player built
    the same way, the check that the device itself costs nothing.
    """

    name = "oracle"

    def __init__(
        self,
        iterations: int = 150,
        seconds: float | None = 0.9,
        horizon: int | None = None,
        *,
        sees: str = "all",
    ) -> None:
        if sees not in SEES:
            raise ValueError(f"sees: {sees!r} is not one of {', '.join(SEES)}")
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon
        self.sees = sees

    def choose_with_state(self, state: State, rng: random.Random) -> Action:
        """The action of best margin in a search that knows every card (or ``sees``'s)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        assert seat is not None
        depth = (
            self.horizon if self.horizon is not None else horizon(state.players, self.iterations)
        )
        if self.sees == "all":
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
        return self._partial(state, seat, legal, rng, depth)

    def _partial(
        self, state: State, seat: int, legal: list[Action], rng: random.Random, depth: int
    ) -> Action:
        """``iterations`` deals of the cards it does not see, one playout an action in each."""
        players = state.players
        shown = {
            "hands": [s for s in range(players) if s != seat],
            "next": [(seat + 1) % players],
            "none": [],
        }[self.sees]
        obs = state.observation(seat)
        known = {s: state.hand(s) for s in shown}
        moves = decisions(obs) if len(shown) < players - 1 else []
        take_any, forced = not state.take_match, state.options.forced_foxtrot
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        logs: list[float] = []
        rows: list[dict[Action, float]] = []
        while len(rows) < self.iterations and (len(rows) < 2 or time.perf_counter() < deadline):
            world = State.from_observation(obs, rng, shown=known)
            logs.append(log_likelihood(world.hand_ids, moves, take_any, forced))
            found = search(
                world,
                seat,
                rng,
                iterations=1,
                seconds=None,
                resample=False,
                moves=(),
                horizon=depth,
            )
            rows.append(found.values)
        weights = temper(logs)
        return max(
            legal,
            key=lambda a: (
                sum(w * row[a] for w, row in zip(weights, rows, strict=True)),
                -a.code,
            ),
        )
