"""Rated tables: a person who abandons, a rated rematch, the sweep in a cluster.

- A person away past the grace period is played for by a computer; if he is still away when
  the match ends he is rated by the place his seat finished and the match is recorded as
  abandoned (his change, his profile); a return during the match is logged and undoes it.
- The rematch of a rated table is rated, each person signed in as the account of his seat.
- Tables owned by different processes of a cluster (Redis, PostgreSQL) are each rated once,
  whichever process sweeps, also after a ``kill -9`` of one of them.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.skill import START, ordinal, places, rate
from foxtrot.web.players.ratings import RatingStore
from foxtrot.web.store.event_log import EVENTS, Store
from waiting import stays_true

from .conftest import new_postgres_database
from .passkey_support import Passkey
from .test_web_accounts import plant
from .test_web_ratings import RATED, finish, rated_tokens, signed, wait_rated
from .web_support import ServerProcess, player, server

pytestmark = pytest.mark.timeout(300)
#: Boris may leave and come back: a computer plays his seat half a second after he left.
AWAY = RATED | {"grace_seconds": 0.5}


def logged(kind: str, seat: int, after: int) -> Any:
    """A predicate: the event ``kind`` about ``seat`` after sequence number ``after``."""
    return lambda m: (
        m["type"] == "event"
        and m["kind"] == kind
        and m["data"]["seat"] == seat
        and m["seq"] > after
    )


@pytest.mark.postgres
def test_a_person_a_computer_finishes_for_is_rated_by_his_seat_and_abandoned(db_url: str) -> None:
    with server(db_url, rating_seconds=0.1) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table, tokens = rated_tokens(client, [anna, boris], AWAY)
        with player(client, table, tokens[0]) as a:
            with player(client, table, tokens[1]) as b:
                entered = b.seq
            # Boris closed his page: after the grace period a computer plays for him
            gone = a.until(logged("replaced", 1, entered))
            with player(client, table, tokens[1]):  # back while the match is played
                back = a.until(logged("returned", 1, gone["seq"]))
            a.until(logged("replaced", 1, back["seq"]))  # and away again, for good
            finish(a)
            view = a.latest
        found = wait_rated(client, table)["changes"]
        ranks = places(view["totals"], view["winner"])
        assert [c["place"] for c in found] == ranks  # Boris loses (or wins) as his seat did
        assert [c["abandoned"] for c in found] == [False, True]
        for change, (mu, sigma) in zip(found, rate([START, START], ranks), strict=True):
            assert change["after"] == pytest.approx(round(ordinal(mu, sigma), 2))
        boris_page = client.get("/api/players/boris").json()
        assert boris_page["abandoned"] == 1 and boris_page["matches"][0]["abandoned"] is True
        anna_page = client.get("/api/players/Anna").json()
        assert anna_page["abandoned"] == 0 and anna_page["matches"][0]["abandoned"] is False


@pytest.fixture(scope="module")
def away_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """One migrated SQLite database for every example."""
    return Store(f"sqlite:///{tmp_path_factory.mktemp('away') / 'server.db'}")


_tables = itertools.count()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.sampled_from(["person", "medium"]), min_size=2, max_size=5).flatmap(
        lambda kinds: st.tuples(
            st.just(kinds),
            st.lists(
                st.tuples(
                    st.integers(0, len(kinds) - 1), st.sampled_from(["replaced", "returned"])
                ),
                max_size=8,
            ),
        )
    )
)
def test_abandoned_is_the_logs_last_word_on_a_persons_seat(
    away_store: Store, case: tuple[list[str], list[tuple[int, str]]]
) -> None:
    kinds, words = case
    table = f"away{next(_tables)}"
    away_store.create_table(table, {"rated": True}, [(kind, None) for kind in kinds])
    rows = [
        {"table_id": table, "seq": seq, "kind": kind, "seat": seat, "data": "{}", "created_at": 0.0}
        for seq, (seat, kind) in enumerate(words, start=1)
    ]
    with away_store.engine.begin() as db:
        if rows:
            db.execute(EVENTS.insert(), rows)
    last = {seat: kind for seat, kind in words}
    expected = [kind == "person" and last.get(i) == "replaced" for i, kind in enumerate(kinds)]
    assert [seat.abandoned for seat in RatingStore(away_store.engine).seats(table)] == expected


def test_the_rematch_of_a_rated_table_is_rated_with_everybody_signed_in(sqlite_url: str) -> None:
    # a rematch is one pair again: its ratings count only with the pair rule off
    with server(sqlite_url, rating_seconds=0.1, rating_pair_hours=0) as client:
        anna, boris = signed(client, "Anna"), signed(client, "Boris")
        table, tokens = rated_tokens(client, [anna, boris], RATED)
        with player(client, table, tokens[0]) as a:
            finish(a)
        first = {c["name"]: c for c in wait_rated(client, table)["changes"]}
        path = f"/api/tables/{table}/rematch"

        def ask(who: tuple[str, str] | None, token: str, csrf: bool = True) -> httpx.Response:
            client.cookies.clear()
            headers = {"Authorization": f"Bearer {token}"}
            if who is not None:
                plant(client, who[0])
                if csrf:
                    headers["X-CSRF-Token"] = who[1]
            answer: httpx.Response = client.post(path, headers=headers)
            return answer

        guest = ask(None, tokens[0])
        assert (guest.status_code, guest.json()["code"]) == (401, "not_signed_in")
        no_csrf = ask(anna, tokens[0], csrf=False)
        assert (no_csrf.status_code, no_csrf.json()["code"]) == (403, "bad_csrf")
        another = ask(boris, tokens[0])  # Boris signed in, with Anna's seat token
        assert (another.status_code, another.json()["code"]) == (403, "bad_token")
        assert client.get(f"/api/tables/{table}").json()["rematch"] is None  # nothing made
        made = ask(anna, tokens[0])
        assert made.status_code == 200, made.text
        again = str(made.json()["table"])
        assert client.get(f"/api/tables/{again}/ratings").json() == {
            "table": again,
            "rated": False,
            "outcome": None,
            "changes": [],
        }  # a rated table, not rated yet
        joined = ask(boris, tokens[1])
        assert joined.status_code == 200, joined.text
        assert (joined.json()["table"], joined.json()["seat"]) == (again, 1)
        with player(client, again, made.json()["token"]) as a:
            finish(a)
        second = wait_rated(client, again)["changes"]
        assert [c["name"] for c in second] == ["Anna", "Boris"]
        for change in second:  # each moved on from where the first match left him
            assert change["before"] == first[change["name"]]["after"]
        assert client.get("/api/players/Anna").json()["rating"]["matches"] == 2


def test_the_rematch_of_an_unrated_table_stays_unrated(sqlite_url: str) -> None:
    with server(sqlite_url, rating_seconds=0.1) as client:
        body = RATED | {"rated": False}
        made = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{made}/join", json={"name": "Ann"}).json()["token"]
        client.post(f"/api/tables/{made}/join", json={"name": "Bob"})
        with player(client, made, token) as a:
            finish(a)
        again = client.post(
            f"/api/tables/{made}/rematch", headers={"Authorization": f"Bearer {token}"}
        )
        assert again.status_code == 200, again.text
        rated = client.get(f"/api/tables/{again.json()['table']}/ratings")
        assert (rated.status_code, rated.json()["code"]) == (404, "no_table")


def account_at(base: str, name: str) -> tuple[httpx.Client, str]:
    """A new account registered at the process ``base``: its HTTP client and CSRF token."""
    http = httpx.Client(timeout=30)
    begun = http.post(f"{base}/api/account/register", json={"name": name}).json()
    key = Passkey("127.0.0.1", base)
    body = {"challenge": begun["challenge"], "credential": key.create(begun["options"])}
    done = http.post(f"{base}/api/account/register/finish", json=body)
    assert done.status_code == 200, done.text
    return http, str(done.json()["csrf"])


def rated_everywhere(db: str) -> tuple[int, int, list[list[tuple[float, float, float, float]]]]:
    """The rating rows: changes, rated matches, and each account's chain of (before, after)."""
    engine = sa.create_engine(db)
    with engine.connect() as db_:
        changes = db_.execute(sa.text("SELECT count(*) FROM rating_changes")).scalar()
        matches = db_.execute(sa.text("SELECT sum(matches) FROM ratings")).scalar()
        rows = db_.execute(
            sa.text(
                "SELECT account_id, mu_before, sigma_before, mu_after, sigma_after"
                " FROM rating_changes ORDER BY account_id, created_at"
            )
        ).all()
    engine.dispose()
    chains: dict[str, list[tuple[float, float, float, float]]] = {}
    for row in rows:
        chains.setdefault(row[0], []).append((row[1], row[2], row[3], row[4]))
    return int(changes or 0), int(matches or 0), list(chains.values())


@pytest.mark.slow
def test_tables_owned_by_different_processes_are_each_rated_once(
    postgres_server: str, redis_server: str, tmp_path: Path
) -> None:
    """Two processes own the rated tables and both sweep; then one is killed with ``kill -9``
    and a new one sweeps at its start: every match is rated once, no update is lost."""
    db = new_postgres_database(postgres_server)
    # nobody connects to these tables: they play by themselves, 6 from one address
    bus: tuple[str, ...] = ("--bus", redis_server, "--lease-seconds", "1.5")
    bus += ("--rating-seconds", "0.2", "--computer-tables", "20", "10")
    procs = [ServerProcess(db, tmp_path, *bus) for _ in range(2)]
    for proc in procs:
        proc.start(wait=False)
    for proc in procs:
        proc.wait_ready()
    people: list[tuple[httpx.Client, str]] = []
    try:
        names = ("Anna", "Boris", "Carl", "Dora")
        people = [account_at(procs[0].base, name) for name in names]
        # six different pairs: a pair's matches count once per 6 hours (ratings.PAIR_HOURS)
        pairs = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
        tables = []
        for number, pair in enumerate(pairs):  # made (and owned) by each process in turn
            base = procs[number % 2].base
            http, csrf = people[pair[0]]
            made = http.post(f"{base}/api/tables", json=RATED, headers={"X-CSRF-Token": csrf})
            assert made.status_code == 201, made.text
            table = str(made.json()["table"])
            for who in pair:  # nobody connects: computers play both seats
                http, csrf = people[who]
                joined = http.post(
                    f"{base}/api/tables/{table}/join",
                    json={"name": "x"},
                    headers={"X-CSRF-Token": csrf},
                )
                assert joined.status_code == 200, joined.text
            tables.append(table)
        owners = [
            set(httpx.get(f"{proc.base}/api/cluster", timeout=5).json()["owned"]) & set(tables)
            for proc in procs
        ]
        assert all(owners), f"every process owns some of the tables: {owners}"
        deadline = time.monotonic() + 120
        for table in tables:
            while not httpx.get(f"{procs[1].base}/api/tables/{table}/ratings").json()["rated"]:
                assert time.monotonic() < deadline, f"{table} was never rated"
                time.sleep(0.2)
        first = rated_everywhere(db)
        stays_true(  # more sweeps of both processes
            lambda: rated_everywhere(db) == first, seconds=1.0, what="the ratings", interval=0.2
        )
        procs[0].kill()  # kill -9; a new process sweeps at its start
        procs[0] = ServerProcess(db, tmp_path, *bus)
        procs[0].start()  # ready: it has booted and swept
        stays_true(
            lambda: rated_everywhere(db) == first, seconds=1.5, what="the ratings", interval=0.2
        )
    finally:
        for http, _csrf in people:
            http.close()
        for proc in procs:
            if proc.alive():
                proc.kill()
    changes, matches, chains = first
    assert changes == matches == 2 * len(pairs)
    assert sorted(len(chain) for chain in chains) == [3, 3, 3, 3]
    for chain in chains:  # each update started from the one before: none lost, none twice
        for earlier, later in itertools.pairwise(chain):
            assert later[:2] == pytest.approx(earlier[2:])
