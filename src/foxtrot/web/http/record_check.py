"""``POST /api/records/check``'s work, off the event loop: a worker process with a CPU-time limit.

Reading and replaying a record is pure CPU (a 4 MiB file is a second or more of it), so on
the server's own thread it would hold the interpreter lock and pause every table; and anyone
may send a file. So the check runs in a worker process of its own (spawned, dying with the
server, ``web/workers.py``), one file at a time, under two limits:

- **CPU time**: the worker arms ``ITIMER_PROF`` (the process's CPU time, not the wall clock,
  so a busy machine does not cut an honest check short) before each file; past
  ``CPU_SECONDS`` the timer's signal ends the check, and the answer says so
  (``too_large``, 400). ``foxtrot verify FILE`` on one's own machine has no such limit.
- **Waiting files**: at most ``PENDING`` files are queued or in progress; one more is
  refused with ``busy`` (429) rather than held in memory.

A check that does not end within ``WALL_SECONDS`` of wall time (stuck where the timer's
signal cannot reach it) has its worker killed; the next file starts a new one.
"""

from __future__ import annotations

import asyncio
import signal
from concurrent.futures import ProcessPoolExecutor
from types import FrameType
from typing import Any, Final

from ...core import FoxtrotError, from_record, parse_record
from ..protocol import Code, ProtocolError
from ..workers import process_pool, stop_pool

#: The CPU seconds one file's check may take in the worker.
CPU_SECONDS: Final = 5.0
#: The wall seconds after which a check's worker is killed whatever it is doing.
WALL_SECONDS: Final = 30.0
#: Files queued or being checked at once, server-wide.
PENDING: Final = 4


class _OverBudget(BaseException):
    """Raised in the worker by the CPU timer's signal (a BaseException: no check catches it)."""


def check_record(raw: bytes) -> dict[str, Any]:
    """``foxtrot verify``'s checks other than the fair deal: read (G2), then replay (G3).

    ``{"ok": true}``, or ``ok`` false with ``stage`` ("read" or "rules") and the
    command's message.
    """
    try:
        data = parse_record(raw)
    except FoxtrotError as error:
        return {"ok": False, "stage": "read", "error": str(error)}
    try:
        from_record(data)
    except FoxtrotError as error:
        return {"ok": False, "stage": "rules", "error": str(error)}
    return {"ok": True}


def check_within(raw: bytes, cpu_seconds: float) -> dict[str, Any] | None:
    """In the worker: ``check_record`` stopped after ``cpu_seconds`` of CPU (then ``None``)."""

    def over(_signum: int, _frame: FrameType | None) -> None:
        raise _OverBudget

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        return check_record(raw)
    except _OverBudget:
        return None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


class Checker:
    """The check's worker process (started on first use) and the files waiting for it."""

    def __init__(
        self,
        cpu_seconds: float = CPU_SECONDS,
        wall_seconds: float = WALL_SECONDS,
        pending: int = PENDING,
    ) -> None:
        self.cpu_seconds = cpu_seconds
        self.wall_seconds = wall_seconds
        self.pending = pending
        self._pool: ProcessPoolExecutor | None = None
        self._waiting = 0

    async def check(self, raw: bytes) -> dict[str, Any]:
        """The check's answer for ``raw``; ``busy`` or ``too_large`` past the limits."""
        if self._waiting >= self.pending:
            raise ProtocolError(
                Code.BUSY, f"the server is checking {self._waiting} other files: send it again soon"
            )
        self._waiting += 1
        try:
            if self._pool is None:
                self._pool = process_pool(1)
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(self._pool, check_within, raw, self.cpu_seconds)
            try:
                answer = await asyncio.wait_for(work, self.wall_seconds)
            except TimeoutError:
                self.close()
                answer = None
        finally:
            self._waiting -= 1
        if answer is None:
            raise ProtocolError(
                Code.TOO_LARGE,
                f"checking this file takes more than {self.cpu_seconds:g} s of the server's"
                " time: check it with `foxtrot verify FILE` on your machine",
            )
        return answer

    def close(self) -> None:
        """Stop the worker without waiting for a check in progress."""
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)
