"""Bot accounts: created by a signed-in person, listed, revoked; the bots' socket refuses a
bad token, a revoked one, a second connection and a flood; the token is never seen again.

In the test's process (FastAPI's test client); the whole match of the example bot on a real
server is tests/web/test_web_bot_match.py.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from foxtrot.web.store.bot_rows import token_hash
from waiting import wait_until

from .test_web_accounts import register
from .web_support import Player, server


def new_bot(client: TestClient, csrf: str, name: str = "Robo") -> dict[str, Any]:
    """Create a bot on the signed-in account; the answer (with the token)."""
    answer = client.post("/api/account/bots", json={"name": name}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def bot_hello(client: TestClient, token: str) -> tuple[Any, Player, dict[str, Any]]:
    """Open the bots' socket and say hello; the session, its player and the first answer."""
    ws = client.websocket_connect("/ws/bot")
    session = ws.__enter__()
    bot = Player(session)
    bot.send(type="hello", token=token)
    return ws, bot, bot.recv()


@pytest.mark.postgres
def test_create_list_revoke_and_the_token_is_shown_once(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with server(db_url) as client:
        _key, me = register(client, "Owner")
        csrf = me["csrf"]
        made = new_bot(client, csrf)
        token = made["token"]
        assert token.startswith("fxbot_") and len(token) >= 48
        assert made["name"] == "Robo" and made["revoked_at"] is None
        # a second bot named like the first, or like an account, is refused
        again = client.post(
            "/api/account/bots", json={"name": "R0bo"}, headers={"X-CSRF-Token": csrf}
        )
        assert again.status_code == 409 and again.json()["code"] == "name_taken"
        like_owner = client.post(
            "/api/account/bots", json={"name": "owner"}, headers={"X-CSRF-Token": csrf}
        )
        assert like_owner.status_code == 409
        # without the CSRF token nothing is made; signed out, nothing is listed
        no_csrf = client.post("/api/account/bots", json={"name": "Other"})
        assert no_csrf.status_code == 403 and no_csrf.json()["code"] == "bad_csrf"
        listed = client.get("/api/account/bots")
        assert listed.status_code == 200
        assert [bot["name"] for bot in listed.json()["bots"]] == ["Robo"]
        answers = [listed.text]
        # it plays, then is revoked: its connection ends with ``revoked``
        ws, bot, welcome = bot_hello(client, token)
        assert welcome == {"type": "bot_welcome", "bot": made["id"], "name": "Robo"}
        assert client.get("/api/account/bots").json()["bots"][0]["connected"] is True
        gone = client.delete(f"/api/account/bots/{made['id']}", headers={"X-CSRF-Token": csrf})
        assert gone.status_code == 200 and gone.json()["revoked"] is True
        answers.append(gone.text)
        assert bot.until(lambda m: m["type"] == "error")["code"] == "revoked"
        ws.__exit__(None, None, None)
        missing = client.delete("/api/account/bots/nope", headers={"X-CSRF-Token": csrf})
        assert missing.status_code == 404 and missing.json()["code"] == "no_bot"
        answers.append(client.get("/api/account/bots").text)
        with client.websocket_connect("/ws/bot") as ws2:
            late = Player(ws2)
            late.send(type="hello", token=token)
            refused = late.recv()
        assert refused["code"] == "revoked" and "revoked" in refused["message"]
        engine = sa.create_engine(db_url)
        with engine.connect() as db:
            stored = db.execute(sa.text("SELECT token_hash FROM bots")).scalars().all()
            dumped = "\n".join(
                json.dumps([list(row) for row in db.execute(sa.text(f"SELECT * FROM {table}"))])
                for table in ("bots", "accounts", "sessions", "events", "seats")
            )
        engine.dispose()
    assert stored == [token_hash(token)]
    secret = token.removeprefix("fxbot_")
    assert all(secret not in answer for answer in answers)
    assert secret not in dumped
    logged = [
        record.getMessage() + json.dumps(record.__dict__, default=str) for record in caplog.records
    ]
    assert any("bot created" in line for line in logged)
    assert all(secret not in line for line in logged)


def test_bad_token_second_connection_flood_and_rated_tables_are_refused(
    sqlite_url: str,
) -> None:
    with server(sqlite_url, message_rate=20.0) as client:
        _key, me = register(client, "Owner")
        token = new_bot(client, me["csrf"])["token"]
        with client.websocket_connect("/ws/bot") as ws:
            stranger = Player(ws)
            stranger.send(type="hello", token="fxbot_" + "A" * 43)
            answer = stranger.recv()
        assert answer["code"] == "bad_token" and "not known" in answer["message"]
        first_ws, first, welcome = bot_hello(client, token)
        assert welcome["type"] == "bot_welcome"
        with client.websocket_connect("/ws/bot") as ws:
            second = Player(ws)
            second.send(type="hello", token=token)
            answer = second.recv()
        assert answer["code"] == "bot_connected"
        assert "one connection per bot" in answer["message"]
        # before a table: no action
        first.send(type="action", id="a1", seq=0, action="QS")
        assert first.error()["code"] == "no_table"
        # a flood: past the bucket (40 at once), the rest is ``throttled``
        for _ in range(60):
            first.send(type="ping")
        kinds = [first.recv() for _ in range(60)]
        throttled = [m for m in kinds if m.get("code") == "throttled"]
        assert throttled and throttled[0]["message"] == "too many messages: slow down"
        assert sum(m["type"] == "pong" for m in kinds) + len(throttled) == 60
        first_ws.__exit__(None, None, None)
        # the first connection closed: the bot may connect again
        again_ws, again, welcome = bot_hello(client, token)
        assert welcome["type"] == "bot_welcome"
        # a rated table is the people's: neither created nor joined by a bot
        again.send(type="create", table={"rated": True})
        assert again.error()["code"] == "rated_table"
        rated = client.post(
            "/api/tables",
            json={"rated": True, "seats": [{"kind": "person"}, {"kind": "person"}]},
            headers={"X-CSRF-Token": me["csrf"]},
        )
        assert rated.status_code == 201, rated.text
        again.send(type="join", table=rated.json()["table"])
        refused = again.error()
        assert refused["code"] == "rated_table" and "casual" in refused["message"]
        assert (
            client.get(f"/api/tables/{rated.json()['table']}").json()["seats"][0]["taken"] is False
        )
        # unless a person seated at it invites the bot: then it sits there
        rated_id = rated.json()["table"]
        headers = {"X-CSRF-Token": me["csrf"]}
        early = client.post(
            f"/api/tables/{rated_id}/invite-bot", json={"name": "Robo"}, headers=headers
        )
        assert early.status_code == 409 and early.json()["code"] == "no_seat"
        seated = client.post(f"/api/tables/{rated_id}/join", json={"name": "x"}, headers=headers)
        assert seated.status_code == 200 and seated.json()["seat"] == 0, seated.text
        nobody = client.post(
            f"/api/tables/{rated_id}/invite-bot", json={"name": "Nobody"}, headers=headers
        )
        assert nobody.status_code == 404 and nobody.json()["code"] == "no_bot"
        invited = client.post(
            f"/api/tables/{rated_id}/invite-bot", json={"name": "robo"}, headers=headers
        )
        assert invited.status_code == 200 and invited.json()["invited"] is True, invited.text
        again.send(type="join", table=rated_id)
        sat = again.until(lambda m: m["type"] in ("welcome", "error"))
        assert sat["type"] == "welcome" and sat["seat"] == 1, sat
        assert client.get(f"/api/tables/{rated_id}").json()["seats"][1]["name"] == "BOT Robo"
        again_ws.__exit__(None, None, None)


def test_a_bot_creates_plays_and_is_rated_in_its_own_pool(sqlite_url: str) -> None:
    """A bot plays a whole match against computers through the socket, as ``BOT Robo``; its
    rating moves in the bots' pool and the people's ratings table stays empty."""
    with server(sqlite_url, rating_seconds=0.05) as client:
        _key, me = register(client, "Owner")
        token = new_bot(client, me["csrf"])["token"]
        ws, bot, _welcome = bot_hello(client, token)
        bot.send(
            type="create",
            table={
                "options": {"players": 2, "target": 40},
                "seats": [{"kind": "easy"}, {"kind": "person"}],
                "seed_seconds": 0,
                "bot_delay": 0,
            },
        )
        welcome = bot.until(lambda m: m["type"] == "welcome")
        table, seat = welcome["table"], welcome["seat"]
        assert seat == 1
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["seats"][1]["name"] == "BOT Robo" and summary["rated"] is False
        moves = 0
        while bot.view is None or bot.view["phase"] != "over":
            message = bot.recv()
            view = bot.view
            if message["type"] == "presence" and seat in (message.get("next_deal_waits") or []):
                bot.send(type="next_deal", deal=view["deal"] if view else 0)
            if view and view.get("legal") and view["to_move"] == seat and message["type"] != "ack":
                moves += 1
                bot.act(view["legal"][0], f"m{moves}")
        assert moves > 0 and bot.latest["winner"] is not None
        ws.__exit__(None, None, None)

        def rated() -> list[dict[str, Any]]:
            bots = client.get("/api/account/bots").json()["bots"]
            return [b for b in bots if b["rating"] is not None]

        found = wait_until(rated, what="the bot's rating in the bots' pool")
        assert found[0]["rating"]["matches"] == 1
        engine = sa.create_engine(sqlite_url)
        with engine.connect() as db:
            people = db.execute(sa.text("SELECT COUNT(*) FROM ratings")).scalar_one()
        engine.dispose()
        assert people == 0


def test_a_stopping_server_says_goodbye_to_its_bots(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        _key, me = register(client, "Owner")
        token = new_bot(client, me["csrf"])["token"]
        ws, bot, welcome = bot_hello(client, token)
        assert welcome["type"] == "bot_welcome"
        lobby = client.app.state.lobby_holder["lobby"]  # type: ignore[attr-defined]
        assert client.portal is not None
        client.portal.call(lobby.goodbye, 0.5)
        said = bot.until(lambda m: m["type"] == "goodbye")
        assert said["code"] == 1001 and said["text"]
        ws.__exit__(None, None, None)
