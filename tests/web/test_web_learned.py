"""The learned computer level on the server: ``learned`` (the shipped policies, 2 and 4
players) and an operator's ``foxtrot serve --learned PATH`` (``learned:NAME``): offered where a
policy plays, refused elsewhere with the sizes there are, played to the end of a match, kept in
the record."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from foxtrot.cli.main import main
from foxtrot.learn.policy import SHIPPED
from foxtrot.web.players.ratings import computer_rating, level_ties
from foxtrot.web.table.learned import LearnedLevels
from waiting import wait_until

from .test_web_flow import play_first_legal_until
from .web_support import create, join, player, server

pytestmark = pytest.mark.timeout(180)

#: An operator's policy: the shipped file under a name of 15 characters (``learned:NAME`` is
#: then longer than the 16 characters a seat's kind held before).
OPERATOR = "distilled-2p-v2"


@pytest.fixture
def operator_policy(tmp_path: Path) -> str:
    path = tmp_path / f"{OPERATOR}.npz"
    shutil.copyfile(SHIPPED / "learned-2p.npz", path)
    return str(path)


def refused(client: Any, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"seed_seconds": 0, "bot_delay": 0, **body})
    assert answer.status_code == 400, answer.text
    return dict(answer.json())


@pytest.mark.parametrize("players", [2, 4])
def test_a_learned_seat_plays_a_match_to_its_end(sqlite_url: str, players: int) -> None:
    computers = [f"Computer {i} (learned)" for i in range(2, players + 1)]
    with server(sqlite_url) as client:
        offered = client.get("/api/i18n/en").json()
        assert offered["learned"] == {"learned": [2, 4]}
        table = create(
            client,
            options={"players": players, "target": 60},
            seats=[{"kind": "person"}] + [{"kind": "learned"}] * (players - 1),
        )
        assert [seat["kind"] for seat in table["seats"][1:]] == ["learned"] * (players - 1)
        assert [seat["name"] for seat in table["seats"][1:]] == computers
        ann = join(client, table["table"], "Ann", 0)
        with player(client, table["table"], ann["token"]) as a:
            play_first_legal_until(a, lambda p: p.view is not None and p.view["phase"] == "over")
        record = client.get(
            f"/api/tables/{table['table']}/record",
            headers={"Authorization": f"Bearer {ann['token']}"},
        ).json()
        # the record keeps the level in the computer's name, and the computer moved
        assert record["names"] == ["Ann", *computers]
        moves = [action for deal in record["deals"] for action in deal["actions"]]
        assert any(action["seat"] == 1 for action in moves)
        assert max(record["totals"]) >= 60
        ru = client.get("/api/i18n/ru").json()["seat_names"]
        assert ru["Computer 2 (learned)"] == "Компьютер 2 (обученный)"


def test_learned_at_a_size_without_a_policy_is_refused_naming_the_sizes(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        seats = [{"kind": "person"}, {"kind": "learned"}, {"kind": "medium"}]
        error = refused(client, options={"players": 3}, seats=seats)
        assert error["code"] == "bad_options"
        assert error["message"] == (
            "seats: learned: no policy is shipped for 3 players (shipped: 2, 4)"
        )
        assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_an_operators_policy_is_a_level_at_its_size(db_url: str, operator_policy: str) -> None:
    kind = f"learned:{OPERATOR}"
    levels = LearnedLevels.load([operator_policy])
    with server(db_url, learned=levels) as client:
        catalog = client.get("/api/i18n/uk").json()
        assert catalog["learned"] == {"learned": [2, 4], kind: [2]}
        name = f"Computer 1 (learned: {OPERATOR})"
        assert catalog["seat_names"][name] == f"Комп'ютер 1 (навчений: {OPERATOR})"
        assert operator_policy not in str(catalog)  # the server's paths stay on the server
        # a table of the two learned levels plays by itself to its end
        table = create(
            client,
            options={"players": 2, "target": 30},
            seats=[{"kind": kind}, {"kind": "learned"}],
        )["table"]
        summary = wait_until(
            lambda: (got := client.get(f"/api/tables/{table}").json())["status"] == "over" and got,
            timeout=120,
            what="the computers' match to end",
        )
        assert [seat["kind"] for seat in summary["seats"]] == [kind, "learned"]
        assert [seat["name"] for seat in summary["seats"]] == [name, "Computer 2 (learned)"]
        error = refused(
            client,
            options={"players": 4},
            seats=[{"kind": "person"}, {"kind": kind}, {"kind": "easy"}, {"kind": "easy"}],
        )
        assert error["message"] == f"seats: {kind} was trained for 2 players, not 4"
        error = refused(client, seats=[{"kind": "person"}, {"kind": "learned:other"}])
        assert error["message"] == (
            f"seats: learned:other is not a level of this server (its learned levels: {kind})"
        )


def test_a_seat_kind_that_is_no_level_is_refused_by_the_schema(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        for kind in ("learned:", "learned:a b", "learned:../x", "learnedx", "oracle"):
            body = {"seats": [{"kind": "person"}, {"kind": kind}]}
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 422, (kind, answer.text)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "No such file"),
        (b"not a policy", "is not a numpy .npz file"),
    ],
)
def test_serve_refuses_a_bad_learned_file_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, reason: str
) -> None:
    path = tmp_path / "mine.npz"
    if content is not None:
        path.write_bytes(content)
    assert main(["serve", "--learned", f"{SHIPPED / 'learned-2p.npz'},{path}"]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"foxtrot serve: --learned {path}: learned: "), said
    assert reason in said and "Traceback" not in said


def test_serve_refuses_a_policy_name_that_cannot_name_a_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a policy with spaces.npz"
    shutil.copyfile(SHIPPED / "learned-2p.npz", path)
    assert main(["serve", "--learned", str(path)]) == 1
    assert "rename the file" in capsys.readouterr().err


def test_the_learned_level_is_rated_between_medium_and_hard_where_it_was_measured() -> None:
    assert computer_rating("medium", 2) < computer_rating("learned", 2) < computer_rating("hard", 2)
    # an operator's policy, and any size not measured, play at medium's rating
    assert computer_rating(f"learned:{OPERATOR}", 2) == computer_rating("medium", 2)
    assert computer_rating("learned", 4) == computer_rating("medium", 4)
    assert level_ties(2) == ("expert",)  # the ties of the other levels are unchanged
