"""Profiles and leaderboards: what they show after rated matches, and nothing hidden."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from .test_web_accounts import plant
from .test_web_ratings import RATED, play_to_the_end, rated_tokens, signed, wait_rated
from .web_support import server

pytestmark = pytest.mark.timeout(300)
CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")
HIDDEN = {"hand", "hands", "token", "seed", "seeds", "stock", "secret", "deck"}


def rated_table(client: TestClient, people: list[tuple[str, str]], computers: list[str]) -> str:
    """A rated table of ``people`` then ``computers``, played to the end by the first person."""
    seats = [{"kind": "person"}] * len(people) + [{"kind": kind} for kind in computers]
    body = RATED | {"options": {"players": len(seats), "target": 1}, "seats": seats}
    table, tokens = rated_tokens(client, people, body)
    play_to_the_end(client, table, tokens[0])
    wait_rated(client, table)
    return table


def walk(value: Any) -> list[tuple[str, Any]]:
    """Every (key, value) pair in a JSON value, at any depth."""
    found: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            found.append((key, inner))
            found += walk(inner)
    elif isinstance(value, list):
        for inner in value:
            found += walk(inner)
    return found


@pytest.mark.postgres
def test_profiles_and_leaderboards_after_a_two_and_a_four_player_match(db_url: str) -> None:
    with server(db_url, rating_seconds=0.1, rating_pair_hours=0) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        two = rated_table(client, [anna, boris], [])
        four = rated_table(client, [anna, boris], ["easy", "hard"])
        profile = client.get("/api/players/ANNA").json()  # any case
        assert profile["name"] == "Anna"
        assert [size["players"] for size in profile["by_size"]] == [2, 4]
        assert [size["played"] for size in profile["by_size"]] == [1, 1]
        assert profile["rating"]["matches"] == 2
        assert len(profile["chart"]) == 2
        assert profile["chart"][-1]["rating"] == profile["rating"]["rating"]
        newest, oldest = profile["matches"]
        assert (newest["table"], oldest["table"]) == (four, two)
        assert [o["name"] for o in oldest["others"]] == ["Boris"]
        assert [o["kind"] for o in newest["others"]] == ["person", "easy", "hard"]
        assert newest["rules"]["players"] == 4 and newest["links"]["table"] == f"/t/{four}"
        for key, value in walk(profile):
            assert key not in HIDDEN, key
            assert not (isinstance(value, str) and CARD.match(value)), (key, value)

        board = client.get("/api/leaderboard").json()
        assert board["total"] == 2
        assert [e["rank"] for e in board["entries"]] == [1, 2]
        ratings = [e["rating"] for e in board["entries"]]
        assert ratings == sorted(ratings, reverse=True)
        assert {e["name"] for e in board["entries"]} == {"Anna", "Boris"}
        four_board = client.get("/api/leaderboard", params={"players": 4}).json()
        assert {e["name"] for e in four_board["entries"]} == {"Anna", "Boris"}
        assert client.get("/api/leaderboard", params={"players": 3}).json()["total"] == 0
        assert client.get("/api/leaderboard", params={"min_matches": 3}).json()["total"] == 0
        second = client.get("/api/leaderboard", params={"per_page": 1, "page": 2}).json()
        assert second["entries"] == [board["entries"][1] | {"rank": 2}]
        assert client.get("/api/leaderboard", params={"per_page": 0}).status_code == 422
        assert client.get("/api/leaderboard", params={"players": 10}).status_code == 422
    with server(
        db_url, rating_seconds=0.1, rating_pair_hours=0
    ) as client:  # a restart changes nothing
        assert client.get("/api/players/Anna").json() == profile
        assert client.get("/api/leaderboard").json() == board


def test_an_unknown_player_is_404_and_the_page_is_served(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        missing = client.get("/api/players/Nobody")
        assert (missing.status_code, missing.json()["code"]) == (404, "no_player")
        signed(client, "Vera")
        fresh = client.get("/api/players/Vera").json()
        assert fresh["rating"] is None and fresh["matches"] == [] and fresh["by_size"] == []
        page = client.get("/p/Vera")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert client.get("/leaderboard").status_code == 200


def test_a_deleted_account_becomes_a_former_player_in_others_history(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=0.1) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        rated_table(client, [anna, boris], [])
        plant(client, boris[0])
        assert client.delete("/api/account", headers={"X-CSRF-Token": boris[1]}).status_code == 200
        client.cookies.clear()
        assert client.get("/api/players/Boris").status_code == 404
        (match,) = client.get("/api/players/Anna").json()["matches"]
        assert [o["name"] for o in match["others"]] == ["a former player"]
        board = client.get("/api/leaderboard").json()
        assert [e["name"] for e in board["entries"]] == ["Anna"]


def test_a_guest_who_signs_in_after_the_match_claims_its_seat(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        guest = {
            "options": {"players": 2, "target": 1},
            "seats": [{"kind": "person"}, {"kind": "easy"}],
            "grace_seconds": 0,
            "seed_seconds": 0,
            "bot_delay": 0,
        }
        table = client.post("/api/tables", json=guest).json()["table"]
        token = client.post(f"/api/tables/{table}/join", json={"name": "Guest"}).json()["token"]
        other = client.post("/api/tables", json=guest | {"grace_seconds": 600}).json()["table"]
        other_token = client.post(f"/api/tables/{other}/join", json={"name": "G2"}).json()["token"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{table}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        cookie, csrf = signed(client, "Lidia")
        plant(client, cookie)

        def claim(table_id: str, seat_token: str, token: str | None = csrf) -> Any:
            headers = {"Authorization": f"Bearer {seat_token}"}
            if token:
                headers["X-CSRF-Token"] = token
            return client.post(f"/api/tables/{table_id}/claim", headers=headers)

        assert claim(table, token, None).json()["code"] == "bad_csrf"
        assert claim(table, other_token).json()["code"] == "bad_token"  # another table's token
        early = claim(other, other_token)
        assert (early.status_code, early.json()["code"]) == (409, "not_finished")
        done = claim(table, token)
        assert done.status_code == 200 and done.json() == {
            "table": table,
            "seat": 0,
            "claimed": True,
        }
        assert claim(table, token).json()["code"] == "seat_taken"
        profile = client.get("/api/players/Lidia").json()
        assert profile["unrated_matches"] == 1 and profile["matches"] == []
        assert client.delete("/api/account", headers={"X-CSRF-Token": csrf}).status_code == 200
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as db:  # the claimed seat went with the account
        seat = db.execute(
            sa.text("SELECT name, account_id FROM seats WHERE table_id = :t AND seat = 0"),
            {"t": table},
        ).one()
    engine.dispose()
    assert tuple(seat) == ("a former player", None)
