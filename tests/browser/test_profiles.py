"""Profiles and the leaderboard in Chromium, after real rated matches.

Two accounts are made over HTTP with software passkeys (tests/web/passkey_support.py);
their rated matches are played to the end by computers (no grace period, nobody connects),
then the page at ``/p/{name}`` and ``/leaderboard`` is looked at on a desktop and a phone.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from web.passkey_support import Passkey

from .browser_support import Api
from .conftest import NewContext

pytestmark = pytest.mark.timeout(300)
CARD = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b")


def account(base_url: str, name: str) -> tuple[httpx.Client, str]:
    """A client signed in to a new account ``name``, and its CSRF token."""
    client = httpx.Client(base_url=base_url, timeout=30)
    begun = client.post("/api/account/register", json={"name": name})
    assert begun.status_code == 200, begun.text
    key = Passkey(base_url.split("//")[1].split(":", maxsplit=1)[0], base_url)
    credential = key.create(begun.json()["options"])
    done = client.post(
        "/api/account/register/finish",
        json={"challenge": begun.json()["challenge"], "credential": credential},
    )
    assert done.status_code == 200, done.text
    return client, str(done.json()["csrf"])


def rated(api: Api, people: list[tuple[httpx.Client, str]], computers: list[str]) -> str:
    seats = [{"kind": "person"}] * len(people) + [{"kind": kind} for kind in computers]
    body = {
        "options": {"players": len(seats), "target": 1},
        "seats": seats,
        "grace_seconds": 0,
        "seed_seconds": 0,
        "bot_delay": 0,
        "rated": True,
    }
    creator, csrf = people[0]
    made = creator.post("/api/tables", json=body, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201, made.text
    table = str(made.json()["table"])
    for client, token in people:
        joined = client.post(
            f"/api/tables/{table}/join", json={"name": "x"}, headers={"X-CSRF-Token": token}
        )
        assert joined.status_code == 200, joined.text
    api.wait_status(table, "over")
    deadline = time.monotonic() + 30
    while not api.get(f"/api/tables/{table}/ratings").json()["rated"]:
        assert time.monotonic() < deadline, "never rated"
        time.sleep(0.2)
    return table


@pytest.fixture(scope="module")
def players(api: Api, base_url: str) -> tuple[str, str]:
    stamp = str(int(time.time() * 1000))[-6:]
    names = (f"Mira{stamp}", f"Oleg{stamp}")
    mira, oleg = account(base_url, names[0]), account(base_url, names[1])
    rated(api, [mira, oleg], [])
    rated(api, [mira, oleg], ["easy", "hard"])
    mira[0].close()
    oleg[0].close()
    return names


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_profile_and_the_leaderboard(
    new_context: NewContext, players: tuple[str, str], artifacts: Path, lang: str, size: str
) -> None:
    viewport = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 667}}
    locale = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}[lang]
    page = new_context(viewport=viewport[size], locale=locale).new_page()
    mira, oleg = players
    page.goto(f"/p/{mira}")
    profile = page.locator('[data-region="profile"]')
    expect(profile.locator("h2")).to_have_text(mira)
    expect(profile.locator("tr[data-table]")).to_have_count(2)
    expect(profile.locator(".profile-chart")).to_be_visible()
    text = profile.inner_text()
    assert not CARD.search(text), text
    assert "profile_" not in text and "leaderboard_" not in text
    wide = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    page.screenshot(path=str(artifacts / f"profile-{size}-{lang}.png"), full_page=True)
    assert page.evaluate(wide)

    profile.locator(f'a[href="/p/{oleg}"]').first.click()
    expect(page.locator('[data-region="profile"] h2')).to_have_text(oleg)
    page.goto("/leaderboard")
    board = page.locator('[data-region="leaderboard"]')
    expect(board.locator(f'a[href="/p/{mira}"]')).to_be_visible()
    page.locator('[data-field="table-size"]').select_option("4")
    expect(board.locator(f'a[href="/p/{oleg}"]')).to_be_visible()
    page.screenshot(path=str(artifacts / f"leaderboard-{size}-{lang}.png"), full_page=True)
    assert page.evaluate(wide)
    page.locator('[data-field="table-size"]').select_option("3")
    expect(board.locator("tbody tr")).to_have_count(0)
