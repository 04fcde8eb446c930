"""The pause after a deal: the table waits until every person who is here has pressed Next
deal, or for the table's ``deal_pause_seconds``; computers never wait (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import time


class DealPause:
    """Whom the table waits for and until when; begun once per deal (a seed arriving
    reschedules the deal's wake-up, and the pause goes on where it was)."""

    def __init__(self) -> None:
        self.waiting: set[int] = set()
        self.until: float | None = None
        self._deal: int | None = None
        self._pressed = asyncio.Event()

    def begin(self, deal: int, seconds: float, readers: set[int]) -> bool:
        """Start the pause before deal ``deal`` (0-based) for ``readers``; False if none."""
        if deal == 0 or seconds <= 0 or self._deal == deal or not readers:
            return False
        self._deal = deal
        self.waiting = set(readers)
        self.until = time.time() + seconds
        self._pressed.clear()
        return True

    def press(self, seat: int) -> bool:
        """``seat`` pressed Next deal; False if the table was not waiting for it."""
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self._pressed.set()
        return True

    async def wait(self) -> None:
        """Until everyone pressed Next deal or the time is up (then the pause is over)."""
        left = max(0.0, (self.until or 0.0) - time.time())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._pressed.wait(), left)
        self.waiting.clear()
        self.until = None

    def presence(self) -> tuple[list[int], float | None]:
        """What the ``presence`` message says of it."""
        return sorted(self.waiting), self.until
