"""Ratings of rated tables: the update against openskill, once per match.

The update is checked against ``openskill`` called directly, on hand-made results with
known answers; a rated match played over the WebSocket moves both players' ratings; a
match whose update never ran (its server stopped first) is rated by the next server, and
by no server twice.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from foxtrot.skill import START, ordinal, places, rate
from foxtrot.web.http.page import catalog_payload
from foxtrot.web.players.ratings import (
    COMPUTER_RATINGS,
    RatingStore,
    SeatAt,
    computer_rating,
    level_ties,
)
from waiting import stays_true

from .passkey_support import Passkey
from .test_web_accounts import plant, register
from .test_web_flow import play_first_legal_until
from .web_support import Player, ServerProcess, player, server

pytestmark = pytest.mark.timeout(180)


def test_two_players_known_answer() -> None:
    # openskill's own example: two new players, the first wins
    (win_mu, win_sigma), (lose_mu, lose_sigma) = rate([START, START], [1, 2])
    assert win_mu == pytest.approx(27.635389493140497)
    assert lose_mu == pytest.approx(22.364610506859503)
    assert win_sigma == lose_sigma == pytest.approx(8.06590141354368)


def test_four_players_with_a_tie_known_answer() -> None:
    after = rate([START] * 4, [1, 2, 2, 4])
    assert [round(mu, 6) for mu, _s in after] == [27.795253, 24.689416, 24.689416, 22.825915]
    assert after[1] == after[2]  # a tie is a tie


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(5, 45), st.floats(0.5, 9)), min_size=2, max_size=9).flatmap(
        lambda rs: st.tuples(
            st.just(rs), st.lists(st.integers(1, len(rs)), min_size=len(rs), max_size=len(rs))
        )
    )
)
def test_the_update_is_openskills_plackett_luce(
    case: tuple[list[tuple[float, float]], list[int]],
) -> None:
    ratings, ranks = case
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    expected = model.rate(teams, ranks=[float(r) for r in ranks])
    for (mu, sigma), team in zip(rate(ratings, ranks), expected, strict=True):
        assert mu == pytest.approx(team[0].mu) and sigma == pytest.approx(team[0].sigma)


@given(
    st.lists(st.integers(0, 500), min_size=2, max_size=9).flatmap(
        lambda t: st.tuples(st.just(t), st.integers(0, len(t) - 1))
    )
)
def test_places_put_the_winner_first_and_ties_together(case: tuple[list[int], int]) -> None:
    totals, winner = case
    found = places(totals, winner)
    assert found[winner] == 1 and found.count(1) == 1
    for a, b in itertools.combinations(range(len(totals)), 2):
        if winner not in (a, b):
            assert (found[a] == found[b]) == (totals[a] == totals[b])
            assert (found[a] < found[b]) == (totals[a] > totals[b])


def test_a_table_size_outside_two_to_nine_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 9"):
        rate([START], [1])
    with pytest.raises(ValueError, match="2 to 9"):
        rate([START] * 10, list(range(1, 11)))


def signed(client: TestClient, name: str) -> tuple[str, str]:
    """A new account's session cookie and CSRF token (the client then holds no cookie)."""
    client.cookies.clear()
    _key, me = register(client, name)
    cookie = str(client.cookies.get("foxtrot_session"))
    client.cookies.clear()
    return cookie, str(me["csrf"])


def finish(p: Player) -> None:
    """Play ``p``'s seat to the end of the match (the first legal card each turn)."""
    play_first_legal_until(p, lambda p: p.view is not None and p.view["phase"] == "over")


def play_to_the_end(client: TestClient, table: str, token: str) -> None:
    with player(client, table, token) as p:
        finish(p)


RATED = {
    "options": {"players": 2, "target": 1},
    "bot_delay": 0,
    "seed_seconds": 0,
    "grace_seconds": 0,  # Boris never connects: a computer plays his seat at once
    "rated": True,
}


def rated_tokens(
    client: TestClient, people: list[tuple[str, str]], body: dict[str, Any]
) -> tuple[str, list[str]]:
    """A rated table the first person creates and everybody joins; its id and seat tokens."""
    plant(client, people[0][0])
    made = client.post("/api/tables", json=body, headers={"X-CSRF-Token": people[0][1]})
    assert made.status_code == 201, made.text
    table = str(made.json()["table"])
    tokens = []
    for cookie, csrf in people:
        plant(client, cookie)
        joined = client.post(
            f"/api/tables/{table}/join", json={"name": "x"}, headers={"X-CSRF-Token": csrf}
        )
        assert joined.status_code == 200, joined.text
        tokens.append(str(joined.json()["token"]))
    client.cookies.clear()
    return table, tokens


def rated_match(client: TestClient, anna: tuple[str, str], boris: tuple[str, str]) -> str:
    """Anna creates a rated table, both join, Anna plays it to the end; the table's id."""
    table, tokens = rated_tokens(client, [anna, boris], RATED)
    play_to_the_end(client, table, tokens[0])
    return table


def wait_rated(client: TestClient, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = client.get(f"/api/tables/{table}/ratings").json()
        if found["rated"]:
            return dict(found)
        time.sleep(0.1)
    raise AssertionError("the match was never rated")


def outcome_of(url: str, table: str) -> list[int]:
    engine = sa.create_engine(url)
    with engine.connect() as db:
        rows = db.execute(
            sa.text("SELECT points, place FROM rating_changes WHERE table_id = :t ORDER BY seat"),
            {"t": table},
        ).all()
    engine.dispose()
    return [row[1] for row in rows]


@pytest.mark.postgres
def test_a_rated_match_moves_both_ratings_once(db_url: str) -> None:
    with server(db_url, rating_seconds=0.1) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table = rated_match(client, anna, boris)
        found = wait_rated(client, table)
        names = [change["name"] for change in found["changes"]]
        assert names == ["Anna", "Boris"]  # the accounts' names, not the join's
        ranks = [change["place"] for change in found["changes"]]
        assert sorted(ranks) in ([1, 2], [1, 1]) and ranks == outcome_of(db_url, table)
        expected = rate([START, START], ranks)
        for change, (mu, sigma) in zip(found["changes"], expected, strict=True):
            assert change["after"] == pytest.approx(round(ordinal(mu, sigma), 2))
            assert change["before"] == pytest.approx(round(ordinal(*START), 2))
        stays_true(  # more sweeps (every 0.1 s): nothing changes
            lambda: client.get(f"/api/tables/{table}/ratings").json() == found,
            seconds=0.5,
            what="the match's rating",
        )


@pytest.mark.postgres
def test_a_match_over_before_its_update_is_rated_by_the_next_server_once(db_url: str) -> None:
    # the first server stops between the match's end and its update (its sweep never runs)
    with server(db_url, rating_seconds=None) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table = rated_match(client, anna, boris)
        assert client.get(f"/api/tables/{table}/ratings").json()["rated"] is False
    with server(db_url, rating_seconds=0.1) as client:
        first = wait_rated(client, table)
    with (
        server(db_url, rating_seconds=0.1) as one,
        server(db_url, rating_seconds=0.1) as two,
    ):
        seen: list[Any] = []

        def both_first() -> bool:
            seen[:] = [c.get(f"/api/tables/{table}/ratings").json() for c in (one, two)]
            return seen == [first, first]

        stays_true(  # two processes sweeping the same database
            both_first,
            seconds=0.5,
            what=lambda: f"the match's rating at both processes: {first} then {seen}",
        )
    engine = sa.create_engine(db_url)
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT count(*) FROM rating_changes")).scalar() == 2
        assert db.execute(sa.text("SELECT sum(matches) FROM ratings")).scalar() == 2
    engine.dispose()


@pytest.mark.postgres
def test_a_rating_committed_while_it_is_read_is_answered_whole(db_url: str) -> None:
    # the sweep's commit lands right after the answer's first read: the answer is the match
    # before its update or after it, never a mix (no outcome with changes, "rated" with none)
    with server(db_url, rating_seconds=0.1) as client:
        table = rated_match(client, signed(client, "Anna"), signed(client, "Boris"))
        done = wait_rated(client, table)
    side = sa.create_engine(db_url)
    where = {"t": table}
    with side.begin() as db:  # the update taken back, kept to commit again mid-read
        rows = [
            dict(row._mapping)
            for row in db.execute(
                sa.text("SELECT * FROM rating_changes WHERE table_id = :t"), where
            )
        ]
        applied = db.execute(
            sa.text("SELECT applied_at FROM rated_tables WHERE table_id = :t"), where
        ).scalar()
        db.execute(sa.text("DELETE FROM rating_changes WHERE table_id = :t"), where)
        db.execute(
            sa.text(
                "UPDATE rated_tables SET outcome = NULL, applied_at = NULL WHERE table_id = :t"
            ),
            where,
        )
    fired: list[str] = []

    def commit_mid_read(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if fired or not statement.lstrip().startswith("SELECT rated_tables.outcome"):
            return
        fired.append(statement)
        with side.begin() as db:
            values = ", ".join(f":{name}" for name in rows[0])
            db.execute(sa.text(f"INSERT INTO rating_changes VALUES ({values})"), rows)
            db.execute(
                sa.text(
                    "UPDATE rated_tables SET outcome = 'rated', applied_at = :a WHERE table_id = :t"
                ),
                {"a": applied, "t": table},
            )

    with server(db_url, rating_seconds=None) as client:
        sa.event.listen(sa.engine.Engine, "after_cursor_execute", commit_mid_read)
        try:
            answer = client.get(f"/api/tables/{table}/ratings").json()
        finally:
            sa.event.remove(sa.engine.Engine, "after_cursor_execute", commit_mid_read)
        assert fired, "the answer never read the outcome"
        assert answer in ({**done, "rated": False, "outcome": None, "changes": []}, done)
        assert client.get(f"/api/tables/{table}/ratings").json() == done
    side.dispose()


def test_apply_twice_writes_once(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=None) as client:
        anna = signed(client, "Anna")
        signed(client, "Boris")
        plant(client, anna[0])
        table = client.post("/api/tables", json=RATED, headers={"X-CSRF-Token": anna[1]}).json()[
            "table"
        ]
    engine = sa.create_engine(sqlite_url)
    store = RatingStore(engine)
    with engine.connect() as db:
        ids = [row[0] for row in db.execute(sa.text("SELECT id FROM accounts ORDER BY name"))]
    seats = [SeatAt("person", ids[0]), SeatAt("hard", None)]
    assert store.apply(table, seats, [120, 80], winner=0)
    assert not store.apply(table, seats, [80, 120], winner=1)
    mu, sigma, matches = store.rating(ids[0])
    expected = rate([START, COMPUTER_RATINGS["hard"]], [1, 2])[0]
    assert mu == pytest.approx(expected[0]) and sigma == pytest.approx(expected[1])
    assert matches == 1
    engine.dispose()


def test_a_computer_plays_at_the_rating_of_its_table_size(sqlite_url: str) -> None:
    # measured: hard is told from medium at 2 and 3 players, not from 4 on (the lobby says so)
    assert computer_rating("hard", 2) == computer_rating("hard", 3) == COMPUTER_RATINGS["hard"]
    for players in range(4, 10):
        assert computer_rating("hard", players) == computer_rating("medium", players)
        assert "hard" in level_ties(players) and "medium" not in level_ties(players)
    assert "hard" not in level_ties(2) and computer_rating("nobody", 2) == START
    with server(sqlite_url, rating_seconds=None) as client:
        anna = signed(client, "Anna")
        signed(client, "Boris")
        plant(client, anna[0])
        table = client.post("/api/tables", json=RATED, headers={"X-CSRF-Token": anna[1]}).json()[
            "table"
        ]
    engine = sa.create_engine(sqlite_url)
    store = RatingStore(engine)
    with engine.connect() as db:
        ids = [row[0] for row in db.execute(sa.text("SELECT id FROM accounts ORDER BY name"))]
    seats = [SeatAt("person", ids[0])] + [SeatAt("hard", None)] * 3
    assert store.apply(table, seats, [210, 150, 120, 90], winner=0)
    mu, sigma, _ = store.rating(ids[0])
    four = computer_rating("hard", 4)
    expected = rate([START, four, four, four], [1, 2, 3, 4])[0]
    assert mu == pytest.approx(expected[0]) and sigma == pytest.approx(expected[1])
    engine.dispose()


def test_only_signed_in_people_sit_at_a_rated_table(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        refused = client.post("/api/tables", json=RATED)
        assert (refused.status_code, refused.json()["code"]) == (401, "not_signed_in")
        anna = signed(client, "Anna")
        plant(client, anna[0])
        computers = RATED | {"seats": [{"kind": "easy"}, {"kind": "hard"}]}
        assert (
            client.post("/api/tables", json=computers, headers={"X-CSRF-Token": anna[1]}).json()[
                "code"
            ]
            == "bad_options"
        )
        table = client.post("/api/tables", json=RATED, headers={"X-CSRF-Token": anna[1]}).json()[
            "table"
        ]
        no_token = client.post(f"/api/tables/{table}/join", json={"name": "Anna"})
        assert no_token.json()["code"] == "bad_csrf"
        headers = {"X-CSRF-Token": anna[1]}
        assert (
            client.post(
                f"/api/tables/{table}/join", json={"name": "x"}, headers=headers
            ).status_code
            == 200
        )
        twice = client.post(f"/api/tables/{table}/join", json={"name": "x"}, headers=headers)
        assert (twice.status_code, twice.json()["code"]) == (409, "seat_taken")
        client.cookies.clear()
        guest = client.post(f"/api/tables/{table}/join", json={"name": "Guest"})
        assert (guest.status_code, guest.json()["code"]) == (401, "not_signed_in")


@pytest.mark.slow
def test_killed_between_the_match_end_and_its_update_rated_once_after(tmp_path: Path) -> None:
    """``kill -9`` with a rated match over and not rated: the restart rates it, once."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    first = ServerProcess(url, tmp_path, "--rating-seconds", "3600")  # its one sweep is at boot
    first.start()
    try:
        origin = first.base
        people = []
        for name in ("Anna", "Boris"):
            http = httpx.Client(base_url=origin, timeout=30)
            begun = http.post("/api/account/register", json={"name": name}).json()
            key = Passkey("127.0.0.1", origin)
            body = {"challenge": begun["challenge"], "credential": key.create(begun["options"])}
            people.append(
                (http, http.post("/api/account/register/finish", json=body).json()["csrf"])
            )
        creator, csrf = people[0]
        table = creator.post("/api/tables", json=RATED, headers={"X-CSRF-Token": csrf}).json()[
            "table"
        ]
        for http, token in people:
            joined = http.post(
                f"/api/tables/{table}/join", json={"name": "x"}, headers={"X-CSRF-Token": token}
            )
            assert joined.status_code == 200, joined.text
        deadline = time.monotonic() + 60  # nobody connects: computers play both seats
        while httpx.get(f"{origin}/api/tables/{table}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the match did not end"
            time.sleep(0.1)
        assert httpx.get(f"{origin}/api/tables/{table}/ratings").json()["rated"] is False
        first.kill()  # kill -9: between the match's end and its update
        for http, _token in people:
            http.close()
    finally:
        if first.alive():
            first.kill()
    for _ in range(2):  # restarted, and killed again after the update: rated exactly once
        again = ServerProcess(url, tmp_path)
        again.start()
        try:
            deadline = time.monotonic() + 30
            while not httpx.get(f"{again.base}/api/tables/{table}/ratings").json()["rated"]:
                assert time.monotonic() < deadline, "never rated after the restart"
                time.sleep(0.1)
            time.sleep(0.3)
        finally:
            again.kill()
    engine = sa.create_engine(url)
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT count(*) FROM rating_changes")).scalar() == 2
        assert db.execute(sa.text("SELECT sum(matches) FROM ratings")).scalar() == 2
    engine.dispose()


def test_the_page_catalog_names_the_levels_rated_as_the_one_below() -> None:
    ties = catalog_payload("ru")["level_ties"]
    assert ties == {str(players): list(level_ties(players)) for players in range(2, 10)}
    assert "hard" in ties["4"] and "hard" not in ties["2"]
