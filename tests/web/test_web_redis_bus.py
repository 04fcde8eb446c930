"""The Redis bus of a cluster on a real Redis: nothing makes a process deaf for good.

A process whose subscription ended would keep renewing its leases in the database while no
request and no wake-up reached it any more: the tables it owns would wait for ever.  So a
message that cannot be read (not UTF-8, a wake-up without a number, a request that is not a
JSON object) is dropped, and the next one is heard; and a subscription that goes quiet with no
error (a half-open connection) is found by the process's probe of its own channel and made
anew."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aioredis

from foxtrot.web.cluster.redis_bus import NoOwnerError, RedisBus
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


@dataclasses.dataclass
class Link:
    """One client connection through the proxy."""

    subscriber: bool = False  # it sent SUBSCRIBE or PSUBSCRIBE
    silent: bool = False  # Redis's bytes to it are read and dropped


class SilencingProxy:
    """A TCP proxy in front of Redis that can silence a connection: what Redis sends it is
    read and dropped, and nothing is closed, as with a connection half-open after a network
    fault.  Neither side sees an error."""

    def __init__(self, redis_url: str) -> None:
        where = urlsplit(redis_url)
        self.upstream = (where.hostname or "127.0.0.1", where.port or 6379)
        self.links: list[Link] = []
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        link = Link()
        self.links.append(link)

        async def to_redis() -> None:
            while data := await reader.read(65536):
                link.subscriber |= b"SUBSCRIBE" in data.upper()
                up_writer.write(data)
                await up_writer.drain()

        async def from_redis() -> None:
            while data := await up_reader.read(65536):
                if not link.silent:
                    writer.write(data)
                    await writer.drain()

        try:
            await asyncio.gather(to_redis(), from_redis())
        except OSError:
            pass
        finally:
            writer.close()
            up_writer.close()


def test_a_subscription_gone_silent_is_found_by_its_probe_and_made_anew(
    redis_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> tuple[Any, int]:
        async def on_request(payload: dict[str, Any]) -> Any:
            return {"ok": payload["n"]}

        proxy = SilencingProxy(redis_server)
        await proxy.start()
        quiet = RedisBus(f"redis://127.0.0.1:{proxy.port}/0", "n1")
        asker = RedisBus(redis_server, "n2")
        try:
            await quiet.start(lambda table, kind, rest: None, on_request)
            await asker.start(lambda table, kind, rest: None, on_request)
            assert await asker.ask("n1", {"n": 1}, timeout=20) == {"ok": 1}
            subscribers = [link for link in proxy.links if link.subscriber]
            assert len(subscribers) == 1
            subscribers[0].silent = True  # n1 hears nothing from now on, and knows nothing of it
            answer, deadline = None, time.monotonic() + 60
            while answer is None and time.monotonic() < deadline:
                try:
                    answer = await asker.ask("n1", {"n": 2}, timeout=3)
                except NoOwnerError:  # not heard (yet): asked again, as a forwarding process does
                    await asyncio.sleep(0.2)
            return answer, sum(link.subscriber for link in proxy.links)
        finally:
            await quiet.close()
            await asker.close()

    answer, subscriptions = asyncio.run(main())
    assert answer == {"ok": 2}  # answered through a new subscription
    assert subscriptions == 2
    deaf = [record for record in caplog.records if getattr(record, "action", "") == "DeafError"]
    assert deaf, "the silent subscription was not reported"
