"""Stopping the server: it always finishes, with sockets open and grace timers pending.

A test that fails half-way leaves its WebSockets open; leaving the server must
still end quickly and let the failure through, not hang.  A connection that
ends after the tables were stopped must not arm a new grace timer, which
nothing would cancel any more.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from web_support import create, join, server

from foxtrot.web.lobby import Lobby
from foxtrot.web.store import Store

pytestmark = pytest.mark.timeout(120)


def test_leaving_with_open_sockets_and_grace_timers_returns_at_once(tmp_path: Path) -> None:
    start = time.monotonic()
    with (
        pytest.raises(AssertionError, match="half-way"),
        server(f"sqlite:///{tmp_path}/s.db") as client,
    ):
        table = create(
            client,
            seats=[{}, {}, {"kind": "easy"}],
            grace_seconds=30.0,
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
    assert time.monotonic() - start < 20


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
