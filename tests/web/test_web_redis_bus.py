"""The Redis bus of a cluster on a real Redis: what anyone may publish there cannot make a
process deaf.

A process whose subscription ended would keep renewing its leases in the database while no
request and no wake-up reached it any more: the tables it owns would wait for ever.  So a
message that cannot be read (not UTF-8, a wake-up without a number, a request that is not a
JSON object) is dropped, and the next one is heard."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio as aioredis

from foxtrot.web.cluster.redis_bus import RedisBus
from waiting import wait_until_async

pytestmark = pytest.mark.timeout(120)

GARBAGE: list[tuple[str, bytes]] = [
    ("fxt:t1", b"e \xff\xfe"),  # not UTF-8
    ("fxt:t1", b"e not-a-number"),  # the handler's int() refuses it
    ("fxn:n1", b"{"),  # a request that is not JSON
    ("fxn:n1", b"[1, 2]"),  # JSON, not an object
    ("fxn:n1", b'{"reply": "x"}'),  # a reply whose number is not one
    ("fxn:n1", b'{"no": "op"}'),  # a request its handler cannot read
]


def test_messages_that_cannot_be_read_are_dropped_and_the_bus_hears_the_next(
    redis_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> tuple[list[int], Any, bool]:
        heard: list[int] = []

        def on_table(table: str, kind: str, rest: str) -> None:
            heard.append(int(rest))  # as the cluster reads a wake-up: the number or an error

        async def on_request(payload: dict[str, Any]) -> Any:
            return {"ok": payload["n"]}

        listener, asker = RedisBus(redis_server, "n1"), RedisBus(redis_server, "n2")
        raw = aioredis.from_url(redis_server)
        try:
            await listener.start(on_table, on_request)
            await asker.start(lambda table, kind, rest: None, on_request)
            for channel, data in GARBAGE:
                await raw.publish(channel, data)
            await raw.publish("fxt:t1", b"e 7")
            await wait_until_async(lambda: heard == [7], timeout=30, what="the wake-up heard")
            answer = await asker.ask("n1", {"n": 3}, timeout=20)
            listening = listener.subscribed.is_set()
            return heard, answer, listening
        finally:
            await listener.close()
            await asker.close()
            await raw.aclose()

    heard, answer, listening = asyncio.run(main())
    assert heard == [7]  # the unreadable wake-ups were dropped, the good one heard
    assert answer == {"ok": 3}  # and a request after the garbage is answered
    assert listening
    said = [record.getMessage() for record in caplog.records]
    # each logged, by its error's name only: five at the listener, and the asker (it hears every
    # table's channel too) could not read the one that is not UTF-8 either
    assert said.count("bus message dropped") == 6
    assert said.count("bus request dropped") == 1
