"""Running the application on uvicorn: stopping says goodbye to every socket first.

On Ctrl-C or SIGTERM uvicorn closes the open WebSockets itself (code 1012)
before the application's shutdown runs.  ``Server`` first lets the lobby send
each socket a ``goodbye`` message and close it with 1001 (going away), so a
client knows the server stopped on purpose and reconnects; then uvicorn's own
shutdown and the lobby's (database thread, workers) follow, and the process
exits with status 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, Final

import h11
import uvicorn
from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol


class Server(uvicorn.Server):
    """uvicorn's server, with the lobby's goodbye before its own shutdown."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app
        self._freezer: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM start the shutdown; afterwards ``foxtrot serve`` exits with 0.

        (uvicorn itself raises the signal again once it stopped, which ends the
        process as killed by it: a stop that was asked for is not a failure.)
        """
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in signals}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Boot (every table rebuilt from its log), then freeze what boot made, and keep
        freezing what lives on (``keep_frozen``)."""
        await super().startup(sockets)
        gc.freeze()
        self._freezer = asyncio.create_task(keep_frozen())

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self._freezer is not None:
            self._freezer.cancel()
        holder: dict[str, Any] = self._app.state.lobby_holder
        lobby = holder.get("lobby")
        if lobby is not None:
            await lobby.goodbye()
        await super().shutdown(sockets)


#: How often the objects alive are moved out of the collector's generations, and how often
#: they are put back and collected once in full (the one longer pause, to free any cycle).
FREEZE_SECONDS: Final = 1.0
FULL_COLLECT_SECONDS: Final = 1800.0


async def keep_frozen() -> None:
    """Keep the collector's pauses short: every ``FREEZE_SECONDS`` what is alive is frozen.

    Under load the server holds a few hundred thousand objects that live for minutes (the
    tables, their logs, the connections); every full collection walked them all, 30-70 ms
    with the event loop stopped, several times a minute (measured with ``gc.callbacks``
    during ``benchmarks/bench_server.py``), and the round trips waiting behind it made the
    p99. Frozen objects are not walked. A cycle that was alive at a freeze and dies later is
    not freed until the next full collection, every ``FULL_COLLECT_SECONDS``: memory held by
    such leftovers is bounded by that interval (``benchmarks/soak_server.py`` watches it).
    """
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(FREEZE_SECONDS)
        if time.monotonic() - last_full >= FULL_COLLECT_SECONDS:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()


#: How long a thread may hold the interpreter lock while another waits for it (Python's
#: default is 5 ms).  The database thread takes the lock back after each statement; while the
#: event loop is busy, each retake waited up to the whole interval, and commits queued behind.
SWITCH_INTERVAL: Final = 0.0005


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one client may cost the HTTP server (docs/protocol.md, "Limits"; ``foxtrot serve``).

    - ``header_bytes``: a request's line and headers; beyond, the request is answered
      431 (``HeaderLimit``), or 400 by h11 when its buffer of an unfinished request
      fills first, and the connection is closed.  The HTTP parser is h11 for this:
      uvicorn's default, httptools, buffers headers of any size (20 MB were accepted).
    - ``keep_alive``: seconds an idle HTTP connection is kept open between requests.
    - ``connections``: once this many connections (WebSockets included) are open, or
      this many requests are in progress, a new HTTP request gets 503 at once instead of
      queueing (uvicorn's ``limit_concurrency``; a WebSocket upgrade is not refused).
    - ``ws_bytes``: the largest WebSocket frame; a larger one closes the socket (1009).
    - ``header_seconds``: the time a client has to send a request's line and headers,
      counted from the connection's opening or a request's first byte; past it the
      connection is closed (``HeaderDeadline``: a slow client, "slowloris", holds no
      connection for longer).
    - ``body_bytes``: the largest request body (a JSON request is a few hundred bytes; the
      record check has its own limit); beyond, 413 (``BodyLimit``).
    """

    header_bytes: int = 16 * 1024
    keep_alive: int = 5
    connections: int = 8192
    ws_bytes: int = 65536
    header_seconds: float = 10.0
    body_bytes: int = 64 * 1024


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are late.

    uvicorn times a connection out only between two requests (``keep_alive``): a client
    that opens a connection and sends nothing, or sends its headers a byte at a time,
    holds it for ever, and enough of them hold every connection the server has.  This
    arms a timer while the protocol waits for a request's headers (h11's ``IDLE`` state
    for the client) and closes the connection when it fires.
    """

    header_seconds: float = Limits.header_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = self.loop.call_later(
            self.header_seconds, self._late
        )

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        waiting = self.conn.their_state is h11.IDLE and not self.transport.is_closing()
        if not waiting and self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        elif waiting and self._deadline is None:
            self._deadline = self.loop.call_later(self.header_seconds, self._late)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)

    def _late(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class HeaderLimit:
    """ASGI middleware: a request whose line and headers pass ``limit`` bytes is refused.

    h11 bounds what it buffers of an *incomplete* request (so memory stays bounded),
    but a whole request that arrives in one read (up to 256 KiB) passes it; this
    check makes the limit exact.  HTTP: 431 with an ``Error`` body; a WebSocket
    upgrade: closed before it is accepted (uvicorn answers 403).
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        size += sum(len(name) + len(value) + 4 for name, value in scope["headers"])
        if size <= self.limit:
            await self.app(scope, receive, send)
            return
        message = f"the request's line and headers have {size} bytes; the limit is {self.limit}"
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": "headers too large"})
            return
        await _refuse(send, 431, message)


async def _refuse(send: Send, status: int, message: str) -> None:
    """An HTTP answer ``status`` with an ``Error`` body (``too_large``), closing the connection."""
    body = json.dumps({"type": "error", "code": "too_large", "message": message, "id": None})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode()})


class BodyLimit:
    """ASGI middleware: a request body past ``limit`` bytes is refused with 413.

    FastAPI reads a JSON body whole before its schema is checked, so without this a
    client could send any number of megabytes to ``POST /api/tables``.  The body is
    read here up to the limit (a declared ``Content-Length`` past it is refused before
    any byte is read) and handed on.  ``exempt`` paths keep their own limit (the record
    check streams up to 4 MiB).
    """

    def __init__(self, app: ASGIApp, limit: int, exempt: frozenset[str]) -> None:
        self.app = app
        self.limit = limit
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in self.exempt:
            await self.app(scope, receive, send)
            return
        too_large = (
            f"the request's body has more than {self.limit} bytes; the limit is {self.limit}"
        )
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await _refuse(send, 413, too_large)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.limit:
                await _refuse(send, 413, too_large)
                return
            if message["type"] != "http.request" or not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def config(
    app: FastAPI, host: str, port: int, limits: Limits = Limits(), proxies: str = ""
) -> uvicorn.Config:
    """uvicorn's configuration of ``foxtrot serve``: h11 with the limits, no access log, and
    no logging configuration of uvicorn's own (``logs.configure`` routes its loggers).

    ``proxies``: the addresses (comma-separated, ``*`` for any) of the reverse proxies whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed.  None by default: uvicorn
    would believe them from 127.0.0.1, so that anyone on the machine, or any client of a
    proxy that passes the header through, could name its own address and walk past every
    per-address limit.  Behind a proxy, name it (``--forwarded-allow-ips 127.0.0.1``).
    """
    protocol = type("HeaderDeadline", (HeaderDeadline,), {"header_seconds": limits.header_seconds})
    exempt = frozenset({"/api/records/check"})
    return uvicorn.Config(
        HeaderLimit(BodyLimit(app, limits.body_bytes, exempt), limits.header_bytes),
        host=host,
        port=port,
        log_level="warning",
        http=protocol,
        h11_max_incomplete_event_size=limits.header_bytes,
        timeout_keep_alive=limits.keep_alive,
        limit_concurrency=limits.connections,
        ws_max_size=limits.ws_bytes,
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        log_config=None,  # its loggers write JSON lines through ours (web/logs.py)
    )


def serve(app: FastAPI, host: str, port: int, limits: Limits = Limits(), proxies: str = "") -> None:
    """Serve ``app`` until Ctrl-C or SIGTERM (``proxies``: as ``config``)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    Server(config(app, host, port, limits, proxies), app).run()
