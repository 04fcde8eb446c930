"""The end of a match as a screen: the winner and places, Rematch and New table first, the review
and the replay one tap away, the chart of the totals and the final sheets by category and by
deal; for a player and a spectator, on a phone and a laptop, in every language. Screenshots go
to the artifacts folder (``match-end-*.png``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .browser_support import Api
from .conftest import NewContext
from .test_a11y import violations

PHONE = {"width": 375, "height": 667}
LAPTOP = {"width": 1280, "height": 800}
LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}


def _seat(context: BrowserContext, table: str, seat: int, token: str) -> None:
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


@pytest.fixture(scope="module")
def finished(api: Api) -> Iterator[tuple[str, str]]:
    """A four-player match played to 100 by computers for one person: a few deals."""
    yield api.finished_match(target=100, players=4)


def _open(
    new_context: NewContext, table: str, token: str | None, viewport: dict[str, int], lang: str
) -> Page:
    context = new_context(viewport=viewport, locale=LOCALES[lang])
    if token is not None:
        _seat(context, table, 0, token)
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator('[data-region="match-end"]')).to_be_visible(timeout=30_000)
    return page


def _in_view(page: Page, selector: str) -> bool:
    inside: bool = page.locator(selector).first.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"
    )
    return inside


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("who", ["player", "spectator"])
def test_match_end_screen(
    new_context: NewContext,
    finished: tuple[str, str],
    api: Api,
    viewport: dict[str, int],
    who: str,
) -> None:
    """The screen comes first: the winner and the buttons in view at once, every seat's place,
    the sheets' parts adding up to each total, no sideways scroll, axe clean."""
    table, token = finished
    page = _open(new_context, table, token if who == "player" else None, viewport, "en")
    end = page.locator('[data-region="match-end"]')
    expect(page.locator("#winner")).to_contain_text("wins the match")
    expect(page.locator(".arena")).to_be_hidden()  # the screen takes the felt's place
    for selector in ("#winner", "#new-table", "[data-action='end-replay']"):
        assert _in_view(page, selector), f"{selector} is not in view at {viewport}"
    if who == "player":
        assert _in_view(page, "#rematch")
        expect(end.locator("[data-action='end-review']")).to_be_visible()
    else:
        expect(end.locator("#rematch")).to_have_count(0)
        expect(end.locator("[data-action='end-review']")).to_have_count(0)
    record = api.get(f"/api/tables/{table}/record", token).json()
    # every seat has a place, the winner's place is 1, and the places follow the totals
    rows = end.locator("ol.places li")
    expect(rows).to_have_count(4)
    places = [int(p) for p in rows.evaluate_all("(li) => li.map((x) => x.dataset.place)")]
    totals = [int(x.replace("−", "-")) for x in rows.locator(".pts").all_inner_texts()]
    assert places[0] == 1 and places == sorted(places)
    assert totals == sorted(totals, reverse=True)
    # the sheet by category: foxtrots, tens, aces, jacks, most cards, queens of spades; each
    # player's parts add up to his match total
    sheet = end.locator("#end-by-category")
    labels = sheet.locator("tbody th[scope='row']").all_inner_texts()
    assert labels == [
        "Foxtrots",
        "Tens",
        "Aces",
        "Jacks",
        "Most cards",
        "Queens of spades",
        "Match total",
    ]
    numbers = sheet.locator("tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))"
    )
    values = [[int(x.replace("−", "-")) for x in row] for row in numbers]
    for seat in range(4):
        assert sum(row[seat] for row in values[:-1]) == values[-1][seat]
    # the sheet by deal has a row per deal; the chart a line per player
    expect(end.locator("#end-by-deal tbody tr")).to_have_count(len(record["deals"]) + 1)
    # the header says the match is over and how long it ran, not "Deal N" as if it went on
    deals = len(record["deals"])
    expect(page.locator("#t-title")).to_have_text(
        re.compile(rf"^Match to \d+ · over after {deals} deals?$")
    )
    expect(end.locator(".end-chart polyline")).to_have_count(4)
    fits = page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert fits, "the page scrolls sideways"
    found = violations(page)
    assert not found, found


def test_match_end_review_and_replay_one_tap(
    new_context: NewContext, finished: tuple[str, str]
) -> None:
    """Replay and Review take the player to the replay and to the review of his moves."""
    table, token = finished
    page = _open(new_context, table, token, PHONE, "en")
    expect(page.locator(".replay-body:not([hidden])")).to_be_visible()
    page.click("[data-action='end-replay']")
    expect(page.locator(".after-replay")).to_be_focused()
    assert _in_view(page, ".after-replay h2, .after-replay h3")
    page.click("[data-action='end-review']")
    expect(page.locator(".after-review, #t-review .live-review").first).to_be_attached()
    focused = page.evaluate("() => document.activeElement.className")
    assert re.search(r"after-review|live-review", focused), focused


def test_no_ratings_request_at_an_unrated_match(
    new_context: NewContext, finished: tuple[str, str]
) -> None:
    """The page never asks for the rating changes of a match it knows is unrated (a 404)."""
    table, token = finished
    context = new_context(viewport=LAPTOP)
    _seat(context, table, 0, token)
    page = context.new_page()
    asked: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.on("response", lambda r: failed.append(r.url) if r.status == 404 else None)
    page.goto(f"/t/{table}")
    expect(page.locator('[data-region="match-end"]')).to_be_visible(timeout=30_000)
    expect(page.locator(".replay-body:not([hidden])")).to_be_visible()
    assert not [url for url in asked if url.endswith("/ratings")], asked
    assert not failed, failed


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_match_end_screenshots(
    new_context: NewContext, finished: tuple[str, str], artifacts: Path, lang: str
) -> None:
    """The screen on a phone and a laptop in each language: kept as artifacts, and nothing in
    it runs over its box or scrolls the page sideways."""
    table, token = finished
    for name, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        page = _open(new_context, table, token, viewport, lang)
        page.evaluate("() => scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"match-end-{name}-{lang}.png"))
        page.locator('[data-region="match-end"]').screenshot(
            path=str(artifacts / f"match-end-{name}-{lang}-whole.png")
        )
        fits = page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert fits, f"{name} {lang}: the page scrolls sideways"
        assert _in_view(page, "#rematch"), f"{name} {lang}: Rematch is not in view"
