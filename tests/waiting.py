"""Waiting for a condition in a test: poll it until a deadline, never sleep a fixed time.

A fixed sleep ("the server has surely done it after 0.05 s") is a bet on the machine's
speed that a busy machine loses; an elapsed-time assertion is the same bet the other way
round.  A test waits for what it needs instead: ``wait_until`` (threads, subprocesses) and
``wait_until_async`` (the event loop) re-check a predicate every few milliseconds and fail,
saying what was awaited, only when a deadline far beyond any normal wait has passed.  The
deadline is generous on purpose: it costs nothing when the condition comes, and it is
what keeps the suite green with every core busy (``tools/stress-test``).

tests/test_steady.py keeps fixed sleeps and elapsed-time assertions out of the tests.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: The default deadline, in seconds: long enough for a machine with every core busy.
TIMEOUT = 30.0
#: The pause between two looks at the condition.
INTERVAL = 0.01


def wait_until(
    predicate: Callable[[], T],
    *,
    timeout: float = TIMEOUT,
    what: str | Callable[[], str] = "the condition",
    interval: float = INTERVAL,
) -> T:
    """Poll ``predicate`` until it returns something true, and return that; past ``timeout``
    seconds fail with an ``AssertionError`` naming ``what`` (a string, or a function that
    describes the state at the time of failure)."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {_say(what)}")
        time.sleep(interval)


async def wait_until_async(
    predicate: Callable[[], T | Awaitable[T]],
    *,
    timeout: float = TIMEOUT,
    what: str | Callable[[], str] = "the condition",
    interval: float = INTERVAL,
) -> T:
    """``wait_until`` on the event loop: the other tasks run between two looks.
    ``predicate`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if isinstance(got, Awaitable):
            got = await got
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {_say(what)}")
        await asyncio.sleep(interval)


def stays_true(
    predicate: Callable[[], object],
    *,
    seconds: float,
    what: str | Callable[[], str] = "the condition",
    interval: float = INTERVAL,
) -> None:
    """Check that ``predicate`` holds at every look for ``seconds``: for the rare test whose
    claim is that something does *not* happen within a time (a timer that must not fire).

    Such a window is inherent to the claim, so it is kept generous, and a busy machine can
    only make the test look fewer times, never fail a table that behaves."""
    deadline = time.monotonic() + seconds
    while True:
        assert predicate(), f"{_say(what)} stopped holding within {seconds} s"
        if time.monotonic() > deadline:
            return
        time.sleep(interval)


def _say(what: str | Callable[[], str]) -> str:
    return what if isinstance(what, str) else what()


__all__ = ["INTERVAL", "TIMEOUT", "stays_true", "wait_until", "wait_until_async"]
