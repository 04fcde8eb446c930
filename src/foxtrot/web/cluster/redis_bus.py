"""Wake-ups between server processes over Redis pub/sub (``foxtrot serve --bus redis://...``).

Two kinds of channel:

- ``fxt:<table>``, which every process listens to (one pattern subscription):
  ``e <seq>`` says the table's log has grown to ``seq`` (only the table and the
  number: a process that holds connections for the table reads the events from
  the log, so a lost message costs a read, never a lost or doubled event);
  ``p <json>`` carries the table's presence (public: who is connected);
  ``o <node>`` says a process took the table's lease.
- ``fxn:<node>``, one per process: requests forwarded to the table's owner
  (an action, a seed, a join, a seat's connections) and their replies.

Nothing secret travels here: an action is what the client sent (no token; the
forwarding process checked it), a join carries only the new token's hash.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("foxtrot.web")

TableHandler = Callable[[str, str, str], None]  # table, kind (e, p, o), rest
RequestHandler = Callable[[dict[str, Any]], Awaitable[Any]]


class NoOwnerError(Exception):
    """Nobody listens on the owner's channel (it died), or it did not answer in time."""


class DeafError(Exception):
    """This process's subscription no longer hears its own channel: a new one is made."""


#: Tries to send one batch: 0.05 s, then twice as long each time, about 1.6 s in all.
SEND_TRIES = 6
#: A process that has heard nothing on its own channel for PROBE_AFTER seconds sends itself a
#: probe there; one not back within PROBE_WAIT seconds means the subscription is deaf.
PROBE_AFTER, PROBE_WAIT = 2.0, 5.0
#: What a probe says (a request that is not one: ``_direct`` passes it to nobody).
PROBE = '{"probe": true}'


class RedisBus:
    """One process's connection to Redis: table wake-ups, forwarded requests, replies."""

    def __init__(self, url: str, node: str) -> None:
        self.url = url
        self.node = node
        self.redis: aioredis.Redis = aioredis.from_url(url)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._task: asyncio.Task[None] | None = None
        # Everything this process sends goes through one queue and one connection, a
        # batch per round trip (a pipeline): never a connection per message, whatever
        # the burst (a pool of connections, one per message in flight, runs out of them,
        # and a reply lost that way costs its request a timeout).
        self._outbox: list[tuple[str, str, asyncio.Future[int] | None]] = []
        self._outbox_ready = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._on_table: TableHandler = lambda table, kind, rest: None
        self._on_request: RequestHandler | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self.subscribed = asyncio.Event()
        self._listened = False  # subscribed once already: a later subscription follows an outage
        #: Told of each message that could not be sent (the error's name) and of how long
        #: each forwarded request took to answer here: the metrics.
        self.on_error: Callable[[str], None] = lambda name: None
        self.on_answer: Callable[[float], None] = lambda seconds: None

    async def start(self, on_table: TableHandler, on_request: RequestHandler) -> None:
        """Subscribe and listen (reconnecting after a Redis outage) until ``close``."""
        self._on_table, self._on_request = on_table, on_request
        self._task = asyncio.create_task(self._listen_forever())
        self._sender = asyncio.create_task(self._send_forever())
        await asyncio.wait_for(self.subscribed.wait(), timeout=30)

    async def close(self) -> None:
        """Stop listening and drop the connection."""
        for task in (self._sender, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for task in list(self._handlers):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen_forever(self) -> None:
        """Listen until ``close``: whatever ends one subscription, another follows.

        A process that stopped listening would keep renewing its leases in the database
        while no request reached it: its tables would wait for ever.  So any error, not only
        Redis's, is logged and followed by a new subscription.
        """
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away, or a surprise: listen again all the same
                log.warning(
                    "bus", extra={"table": None, "seat": None, "action": type(error).__name__}
                )
                self.subscribed.clear()
                await asyncio.sleep(0.5)

    async def _listen(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe("fxt:*")
            await pubsub.subscribe(f"fxn:{self.node}")
            if self._listened:
                # subscribed again after an outage (a restart of Redis): a request in flight
                # or its reply may have been lost with the old subscription, so each waiting
                # ask is sent again now rather than after its whole timeout
                for future in list(self._pending.values()):
                    if not future.done():
                        future.set_exception(NoOwnerError("the bus reconnected: ask again"))
            self._listened = True
            self.subscribed.set()
            await self._hear(pubsub)
        finally:
            with contextlib.suppress(Exception):  # a dead connection may not even close
                await asyncio.wait_for(pubsub.aclose(), 2.0)  # type: ignore[no-untyped-call,unused-ignore]

    async def _hear(self, pubsub: Any) -> None:
        """Deliver the subscription's messages until it fails or goes deaf (``DeafError``).

        A subscription can go quiet with no error at all: a connection half-open after a
        network fault, or a subscription that ended with no error reaching this process
        (seen after restarts of Redis under load).  Other processes then find this one
        silent, but it renews its leases all the same, and its tables wait for ever.  So a
        process that has heard nothing on its own channel for a while sends itself a probe
        there; if the probe does not come back, the subscription is made anew.
        """
        own = f"fxn:{self.node}"
        heard, probed = time.monotonic(), None
        while True:
            message = await pubsub.get_message(timeout=1.0)
            now = time.monotonic()
            if message is not None:
                if message["channel"] == own.encode():
                    heard, probed = now, None
                self._deliver(message)
            if probed is None and now - heard > PROBE_AFTER:
                self._publish(own, PROBE)
                probed = now
            elif probed is not None and now - probed > PROBE_WAIT:
                raise DeafError(f"no probe back on {own} in {PROBE_WAIT} s")

    def _deliver(self, message: dict[str, Any]) -> None:
        """Hand one message to its handler; one that cannot be read is logged and dropped.

        Anyone who can publish on the Redis server can send anything: a message that is not
        UTF-8, a wake-up without a number, a request that is not JSON.  Its error must not
        end the subscription (every later request and wake-up would be lost with it).
        """
        try:
            channel = message["channel"].decode()
            data = message["data"].decode()
            if channel.startswith("fxt:"):
                kind, _, rest = data.partition(" ")
                self._on_table(channel[4:], kind, rest)
            else:
                payload = json.loads(data)
                if not isinstance(payload, dict):
                    raise TypeError("a request is a JSON object")
                self._direct(payload)
        except Exception as error:
            log.warning(
                "bus message dropped",
                extra={"table": None, "seat": None, "action": type(error).__name__},
            )

    def _direct(self, payload: dict[str, Any]) -> None:
        if payload.get("probe") is True:
            return  # this process's own probe, back: heard (``_hear``)
        if "reply" in payload:
            future = self._pending.pop(int(payload["reply"]), None)
            if future is not None and not future.done():
                future.set_result(payload.get("result"))
            return
        if self._on_request is None:
            return
        task = asyncio.create_task(self._answer(payload))
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _answer(self, payload: dict[str, Any]) -> None:
        assert self._on_request is not None
        start = time.perf_counter()
        try:
            result = await self._on_request(payload)
        except Exception as error:  # a request this process cannot read: its sender times out
            log.warning(
                "bus request dropped",
                extra={"table": None, "seat": None, "action": type(error).__name__},
            )
            return
        if "id" in payload and "from" in payload:
            reply = {"reply": payload["id"], "result": result}
            self._publish(f"fxn:{payload['from']}", json.dumps(reply))
            self.on_answer(time.perf_counter() - start)

    # ------------------------------------------------------------ sending

    def _publish(self, channel: str, text: str, *, counted: bool = False) -> asyncio.Future[int]:
        """Queue a message for the sender; the future gets the number of listeners."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, text, future if counted else None))
        self._outbox_ready.set()
        return future

    async def _send_forever(self) -> None:
        """Send what is queued, one pipeline per round trip, until ``close``.

        A batch that fails (Redis restarting: every pooled connection is stale once) is sent
        again a few times over about two seconds (``SEND_TRIES``), so that a reply is not lost
        to a restart and its request left to wait out its timeout.  A message that still cannot
        be sent is counted and dropped: a lost wake-up costs a read (the sweep), a lost reply a
        resend, a lost request its sender an answer (it waits for the next owner).
        """
        while True:
            await self._outbox_ready.wait()
            self._outbox_ready.clear()
            batch, self._outbox = self._outbox, []
            if not batch:
                continue
            counts: list[Any] | None = None
            for attempt in range(SEND_TRIES):
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, text, _ in batch:
                            pipe.publish(channel, text)
                        counts = await pipe.execute()
                    break
                except Exception as error:  # Redis away, or a surprise: the sender goes on
                    self.on_error(type(error).__name__)
                    if attempt == SEND_TRIES - 1:
                        for _, _, future in batch:
                            if future is not None and not future.done():
                                future.set_exception(error)
                    else:
                        await asyncio.sleep(0.05 * 2**attempt)
            if counts is None:
                continue
            for (_, _, future), count in zip(batch, counts, strict=True):
                if future is not None and not future.done():
                    future.set_result(int(count))

    def table(self, table: str, kind: str, rest: str) -> None:
        """Tell every process about a table: ``e <seq>``, ``p <presence>``, ``o <node>``,
        ``r <node> <reaction>`` (a quick reaction sent at ``node``)."""
        self._publish(f"fxt:{table}", f"{kind} {rest}")

    async def silent(self, nodes: list[str]) -> list[str]:
        """The processes among ``nodes`` that no longer listen on their channel (dead)."""
        if not nodes:
            return []
        try:
            counts = await self.redis.pubsub_numsub(*[f"fxn:{node}" for node in nodes])
        except (RedisError, OSError):
            return []  # Redis itself is away: that proves nothing about the others
        return [
            channel.decode()[4:] if isinstance(channel, bytes) else str(channel)[4:]
            for channel, count in counts
            if not count
        ]

    def tell(self, node: str, payload: dict[str, Any]) -> None:
        """A request that needs no answer (a seat's connections)."""
        self._publish(f"fxn:{node}", json.dumps(payload))

    async def ask(self, node: str, payload: dict[str, Any], timeout: float) -> Any:
        """A request to ``node`` and its answer; NoOwnerError if nobody listens or answers."""
        number = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        try:
            try:
                listeners = await self._publish(
                    f"fxn:{node}",
                    json.dumps(payload | {"id": number, "from": self.node}),
                    counted=True,
                )
            except (RedisError, OSError) as error:
                raise NoOwnerError(f"the bus is unreachable: {error}") from None
            if not listeners:
                raise NoOwnerError(f"process {node} is not listening")
            try:
                return await asyncio.wait_for(future, timeout)
            except TimeoutError:
                raise NoOwnerError(f"process {node} did not answer in {timeout} s") from None
        finally:
            self._pending.pop(number, None)
            if future.done() and not future.cancelled():
                future.exception()  # retrieved: failed by a reconnection nobody waited for yet
