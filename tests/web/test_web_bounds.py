"""The bounds of what one client may cost: the hello deadline, names, one search per seat.

(The HTTP server's own limits, header size, keep-alive and connections, are tested on a
real ``foxtrot serve`` in test_web_hostile.py.)
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import WebSocketDisconnect

from foxtrot.cli.main import build_parser
from foxtrot.core import State, TableOptions, dumps
from foxtrot.web.http import record_check, review
from foxtrot.web.http.app import HELLO_SECONDS
from foxtrot.web.http.running import Limits
from foxtrot.web.protocol import ProtocolError
from waiting import wait_until_async

from .web_support import create, server

pytestmark = pytest.mark.timeout(60)


def test_a_socket_without_a_hello_is_closed_with_1008(sqlite_url: str) -> None:
    with server(sqlite_url, hello_seconds=0.3) as client:
        table = create(client)["table"]
        with client.websocket_connect(f"/ws/tables/{table}") as silent:
            error = json.loads(silent.receive_text())
            assert error["code"] == "need_hello" and "0.3 s" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                silent.receive_text()
            assert closed.value.code == 1008
            assert closed.value.reason == "no hello within 0.3 s of connecting"
        with client.websocket_connect(f"/ws/tables/{table}") as pinging:  # pings are no hello
            pinging.send_text(json.dumps({"type": "ping"}))
            assert json.loads(pinging.receive_text())["type"] == "pong"
            assert json.loads(pinging.receive_text())["code"] == "need_hello"
        with client.websocket_connect(f"/ws/tables/{table}") as refused:  # a refused hello
            refused.send_text(json.dumps({"type": "hello", "token": "not-a-token"}))
            assert json.loads(refused.receive_text())["code"] == "bad_token"
            assert json.loads(refused.receive_text())["code"] == "need_hello"
        with client.websocket_connect(f"/ws/tables/{table}") as polite:
            polite.send_text(json.dumps({"type": "hello"}))
            # past the deadline: a socket opened after it, silent, has been closed for want of
            # a hello by now; the polite one said hello, it stays
            with client.websocket_connect(f"/ws/tables/{table}") as later:
                assert json.loads(later.receive_text())["code"] == "need_hello"
                with pytest.raises(WebSocketDisconnect):
                    later.receive_text()
            polite.send_text(json.dumps({"type": "ping"}))
            kinds: list[str] = []
            while not kinds or kinds[-1] != "pong":
                kinds.append(json.loads(polite.receive_text())["type"])
            assert "error" not in kinds


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("", "'' is empty"),
        ("x" * 41, "has 41 characters; a name has at most 40"),
        ("   ", "has no letter, digit or symbol"),
        ("\u200b", "has no letter, digit or symbol"),
        ("Ann\u202eboB", "U+202E, a bidirectional control"),
        ("Ann\x1b[31m", "U+001B, a control character"),
        ("Ann\nBob", "U+000A, a control character"),
        ("Ann\u2028Bob", "U+2028, a control character"),
    ],
)
def test_an_unfit_name_is_a_422_that_says_why(sqlite_url: str, name: str, said: str) -> None:
    with server(sqlite_url) as client:
        table = create(client)["table"]
        answer = client.post(f"/api/tables/{table}/join", json={"name": name})
        assert answer.status_code == 422, answer.text
        error = answer.json()
        assert error["code"] == "bad_schema" and error["message"].startswith("name: ")
        assert said in error["message"], error
        plan = [{"kind": "easy", "name": name}, {}]
        answer = client.post("/api/tables", json={"seats": plan})
        assert answer.status_code == 422 and said in answer.json()["message"], answer.text
        assert answer.json()["message"].startswith("seats.0.name: ")
        assert client.get(f"/api/tables/{table}").json()["seats"][0]["taken"] is False


def test_a_name_of_40_characters_with_spaces_inside_is_fit(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table = create(client)["table"]
        name = " Анна-Мария " + "é" * 28
        assert len(name) == 40
        answer = client.post(f"/api/tables/{table}/join", json={"name": name})
        assert answer.status_code == 200, answer.text
        assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == name


def test_a_seat_has_one_review_search_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[int, int | None]] = []
    release = threading.Event()

    def slow_review(
        _record: Any, seat: int, _lang: str, deal: int | None, _budget: Any
    ) -> dict[str, Any]:
        """Seat 0's first search runs until the test has asked for the others."""
        started.append((seat, deal))
        if (seat, deal) == (0, 0):
            assert release.wait(60), "never released"
        return {"seat": seat, "deal": deal}

    class ThreadReviewer(review.Reviewer):
        def _executor(self) -> Any:
            return ThreadPoolExecutor(max_workers=4)

    monkeypatch.setattr(review, "review_json", slow_review)

    async def main() -> list[Any]:
        reviewer = ThreadReviewer()

        def ask(seat: int, deal: int) -> Any:
            return reviewer.review(("t", seat, deal, "en"), {}, seat, "en", deal)

        first = asyncio.ensure_future(ask(0, 0))
        await wait_until_async(lambda: (0, 0) in started, what="seat 0's first search running")
        asked = [asyncio.ensure_future(ask(seat, deal)) for seat, deal in ((0, 1), (0, 0), (1, 0))]
        await wait_until_async(
            lambda: asked[0].done() and asked[2].done(),
            what="the other deal refused and the other seat answered",
        )
        assert not first.done() and not asked[1].done()  # the shared search is still running
        release.set()
        results = list(await asyncio.gather(*asked, first, return_exceptions=True))
        results.append(await ask(0, 1))  # the seat's search is over: the next one may start
        return results

    other_deal, same, other_seat, first, later = asyncio.run(main())
    assert isinstance(other_deal, ProtocolError) and other_deal.code.value == "busy"
    assert "seat 0" in other_deal.message
    assert same == first == {"seat": 0, "deal": 0}  # the same review is shared, not refused
    assert other_seat == {"seat": 1, "deal": 0}
    assert later == {"seat": 0, "deal": 1}
    assert sorted(started) == [(0, 0), (0, 1), (1, 0)]


def test_the_command_line_defaults_are_the_servers() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.hello_seconds == HELLO_SECONDS
    limits = Limits()
    assert (
        args.max_header_bytes,
        args.keep_alive_seconds,
        args.max_connections,
        args.header_seconds,
        args.max_body_bytes,
    ) == (
        limits.header_bytes,
        limits.keep_alive,
        limits.connections,
        limits.header_seconds,
        limits.body_bytes,
    )


@functools.cache
def _long_record() -> bytes:
    """A match of two players 60,000 actions long (2 MB; its check is ~0.3 s of CPU)."""
    rng = random.Random(7)
    state = State(TableOptions(target=100000), rng=rng)
    for _ in range(60000):
        if state.to_move is None:
            state.deal(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return dumps(state).encode()


def test_the_record_check_runs_in_a_worker_within_its_limits() -> None:
    record = _long_record()

    async def main() -> list[Any]:
        checker = record_check.Checker()
        tight = record_check.Checker(cpu_seconds=0.05)
        stuck = record_check.Checker(wall_seconds=0.001)  # no answer in time: worker killed
        one = record_check.Checker(pending=1)
        try:
            answers: list[Any] = [
                await checker.check(record),
                await checker.check(b"{"),
                await checker.check(record.replace(b'"decks": 2', b'"decks": 3')),
            ]
            for limited in (tight, stuck):
                with pytest.raises(ProtocolError) as refused:
                    await limited.check(record)
                answers.append(refused.value)
            stuck.wall_seconds = 60.0
            answers.append(await stuck.check(record))  # a new worker after the killed one
            answers.extend(
                await asyncio.gather(one.check(record), one.check(record), return_exceptions=True)
            )
            return answers
        finally:
            for each in (checker, tight, stuck, one):
                each.close()

    ok, unread, broken, tight, stuck, again, first, second = asyncio.run(main())
    assert ok == again == first == {"ok": True}
    assert unread["ok"] is False and unread["stage"] == "read"
    assert broken["ok"] is False and broken["stage"] == "rules"
    for refused, seconds in ((tight, "0.05 s"), (stuck, "5 s")):
        assert refused.code.value == "too_large" and seconds in refused.message
        assert "foxtrot verify FILE" in refused.message
    assert isinstance(second, ProtocolError) and second.code.value == "busy"
