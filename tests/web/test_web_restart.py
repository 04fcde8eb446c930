"""The restart test: ``foxtrot serve`` as a subprocess on SQLite, killed with SIGKILL mid-play.

Tables with people (driven by client threads over real WebSockets) and with
computers play; the server is killed at random moments and started again.
Then: every acknowledged action is in the log with its id; the state every
client last saw is exactly the state the log rebuilds at that sequence number;
the computers play on and the turn timer fires again after each restart.
"""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from foxtrot.web.store.event_log import LoggedEvent, Store
from foxtrot.web.table.actor import TableActor
from foxtrot.web.table.views import view_of
from waiting import wait_until

from .web_support import STOP_SECONDS, create_at, free_port, join_at

pytestmark = pytest.mark.timeout(480)  # four restarts and a stop, with every core busy


class Server:
    """``foxtrot serve`` in a subprocess."""

    def __init__(self, url: str, home: Path) -> None:
        self.url = url
        self.home = home
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = os.environ | {"FOXTROT_HOME": str(self.home)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "foxtrot", "serve", "--port", str(self.port), "--db", self.url],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.home / "server.log", "ab"),  # noqa: SIM115
        )
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).json() == {"status": "ok"}:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not come up")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=STOP_SECONDS)


class Person(threading.Thread):
    """A person who plays his first legal action whenever it is his turn, and reconnects."""

    def __init__(self, server: Server, table: str, token: str, *, idle: bool = False) -> None:
        super().__init__(daemon=True)
        self.server, self.table, self.token, self.idle = server, table, token, idle
        self.acks: dict[str, int] = {}
        self.sent: dict[str, str] = {}
        self.last: tuple[int, dict[str, Any]] | None = None  # the newest (seq, view) seen
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self._session()
            except Exception:
                time.sleep(0.05)

    def _session(self) -> None:
        uri = f"ws://127.0.0.1:{self.server.port}/ws/tables/{self.table}"
        with connect(uri, open_timeout=2, close_timeout=0.2) as ws:
            last = self.last[0] if self.last else None
            ws.send(json.dumps({"type": "hello", "token": self.token, "last_seq": last}))
            while not self.stopping.is_set():
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if message["type"] == "ack":
                    with self.lock:
                        self.acks[message["id"]] = message["seq"]
                view = message.get("view")
                if message["type"] in ("event", "snapshot") and view:
                    with self.lock:
                        self.last = (message["seq"], view)
                    if view.get("legal") and not self.idle:
                        action_id = f"{self.table}-{message['seq']}"
                        self.sent[action_id] = view["legal"][0]
                        ws.send(
                            json.dumps(
                                {
                                    "type": "action",
                                    "id": action_id,
                                    "seq": message["seq"],
                                    "action": view["legal"][0],
                                }
                            )
                        )


def rebuilt_view(url: str, table: str, seq: int, seat: int) -> dict[str, Any]:
    """The view of ``seat`` at ``seq``, rebuilt from the log alone."""
    row = Store(url).load(table)
    assert row is not None
    row.events = [event for event in row.events if event.seq <= seq]
    actor = TableActor.restore(row, None)  # type: ignore[arg-type]
    view = view_of(actor.state, seat, undo=actor.persons == [seat])  # as the server sends it
    assert view is not None
    return view


def actions_of(url: str, table: str) -> list[LoggedEvent]:
    row = Store(url).load(table)
    assert row is not None
    return [event for event in row.events if event.kind == "action"]


def timer_moved(url: str, table: str, before: int) -> bool:
    """Whether the turn timer has played seat 0's turn more often than ``before`` times."""
    return len([e for e in actions_of(url, table) if e.seat == 0]) > before


def computers_moved(url: str, table: str, before: int) -> bool:
    """Whether the table's log holds more than ``before`` actions."""
    return len(actions_of(url, table)) > before


def test_kill_9_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    server = Server(url, tmp_path)
    server.start()
    rng = random.Random(20261201)
    people_table = create_at(server.base, options={"target": 400})
    mixed_table = create_at(server.base, seats=[{}, {"kind": "medium"}], options={"target": 400})
    bots_table = create_at(
        server.base, seats=[{"kind": "medium"}] * 4, options={"players": 4, "target": 400}
    )
    timer_table = create_at(
        server.base, seats=[{}, {"kind": "easy"}], turn_seconds=0.5, options={"target": 400}
    )
    people = [
        Person(server, people_table, join_at(server.base, people_table, "Ann")),
        Person(server, people_table, join_at(server.base, people_table, "Bob")),
        Person(server, mixed_table, join_at(server.base, mixed_table, "Cy")),
        Person(server, timer_table, join_at(server.base, timer_table, "Idle"), idle=True),
    ]
    seats = [0, 1, 0, 0]
    for person in people:
        person.start()
    try:
        for _round in range(4):
            time.sleep(rng.uniform(0.5, 2.0))
            server.kill()
            seen = []
            for person in people:
                with person.lock:
                    seen.append(person.last)
            bots_before = len(actions_of(url, bots_table))
            timer_before = [e.seq for e in actions_of(url, timer_table) if e.seat == 0]
            for person, seat, last in zip(people, seats, seen, strict=True):
                assert last is not None
                seq, view = last
                assert rebuilt_view(url, person.table, seq, seat) == view  # identical state
            timer_count = len(timer_before)
            server.start()
            # a deadline gets the downtime (heartbeats: 2 s) added: the timer's move comes a
            # few seconds after the start; the wait allows a machine with every core busy
            wait_until(
                functools.partial(timer_moved, url, timer_table, timer_count),
                timeout=60,
                interval=0.2,
                what="the turn timer back",
            )
            wait_until(
                functools.partial(computers_moved, url, bots_table, bots_before),
                timeout=60,
                interval=0.2,
                what="the computers playing on",
            )
    except BaseException:
        if server.proc is not None and server.proc.poll() is None:
            server.kill()  # leave no server behind a failed test
        raise
    finally:
        for person in people:
            person.stopping.set()
        for person in people:
            person.join(timeout=5)
    # uvicorn shuts down gracefully, then re-raises SIGTERM (exit status -15)
    assert server.stop() in (0, -signal.SIGTERM)
    assert '"event": "stopped"' in (tmp_path / "server.log").read_text(), "a clean stop"
    total = 0
    for person in people:
        logged = {e.action_id: e for e in actions_of(url, person.table) if e.action_id}
        for action_id, seq in person.acks.items():
            event = logged[action_id]  # nothing acknowledged is lost
            assert event.seq == seq and event.data["action"] == person.sent[action_id]
            total += 1
    assert total > 20
    for table in (people_table, mixed_table, bots_table, timer_table):
        events = Store(url).load(table).events  # type: ignore[union-attr]
        assert [e.seq for e in events] == list(range(1, len(events) + 1))  # no gap, no repeat
