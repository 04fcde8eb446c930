"""Computer seats on the server: easy, medium, hard, expert and learned, chosen from one
seat's observation.

A computer seat (or a person's seat played for him after the grace period or
when his turn timer runs out) gets ``State.observation(seat)`` and nothing
else.  The oracle, which sees every card, is never a seat: only the levels are
accepted.  A learned level (``learned``, ``learned:NAME``: web/table/learned.py) plays
the policy file the server holds for it, an honest bot like the others.  ``hard`` thinks
up to 0.9 s of CPU (``expert`` up to 5 s), so it runs in a worker process and never
blocks the event loop; easy, medium and learned answer in a millisecond or less; a thread
would not take that off the event loop (the GIL runs one at a time) and handing work over
costs about as much, so they run inline.

The workers are as many as the cores (``foxtrot serve --computer-processes``), and they are
shared fairly: a search waits in its table's own queue, never in the pool's, and a free
worker takes the next search from the tables in turn (round robin), the tables where a
person is connected before the tables nobody is watching.  So a person's opponent never
waits behind another client's tables of computers, however many that client started, and
one table's searches never pass another's (``FairQueue``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import time
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Final, Generic, TypeVar

from ... import fast
from ...bots import Bot, make_bot
from ...core import Observation, SplitMix64
from ..workers import process_pool
from .learned import LearnedLevels, is_learned

LEVELS: Final = ("easy", "medium", "hard", "expert")
T = TypeVar("T")
log = logging.getLogger("foxtrot.web")


@functools.lru_cache(maxsize=32)
def _learned_bot(path: str) -> Bot:
    """The bot of one policy file, read once per process (a move is then well under 1 ms)."""
    from ...learn.policy import LearnedBot  # noqa: PLC0415 (numpy only when a policy plays)

    return LearnedBot(path)


def think(level: str, obs: Observation, seed: int, policy: str | None = None) -> tuple[str, float]:
    """The action a computer of ``level`` plays from ``obs``, and the seconds it took;
    ``policy``: the file a learned level plays (``Computers.choose`` finds it)."""
    bot: Bot
    if is_learned(level) and policy is not None:
        bot = _learned_bot(policy)
    elif level in LEVELS:
        made = make_bot(level)
        assert isinstance(made, Bot)  # the levels are honest bots
        bot = made
    else:
        raise ValueError(f"{level!r} is not a computer level (easy, medium, hard, expert, learned)")
    start = time.perf_counter()
    action = bot.choose(obs, obs.legal_actions, SplitMix64(seed))
    return str(action), time.perf_counter() - start


def default_processes() -> int:
    """The cores this process may run on: one search worker for each."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class Search:
    """One computer's decision waiting for a worker."""

    level: str
    obs: Observation
    seed: int
    answer: asyncio.Future[tuple[str, float]] = field(repr=False)


class FairQueue(Generic[T]):
    """Searches waiting for a worker: per table, the tables in turn, watched tables first.

    >>> queue: FairQueue[str] = FairQueue()
    >>> arrivals = [("bots1", False), ("bots1", False), ("bots2", False), ("anna", True)]
    >>> for table, watched in arrivals:
    ...     queue.put(table, watched, table)
    >>> [queue.pop() for _ in range(4)]
    ['anna', 'bots1', 'bots2', 'bots1']
    >>> queue.pop() is None
    True
    """

    def __init__(self) -> None:
        # insertion-ordered: the first table is the next to be served, then goes last
        self._watched: dict[str, deque[T]] = {}
        self._unwatched: dict[str, deque[T]] = {}

    def __len__(self) -> int:
        return sum(len(q) for tier in (self._watched, self._unwatched) for q in tier.values())

    def put(self, table: str, watched: bool, item: T) -> None:
        """Queue ``item`` for ``table`` (``watched``: a person is connected to it)."""
        (self._watched if watched else self._unwatched).setdefault(table, deque()).append(item)

    def pop(self) -> T | None:
        """The next item: the first table of the first tier that has one, sent to the back."""
        for tier in (self._watched, self._unwatched):
            while tier:
                table = next(iter(tier))
                queue = tier.pop(table)
                item = queue.popleft()
                if queue:
                    tier[table] = queue  # to the back of the turn
                return item
        return None


class Computers:
    """Where computer seats think: the searching levels in a pool of worker processes shared
    fairly between tables (``FairQueue``), the others inline."""

    def __init__(
        self,
        processes: int | None = None,
        pool: Executor | None = None,
        learned: LearnedLevels | None = None,
    ) -> None:
        """``pool``: the executor to think in (default: spawned worker processes, made on first
        use); its own queue is never used, so ``processes`` is how many it runs at once.
        ``learned``: the learned levels this server offers (default: the shipped ones)."""
        self.learned = learned if learned is not None else LearnedLevels.load()
        self.processes = processes if processes is not None else default_processes()
        if self.processes < 1:
            raise ValueError(f"computer processes must be at least 1, not {self.processes}")
        self._pool: Executor | None = pool
        self._seeds = SplitMix64(secrets.randbits(128))  # a bot's own choices, not the deal
        self._waiting: FairQueue[Search] = FairQueue()
        self._running = 0

    def _process_pool(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(self.processes)
        return self._pool

    @property
    def waiting(self) -> int:
        """Searches waiting for a worker (the metrics)."""
        return len(self._waiting)

    async def choose(
        self, level: str, obs: Observation, *, table: str = "", watched: bool = True
    ) -> tuple[str, float]:
        """Think without blocking the event loop: a search waits its table's turn for a
        worker (``watched``: a person is connected to ``table``)."""
        seed = self._seeds.getrandbits(64)
        if is_learned(level):
            policy = self.learned.path(level, obs.players)
            if policy is not None:
                return think(level, obs, seed, policy)
            # a table from before a restart whose operator no longer gives that policy
            log.warning(
                "no policy for a learned seat: medium plays it",
                extra={"table": table, "seat": None, "action": level},
            )
            level = "medium"
        if level not in ("hard", "expert"):  # the searching levels think in a process
            return think(level, obs, seed)
        answer: asyncio.Future[tuple[str, float]] = asyncio.get_running_loop().create_future()
        self._waiting.put(table, watched, Search(level, obs, seed, answer))
        self._start()
        return await answer

    def _start(self) -> None:
        """Hand waiting searches to free workers; the pool itself never holds a queue."""
        while self._running < self.processes:
            search = self._waiting.pop()
            if search is None:
                return
            if search.answer.done():  # its table stopped waiting (closed, moved on)
                continue
            self._running += 1
            work = asyncio.wrap_future(
                self._process_pool().submit(think, search.level, search.obs, search.seed)
            )
            work.add_done_callback(functools.partial(self._finished, search))

    def _finished(self, search: Search, done: asyncio.Future[tuple[str, float]]) -> None:
        self._running -= 1
        if not search.answer.done():
            if done.cancelled():
                search.answer.cancel()
            elif (error := done.exception()) is not None:
                search.answer.set_exception(error)
            else:
                search.answer.set_result(done.result())
        self._start()

    def warm_up(self) -> None:
        """Start the expert's worker and load the compiled kernel there now (``[fast]``), so
        that the first computer move of a fresh install does not wait for numba to compile."""
        if fast.enabled():
            self._process_pool().submit(fast.warm_up)

    def close(self) -> None:
        """Stop the workers (a thinking expert is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
