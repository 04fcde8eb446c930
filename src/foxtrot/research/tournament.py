"""Tournaments between bots: whole matches, seated fairly, reproducible, on several processes.

Why it is built this way:

- **Lineups.**  With more bots than seats (3 bots, 2 players) every combination
  of bots is a lineup (a round robin: ``itertools.combinations``), and each
  lineup plays ``matches`` deal sequences.  With as many bots as seats there is
  one lineup.  With fewer bots than seats the bots are repeated in turn to fill
  the table (``hard,greedy`` at 4 players: hard, greedy, hard, greedy); a bot
  holding two seats is still one entrant in the results.
- **Seats.**  Who sits after whom matters, so the seats are rotated: match ``m``
  of a lineup sits its bots rotated by ``m mod R``, where R is the number of
  distinct rotations of the lineup (``players``, or fewer when bots repeat:
  hard, greedy, hard, greedy has 2).  With ``duplicate`` every deal sequence is
  played once per distinct rotation instead: the same shuffled decks in the
  same order, each bot in every seat once, so the luck of the cards cancels
  out.  ``matches`` counts deal sequences, so a duplicate tournament plays R
  times as many matches.
- **Determinism.**  A match's deal generator (the lot for the first dealer,
  then one shuffle per deal) comes from (seed, lineup, match) only, never from
  the rotation, which is what makes duplicate rotations see the same decks.
  Each bot's generator comes from (seed, lineup, match, rotation, seat).  So
  the same seed gives the same games whatever the number of processes, as long
  as the bots themselves are deterministic: an expert with a time budget stops
  its search by the clock, so only ``seconds=0`` (iterations only) makes it
  repeatable.
- **Processes.**  Each match is an independent task (``GameTask``, picklable)
  run by ``play_game`` in a ``ProcessPoolExecutor``; results come back in task
  order.  ``jobs=1`` runs in this process, with no pool.
- **Timing.**  Every call of ``decide`` is timed with ``time.perf_counter``,
  forced moves (one legal action) included.

The statistics of the results are in ``research.results`` and ``research.stats``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import random
import signal
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Protocol

from ..bots import (
    Bot,
    CheatingBot,
    decide,
    decide_oracle,
)
from ..core import Phase, SplitMix64, State, TableOptions
from .entrants import POLICY, SEARCH_BOTS, BotSpec, parse_bots
from .results import GameResult, TournamentResults, summarize


class Backend(Protocol):
    """Plays tasks and yields their results in task order (``research.backends``)."""

    @property
    def name(self) -> str:
        """``processes`` or ``ray``, for the report."""
        ...

    def play(self, todo: Sequence[GameTask]) -> Generator[GameResult, None, None]:
        """One result per task, in the order of ``todo``."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What to play: the entrants, the table, deal sequences per lineup, seed, duplicate."""

    bots: tuple[BotSpec, ...]
    options: TableOptions = dataclasses.field(default_factory=TableOptions)
    matches: int = 100
    seed: int = 0
    duplicate: bool = False

    def __post_init__(self) -> None:
        if len(self.bots) < 2:
            raise ValueError("a tournament needs at least two bots")
        if len({spec.label for spec in self.bots}) != len(self.bots):
            raise ValueError("every bot needs its own label")
        if self.matches < 1:
            raise ValueError("matches must be at least 1")

    @property
    def lineups(self) -> list[tuple[int, ...]]:
        """The bots (by index) at each table, in seat order before rotation."""
        return lineups(len(self.bots), self.options.players)

    @property
    def games(self) -> int:
        """How many matches the tournament plays."""
        per_sequence = (
            sum(rotations(lineup) for lineup in self.lineups)
            if self.duplicate
            else len(self.lineups)
        )
        return self.matches * per_sequence


def lineups(bots: int, players: int) -> list[tuple[int, ...]]:
    """Every lineup of ``bots`` entrants at a table of ``players`` seats (see the module doc).

    Examples:
        >>> lineups(3, 2)
        [(0, 1), (0, 2), (1, 2)]
        >>> lineups(2, 4)
        [(0, 1, 0, 1)]
    """
    if bots > players:
        return list(itertools.combinations(range(bots), players))
    return [tuple(seat % bots for seat in range(players))]


def seating(lineup: Sequence[int], rotation: int) -> tuple[int, ...]:
    """The lineup rotated: seat ``s`` gets the bot of seat ``s + rotation``.

    Examples:
        >>> seating((0, 1, 2), 1)
        (1, 2, 0)
    """
    n = len(lineup)
    return tuple(lineup[(seat + rotation) % n] for seat in range(n))


def rotations(lineup: Sequence[int]) -> int:
    """How many rotations of ``lineup`` seat the bots differently (its smallest period).

    Examples:
        >>> rotations((0, 1, 2)), rotations((0, 1, 0, 1)), rotations((0, 1, 0, 2))
        (3, 2, 4)
    """
    n = len(lineup)
    return next(r for r in range(1, n + 1) if n % r == 0 and seating(lineup, r) == tuple(lineup))


def deal_rng(seed: int, lineup: int, match: int) -> random.Random:
    """The generator of a match's lot and shuffles: not of the rotation (duplicate)."""
    return SplitMix64(f"foxtrot-tournament:{seed}:deals:{lineup}:{match}")


def bot_rng(seed: int, lineup: int, match: int, rotation: int, seat: int) -> random.Random:
    """The generator of one bot in one match."""
    return SplitMix64(f"foxtrot-tournament:{seed}:bot:{lineup}:{match}:{rotation}:{seat}")


@dataclasses.dataclass(frozen=True, slots=True)
class GameTask:
    """One match to play, with everything a worker process needs to play it alone."""

    options: TableOptions
    players: tuple[BotSpec, ...]  # the entrant in each seat
    seats: tuple[int, ...]  # the entrant index of each seat
    seed: int
    lineup: int
    match: int
    rotation: int


def tasks(config: TournamentConfig) -> list[GameTask]:
    """Every match of the tournament, in the order of the results."""
    found = []
    for index, lineup in enumerate(config.lineups):
        for match in range(config.matches):
            distinct = rotations(lineup)
            for rotation in range(distinct) if config.duplicate else (match % distinct,):
                seats = seating(lineup, rotation)
                found.append(
                    GameTask(
                        config.options,
                        tuple(config.bots[i] for i in seats),
                        seats,
                        config.seed,
                        index,
                        match,
                        rotation,
                    )
                )
    return found


def play_match(
    options: TableOptions,
    players: Sequence[Bot | CheatingBot],
    deals: random.Random,
    rngs: Sequence[random.Random],
) -> tuple[State, list[list[float]]]:
    """A whole match to the target: the first dealer by lot and every shuffle from ``deals``,
    each move from ``decide`` with the seat's generator (the oracle: ``decide_oracle``, on
    a clone of the state); also the seconds of every decision, per seat."""
    state = State(options, rng=deals)
    times: list[list[float]] = [[] for _ in players]
    clock = time.perf_counter
    while not state.is_over:
        state.deal(deals)
        while state.phase is Phase.PLAYING:
            seat = state.to_move
            assert seat is not None
            start = clock()
            player = players[seat]
            if isinstance(player, CheatingBot):
                action = decide_oracle(player, state, rngs[seat])
            else:
                action = decide(player, state, rngs[seat])
            times[seat].append(clock() - start)
            state.apply_unchecked(action)  # decide has checked it
    return state, times


def play_game(task: GameTask) -> GameResult:
    """Play one task (in a worker process or here) and keep what the statistics need."""
    n = task.options.players
    state, times = play_match(
        task.options,
        [spec.build() for spec in task.players],
        deal_rng(task.seed, task.lineup, task.match),
        [bot_rng(task.seed, task.lineup, task.match, task.rotation, seat) for seat in range(n)],
    )
    logs = state.deal_logs()
    assert state.winner is not None and state.lot is not None
    return GameResult(
        lineup=task.lineup,
        match=task.match,
        rotation=task.rotation,
        seats=task.seats,
        first_dealer=state.lot.dealer,
        winner=state.winner,
        totals=tuple(state.totals),
        deal_scores=tuple(tuple(line.total for line in log.scores or ()) for log in logs),
        decks=tuple(bytes(log.deck or ()) for log in logs),
        times=tuple(tuple(seat_times) for seat_times in times),
    )


def cpu_count() -> int:
    """The cores this process may use (``--jobs 0``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def play_games(todo: Sequence[GameTask], jobs: int = 1) -> Generator[GameResult, None, None]:
    """Play ``todo`` on ``jobs`` processes (0: every core; 1: here); results in task order."""
    jobs = cpu_count() if jobs == 0 else jobs
    if jobs < 0:
        raise ValueError(f"jobs: {jobs} is negative")
    jobs = min(jobs, len(todo))
    if jobs <= 1:
        yield from map(play_game, todo)
        return
    # Small chunks keep the progress bar moving and the cores evenly loaded.
    size = max(1, min(8, len(todo) // (jobs * 16)))
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    finished = False
    try:
        # Not pool.map: when it is abandoned it cancels its futures behind the pool's back,
        # and a pool that then finds a worker gone fails on them (CPython 3.11).
        chunks = [pool.submit(_play_chunk, todo[i : i + size]) for i in range(0, len(todo), size)]
        for chunk in chunks:
            yield from chunk.result()
        finished = True
    finally:
        if not finished:
            # Ctrl-C, an error, or the caller stopped early: stop the workers now.  Waiting
            # for them is not enough: one blocked on writing a result nobody reads any more
            # would never exit.  With its workers gone the pool is "broken": it fails the
            # remaining matches and shuts down at once.
            for worker in list((pool._processes or {}).values()):
                worker.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _play_chunk(chunk: Sequence[GameTask]) -> list[GameResult]:
    """Several matches in one worker call: fewer round trips between the processes."""
    return [play_game(task) for task in chunk]


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which cancels the remaining matches."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_tournament(
    config: TournamentConfig,
    *,
    jobs: int = 1,
    progress: Callable[[GameResult], None] | None = None,
    backend: Backend | None = None,
) -> TournamentResults:
    """Play every match of ``config`` on ``jobs`` processes (or on ``backend``, see
    ``research.backends``: the same results) and summarize them.

    ``progress`` is called after each match, in task order (for a progress bar).
    """
    start = time.perf_counter()
    games = []
    todo = tasks(config)
    playing = play_games(todo, jobs) if backend is None else backend.play(todo)
    # closing: on Ctrl-C in ``progress`` the workers stop now, not when the frame is freed
    with contextlib.closing(playing) as played:
        for game in played:
            games.append(game)
            if progress is not None:
                progress(game)
    return summarize(
        config.bots,
        config.options,
        games,
        seed=config.seed,
        matches=config.matches,
        duplicate=config.duplicate,
        lineups=config.lineups,
        seconds=time.perf_counter() - start,
    )


__all__ = [
    "POLICY",
    "SEARCH_BOTS",
    "BotSpec",
    "GameTask",
    "TournamentConfig",
    "bot_rng",
    "cpu_count",
    "deal_rng",
    "lineups",
    "parse_bots",
    "play_game",
    "play_games",
    "play_match",
    "rotations",
    "run_tournament",
    "seating",
    "tasks",
]
