"""Stopping the server: it always finishes, with sockets open and grace timers pending.

A test that fails half-way leaves its WebSockets open; leaving the server must
still end quickly and let the failure through, not hang.  A connection that
ends after the tables were stopped must not arm a new grace timer, which
nothing would cancel any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import threading
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from foxtrot.core import Observation
from foxtrot.web.lobby import Lobby
from foxtrot.web.protocol import CreateTable, SeatPlan
from foxtrot.web.sockets import read_text
from foxtrot.web.store.event_log import Store
from foxtrot.web.table.computer import Computers
from waiting import wait_until_async

from .web_support import ServerProcess, create, join, server

pytestmark = pytest.mark.timeout(120)


def test_leaving_with_open_sockets_and_grace_timers_returns_at_once(tmp_path: Path) -> None:
    """The server stops with sockets open and a grace timer of ten minutes running: it
    returns (the file's timeout of two minutes is far shorter than the timer)."""
    with (
        pytest.raises(AssertionError, match="half-way"),
        server(f"sqlite:///{tmp_path}/s.db") as client,
    ):
        table = create(
            client,
            seats=[{}, {}, {"kind": "easy"}],
            grace_seconds=600.0,
            options={"players": 3},
        )["table"]
        tokens = [join(client, table, name)["token"] for name in ("Ann", "Bob")]
        with client.websocket_connect(f"/ws/tables/{table}") as gone:  # Ann's grace starts
            gone.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
            gone.receive_text()
        for token in tokens:  # left open
            ws = client.websocket_connect(f"/ws/tables/{table}").__enter__()
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.receive_text()
        spectator = client.websocket_connect(f"/ws/tables/{table}").__enter__()
        spectator.send_text(json.dumps({"type": "hello"}))
        raise AssertionError("a test failed half-way")


def test_a_socket_ending_after_the_stop_arms_no_grace_timer(tmp_path: Path) -> None:
    lobby = Lobby(Store(f"sqlite:///{tmp_path}/s.db"))
    with server("unused://", lobby=lobby) as client:
        table = create(client, seats=[{}, {"kind": "easy"}], grace_seconds=30.0)["table"]
        token = join(client, table, "Ann")["token"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.receive_text()
            actor = lobby.tables[table]
            client.portal.call(actor.lock.acquire)  # type: ignore[union-attr]
            actor.stop()
            actor.lock.release()
        assert actor.stopped
        deadline = time.monotonic() + 10
        while not actor.seats[0].away_since and time.monotonic() < deadline:
            time.sleep(0.01)
        assert actor.seats[0].away_since is not None  # the disconnect was handled
        assert not [task for task in actor._grace.values() if not task.done()]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_says_goodbye_and_closes_every_socket_with_1001(tmp_path: Path, sig: int) -> None:
    proc = ServerProcess(f"sqlite:///{tmp_path}/s.db", tmp_path)
    proc.start()
    try:
        table = httpx.post(
            f"{proc.base}/api/tables", json={"seats": [{}, {}], "grace_seconds": 600}
        ).json()["table"]
        tokens = [
            httpx.post(f"{proc.base}/api/tables/{table}/join", json={"name": n}).json()["token"]
            for n in ("Ann", "Bob")
        ]
        sockets = [connect(f"{proc.ws_base}/ws/tables/{table}", legacy=True) for _ in range(3)]
        hellos = [{"token": tokens[0], "lang": "ru"}, {"token": tokens[1]}, {"lang": "uk"}]
        for ws, hello in zip(sockets, hellos, strict=True):
            ws.send(json.dumps({"type": "hello", **hello}))
            while json.loads(ws.recv(timeout=10))["type"] != "snapshot":
                pass
        silent = connect(f"{proc.ws_base}/ws/tables/{table}", legacy=True)  # never said hello
        proc.proc.send_signal(sig)  # type: ignore[union-attr]
        for ws in [*sockets, silent]:
            last: dict[str, object] = {}
            with contextlib.suppress(ConnectionClosed):
                while True:
                    last = json.loads(ws.recv(timeout=30))
            assert last["type"] == "goodbye", last
            assert last["code"] == 1001 and last["text"]
            assert ws.close_code == 1001
        # it exits, cleanly, without waiting out the grace timers (600 s): the generous wait
        # is for a machine with every core busy, where stopping takes its time
        assert proc.proc.wait(timeout=120) == 0  # type: ignore[union-attr]
        for token in tokens:
            assert token not in (tmp_path / f"server-{proc.port}.log").read_text()
    finally:
        proc.stop(signal.SIGKILL)
    if sig != signal.SIGTERM:
        return
    again = ServerProcess(f"sqlite:///{tmp_path}/s.db", tmp_path)  # the table is safe
    again.start()
    try:
        assert httpx.get(f"{again.base}/api/tables/{table}").json()["status"] == "playing"
    finally:
        again.stop()


def test_shutdown_keeps_the_event_loop_running_while_the_database_finishes(
    tmp_path: Path,
) -> None:
    """The database thread is held busy until the test lets it go: meanwhile shutdown waits
    for it and the event loop goes on running (this coroutine runs and sees it waiting).  A
    shutdown that blocked the loop would keep this coroutine out until the hold gave up."""
    started, release = threading.Event(), threading.Event()

    def hold() -> bool:
        started.set()
        return release.wait(30)

    async def scenario() -> bool:
        lobby = Lobby(Store(f"sqlite:///{tmp_path}/s.db"))
        await lobby.boot()
        busy = asyncio.ensure_future(lobby.db(hold))  # the db thread is busy
        await wait_until_async(started.is_set, what="the database thread busy")
        stopping = asyncio.create_task(lobby.shutdown())
        for _ in range(10):  # the loop runs: this task gets its turns while shutdown waits
            await asyncio.sleep(0.01)
        assert not stopping.done()  # shutdown waits for the database thread's work...
        release.set()  # ...which it lets finish
        await stopping
        return bool(await busy)

    assert asyncio.run(scenario())  # released by the test, not by the hold's own timeout


class HeldComputers(Computers):
    """Computers whose next move is held until the test lets it go."""

    def __init__(self) -> None:
        super().__init__(processes=1)
        self.asked = asyncio.Event()
        self.go = asyncio.Event()

    async def choose(
        self, level: str, obs: Observation, *, table: str = "", watched: bool = True
    ) -> tuple[str, float]:
        move = await super().choose(level, obs, table=table, watched=watched)
        self.asked.set()
        await self.go.wait()
        return move


def test_a_computer_move_committing_when_the_server_stops_is_in_the_log(tmp_path: Path) -> None:
    """A computer's move whose commit has begun (its own task made, not yet run) when the
    server stops: shutdown waits for that commit before it stops the database thread, so
    the move is in the log, and nothing fails after the server stopped."""
    url = f"sqlite:///{tmp_path}/s.db"
    failures: list[dict[str, Any]] = []

    async def scenario() -> tuple[str, int]:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: failures.append(context))
        computers = HeldComputers()
        lobby = Lobby(Store(url), computers=computers)
        await lobby.boot()
        seats = [SeatPlan(kind="easy"), SeatPlan(kind="easy")]
        actor = await lobby.create(CreateTable(seats=seats, seed_seconds=0, bot_delay=0))
        await wait_until_async(computers.asked.is_set, what="a computer thinking")
        seq = actor.seq
        computers.go.set()
        await asyncio.sleep(0)  # the move's task runs to its commit, which waits to start
        await lobby.shutdown()
        return actor.id, seq

    table, seq = asyncio.run(scenario())
    assert not failures
    store = Store(url)
    try:
        kinds = [event.kind for event in store.events_after(table, seq - 1)]
    finally:
        store.close()
    assert kinds[-1] == "action" and len(kinds) == 2  # the event before it, then the move


@pytest.mark.parametrize("closed_by", ["a failed send", "our close"])
def test_reading_a_socket_closed_on_this_side_is_a_disconnect(closed_by: str) -> None:
    """Starlette refuses to read a socket it marked closed (after a send to a vanished client
    failed, or after our own goodbye) with a RuntimeError; the session must see the ordinary
    disconnect, not print a server error."""

    async def scenario() -> None:
        incoming = [{"type": "websocket.connect"}, {"type": "websocket.receive", "text": "first"}]

        async def receive() -> dict[str, Any]:
            return incoming.pop(0)

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "websocket.send":
                raise OSError("the client is gone")

        ws = WebSocket({"type": "websocket", "path": "/", "headers": []}, receive, send)
        await ws.accept()
        assert await read_text(ws) == "first"
        if closed_by == "our close":
            await ws.close(1001)
        else:
            with pytest.raises(WebSocketDisconnect):
                await ws.send_text("hello")
        with pytest.raises(WebSocketDisconnect):
            await read_text(ws)

    asyncio.run(scenario())
