"""Accounts without passwords: passkeys, sessions, CSRF, rate limits, deletion.

A software authenticator (passkey_support.py) signs real WebAuthn answers; the server
checks them with the ``webauthn`` package as it checks a device's.  On SQLite and on a
real PostgreSQL server.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from .passkey_support import Passkey
from .web_support import create, join, server

ORIGIN = "http://testserver"


def register(client: TestClient, name: str, lang: str = "en") -> tuple[Passkey, dict[str, Any]]:
    """A new account named ``name`` with one passkey; the passkey and ``/api/account``."""
    begun = client.post("/api/account/register", json={"name": name, "lang": lang})
    assert begun.status_code == 200, begun.text
    key = Passkey("testserver", ORIGIN)
    answer = key.create(begun.json()["options"])
    done = client.post(
        "/api/account/register/finish",
        json={"challenge": begun.json()["challenge"], "credential": answer},
    )
    assert done.status_code == 200, done.text
    return key, dict(done.json())


def sign_in(client: TestClient, key: Passkey) -> Any:
    """Sign in with ``key``; the finishing response."""
    begun = client.post("/api/account/sign-in")
    assert begun.status_code == 200, begun.text
    return client.post(
        "/api/account/sign-in/finish",
        json={
            "challenge": begun.json()["challenge"],
            "credential": key.get(begun.json()["options"]),
        },
    )


def plant(client: TestClient, session_id: str) -> None:
    """Make the client hold only this session cookie (as the server would have set it)."""
    client.cookies.clear()
    client.cookies.set("foxtrot_session", session_id, domain="testserver.local")


def add_passkey(client: TestClient, csrf: str) -> Passkey:
    """Add a second passkey to the signed-in account."""
    begun = client.post("/api/account/passkeys", headers={"X-CSRF-Token": csrf})
    assert begun.status_code == 200, begun.text
    key = Passkey("testserver", ORIGIN)
    done = client.post(
        "/api/account/passkeys/finish",
        json={
            "challenge": begun.json()["challenge"],
            "credential": key.create(begun.json()["options"]),
        },
        headers={"X-CSRF-Token": csrf},
    )
    assert done.status_code == 200, done.text
    return key


@pytest.mark.postgres
def test_register_sign_in_add_remove_delete(db_url: str) -> None:
    with server(db_url) as client:
        assert client.get("/api/account").json() == {"signed_in": False}
        first, me = register(client, "Anna", "ru")
        assert (me["name"], me["lang"], len(me["passkeys"])) == ("Anna", "ru", 1)
        cookie = client.cookies.get("foxtrot_session")
        assert cookie and len(cookie) >= 40
        csrf = me["csrf"]
        assert (
            client.post("/api/account/sign-out", headers={"X-CSRF-Token": csrf}).status_code == 200
        )
        assert client.get("/api/account").json() == {"signed_in": False}

        signed = sign_in(client, first)
        assert signed.status_code == 200, signed.text
        csrf = signed.json()["csrf"]
        second = add_passkey(client, csrf)
        keys = client.get("/api/account").json()["passkeys"]
        assert len(keys) == 2
        client.post("/api/account/sign-out", headers={"X-CSRF-Token": csrf})
        signed = sign_in(client, second)  # the second passkey opens the same account
        assert signed.json()["name"] == "Anna"
        csrf = signed.json()["csrf"]

        gone = client.delete(
            f"/api/account/passkeys/{keys[0]['id']}", headers={"X-CSRF-Token": csrf}
        )
        assert gone.status_code == 200 and len(gone.json()["passkeys"]) == 1
        assert sign_in(client, first).json()["code"] == "bad_passkey"  # removed: no account
        csrf = sign_in(client, second).json()["csrf"]
        last = client.delete(
            f"/api/account/passkeys/{keys[1]['id']}", headers={"X-CSRF-Token": csrf}
        )
        assert (last.status_code, last.json()["code"]) == (409, "last_passkey")

        lang = client.patch("/api/account", json={"lang": "uk"}, headers={"X-CSRF-Token": csrf})
        assert lang.status_code == 200 and client.get("/api/account").json()["lang"] == "uk"

        deleted = client.delete("/api/account", headers={"X-CSRF-Token": csrf})
        assert deleted.status_code == 200
        assert client.get("/api/account").json() == {"signed_in": False}
        assert sign_in(client, second).json()["code"] == "bad_passkey"
        register(client, "anna")  # the name is free again


def test_display_names_are_unique_whatever_the_case_and_fit_the_record_rule(
    sqlite_url: str,
) -> None:
    with server(sqlite_url) as client:
        register(client, "Борис")
        client.cookies.clear()
        taken = client.post("/api/account/register", json={"name": "БОРИС"})
        assert (taken.status_code, taken.json()["code"]) == (409, "name_taken")
        for bad in ("", "x" * 25, "a\nb", " Anna", "Anna ", "A former player"):
            refused = client.post("/api/account/register", json={"name": bad})
            assert refused.status_code == 422, (bad, refused.text)
            assert refused.json()["code"] == "bad_schema"
        assert client.post("/api/account/register", json={"name": "x" * 24}).status_code == 200


def test_a_state_change_without_the_csrf_token_is_refused(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        _key, me = register(client, "Vera")
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            for method, path in (
                ("DELETE", "/api/account"),
                ("POST", "/api/account/sign-out"),
                ("POST", "/api/account/passkeys"),
                ("DELETE", f"/api/account/passkeys/{me['passkeys'][0]['id']}"),
            ):
                answer = client.request(method, path, headers=headers)
                assert (answer.status_code, answer.json()["code"]) == (403, "bad_csrf"), path
            patch = client.patch("/api/account", json={"lang": "ru"}, headers=headers)
            assert patch.status_code == 403
        after = client.get("/api/account").json()
        assert after["signed_in"] and after["lang"] == "en" and len(after["passkeys"]) == 1


def test_one_accounts_cookie_cannot_act_for_another(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        _a, anna = register(client, "Anna")
        anna_cookie = client.cookies.get("foxtrot_session")
        client.cookies.clear()
        _b, boris = register(client, "Boris")
        boris_key = boris["passkeys"][0]["id"]
        plant(client, str(anna_cookie))
        # Anna's cookie with Boris's token: refused; with her own: his passkey is not hers
        refused = client.delete(
            f"/api/account/passkeys/{boris_key}", headers={"X-CSRF-Token": boris["csrf"]}
        )
        assert refused.json()["code"] == "bad_csrf"
        refused = client.delete(
            f"/api/account/passkeys/{boris_key}", headers={"X-CSRF-Token": anna["csrf"]}
        )
        assert (refused.status_code, refused.json()["code"]) == (404, "no_passkey")
        assert client.get("/api/account").json()["name"] == "Anna"
        engine = sa.create_engine(sqlite_url)
        with engine.connect() as db:
            assert db.execute(sa.text("SELECT count(*) FROM passkeys")).scalar() == 2
        engine.dispose()


def test_signing_in_rotates_the_session_and_the_old_id_is_useless(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        key, _me = register(client, "Gleb")
        before = str(client.cookies.get("foxtrot_session"))
        assert sign_in(client, key).status_code == 200
        after = str(client.cookies.get("foxtrot_session"))
        assert after != before
        plant(client, before)
        assert client.get("/api/account").json() == {"signed_in": False}
        # a session id planted before sign-in (fixation) is replaced, not adopted
        plant(client, "planted-by-someone-else")
        assert sign_in(client, key).status_code == 200
        assert client.cookies.get("foxtrot_session") not in {
            "planted-by-someone-else",
            before,
            after,
        }


def test_the_session_cookie_is_httponly_lax_and_secure_on_https(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        begun = client.post("/api/account/register", json={"name": "Dana"})
        key = Passkey("testserver", ORIGIN)
        done = client.post(
            "/api/account/register/finish",
            json={
                "challenge": begun.json()["challenge"],
                "credential": key.create(begun.json()["options"]),
            },
        )
        header = done.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    with server(sqlite_url) as client:
        client.base_url = client.base_url.copy_with(scheme="https")
        begun = client.post("/api/account/register", json={"name": "Eva"})
        key = Passkey("testserver", "https://testserver")
        done = client.post(
            "/api/account/register/finish",
            json={
                "challenge": begun.json()["challenge"],
                "credential": key.create(begun.json()["options"]),
            },
        )
        assert done.status_code == 200, done.text
        assert "secure" in done.headers["set-cookie"].lower()


def test_a_challenge_answers_once_and_only_from_this_origin(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        begun = client.post("/api/account/register", json={"name": "Ivan"})
        key = Passkey("testserver", ORIGIN)
        wrong = key.create(begun.json()["options"], origin="http://evil.example")
        body = {"challenge": begun.json()["challenge"], "credential": wrong}
        refused = client.post("/api/account/register/finish", json=body)
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_passkey")
        # the challenge was used by the refused answer: a good one is now too late
        body["credential"] = key.create(begun.json()["options"])
        assert (
            client.post("/api/account/register/finish", json=body).json()["code"] == "bad_passkey"
        )
        key, _me = register(client, "Ivan")
        begun = client.post("/api/account/sign-in")
        answer = key.get(begun.json()["options"])
        body = {"challenge": begun.json()["challenge"], "credential": answer}
        assert client.post("/api/account/sign-in/finish", json=body).status_code == 200
        again = client.post("/api/account/sign-in/finish", json=body)  # a replay
        assert again.json()["code"] == "bad_passkey"


def test_registration_and_sign_in_are_rate_limited(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        client.app.state.accounts.register_limit = (2, 600.0)  # type: ignore[attr-defined]
        client.app.state.accounts.sign_in_limit = (3, 600.0)  # type: ignore[attr-defined]
        for name in ("a1", "a2"):
            assert client.post("/api/account/register", json={"name": name}).status_code == 200
        third = client.post("/api/account/register", json={"name": "a3"})
        assert (third.status_code, third.json()["code"]) == (429, "throttled")
        for _ in range(3):
            assert client.post("/api/account/sign-in").status_code == 200
        assert client.post("/api/account/sign-in").status_code == 429


def test_a_session_is_valid_on_every_process_of_a_cluster(sqlite_url: str) -> None:
    with server(sqlite_url) as one, server(sqlite_url) as two:
        key, me = register(one, "Olga")
        plant(two, str(one.cookies.get("foxtrot_session")))
        assert two.get("/api/account").json()["name"] == "Olga"
        # a ceremony begun on one process finishes on the other
        begun = one.post("/api/account/sign-in")
        body = {
            "challenge": begun.json()["challenge"],
            "credential": key.get(begun.json()["options"]),
        }
        assert two.post("/api/account/sign-in/finish", json=body).status_code == 200
        signed_out = two.post(
            "/api/account/sign-out",
            headers={"X-CSRF-Token": two.get("/api/account").json()["csrf"]},
        )
        assert signed_out.status_code == 200
        plant(one, str(me and "stale"))
        assert one.get("/api/account").json() == {"signed_in": False}


def test_deleting_an_account_leaves_a_former_player_in_its_seats(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        _key, me = register(client, "Petr")
        table = create(client, options={"players": 2})["table"]
        join(client, table, "Petr")
        engine = sa.create_engine(sqlite_url)
        with engine.begin() as db:
            account = db.execute(sa.text("SELECT id FROM accounts")).scalar()
            db.execute(
                sa.text("UPDATE seats SET account_id = :a WHERE table_id = :t AND seat = 0"),
                {"a": account, "t": table},
            )
        assert (
            client.delete("/api/account", headers={"X-CSRF-Token": me["csrf"]}).status_code == 200
        )
        with engine.connect() as db:
            seat = db.execute(
                sa.text("SELECT name, account_id FROM seats WHERE table_id = :t AND seat = 0"),
                {"t": table},
            ).one()
            assert tuple(seat) == ("a former player", None)
            data = db.execute(
                sa.text("SELECT data FROM events WHERE table_id = :t AND kind = 'join'"),
                {"t": table},
            ).scalar()
            assert json.loads(str(data))["name"] == "a former player"
            for table_name in ("accounts", "passkeys", "sessions"):
                assert db.execute(sa.text(f"SELECT count(*) FROM {table_name}")).scalar() == 0
        engine.dispose()


def test_guests_play_without_an_account(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table = create(client, options={"players": 2})["table"]
        assert join(client, table, "Guest")["seat"] == 0
        assert client.get("/api/account").json() == {"signed_in": False}
