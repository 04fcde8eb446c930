"""Fair play at scale: the attacks on rated play, each answered by the server.

One account sits in one seat of a table whatever many joins it sends at once (the join
and its link in one transaction, a unique index behind them); a match that cannot be
rated is logged with its cause, retried later, and never holds up the others.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient

from foxtrot.skill import START, ordinal
from foxtrot.web.logs import cause
from foxtrot.web.players.accounts import REGISTER_LIMIT, Accounts
from foxtrot.web.players.names import skeleton
from foxtrot.web.players.ratings import RETRY_FIRST, Retries
from foxtrot.web.store import account_rows, event_log

from .passkey_support import Passkey
from .test_web_accounts import ORIGIN, plant, register
from .test_web_ratings import RATED, finish, play_to_the_end, rated_tokens, signed, wait_rated
from .web_support import ServerProcess, player, server

pytestmark = pytest.mark.timeout(180)

FOUR = RATED | {"options": {"players": 4, "target": 1}}


def linked_seats(url: str, table: str) -> list[tuple[int, str | None]]:
    """The seats of a table and the accounts linked to them, from the database."""
    engine = sa.create_engine(url)
    with engine.connect() as db:
        rows = db.execute(
            sa.text("SELECT seat, account_id FROM seats WHERE table_id = :t ORDER BY seat"),
            {"t": table},
        ).all()
    engine.dispose()
    return [(int(row[0]), row[1]) for row in rows]


@pytest.mark.postgres
def test_joins_sent_at_once_from_one_session_take_one_seat(db_url: str) -> None:
    with server(db_url) as client:
        anna = signed(client, "Anna")
        plant(client, anna[0])
        made = client.post("/api/tables", json=FOUR, headers={"X-CSRF-Token": anna[1]})
        table = made.json()["table"]

        def join(_n: int) -> tuple[int, str]:
            answer = client.post(
                f"/api/tables/{table}/join", json={"name": "x"}, headers={"X-CSRF-Token": anna[1]}
            )
            return answer.status_code, str(answer.json().get("code", ""))

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(join, range(8)))
        assert sorted(answers)[0] == (200, "")
        assert answers.count((200, "")) == 1, answers
        assert all(code == "seat_taken" for status, code in answers if status != 200), answers
        linked = [account for _seat, account in linked_seats(db_url, table) if account]
        assert len(linked) == 1


@pytest.mark.postgres
def test_the_database_refuses_one_account_in_two_seats(db_url: str) -> None:
    with server(db_url) as client:
        anna = signed(client, "Anna")
        table, _tokens = rated_tokens(client, [anna], FOUR)
    account = next(a for _s, a in linked_seats(db_url, table) if a)
    engine = sa.create_engine(db_url)
    with pytest.raises(sa.exc.IntegrityError) as refused, engine.begin() as db:
        db.execute(
            sa.text("UPDATE seats SET account_id = :a WHERE table_id = :t AND seat = 3"),
            {"a": account, "t": table},
        )
    assert event_log.seat_account_clash(refused.value)
    engine.dispose()


def migrated_to(url: str, revision: str) -> sa.Engine:
    """A database as an older release left it: the schema up to `revision`, no further."""
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(event_log.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return engine


def test_the_migration_keeps_one_seat_of_an_account_linked(tmp_path: Path) -> None:
    """A database written before the index: the doubles keep the lowest seat's link."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = migrated_to(url, "0005")
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO tables (id, created_at, config, status, seq, public, updated_at)"
                " VALUES ('t', 0, '{}', 'open', 0, 1, 0)"
            )
        )
        for seat, account in ((0, "a"), (1, "a"), (2, "b"), (3, None)):
            db.execute(
                sa.text(
                    "INSERT INTO seats (table_id, seat, kind, account_id)"
                    " VALUES ('t', :s, 'person', :a)"
                ),
                {"s": seat, "a": account},
            )
    engine.dispose()
    event_log.Store(url).close()  # migrated to the newest at its start
    assert linked_seats(url, "t") == [(0, "a"), (1, None), (2, "b"), (3, None)]


def test_a_match_that_cannot_be_rated_holds_up_no_other(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with server(sqlite_url, rating_seconds=None) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        tables = []
        for _ in range(3):
            table, tokens = rated_tokens(client, [anna, boris], RATED)
            play_to_the_end(client, table, tokens[0])
            tables.append(table)
    poisoned = tables[0]  # the oldest: the first the sweep reaches
    engine = sa.create_engine(sqlite_url)
    with engine.begin() as db:  # a change row already there: its insert fails
        db.execute(
            sa.text(
                "INSERT INTO rating_changes (table_id, seat, account_id, place, players, points,"
                " foxtrots, mu_before, sigma_before, mu_after, sigma_after, created_at, abandoned)"
                " VALUES (:t, 0, NULL, 1, 2, 0, 0, 25, 8, 25, 8, 0, 0)"
            ),
            {"t": poisoned},
        )
    engine.dispose()
    caplog.set_level(logging.INFO, logger="foxtrot.web")
    with server(sqlite_url, rating_seconds=0.05, rating_pair_hours=0) as client:
        for table in tables[1:]:
            assert len(wait_rated(client, table)["changes"]) == 2
        deadline = time.monotonic() + 30
        while not [r for r in caplog.records if r.getMessage() == "rating failed"]:
            assert time.monotonic() < deadline, "the failure was never logged"
            time.sleep(0.05)
    failed = [r for r in caplog.records if r.getMessage() == "rating failed"]
    assert {getattr(r, "table", None) for r in failed} == {poisoned}
    assert "IntegrityError" in str(getattr(failed[0], "cause", ""))
    assert "rating_changes" in str(getattr(failed[0], "cause", ""))
    # backed off: not tried at every sweep (0.05 s) but after 2 s, then 4 s...
    assert len(failed) <= 3
    assert not [r for r in caplog.records if r.getMessage() == "rating sweep failed"]


def test_retries_wait_longer_after_each_failure() -> None:
    now = [100.0]
    retries = Retries(clock=lambda: now[0])
    assert retries.due("t")
    assert retries.fail("t") == RETRY_FIRST
    assert not retries.due("t")
    now[0] += RETRY_FIRST
    assert retries.due("t")
    assert retries.fail("t") == 2 * RETRY_FIRST
    for _ in range(30):
        wait = retries.fail("t")
    assert wait == 600.0
    retries.done("t")
    assert retries.due("t")


def test_a_failure_s_cause_names_the_error_not_the_statement() -> None:
    engine = sa.create_engine("sqlite://")
    with engine.begin() as db:
        db.execute(sa.text("CREATE TABLE x (id INTEGER PRIMARY KEY)"))
        db.execute(sa.text("INSERT INTO x VALUES (1)"))
        try:
            db.execute(sa.text("INSERT INTO x VALUES (:secret)"), {"secret": 1})
        except sa.exc.IntegrityError as error:
            text = cause(error)
    assert text.startswith("IntegrityError: UNIQUE constraint failed")
    assert "INSERT" not in text and "parameters" not in text


# ------------------------------------------------------------ rated play measures play

ALONE = RATED | {"seats": [{"kind": "person"}, {"kind": "easy"}]}


def test_no_undo_hint_count_or_review_at_a_rated_table_before_its_end(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=None) as client:
        anna = signed(client, "Anna")
        table, tokens = rated_tokens(client, [anna], ALONE)
        bearer = {"Authorization": f"Bearer {tokens[0]}"}
        with player(client, table, tokens[0]) as a:
            a.my_turn()  # dealt, and my move
            a.send(type="undo")
            refused = a.error()
            assert (refused["code"], refused["reason"]) == ("no_undo", "rated")
            for answer in (
                client.post(f"/api/tables/{table}/hint", json={"lang": "en"}, headers=bearer),
                client.get(f"/api/tables/{table}/count", headers=bearer),
                client.get(f"/api/tables/{table}/review", params={"deal": 0}, headers=bearer),
            ):
                assert (answer.status_code, answer.json()["code"]) == (403, "rated_table")
            finish(a)
        assert client.get(f"/api/tables/{table}").json()["rated"] is True  # the page's flag
        after = client.get(f"/api/tables/{table}/review", params={"deal": 0}, headers=bearer)
        assert after.json().get("code") != "rated_table"  # open again once the match is over


def test_an_unrated_table_keeps_its_help(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        body = {k: v for k, v in ALONE.items() if k != "rated"}
        table = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{table}/join", json={"name": "Ann"}).json()["token"]
        with player(client, table, token) as a:
            a.my_turn()
            count = client.get(
                f"/api/tables/{table}/count", headers={"Authorization": f"Bearer {token}"}
            )
            assert count.status_code == 200, count.text


def test_a_seat_the_turn_timer_played_is_rated_as_abandoned(sqlite_url: str) -> None:
    """Both stay connected (no ``replaced`` is logged) and let the timer play every move."""
    idle = RATED | {"turn_seconds": 0.05, "grace_seconds": 3600}
    with server(sqlite_url, rating_seconds=0.05) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table, tokens = rated_tokens(client, [anna, boris], idle)
        with player(client, table, tokens[0]), player(client, table, tokens[1]):
            deadline = time.monotonic() + 120
            while client.get(f"/api/tables/{table}").json()["status"] != "over":
                assert time.monotonic() < deadline, "the match did not end"
                time.sleep(0.1)
        found = wait_rated(client, table)["changes"]
        assert [c["abandoned"] for c in found] == [True, True]
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as db:
        kinds = db.execute(
            sa.text("SELECT count(*) FROM events WHERE table_id = :t AND kind = 'replaced'"),
            {"t": table},
        ).scalar()
    engine.dispose()
    assert kinds == 0


def test_a_deleted_accounts_match_still_rates_the_others(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=None) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table, tokens = rated_tokens(client, [anna, boris], RATED)
        play_to_the_end(client, table, tokens[0])
        plant(client, boris[0])
        gone = client.delete("/api/account", headers={"X-CSRF-Token": boris[1]})
        assert gone.status_code == 200, gone.text
        client.cookies.clear()
    with server(sqlite_url, rating_seconds=0.05) as client:
        found = wait_rated(client, table)["changes"]
        assert [c["name"] for c in found] == ["Anna"]
        assert found[0]["before"] == pytest.approx(round(ordinal(*START), 2))
        assert client.get("/api/players/Anna").json()["rating"]["matches"] == 1


# ------------------------------------------------- tables that play by themselves


def test_a_person_seat_nobody_connects_to_counts_as_computers_only(sqlite_url: str) -> None:
    """The per-address limit (2) holds for tables whose person never connects, and such a
    table is closed after the unwatched time of a table of computers only."""
    body = {
        "options": {"players": 2, "target": 10_000},
        "seats": [{"kind": "person"}, {"kind": "easy"}],
        "bot_delay": 0.05,
        "seed_seconds": 0,
        "grace_seconds": 0,
    }
    with server(sqlite_url) as client:
        lobby = client.app.state.lobby_holder["lobby"]  # type: ignore[attr-defined]
        lobby.heartbeat = 0.05
        tables = []
        for _ in range(2):
            table = client.post("/api/tables", json=body).json()["table"]
            joined = client.post(f"/api/tables/{table}/join", json={"name": "Nobody"})
            assert joined.status_code == 200, joined.text
            tables.append(table)
        refused = client.post("/api/tables", json=body)
        assert (refused.status_code, refused.json()["code"]) == (429, "busy")
        assert "your address" in refused.json()["message"]
        lobby.unwatched_seconds = 0.3
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{tables[0]}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the unwatched table was never closed"
            time.sleep(0.05)
        again = client.post("/api/tables", json=body)  # room again
        assert again.status_code == 201, again.text


def test_a_table_whose_person_is_connected_is_not_capped(sqlite_url: str) -> None:
    body = {
        "options": {"players": 2, "target": 10_000},
        "seats": [{"kind": "person"}, {"kind": "easy"}],
        "bot_delay": 0.05,
        "seed_seconds": 0,
    }
    with server(sqlite_url) as client:
        first = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{first}/join", json={"name": "Ann"}).json()["token"]
        second = client.post("/api/tables", json=body).json()["table"]
        token2 = client.post(f"/api/tables/{second}/join", json={"name": "Ann"}).json()["token"]
        with player(client, first, token), player(client, second, token2):
            third = client.post("/api/tables", json=body)
            assert third.status_code == 201, third.text


# ---------------------------------------------------------------- accounts' small ones


@pytest.mark.postgres
def test_a_credential_id_over_1023_bytes_is_refused_clearly(db_url: str) -> None:
    with server(db_url) as client:
        begun = client.post("/api/account/register", json={"name": "Long"}).json()
        key = Passkey("testserver", ORIGIN, id=secrets.token_bytes(1100))
        answer = client.post(
            "/api/account/register/finish",
            json={"challenge": begun["challenge"], "credential": key.create(begun["options"])},
        )
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_passkey")
        assert "1023" in answer.json()["message"]
        assert client.get("/api/account").json() == {"signed_in": False}


def test_registering_a_known_passkey_again_says_so(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        key, _me = register(client, "Anna")
        client.cookies.clear()
        begun = client.post("/api/account/register", json={"name": "Other"}).json()
        again = client.post(
            "/api/account/register/finish",
            json={"challenge": begun["challenge"], "credential": key.create(begun["options"])},
        )
        assert (again.status_code, again.json()["code"]) == (409, "passkey_taken")


def test_the_sign_up_limit_counts_ten_minutes_not_five(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registration's challenge expires after 5 minutes; it still counts for 10."""
    now = [1_000_000.0]
    monkeypatch.setattr(account_rows, "time", SimpleNamespace(time=lambda: now[0]))
    store = event_log.Store(sqlite_url)
    rows = account_rows.AccountStore(store.engine)
    keep = Accounts(lambda: None, None).keep_challenges  # type: ignore[arg-type,return-value]
    for _ in range(2):
        rows.open_challenge("c", "register", "10.0.0.1", seconds=300, keep=keep)
    now[0] += 420  # 7 minutes: both expired, both within the 10-minute window
    rows.open_challenge("c", "sign-in", "10.0.0.9", seconds=300, keep=keep)  # cleans up
    assert rows.recent_challenges("10.0.0.1", "register", REGISTER_LIMIT[1]) == 2
    now[0] += 200  # 10 minutes and 20 seconds: gone from the count and from the table
    rows.open_challenge("c", "sign-in", "10.0.0.9", seconds=300, keep=keep)
    assert rows.recent_challenges("10.0.0.1", "register", REGISTER_LIMIT[1]) == 0
    store.close()


def test_the_servers_stderr_carries_only_json_lines(tmp_path: Path) -> None:
    """A request uvicorn cannot parse makes it warn: through the JSON logger, one object a
    line, with its cause and no traceback."""
    proc = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}", tmp_path)
    proc.start()
    try:
        with socket.create_connection(("127.0.0.1", proc.port), timeout=5) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            with contextlib.suppress(OSError):
                sock.recv(1024)
        assert httpx.get(f"{proc.base}/healthz").status_code == 200
        path = tmp_path / f"server-{proc.port}.log"
        deadline = time.monotonic() + 30
        while "Invalid HTTP request" not in path.read_text():
            assert time.monotonic() < deadline, path.read_text()[-2000:]
            time.sleep(0.05)
    finally:
        proc.stop()
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # each line one JSON object
    assert all(isinstance(item, dict) and "event" in item for item in parsed)
    warned = [item for item in parsed if "Invalid HTTP request" in item["event"]]
    assert warned and warned[0]["level"] == "warning"


def test_display_names_are_nfkc_and_refuse_invisible_and_path_characters(
    sqlite_url: str,
) -> None:
    with server(sqlite_url) as client:
        _key, me = register(client, "Ｆｏｘ")  # full-width letters: kept as plain ones
        assert me["name"] == "Fox"
        client.cookies.clear()
        for bad in ("An\u200bna", "An\u200dna", "\ufeffAnna", "a/b", "a\\b", "Anna\u00ad"):
            refused = client.post("/api/account/register", json={"name": bad})
            assert (refused.status_code, refused.json()["code"]) == (422, "bad_schema"), bad


def test_a_name_that_looks_like_a_taken_one_is_refused(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        register(client, "Anna")
        register(client, "Bob")
        client.cookies.clear()
        for look_alike in ("\u0410nna", "\u0391NNA", "ANNA", "B0B", "\u0412\u041e\u0412"):
            refused = client.post("/api/account/register", json={"name": look_alike})
            assert (refused.status_code, refused.json()["code"]) == (409, "name_taken"), look_alike
        assert client.post("/api/account/register", json={"name": "Annabel"}).status_code == 200


def test_skeletons_of_accounts_made_before_are_filled(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = migrated_to(url, "0006")
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO accounts (id, name, name_key, lang, created_at)"
                " VALUES ('a', '\u0410nna', '\u0430nna', 'en', 0)"
            )
        )
    engine.dispose()
    store = event_log.Store(url)
    assert not account_rows.AccountStore(store.engine).name_free("Anna")
    store.close()


def test_the_skeleton_stop_gap() -> None:
    assert skeleton("Anna") == skeleton("\u0410NN\u0430") == skeleton("\uff21nna")
    assert skeleton("rnary") == skeleton("mary") and skeleton("Bill") == skeleton("B1ll")
    assert skeleton("Anna") != skeleton("Anná") != skeleton("Ana")


def wait_outcome(client: TestClient, table: str) -> dict[str, Any]:
    """The ratings' answer once the sweep has dealt with the table (any outcome)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = client.get(f"/api/tables/{table}/ratings").json()
        if found["outcome"] is not None:
            return dict(found)
        time.sleep(0.05)
    raise AssertionError("the sweep never dealt with the match")


def test_the_same_pair_counts_once_per_window(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=0.05) as client:
        anna, boris, carl = signed(client, "Anna"), signed(client, "Boris"), signed(client, "Carl")
        outcomes = []
        for people in ([anna, boris], [anna, boris], [boris, anna], [anna, carl]):
            table, tokens = rated_tokens(client, people, RATED)
            play_to_the_end(client, table, tokens[0])
            found = wait_outcome(client, table)
            outcomes.append((found["outcome"], len(found["changes"])))
        assert outcomes == [("rated", 2), ("repeated", 0), ("repeated", 0), ("rated", 2)]
        assert client.get("/api/players/Anna").json()["rating"]["matches"] == 2
        assert client.get("/api/players/Boris").json()["rating"]["matches"] == 1
