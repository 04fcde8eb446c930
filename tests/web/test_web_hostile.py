"""Hostile input is answered with an error, never with a server traceback.

One real ``foxtrot serve`` (uvicorn, its WebSocket implementation, its log) for the
module; each test reads what the server wrote to its log during the test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .web_support import ServerProcess, create_at

pytestmark = pytest.mark.timeout(60)


class Server:
    """The module's server and the part of its log a test caused."""

    def __init__(self, proc: ServerProcess) -> None:
        self.proc = proc
        self.log = proc.home / f"server-{proc.port}.log"
        self.mark = 0

    def new_log(self) -> str:
        return self.log.read_text(errors="replace")[self.mark :]


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    home = tmp_path_factory.mktemp("hostile")
    proc = ServerProcess(f"sqlite:///{home}/s.db", home)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def srv(running: ServerProcess) -> Iterator[Server]:
    server = Server(running)
    server.mark = len(server.log.read_text(errors="replace"))
    yield server
    assert server.proc.alive()
    assert "Traceback" not in server.new_log(), server.new_log()


def _socket(srv: Server) -> ClientConnection:
    table = create_at(srv.proc.base)
    ws = connect(f"{srv.proc.ws_base}/ws/tables/{table}", legacy=True)
    ws.send(json.dumps({"type": "hello"}))
    while json.loads(ws.recv(timeout=10))["type"] != "snapshot":
        pass
    return ws


def _answer(ws: ClientConnection) -> dict[str, Any]:
    """The next error or pong (presence messages may come between)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if message["type"] in ("error", "pong"):
            return message


def _still_open(ws: ClientConnection) -> None:
    ws.send(json.dumps({"type": "ping"}))
    assert _answer(ws)["type"] == "pong"


@pytest.mark.parametrize(
    "frame", [b'{"type": "ping"}', b"\xff\xfe\x00 not UTF-8 \xc3\x28"], ids=["json", "not-utf8"]
)
def test_a_binary_frame_is_bad_json_and_the_socket_stays_open(srv: Server, frame: bytes) -> None:
    with _socket(srv) as ws:
        ws.send(frame)
        error = _answer(ws)
        assert error["code"] == "bad_json", error
        assert "text" in error["message"]
        _still_open(ws)


@pytest.mark.parametrize(
    "text",
    ["[" * 2000 + "]" * 2000, '{"type": "hello", "token": ' + "[" * 500 + "]" * 500 + "}"],
    ids=["2000-deep", "500-deep-field"],
)
def test_json_nested_too_deep_is_bad_json(srv: Server, text: str) -> None:
    assert len(text.encode()) <= 4096  # inside the frame limit: the depth is what is refused
    with _socket(srv) as ws:
        ws.send(text)
        error = _answer(ws)
        assert error["code"] == "bad_json" and "deep" in error["message"], error
        _still_open(ws)


@pytest.mark.parametrize(
    "body",
    [
        '{"grace_seconds": NaN}',
        '{"bot_delay": Infinity}',
        '{"seed_seconds": -Infinity}',
        '{"turn_seconds": 1e400}',
        '{"options": {"target": 1e400}}',
        '{"seats": [{"kind": "person", "name": NaN}, {}]}',
    ],
)
def test_a_number_json_cannot_write_is_a_422_with_a_json_body(srv: Server, body: str) -> None:
    answer = httpx.post(
        f"{srv.proc.base}/api/tables",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 422, answer.text
    error = answer.json()
    assert error["type"] == "error" and error["code"] == "bad_schema", error
    field = body.split('"')[1]
    assert field in error["message"], error
    assert error["detail"] and all("input" not in d for d in error["detail"])


def test_a_join_with_an_unwritable_number_is_a_422_too(srv: Server) -> None:
    table = create_at(srv.proc.base)
    answer = httpx.post(
        f"{srv.proc.base}/api/tables/{table}/join",
        content='{"name": "Ann", "seat": NaN}',
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 422 and answer.json()["code"] == "bad_schema", answer.text


def test_a_body_nested_2000_deep_is_refused_without_a_traceback(srv: Server) -> None:
    answer = httpx.post(
        f"{srv.proc.base}/api/tables",
        content='{"options": ' + "[" * 2000 + "]" * 2000 + "}",
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert answer.status_code in (400, 422), answer.text
    assert answer.json()
