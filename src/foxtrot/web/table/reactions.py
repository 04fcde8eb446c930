"""Quick reactions at a table: a player's fixed word or emoji, shown by his seat for a moment.

Not a rule event: a reaction is never written to the table's log nor its record; it goes to
every connection of the table at once (``ReactionOut``), and a page that joins later never
sees it.  Spectators may not send one (``spectator``), and a seat may send at most ``count``
in any ``seconds`` (``throttled``, saying when the next one may go): reactions are for a
word between moves, not a stream.  Muting is the reader's: the page hides a person's or a
whole table's reactions on that device (static/table/reactions.js).

>>> limits = ReactionLimits(count=2, seconds=10.0, clock=iter([0.0, 1.0, 2.0, 10.5]).__next__)
>>> limits.wait("t", 0), limits.wait("t", 0), limits.wait("t", 0), limits.wait("t", 0)
(0.0, 0.0, 8.0, 0.0)
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from typing import Final

from ..cluster.bus import Connection
from ..protocol import Code, ProtocolError, ReactIn, ReactionOut
from .actor import TableActor

#: A seat may send this many reactions in any so many seconds.
REACTION_LIMIT: Final = (3, 10.0)


class ReactionLimits:
    """The reactions each seat of each table sent lately (this process's)."""

    def __init__(
        self,
        count: int = REACTION_LIMIT[0],
        seconds: float = REACTION_LIMIT[1],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self._sent: dict[tuple[str, int], deque[float]] = {}

    def wait(self, table: str, seat: int) -> float:
        """0 and the reaction is counted, or the seconds until this seat may send again."""
        now = self.clock()
        sent = self._sent.setdefault((table, seat), deque())
        while sent and sent[0] <= now - self.seconds:
            sent.popleft()
        if len(sent) >= self.count:
            return sent[0] + self.seconds - now
        sent.append(now)
        if len(self._sent) > 10_000:  # forget the seats that have been quiet a while
            self._sent = {k: v for k, v in self._sent.items() if v and v[-1] > now - self.seconds}
        return 0.0


def react(actor: TableActor, conn: Connection, msg: ReactIn, limits: ReactionLimits) -> None:
    """Send a player's reaction to everyone at the table, or refuse it (``ProtocolError``)."""
    seat = conn.seat
    if seat is None:
        raise ProtocolError(Code.SPECTATOR, "a spectator cannot send reactions")
    wait = limits.wait(actor.id, seat)
    if wait > 0:
        raise ProtocolError(
            Code.THROTTLED,
            f"at most {limits.count} reactions in {limits.seconds:g} s:"
            f" the next one in {math.ceil(wait)} s",
            reason="reactions",
        )
    text = ReactionOut(seat=seat, reaction=msg.reaction).model_dump_json()
    for other in actor.connections():
        other.put(text)
    actor.hooks.on_reaction(actor.id, text)  # the table's connections at other processes
