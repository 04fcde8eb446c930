"""The deal of the day in Chromium: a guest and two accounts play the same deck, see the
standing and the hard computer's line; an account's second play is refused; the next day the
deck's record, downloaded from the page, verifies with ``foxtrot verify``.

The server runs with ``--daily-day`` (an injected "today"), so nothing waits for a real day.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .browser_support import ServerProcess
from .test_profiles import account
from .test_screens import LOCALES, Shots, to_top

pytestmark = pytest.mark.timeout(900)
DAY, NEXT = "2026-12-03", "2026-12-04"
#: The hard computer plays the deck once (up to 0.9 s a move, about 50 moves) on a busy machine.
BENCHMARK_MS = 400_000
#: A computer moves half a second after the last move (the deal of the day's bot delay): a
#: table with no event for this long has stopped, however busy the machine.
STUCK_SECONDS = 120


@pytest.fixture(scope="module")
def daily_home() -> Iterator[Path]:
    home = Path(tempfile.mkdtemp(prefix="foxtrot-daily-"))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def daily_server(daily_home: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(daily_home, ("--daily-day", DAY))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def context_at(browser: Browser, server: ServerProcess) -> BrowserContext:
    """A fresh laptop-sized context on ``server``."""
    made = browser.new_context(base_url=server.base_url, viewport={"width": 1280, "height": 800})
    made.set_default_timeout(30_000)
    return made


def signed_in(browser: Browser, server: ServerProcess, name: str) -> BrowserContext:
    """A context holding a new account's session cookie (made over HTTP with a passkey)."""
    client, _csrf = account(server.base_url, name)
    made = context_at(browser, server)
    cookie = client.cookies.get("foxtrot_session")
    assert cookie
    made.add_cookies([{"name": "foxtrot_session", "value": cookie, "url": server.base_url}])
    return made


def play_through(page: Page, server: ServerProcess) -> None:
    """Play the first card of the hand each turn until the deal of the day is over; fail if
    the table stops (no event for ``STUCK_SECONDS``), saying where, not if it is slow."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    expect(page.locator("#hand .card").first).to_be_visible(timeout=30_000)
    last, since = None, time.monotonic()
    while not page.locator("#daily-note").count():
        seq = page.locator("#t-game").get_attribute("data-seq")
        if seq != last:
            last, since = seq, time.monotonic()
        elif time.monotonic() - since > STUCK_SECONDS:
            turn = page.locator("#t-turn").inner_text()
            raise AssertionError(
                f"the deal of the day stopped at event {seq}: the turn line says {turn!r};"
                f" the page's errors: {errors}; the server's log ends:\n{server.tail()}"
            )
        if page.locator("#t-turn.mine").count():
            page.keyboard.press("1")
            page.wait_for_function(
                f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
                " || document.querySelector('#daily-note')"
            )
        else:
            page.wait_for_timeout(50)
    assert not errors, f"uncaught JavaScript errors: {errors}"


def play_the_day(context: BrowserContext, server: ServerProcess) -> Page:
    """From the lobby: open the deal of the day, play it, open the result."""
    page = context.new_page()
    page.goto("/")
    page.locator('[data-action="daily"]').click()
    expect(page.locator("#daily-title")).to_contain_text("3, 2026")
    page.locator('[data-action="daily-play"]').click()
    play_through(page, server)
    page.locator('[data-action="daily-result"]').click()
    expect(page.locator("#daily-result")).to_contain_text("Your score", timeout=30_000)
    return page


def test_a_guest_and_two_accounts_play_the_deal_of_the_day(
    browser: Browser, daily_server: ServerProcess, artifacts: Path
) -> None:
    guest = play_the_day(context_at(browser, daily_server), daily_server)
    expect(guest.locator('[data-kind="guest"]')).to_have_count(1)
    share = guest.locator("#daily-share-text").inner_text()
    assert "I scored" in share and "December 3, 2026" in share
    expect(guest.locator(".daily-swings li").first).to_be_visible()
    # a swing opens on the analysis board at the position before it
    swing = guest.locator('.daily-swings [data-action="analyse"]').first
    href = swing.get_attribute("href")
    assert href is not None and href.startswith("/analysis?table=") and "&deal=1" in href
    swing.click()
    expect(guest.locator('[data-region="analysis"]')).to_be_visible()
    guest.go_back()
    expect(guest.locator("#daily-result")).to_contain_text("Your score")
    for name in ("Anna", "Boris"):
        context = signed_in(browser, daily_server, name)
        page = play_the_day(context, daily_server)
        expect(page.locator('[data-kind="person"]', has_text=name)).to_have_count(1)
        page.locator('[data-action="daily-play"]').click()  # a second ranked play: refused
        expect(page.locator("#daily-msg")).to_contain_text("You have played this deck today")
        context.close()
    guest.reload()
    # the benchmark: the hard computer's own score on the same deck, a line in the standing
    expect(guest.locator('[data-kind="line"]')).to_have_count(1, timeout=BENCHMARK_MS)
    expect(guest.locator(".daily-hard").first).to_contain_text("Hard computer on this deck")
    people = guest.locator('[data-kind="person"] th').all_inner_texts()
    assert sorted(people) == ["Anna", "Boris"]
    scores = guest.locator(".daily-row td.num").all_inner_texts()
    values = [int(s.replace("−", "-").replace("+", "")) for s in scores]
    assert values == sorted(values, reverse=True)
    guest.screenshot(path=str(artifacts / "daily-standing-desktop-en.png"), full_page=True)
    # every language at every viewport: the day's page from its top, and the guest's result
    for lang in LOCALES:
        guest.select_option("#lang-pick", lang)
        expect(guest.locator("html")).to_have_attribute("lang", lang)
        shots = Shots(guest, artifacts, lang)
        shots.every_size("daily", ("#daily-title",))
        shots.every_size(
            "daily-result", ('[data-action="daily-share"]',), to_top(guest, "#daily-result")
        )


def test_the_next_day_the_deck_verifies(
    browser: Browser, daily_server: ServerProcess, daily_home: Path, tmp_path: Path
) -> None:
    daily_server.stop()  # the same database, one day later
    tomorrow = ServerProcess(daily_home, ("--daily-day", NEXT))
    tomorrow.start()
    try:
        page = context_at(browser, tomorrow).new_page()
        page.goto(f"/daily?day={DAY}")
        expect(page.locator(".daily-proof")).to_have_count(2)  # the commitment and the seed
        link = page.locator('a[href^="/api/daily/record"]')
        expect(link).to_be_visible()
        deadline = time.monotonic() + BENCHMARK_MS / 1000
        while True:  # the record is served once the benchmark is computed
            with page.expect_download() as waiting:
                link.click()
            path = tmp_path / "yesterday.json"
            waiting.value.save_as(path)
            if "deals" in json.loads(path.read_text()):
                break
            assert time.monotonic() < deadline, path.read_text()
            page.wait_for_timeout(1000)
        done = subprocess.run(
            [sys.executable, "-m", "foxtrot", "verify", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "deck matches its commitment" in done.stdout
        page.goto("/daily")
        expect(page.locator("#daily-title")).to_contain_text("4, 2026")
    finally:
        tomorrow.stop()
        daily_server.start()
