"""Helpers of the browser tests: ``foxtrot serve`` as a subprocess, Debian's Chromium, the HTTP API.

The browser is the system's ``/usr/bin/chromium`` driven by Playwright for
Python through ``executable_path``: ``playwright install`` downloads its own
browsers and cannot work here.  Nothing is skipped: a browser or a server that
does not start makes the tests fail with the reason.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import httpx
from playwright.sync_api import Browser, Error, Page, Playwright
from websockets.sync.client import connect

#: The system Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it when missing).
CHROMIUM: Final = "/usr/bin/chromium"
#: No GPU, no sandbox (tests run as root in containers), nothing that talks to the internet.
CHROMIUM_ARGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: Where screenshots and other artifacts of the browser tests go (``FOXTROT_ARTIFACTS`` overrides).
ARTIFACTS: Final = Path(
    os.environ.get(
        "FOXTROT_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
    )
)


#: A page of the server's origin with the game's style sheets and live regions, and nothing
#: else: the modules of the page (``/static/*.js``) are imported into it one by one.
BENCH: Final = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Foxtrot</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/replay/replay.css">
<link rel="stylesheet" href="/static/table/table.css">
</head><body><main id="main"><h1>Foxtrot</h1><div id="after"></div></main>
<div id="live-polite" class="sr-only" role="status" aria-live="polite"></div>
<div id="live-assertive" class="sr-only" role="alert" aria-live="assertive"></div>
</body></html>"""


def open_bench(page: Page, lang: str = "en") -> None:
    """Load ``BENCH`` from the server's origin and the catalog of ``lang`` into it."""
    page.goto("/healthz")
    page.set_content(BENCH)
    page.evaluate(
        "async (lang) => { const i18n = await import('/static/i18n.js'); await i18n.load(lang); }",
        lang,
    )


def open_after_match(page: Page, table: str, token: str | None, lang: str = "en") -> None:
    """The bench with ``mountAfterMatch`` of replay.js for ``table``, its replay loaded."""
    open_bench(page, lang)
    page.evaluate(
        """async ([table, token]) => {
            const { mountAfterMatch } = await import('/static/replay/replay.js');
            window.after = mountAfterMatch(document.getElementById('after'), { table, token });
            await window.after.ready;
        }""",
        [table, token],
    )
    page.wait_for_selector(".replay-body:not([hidden])")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless; a clear failure when it is missing or cannot start."""
    if not Path(CHROMIUM).exists():
        raise AssertionError(
            f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)"
        )
    try:
        return playwright.chromium.launch(
            executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), timeout=60_000
        )
    except Error as error:
        raise AssertionError(f"{CHROMIUM} did not start under Playwright: {error}") from error


T = TypeVar("T")

#: ``foxtrot serve`` options for a suite of many players behind one address, whose accounts
#: play each other again and again (every rated match counts: the profiles' test rates one
#: pair twice).
CROWD: Final = (
    "--computer-tables",
    "1000",
    "1000",
    "--expert-tables",
    "1000",
    "--rating-pair-hours",
    "0",
)

#: Playwright's deadline for every wait and ``expect`` (conftest.py sets both): generous, so
#: that a machine with every core busy passes; a condition that comes costs none of it.
TIMEOUT_MS: Final = 30_000


def page_wait_until(
    page: Page, predicate: Callable[[], T], *, timeout: float = 30.0, what: str = "the condition"
) -> T:
    """Poll a Python-side ``predicate`` (frames a route or a WebSocket listener collected)
    until it is true; return it.  The pause between two looks is Playwright's own
    ``wait_for_timeout``, because the sync API delivers those events only while the test is
    inside a Playwright call (``time.sleep`` would starve them)."""
    deadline = time.monotonic() + timeout
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        page.wait_for_timeout(50)


#: True once no finite animation runs on the page (a card's slide, a take's flight: the
#: table's animations are the Web Animations API's, so ``getAnimations`` sees them all).
SETTLED = """() => document.getAnimations().every((a) => a.playState !== "running"
  || a.effect?.getComputedTiming().endTime === Infinity)"""


def wait_settled(page: Page) -> None:
    """Wait until the page has drawn what it was just told (two animation frames: a resize's
    handler has run) and its animations are over, before a screenshot or a measurement,
    instead of sleeping for as long as they usually take."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    page.wait_for_function(SETTLED)


class ServerProcess:
    """``python -m foxtrot serve`` on a free port, its data (SQLite) and log in ``home``."""

    def __init__(self, home: Path, extra: tuple[str, ...] = ()) -> None:
        self.home = home
        self.extra = extra  # more ``foxtrot serve`` flags
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = home / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until ``/healthz`` says ok; fail with the log's tail if it does not."""
        env = os.environ | {"FOXTROT_HOME": str(self.home)}
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                # every test's tables come from one address, 127.0.0.1, and a test's table that
                # nobody watches any more plays by itself: the per-address limits on such tables
                # (tested in tests/web) would refuse the suite, a crowd behind one address
                [
                    sys.executable,
                    "-m",
                    "foxtrot",
                    "serve",
                    "--port",
                    str(self.port),
                    *CROWD,
                    *self.extra,
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: its workers end with it
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"foxtrot serve exited with {self.proc.returncode}:\n{self.tail()}"
                )
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=1).json() == {"status": "ok"}:
                    return
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(
            f"foxtrot serve did not answer /healthz in {timeout} s:\n{self.tail()}"
        )

    def stop(self) -> None:
        """SIGTERM (the server stops cleanly), SIGKILL if it lingers; then any worker process
        it left behind (its process group) is killed too."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def tail(self, lines: int = 40) -> str:
        """The last lines of the server's log (for failure messages)."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


class Api:
    """The server's HTTP API, for tests that set a table up without clicking through the lobby."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = httpx.Client(base_url=base_url, timeout=30)

    def create(self, **body: Any) -> dict[str, Any]:
        """Create a table (no seed window, no bot delay unless given); its summary."""
        body.setdefault("seed_seconds", 0)
        body.setdefault("bot_delay", 0)
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def join(self, table: str, name: str, seat: int | None = None) -> dict[str, Any]:
        """Join a table: the answer with ``seat`` and ``token``."""
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        response = self.http.post(f"/api/tables/{table}/join", json=body)
        assert response.status_code == 200, response.text
        return dict(response.json())

    def table(self, table: str) -> dict[str, Any]:
        """A table's public summary (status, seats, options)."""
        response = self.http.get(f"/api/tables/{table}")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def get(self, path: str, token: str | None = None, timeout: float = 30) -> httpx.Response:
        """GET ``path``, with a seat token as ``Authorization: Bearer`` when given."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.get(path, headers=headers, timeout=timeout)

    def wait_status(self, table: str, status: str, timeout: float = 60.0) -> dict[str, Any]:
        """Poll until the table has ``status`` (e.g. ``"over"``); its summary."""
        deadline = time.monotonic() + timeout
        seen = None
        while time.monotonic() < deadline:
            seen = self.table(table)
            if seen["status"] == status:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"table {table} is {seen and seen['status']!r}, not {status!r}")

    def finished_match(self, *, target: int = 1, players: int = 2) -> tuple[str, str]:
        """A match played to its end by computers for one person: (table id, his seat token).

        The person (seat 0) never connects, so with no grace period a computer
        plays his seat from the start; the record is served to him afterwards.
        """
        seats = [{"kind": "person"}] + [{"kind": "easy"}] * (players - 1)
        table = self.create(
            options={"players": players, "target": target}, seats=seats, grace_seconds=0
        )["table"]
        token = str(self.join(table, "Ann")["token"])
        self.wait_status(table, "over")
        return table, token

    def seeded_match(self, seed: str = "c0ffee00", *, target: int = 1) -> tuple[str, str]:
        """A finished two-person match whose first deal took a player's own seed.

        Seat 0 is connected when the deal is due and sends ``seed`` after the
        commitment; then both people are away and computers play the match out.
        """
        table = self.create(
            options={"players": 2, "target": target}, grace_seconds=0, seed_seconds=10
        )["table"]
        ann = self.join(table, "Ann")
        url = self.base_url.replace("http://", "ws://") + f"/ws/tables/{table}"
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": ann["token"]}))
            self.join(table, "Bob")  # every seat filled: the match starts, deal 0 is due
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                message = json.loads(ws.recv(timeout=30))
                if message.get("type") == "event" and message.get("kind") == "commit":
                    ws.send(json.dumps({"type": "seed", "deal": 0, "seed": seed}))
                if message.get("type") == "event" and message.get("kind") == "deal":
                    assert message["data"]["player_seeds"][0] == seed, message
                    break
            else:
                raise AssertionError("deal 0 was not dealt")
        self.wait_status(table, "over")
        return table, str(ann["token"])

    def close(self) -> None:
        self.http.close()
