"""Hostile input is answered with an error, never with a server traceback; the HTTP limits.

One real ``foxtrot serve`` (uvicorn, its WebSocket implementation, its log) for the
module, with a short keep-alive and hello deadline; each test reads what the server
wrote to its log during the test.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from waiting import wait_until

from .web_support import ServerProcess, create_at, join_at

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
    proc = ServerProcess(
        f"sqlite:///{home}/s.db",
        home,
        *("--keep-alive-seconds", "1", "--hello-seconds", "1"),
        *("--header-seconds", "1", "--max-body-bytes", "8000"),
    )
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


# ------------------------------------------------------------------- the HTTP server's limits


def _read_answer(sock: socket.socket) -> bytes:
    """One whole HTTP answer (head and ``Content-Length`` body), or what came before a close."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def _raw_request(srv: Server, header: bytes) -> bytes:
    """Send one GET with an ``X-Big`` header of ``header``; the answer."""
    with socket.create_connection(("127.0.0.1", srv.proc.port), timeout=10) as sock:
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + header + b"\r\n\r\n")
            return _read_answer(sock)
        except (ConnectionResetError, BrokenPipeError):
            return b""


def test_request_headers_are_bounded(srv: Server) -> None:
    assert _raw_request(srv, b"a" * 10_000).startswith(b"HTTP/1.1 200")
    refused = _raw_request(srv, b"a" * 17_000)  # one read: the app's own check
    assert refused.startswith(b"HTTP/1.1 431"), refused[:100]
    body = json.loads(refused.split(b"\r\n\r\n", 1)[1])
    assert body["code"] == "too_large" and "16384" in body["message"]
    huge = _raw_request(srv, b"a" * 20_000_000)  # h11 stops buffering at the limit
    assert huge == b"" or huge.startswith(b"HTTP/1.1 4"), huge[:100]
    assert httpx.get(f"{srv.proc.base}/healthz", timeout=10).status_code == 200


def test_an_idle_http_connection_is_closed_after_the_keep_alive(srv: Server) -> None:
    # the socket's timeout (30 s, far beyond the keep-alive of 1 s) bounds the wait
    with socket.create_connection(("127.0.0.1", srv.proc.port), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _read_answer(sock).endswith(b'{"status":"ok"}')
        assert sock.recv(4096) == b""  # the server closed it


def test_a_connection_whose_headers_are_late_is_closed(srv: Server) -> None:
    port = srv.proc.port
    with socket.create_connection(("127.0.0.1", port), timeout=30) as silent:
        assert silent.recv(4096) == b""  # said nothing: closed at the deadline
    # a byte every 0.1 s, 14 s for the whole: closed on the way (the deadline is 1 s), or
    # recv below times out (30 s) on a server that kept waiting for the rest
    with socket.create_connection(("127.0.0.1", port), timeout=30) as slow:
        closed = False
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            try:
                slow.sendall(bytes([byte]))  # a byte every 0.1 s: "slowloris"
            except OSError:
                closed = True
                break
            time.sleep(0.1)
        assert closed or slow.recv(4096) == b""
    # The deadline counts per request: requests one after the other, never idle long enough
    # for the keep-alive, on a connection older than the deadline, are all answered. "Older"
    # is shown, not timed: a silent connection opened after it has been closed meanwhile.
    with (
        socket.create_connection(("127.0.0.1", port), timeout=30) as prompt,
        socket.create_connection(("127.0.0.1", port), timeout=30) as marker,
    ):
        marker.setblocking(False)
        answered = 0
        while True:
            prompt.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _read_answer(prompt).endswith(b'{"status":"ok"}')
            answered += 1
            if answered >= 2 and _closed(marker):
                break
            time.sleep(0.05)  # idle far less than the keep-alive (1 s)
        prompt.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert _read_answer(prompt).endswith(b'{"status":"ok"}')
    with connect(f"{srv.proc.ws_base}/ws/tables/{create_at(srv.proc.base)}") as ws:
        ws.send(json.dumps({"type": "hello"}))
        # a WebSocket is past its headers: the deadline does not touch it, though it has passed
        # (a silent connection opened after it has been closed for want of headers)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as later:
            assert later.recv(4096) == b""
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(timeout=10))["type"] != "pong":
            pass


def _closed(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (non-blocking): it said nothing, so the only
    thing it can read is the end."""
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False


def test_a_request_body_past_the_limit_is_413(srv: Server) -> None:
    base = srv.proc.base
    name = {"name": "A" * 20, "padding": "x" * 9000}
    declared = httpx.post(f"{base}/api/tables", json={"options": {}, **name}, timeout=10)
    assert declared.status_code == 413
    assert declared.json()["code"] == "too_large" and "8000" in declared.json()["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"options": {}, "x": "'
        for _ in range(90):
            yield b"y" * 100
        yield b'"}'

    streamed = httpx.post(f"{base}/api/tables", content=chunks(), timeout=10)
    assert streamed.status_code == 413 and streamed.json()["code"] == "too_large"
    assert httpx.post(f"{base}/api/tables", json={"options": {}}, timeout=10).status_code == 201
    record = b" " * 5000  # the record check keeps its own limit (4 MiB): read, not refused
    checked = httpx.post(f"{base}/api/records/check", content=record, timeout=30)
    assert checked.status_code == 200 and checked.json()["stage"] == "read"


def test_a_websocket_without_a_hello_is_closed_after_the_deadline(srv: Server) -> None:
    table = create_at(srv.proc.base)
    with connect(f"{srv.proc.ws_base}/ws/tables/{table}") as ws:
        error = json.loads(ws.recv(timeout=30))
        assert error["code"] == "need_hello", error
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=30)
        assert ws.close_code == 1008 and ws.close_reason == "no hello within 1 s of connecting"


def test_a_second_hint_for_the_same_seat_meanwhile_is_busy(srv: Server) -> None:
    base = srv.proc.base
    table = create_at(base, seats=[{}, {"kind": "easy"}], first_dealer=1)
    auth = {"Authorization": f"Bearer {join_at(base, table, 'Ann')}"}
    deadline = time.monotonic() + 30
    while httpx.get(f"{base}/api/tables/{table}/count", headers=auth).status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.05)  # the deal is dealt: seat 0 (the dealer's left) moves first

    async def two() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            ask = [client.post(f"/api/tables/{table}/hint", json={}, headers=auth) for _ in "ab"]
            return list(await asyncio.gather(*ask))

    answers = sorted(asyncio.run(two()), key=lambda answer: answer.status_code)
    assert [a.status_code for a in answers] == [200, 429], [a.text for a in answers]
    assert answers[1].json()["code"] == "busy" and "seat 0" in answers[1].json()["message"]
    again = httpx.post(f"{base}/api/tables/{table}/hint", json={}, headers=auth, timeout=30)
    assert again.status_code == 200, again.text  # the first one is done: the seat may ask


@pytest.mark.slow
@pytest.mark.timeout(300)  # a second server's start and stop, on a machine that may be busy
def test_past_max_connections_http_gets_503(tmp_path: Path) -> None:
    proc = ServerProcess(f"sqlite:///{tmp_path}/s.db", tmp_path, "--max-connections", "3")
    proc.start()
    try:
        table = create_at(proc.base)
        sockets = []
        for _ in range(3):
            ws = connect(f"{proc.ws_base}/ws/tables/{table}", legacy=True)
            ws.send(json.dumps({"type": "hello"}))
            sockets.append(ws)
        busy = httpx.get(f"{proc.base}/healthz", timeout=10)
        assert busy.status_code == 503, busy.text
        for ws in sockets:
            ws.close()
        wait_until(
            lambda: httpx.get(f"{proc.base}/healthz", timeout=10).status_code == 200,
            what="room again once the WebSockets closed",
            interval=0.1,
        )
    finally:
        proc.stop()
    assert "Traceback" not in (tmp_path / f"server-{proc.port}.log").read_text()
