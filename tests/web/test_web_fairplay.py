"""Fair play at scale: the attacks on rated play, each answered by the server.

One account sits in one seat of a table whatever many joins it sends at once (the join
and its link in one transaction, a unique index behind them); a match that cannot be
rated is logged with its cause, retried later, and never holds up the others.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from foxtrot.web.players.ratings import RETRY_FIRST, Retries, cause
from foxtrot.web.store import event_log

from .test_web_accounts import plant
from .test_web_ratings import RATED, play_to_the_end, rated_tokens, signed, wait_rated
from .web_support import server

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


def test_the_migration_keeps_one_seat_of_an_account_linked(tmp_path: Path) -> None:
    """A database written before the index: the doubles keep the lowest seat's link."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(event_log.__file__).parent / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005")
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
    with server(sqlite_url, rating_seconds=0.05) as client:
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
