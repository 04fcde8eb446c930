"""Wake-ups between the table actors and the sockets: in memory, one process.

A table actor never awaits a socket: it puts each outgoing message on the
connection's queue and goes on; the connection's own writer task sends it.  A
slow or dead client therefore slows nobody else.  With many server processes
this is where a Redis channel would go; the actors would not change.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import Final

#: Messages a connection may have waiting before it is dropped as too slow.
QUEUE_LIMIT: Final = 1000
_ids = itertools.count(1)


class Connection:
    """One WebSocket as the actors see it: who it is and a queue of text to send."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        lang: str = "en",
        close: Callable[[int, str | None], Awaitable[None]] | None = None,
    ) -> None:
        self.id = next(_ids)
        self.seat: int | None = None
        self.lang = lang
        self.table: str | None = None
        self.closed = False
        self._send = send
        self._close = close
        self._close_code: int | None = None
        self._close_reason: str | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(self, text: str) -> None:
        """Queue a message; a connection that falls too far behind is closed."""
        if self.closed:
            return
        if self._queue.qsize() >= QUEUE_LIMIT:
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        """Stop the writer after what is queued."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)

    def goodbye(self, text: str, code: int = 1001, reason: str | None = None) -> None:
        """Send ``text`` last, then close the socket itself with ``code`` and ``reason``.

        1001 (going away): the server stops; 1008 (policy violation): no hello in time.
        """
        if not self.closed:
            self._queue.put_nowait(text)
            self._close_code, self._close_reason = code, reason
            self.close()

    async def run_writer(self) -> None:
        """Send queued messages in order until closed; then close the socket if asked to."""
        while True:
            text = await self._queue.get()
            if text is None:
                break
            try:
                await self._send(text)
            except Exception:
                self.closed = True
                return
        if self._close_code is not None and self._close is not None:
            try:
                await self._close(self._close_code, self._close_reason)
            except Exception:  # already closed by the other side: nothing to say
                return


class Bucket:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``; refuses the excess."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._last = 0.0

    def allow(self, now: float) -> bool:
        """True if a message may be handled now."""
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
