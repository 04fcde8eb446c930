"""Computer seats on the server: easy, medium, hard, chosen from one seat's observation.

A computer seat (or a person's seat played for him after the grace period or
when his turn timer runs out) gets ``State.observation(seat)`` and nothing
else.  The oracle, which sees every card, is never a seat: only the three
levels are accepted.  ``hard`` thinks up to 0.9 s of CPU (``expert`` up to 5 s), so it
runs in a separate process and never blocks the event loop; easy and medium
answer in a millisecond or two; a thread would not take that off the event
loop (the GIL runs one at a time) and handing work over costs about as much,
so they run inline.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from concurrent.futures import Executor
from typing import Final

from ... import fast
from ...bots import Bot, make_bot
from ...core import Observation, SplitMix64
from ..workers import process_pool

LEVELS: Final = ("easy", "medium", "hard", "expert")


def think(level: str, obs: Observation, seed: int) -> tuple[str, float]:
    """The action a computer of ``level`` plays from ``obs``, and the seconds it took."""
    if level not in LEVELS:
        raise ValueError(f"{level!r} is not a computer level (easy, medium, hard, expert)")
    bot = make_bot(level)
    assert isinstance(bot, Bot)  # the three levels are honest bots
    start = time.perf_counter()
    action = bot.choose(obs, obs.legal_actions, SplitMix64(seed))
    return str(action), time.perf_counter() - start


class Computers:
    """Where computer seats think: a process pool for the expert, a thread for the others."""

    def __init__(self, processes: int = 1) -> None:
        self._processes = processes
        self._pool: Executor | None = None
        self._seeds = SplitMix64(secrets.randbits(128))  # a bot's own choices, not the deal

    def _process_pool(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(self._processes)
        return self._pool

    async def choose(self, level: str, obs: Observation) -> tuple[str, float]:
        """Think without blocking the event loop: the expert in its own process."""
        seed = self._seeds.getrandbits(64)
        if level not in ("hard", "expert"):  # the searching levels think in a process
            return think(level, obs, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._process_pool(), think, level, obs, seed)

    def warm_up(self) -> None:
        """Start the expert's worker and load the compiled kernel there now (``[fast]``), so
        that the first computer move of a fresh install does not wait for numba to compile."""
        if fast.enabled():
            self._process_pool().submit(fast.warm_up)

    def close(self) -> None:
        """Stop the workers (a thinking expert is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
