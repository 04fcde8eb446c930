"""Helpers of the server tests: a WebSocket player over FastAPI's test client."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from foxtrot.web.http.app import create_app

Message = dict[str, Any]

#: How long a server subprocess may take to exit once told to stop (a bound, not a claim).
STOP_SECONDS = 120


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(url: str, **kwargs: Any) -> Iterator[TestClient]:
    """A running server on ``url`` (lifespan included), as a test client."""
    kwargs.setdefault("message_rate", 1000.0)
    with TestClient(create_app(url, **kwargs)) as client:
        sessions: list[Any] = []
        connect = client.websocket_connect

        def tracked(*args: Any, **options: Any) -> Any:
            session = connect(*args, **options)
            sessions.append(session)
            return session

        client.websocket_connect = tracked  # type: ignore[method-assign]
        try:
            yield client
        finally:
            # A WebSocket session left open (a test that failed half-way) keeps
            # the test client's portal thread alive: leaving would hang for ever
            # and hide the failure.  Closing an already closed session is a no-op.
            for session in sessions:
                with contextlib.suppress(Exception):
                    getattr(session, "exit_stack", contextlib.ExitStack()).close()


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a table (no delays by default); its summary."""
    body.setdefault("seed_seconds", 0)
    body.setdefault("bot_delay", 0)
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
    """Join a table; the answer with seat and token."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/tables/{table}/join", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


class Player:
    """One WebSocket connection: sends messages, keeps everything it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[Message] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.unread: list[Message] = []

    @property
    def latest(self) -> dict[str, Any]:
        """The latest view; a seated player or spectator has one once its snapshot came."""
        assert self.view is not None, "no view received yet"
        return self.view

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self) -> Message:
        message: Message = json.loads(self.ws.receive_text())
        self.received.append(message)
        if message["type"] in ("event", "snapshot"):
            self.seq = max(self.seq, int(message["seq"]))
            if message.get("view"):
                self.view = message["view"]
        return message

    def until(
        self, predicate: Callable[[Message], bool], limit: int = 5000, *, keep: bool = False
    ) -> Message:
        """The first unread message that fits; with ``keep``, the others stay unread."""
        for index, message in enumerate(self.unread):
            if predicate(message):
                if keep:
                    del self.unread[index]
                else:
                    del self.unread[: index + 1]
                return message
        if not keep:
            self.unread.clear()
        for _ in range(limit):
            message = self.recv()
            if predicate(message):
                return message
            if keep:
                self.unread.append(message)
        raise AssertionError("the expected message never came")

    def error(self) -> Message:
        return self.until(lambda m: m["type"] == "error")

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat has legal actions; the view."""
        while not (self.view and self.view.get("legal")):
            self.recv()
        return self.view

    def act(self, action: str, action_id: str, seq: int | None = None) -> Message:
        self.send(type="action", id=action_id, seq=self.seq if seq is None else seq, action=action)
        return self.until(
            lambda m: m["type"] in ("ack", "error") and m.get("id") == action_id, keep=True
        )


def create_at(base: str, **body: Any) -> str:
    """Create a table on a server subprocess at ``base`` (no seeds wait, quick computers)."""
    body = {"seed_seconds": 0, "bot_delay": 0.02, "grace_seconds": 600} | body
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=20)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"])


def join_at(base: str, table: str, name: str) -> str:
    """Join a table on a server subprocess at ``base``; the seat's token."""
    answer = httpx.post(f"{base}/api/tables/{table}/join", json={"name": name}, timeout=30)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


@contextmanager
def player(client: TestClient, table: str, token: str | None, **hello: Any) -> Iterator[Player]:
    """A connected player (or spectator, without a token) after its snapshot."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        p = Player(ws)
        if token is not None:
            hello["token"] = token
        p.send(type="hello", **hello)
        p.until(lambda m: m["type"] == "snapshot")
        yield p


def two_people(client: TestClient, **body: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A started table of two people; its id and both join answers."""
    table = create(client, **body)["table"]
    return table, join(client, table, "Ann"), join(client, table, "Bob")


class ServerProcess:
    """``foxtrot serve`` in a subprocess on a free port (``extra``: more options, e.g. --bus)."""

    def __init__(self, url: str, home: Path, *extra: str) -> None:
        self.url = url
        self.home = home
        self.extra = extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"

    def start(self, *, wait: bool = True) -> None:
        env = os.environ | {"FOXTROT_HOME": str(self.home)}
        command = [sys.executable, "-m", "foxtrot", "serve", "--port", str(self.port)]
        self.proc = subprocess.Popen(
            [*command, "--db", self.url, *self.extra],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.home / f"server-{self.port}.log", "ab"),  # noqa: SIM115
        )
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).json() == {"status": "ok"}:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise AssertionError("the server did not come up")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop it with ``sig`` and wait for it to exit; its exit status.  The wait is long
        (``STOP_SECONDS``): with every core busy, the exit waits for worker processes that
        are still starting up."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=STOP_SECONDS)
