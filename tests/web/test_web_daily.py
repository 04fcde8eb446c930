"""The deal of the day over HTTP and the WebSocket: the same committed deck for everyone,
one ranked play per account per day, the standing with the benchmark line, the reveal and
``foxtrot verify`` the next day, past days unranked.  "Today" is an injected clock."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.cli.main import main as cli_main
from foxtrot.web import fair
from foxtrot.web.daily import decks
from waiting import wait_until

from .test_web_accounts import plant
from .test_web_flow import play_first_legal_until
from .test_web_ratings import signed
from .web_support import Player, player, server

pytestmark = pytest.mark.timeout(300)


class Clock:
    """A settable "today" for the server."""

    def __init__(self, day: datetime.date) -> None:
        self.day = day

    def __call__(self) -> datetime.date:
        return self.day


DAY = datetime.date(2026, 12, 3)


def daily_server(url: str, clock: Clock) -> Any:
    # easy stands in for hard as the benchmark here: its line takes milliseconds, not a minute
    return server(url, daily={"today": clock, "benchmark_level": "easy", "bot_delay": 0})


def deal_done(p: Player) -> bool:
    return p.view is not None and bool(p.view.get("deal_scores"))


def play_it(client: TestClient, answer: dict[str, Any]) -> list[str]:
    """Play the first legal card each turn until the deal ends; the deck dealt, from the record."""
    with player(client, answer["table"], answer["token"]) as p:
        play_first_legal_until(p, deal_done)
    token = {"Authorization": f"Bearer {answer['token']}"}
    url = f"/api/tables/{answer['table']}"
    wait_until(  # closed after its one deal, or over: a deal that reached the target ends the match
        lambda: client.get(url).json()["status"] in ("closed", "over"),
        what=lambda: f"the table closed: {client.get(url).json()}",
    )
    record = client.get(f"/api/tables/{answer['table']}/record", headers=token).json()
    assert len(record["deals"]) == 1  # the deal of the day is one deal
    return list(record["deals"][0]["deck"])


def start(client: TestClient, csrf: str | None = None, **body: Any) -> Any:
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    return client.post("/api/daily/play", json={"variant": "2-match", **body}, headers=headers)


def test_todays_decks_are_committed_and_their_seeds_hidden(sqlite_url: str) -> None:
    clock = Clock(DAY)
    with daily_server(sqlite_url, clock) as client:
        today = client.get("/api/daily").json()
        assert today["day"] == "2026-12-03" and today["ranked"]
        assert [d["variant"] for d in today["decks"]] == list(decks.VARIANTS)
        for deck in today["decks"]:
            assert len(deck["commitment"]) == 64 and deck["server_seed"] is None
        again = client.get("/api/daily").json()
        assert [d["commitment"] for d in again["decks"]] == [
            d["commitment"] for d in today["decks"]
        ]
        assert len({d["commitment"] for d in today["decks"]}) == len(decks.VARIANTS)
        text = json.dumps(today)
        tomorrow = client.get("/api/daily", params={"day": "2026-12-04"})
        assert tomorrow.status_code == 400 and "not come yet" in tomorrow.json()["message"]
        bad = client.get("/api/daily/standing", params={"variant": "7-jacks"})
        assert bad.status_code == 400 and "7-jacks" in bad.json()["message"]
        clock.day = DAY + datetime.timedelta(days=1)
        later = client.get("/api/daily", params={"day": "2026-12-03"}).json()
        assert not later["ranked"]
        for before, after in zip(today["decks"], later["decks"], strict=True):
            seed = bytes.fromhex(after["server_seed"])
            assert fair.commitment(seed) == before["commitment"]
            assert after["server_seed"] not in text


def test_guests_and_accounts_play_the_same_deck_once_ranked(db_url: str, tmp_path: Path) -> None:
    clock = Clock(DAY)
    with daily_server(db_url, clock) as client:
        guest = start(client, name="Visitor")
        assert guest.status_code == 201, guest.text
        assert not guest.json()["ranked"]
        guest_deck = play_it(client, guest.json())
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        decks_seen = []
        for cookie, csrf in (anna, boris):
            plant(client, cookie)
            answer = start(client, csrf)
            assert answer.status_code == 201, answer.text
            assert answer.json()["ranked"]
            decks_seen.append(play_it(client, answer.json()))
            again = start(client, csrf)
            assert again.status_code == 409 and again.json()["code"] == "already_played"
            client.cookies.clear()
        assert decks_seen[0] == decks_seen[1] == guest_deck  # one deck for everyone
        plant(client, anna[0])
        no_csrf = start(client)
        assert no_csrf.status_code == 403  # signed in: the CSRF token is required
        client.cookies.clear()

        def standing() -> dict[str, Any]:
            return dict(client.get("/api/daily/standing", params={"variant": "2-match"}).json())

        wait_until(lambda: standing()["hard"] is not None)
        board = standing()
        assert sorted(row["name"] for row in board["standing"]) == ["Anna", "Boris"]
        assert [row["score"] for row in board["standing"]] == sorted(
            (row["score"] for row in board["standing"]), reverse=True
        )
        # the benchmark line is the benchmark level's own score on the same deck
        deck = client.get("/api/daily").json()["decks"][0]
        clock.day = DAY + datetime.timedelta(days=1)
        record = client.get("/api/daily/record", params={"variant": "2-match", "day": "2026-12-03"})
        assert record.status_code == 200, record.text
        assert record.json()["deals"][0]["deck"] == guest_deck
        assert record.json()["deals"][0]["fair"]["commitment"] == deck["commitment"]
        assert decks.score_of(record.json()["deals"][0]) == board["hard"]
        path = tmp_path / "yesterday.json"
        path.write_text(json.dumps(record.json()))
        assert cli_main(["verify", str(path)]) == 0
        tampered = record.json()
        tampered["deals"][0]["deck"] = list(reversed(tampered["deals"][0]["deck"]))
        path.write_text(json.dumps(tampered))
        assert cli_main(["verify", str(path)]) == 1
        # a past day is playable by an account again, unranked
        plant(client, anna[0])
        past = start(client, anna[1], day="2026-12-03")
        assert past.status_code == 201 and not past.json()["ranked"]


def test_a_play_result_has_the_score_the_line_and_the_swings(sqlite_url: str) -> None:
    with daily_server(sqlite_url, Clock(DAY)) as client:
        answer = start(client, name="Visitor").json()
        token = {"Authorization": f"Bearer {answer['token']}"}
        early = client.get(f"/api/daily/result/{answer['table']}", headers=token)
        assert early.status_code == 409 and early.json()["code"] == "not_finished"
        play_it(client, answer)
        wrong = client.get(f"/api/daily/result/{answer['table']}")
        assert wrong.status_code == 403
        result = client.get(f"/api/daily/result/{answer['table']}", headers=token).json()
        record = client.get(f"/api/tables/{answer['table']}/record", headers=token).json()
        assert result["score"] == record["deals"][0]["scores"][0]["total"]
        assert result["swings"] and all(
            abs(s["points"]) >= abs(t["points"])
            for s, t in zip(result["swings"], result["swings"][1:], strict=False)
        )
        spectator = client.get(f"/api/tables/{answer['table']}").json()
        assert spectator["daily"] == "2026-12-03"
        assert "seed" not in json.dumps(spectator)


@settings(max_examples=5, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.sampled_from(decks.VARIANTS))
def test_the_benchmark_play_is_the_same_every_time_and_verifies(seed: bytes, variant: str) -> None:
    # medium in the benchmark's seat: the same seeded path as hard's, in milliseconds
    players = decks.variant_options(variant)["players"]
    names = [f"P{i}" for i in range(players)]
    score, record = decks.play_out(seed.hex(), "2026-12-03", variant, names, "medium")
    again = decks.play_out(seed.hex(), "2026-12-03", variant, names, "medium")
    assert (score, record) == again
    assert record["deals"][0]["deck"] == decks.deck_of(seed, "2026-12-03", variant)
    assert score == record["deals"][0]["scores"][0]["total"]
    assert fair.verify_record(record) == ["deal 0: deck matches its commitment (0 player seeds)"]
