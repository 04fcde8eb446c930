"""The protocol suite: every message and error of docs/protocol.md, on SQLite and PostgreSQL.

Each test runs once per database (the ``db_url`` fixture): an SQLite file and a
fresh database on a real PostgreSQL server started by the tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from waiting import stays_true

from .web_support import Message, Player, create, join, player, server, two_people

pytestmark = pytest.mark.timeout(30)


def table_seq(client: Any, table: str) -> int:
    return int(client.get(f"/api/tables/{table}").json()["seq"])


def event_number(seq: int) -> Callable[[Message], bool]:
    """Picks the event of number ``seq`` (bound now, not when the predicate runs)."""
    return lambda m: m["type"] == "event" and m["seq"] == seq


def movers(a: Player, b: Player) -> tuple[Player, Player]:
    """(the player to move, the other) once the deal is dealt."""
    while not (a.view and a.view["to_move"] is not None):
        a.recv()
    return (a, b) if a.view["to_move"] == a.view["seat"] else (b, a)


def test_healthz_create_join_start_play(db_url: str) -> None:
    with server(db_url) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        table, ann, bob = two_people(client)
        assert (ann["seat"], bob["seat"]) == (0, 1)
        assert len(ann["token"]) >= 43  # 32 random bytes, URL-safe: 256 bits
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["status"] == "playing"
        assert ann["token"] not in json.dumps(summary)
        with player(client, table, ann["token"]) as a, player(client, table, bob["token"]) as b:
            for number in range(6):
                mover, other = movers(a, b)
                view = mover.my_turn()
                assert len(view["hand"]) == view["hand_sizes"][view["seat"]] > 0
                ack = mover.act(view["legal"][0], f"m{number}")
                assert ack["type"] == "ack", ack
                event = other.until(event_number(ack["seq"]))
                assert event["data"]["action"] == view["legal"][0]
                assert event["text"], "every move is narrated"
                assert event["view"]["seat"] == other.latest["seat"] != view["seat"]


def test_narration_in_the_connections_language(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, bob = two_people(client)
        with (
            player(client, table, ann["token"], lang="ru") as a,
            player(client, table, bob["token"], lang="uk") as b,
        ):
            mover, other = movers(a, b)
            view = mover.my_turn()
            ack = mover.act(view["legal"][0], "x")
            mine = mover.until(lambda m: m["type"] == "event" and m["seq"] == ack["seq"])
            theirs = other.until(lambda m: m["type"] == "event" and m["seq"] == ack["seq"])
            assert mine["text"] != theirs["text"]  # same event, two catalogs
            for text in (mine["text"], theirs["text"]):
                assert any("\u0400" <= ch <= "\u04ff" for ch in "".join(text))  # Cyrillic


def test_take_under_take_any(db_url: str) -> None:
    with server(db_url) as client:
        table = create(
            client, options={"take": "any"}, seats=[{}, {"kind": "easy"}], first_dealer=1
        )["table"]
        ann = join(client, table, "Ann")
        with player(client, table, ann["token"]) as a:
            view = a.my_turn()
            assert "take" in view["legal"]  # the upturned card is a one-card pile (X1)
            ack = a.act("take", "t1")
            assert ack["type"] == "ack"
            event = a.until(lambda m: m["type"] == "event" and m["seq"] == ack["seq"])
            assert event["data"]["events"][0]["event"] == "pile_taken"
            assert event["view"]["taken"][0] == 1


def test_illegal_and_out_of_turn_change_nothing(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, bob = two_people(client)
        with player(client, table, ann["token"]) as a, player(client, table, bob["token"]) as b:
            mover, waiter = movers(a, b)
            view = mover.my_turn()
            before = table_seq(client, table)
            absent = next(c for c in ("AS", "AH", "KS", "KD", "2C", "3C") if c not in view["hand"])
            error = mover.act(absent, "bad1")
            assert error["code"] == "illegal" and "not in the hand" in error["message"]
            assert error["reason"] == "not_in_hand"
            error = mover.act("take", "bad3")  # two_people's tables play take = match
            assert (error["code"], error["reason"]) == ("illegal", "take_not_allowed")
            error = mover.act("pass", "bad2")  # not an action at all: no engine reason
            assert error["code"] == "illegal" and error["reason"] is None
            error = waiter.act(waiter.latest["hand"][0], "early", seq=before)
            assert error["code"] == "not_your_turn"
            assert table_seq(client, table) == before
            assert mover.act(view["legal"][0], "good") == {
                "type": "ack",
                "id": "good",
                "seq": before + 1,
            }


def test_tokens_missing_wrong_and_of_another_seat(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, _bob = two_people(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            p = Player(ws)
            p.send(type="action", id="a", seq=0, action="QS")
            assert p.error()["code"] == "no_token"
            p.send(type="hello", token="not-a-token")
            assert p.error()["code"] == "bad_token"
            p.send(type="hello", token=ann["token"], seat=1)
            error = p.error()
            assert error["code"] == "wrong_seat"
            assert ann["token"] not in json.dumps(p.received)
            p.send(type="hello", seat=1)
            assert p.error()["code"] == "no_token"
            p.send(type="hello", token=ann["token"], seat=0)
            assert p.until(lambda m: m["type"] == "welcome")["seat"] == 0
            p.send(type="hello", token=ann["token"])
            assert p.error()["code"] == "already_hello"
            p.send(type="action", id="b", seq=p.seq, action="QS", seat=1)
            assert p.error()["code"] == "wrong_seat"
        answer = client.get(f"/api/tables/{table}/record", headers={"Authorization": "Bearer x"})
        assert answer.status_code == 403 and answer.json()["code"] == "bad_token"
        assert client.get(f"/api/tables/{table}/record").json()["code"] == "no_token"


def test_malformed_oversize_unknown_and_bad_schema(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, _bob = two_people(client)
        with player(client, table, ann["token"]) as p:
            while p.latest["to_move"] is None:  # the deal is dealt: nothing else is due
                p.recv()
            before = table_seq(client, table)
            p.send_text("{not json")
            assert p.error()["code"] == "bad_json"
            p.send_text(json.dumps({"type": "action", "id": "x" * 5000}))
            error = p.error()
            assert error["code"] == "too_large" and "4096" in error["message"]
            p.send(type="dance", id="d1")
            error = p.error()
            assert error["code"] == "unknown_type" and error["id"] == "d1"
            p.send(type="action", id="s1", seq="three", action="QS")
            error = p.error()
            assert error["code"] == "bad_schema" and "seq" in error["message"]
            p.send_text("[1, 2]")
            assert p.error()["code"] == "bad_schema"
            p.send(type="ping")
            assert p.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
            assert table_seq(client, table) == before


def test_resent_action_is_answered_once_and_stale_seq_refused(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, bob = two_people(client)
        with player(client, table, ann["token"]) as a, player(client, table, bob["token"]) as b:
            mover, other = movers(a, b)
            view = mover.my_turn()
            seq = mover.seq
            first = mover.act(view["legal"][0], "same-id")
            again = mover.act(view["legal"][-1], "same-id", seq=seq)
            assert first == again == {"type": "ack", "id": "same-id", "seq": seq + 1}
            assert table_seq(client, table) == seq + 1
            other_view = other.my_turn()
            error = other.act(other_view["legal"][0], "late", seq=seq)
            assert error["code"] == "stale_seq"
            assert table_seq(client, table) == seq + 1
            bad = other.act("pass", "refused-id")
            assert other.act(other_view["legal"][0], "refused-id") == bad  # original result


def test_reconnect_gets_missed_events_then_snapshot(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, bob = two_people(client, grace_seconds=60)
        with player(client, table, ann["token"]) as a:
            while a.latest["to_move"] is None:
                a.recv()
            seen = a.seq
        with player(client, table, bob["token"]) as b:
            played = 0
            while played < 2 or b.latest["to_move"] != b.latest["seat"]:
                view = b.latest
                if view["to_move"] == view["seat"]:
                    b.act(view["legal"][0], f"b{played}")
                    played += 1
                    b.until(lambda m: m["type"] == "event" and m["seq"] == b.seq)
                else:
                    with player(client, table, ann["token"], last_seq=a.seq) as again:
                        move = again.my_turn()["legal"][0]
                        again.act(move, f"a{again.seq}")
                        a.seq = again.seq
                    b.until(lambda m: m["type"] == "event" and m["seq"] >= a.seq)
            target = b.seq
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            p = Player(ws)
            p.send(type="hello", token=ann["token"], last_seq=seen)
            snapshot = p.until(lambda m: m["type"] == "snapshot")
            missed = [m for m in p.received if m["type"] == "event"]
            assert [m["seq"] for m in missed] == list(range(seen + 1, target + 1))
            assert all(m["catchup"] and m["view"] is None and m["text"] for m in missed)
            assert snapshot["seq"] == target and snapshot["view"]["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            p = Player(ws)
            p.send(type="hello", token=ann["token"])
            snapshot = p.until(lambda m: m["type"] == "snapshot")
            assert not [m for m in p.received if m["type"] == "event"]  # no last_seq: snapshot only
            assert len(snapshot["view"]["hand"]) == snapshot["view"]["hand_sizes"][0]


def test_spectator_sees_the_public_view_only(db_url: str) -> None:
    with server(db_url) as client:
        table, ann, _bob = two_people(client)
        with player(client, table, None) as watcher:
            welcome = next(m for m in watcher.received if m["type"] == "welcome")
            assert welcome["role"] == "spectator" and welcome["seat"] is None
            view = watcher.view
            assert view is not None and "hand" not in view and "legal" not in view
            watcher.send(type="action", id="w", seq=watcher.seq, action="QS")
            assert watcher.error()["code"] == "spectator"
            with player(client, table, ann["token"]) as a:
                presence = watcher.until(lambda m: m["type"] == "presence")
                assert presence["seats"][0]["connected"] is True
                if a.latest["to_move"] == 0:
                    a.act(a.latest["legal"][0], "seen")
                    event = watcher.until(lambda m: m["type"] == "event")
                    assert "hand" not in event["view"] and event["view"]["seat"] is None


def test_grace_period_replacement_and_return(db_url: str) -> None:
    with server(db_url) as client:
        table = create(client, grace_seconds=0.3, seats=[{}, {"kind": "medium"}])["table"]
        ann = join(client, table, "Ann")
        with player(client, table, None) as watcher:
            presence = watcher.until(
                lambda m: m["type"] == "presence" and m["seats"][0]["computer_playing"]
            )
            assert presence["seats"][0]["connected"] is False
            moves = watcher.until(
                lambda m: m["type"] == "event" and m["kind"] == "action" and m["data"]["seat"] == 0
            )
            assert moves["data"]["seat"] == 0  # the computer played Ann's seat
            with player(client, table, ann["token"]) as a:
                back = watcher.until(
                    lambda m: m["type"] == "presence" and m["seats"][0]["connected"]
                )
                assert back["seats"][0]["computer_playing"] is False
                view = a.my_turn()
                # past the grace period (0.3 s) nothing plays his seat for him: the table
                # stays at his turn (a window the claim needs; generous, see stays_true)
                stays_true(
                    lambda: client.get(f"/api/tables/{table}").json()["seq"] == a.seq,
                    seconds=1.0,
                    what="Ann's turn waiting for Ann",
                )
                assert a.act(view["legal"][0], "mine")["type"] == "ack"  # his seat is his again


def test_turn_timer_expiry_plays_for_the_person(db_url: str) -> None:
    with server(db_url) as client:
        table = create(client, turn_seconds=0.4, seats=[{}, {"kind": "easy"}])["table"]
        ann = join(client, table, "Ann")
        with player(client, table, ann["token"]) as a:
            view = a.my_turn()
            presence = a.until(lambda m: m["type"] == "presence" and m["turn_deadline"])
            assert isinstance(presence["turn_deadline"], (int, float))  # a moment: epoch seconds
            # the deadline passes and the table plays a legal move for her (the test's own
            # timeout bounds the wait; how soon is no claim of this test)
            event = a.until(lambda m: m["type"] == "event" and m["data"].get("seat") == 0)
            assert event["data"]["action"] in view["legal"]


def test_leave_before_start_list_and_private_tables(db_url: str) -> None:
    with server(db_url) as client:
        public = create(client)["table"]
        private = create(client, public=False)["table"]
        listed = [t["table"] for t in client.get("/api/tables").json()["tables"]]
        assert public in listed and private not in listed
        ann = join(client, public, "Ann", seat=1)
        assert (
            client.post(f"/api/tables/{public}/join", json={"name": "X", "seat": 1}).json()["code"]
            == "seat_taken"
        )
        left = client.post(
            f"/api/tables/{public}/leave", headers={"Authorization": f"Bearer {ann['token']}"}
        )
        assert left.json() == {"table": public, "seat": 1, "left": True}
        assert join(client, public, "Bob", seat=1)["seat"] == 1
        join(client, public, "Cy")
        refused = client.post(
            f"/api/tables/{public}/leave", headers={"Authorization": f"Bearer {ann['token']}"}
        )
        assert refused.json()["code"] == "bad_token"
        assert client.get("/api/tables/nope").status_code == 404
        bad = client.post("/api/tables", json={"options": {"players": 12}})
        assert bad.status_code == 422


def test_metrics_page(db_url: str) -> None:
    with server(db_url) as client:
        create(client, seats=[{"kind": "easy"}, {"kind": "easy"}], options={"target": 5})
        text = client.get("/metrics").text
        for name in (
            "foxtrot_open_tables",
            "foxtrot_connections",
            "foxtrot_actions_total",
            "foxtrot_action_seconds",
            "foxtrot_bot_thinking_seconds",
        ):
            assert name in text


def test_record_and_replays_after_the_match(db_url: str) -> None:
    with server(db_url) as client:
        table = create(client, seats=[{}, {"kind": "easy"}], options={"target": 1})["table"]
        ann = join(client, table, "Ann")
        auth = {"Authorization": f"Bearer {ann['token']}"}
        early = client.get(f"/api/tables/{table}/record", headers=auth)
        assert early.status_code == 409 and early.json()["code"] == "not_finished"
        with player(client, table, ann["token"]) as a:
            number = 0
            while a.latest["winner"] is None:
                if a.latest["legal"]:
                    a.act(a.latest["legal"][-1], f"r{number}")
                    number += 1
                else:
                    a.recv()
        record = client.get(f"/api/tables/{table}/record", headers=auth).json()
        assert record["table"] == table and record["winner"] is not None
        assert all(deal["fair"]["server_seed"] for deal in record["deals"])
        mine = client.get(f"/api/tables/{table}/replay", headers=auth).json()
        public = client.get(f"/api/tables/{table}/replay").json()
        assert mine["seat"] == 0 and public["seat"] is None
        first = record["deals"][0]
        dealer = first["dealer"]
        own = [first["deck"][i] for i in range(8 * 2) if (dealer + 1 + i) % 2 == 0]
        assert sorted(mine["deals"][0]["hand"]) == sorted(own)  # its own hand as dealt
        assert public["deals"][0]["hand"] is None
        assert all("hand" not in step for step in public["deals"][0]["steps"])
        steps = [s["action"] for s in public["deals"][0]["steps"]]
        assert steps == [a.get("play", "take") for a in first["actions"]]
        assert mine["deals"][0]["scores"] == first["scores"]
        assert client.get("/").status_code == 200
