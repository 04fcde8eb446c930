"""Every screen at 1920×1080 and 375×667 in en, ru and uk: screenshots, fit and translations.

Screens: the lobby, a table mid-deal, the score sheet, the match over, the replay, the
review of one's moves, the fair-deal check and the rules. Each is kept as
``test-artifacts/browser/screen-<screen>-<size>-<lang>.png`` (looked at by a person before a
release; docs/testing.md names the folder), and each must not scroll sideways and must show no
message key (a message missing from the catalog shows as its key, ``web_…``) and, on a
Russian or Ukrainian page, none of the English words of the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .browser_support import Api
from .conftest import NewContext

pytestmark = pytest.mark.timeout(400)

SIZES = {"desktop": {"width": 1920, "height": 1080}, "phone": {"width": 375, "height": 667}}
LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}
#: A message key on the screen: a message the catalog did not have.
KEY = re.compile(r"\b(?:web|tui|replay|review|verify|coach|card|computer)_[a-z0-9_]+\b")
#: English words of the page that a Russian or Ukrainian screen must not show.
ENGLISH = re.compile(
    r"\b(?:Computer|Deal|Replay|Review|Score|Players?|Take|Hint|Rules|Language|Choose|"
    r"Queen|King|Jack|Ace|spades|hearts|diamonds|clubs|wins|points?)\b"
)
#: the elements that stick out on the right (for the message when the page scrolls sideways)
WIDE = """() => [...document.querySelectorAll('body *')].filter((el) => {
  if (el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1) return false;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (getComputedStyle(p).overflowX !== 'visible') return p === document.body;
  }
  return true;
}).slice(0, 4).map((el) => `${el.tagName}#${el.id}.${el.className}`)"""
NO_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def store_seat(context: BrowserContext, table: str, seat: int, token: str) -> None:
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


@pytest.fixture(scope="module")
def playing(api: Api) -> tuple[str, str]:
    """A 3-player table (Ann, two computers) that waits for Ann: (table, token)."""
    table = api.create(
        options={"players": 3, "target": 300, "take": "any"},
        seats=[{"kind": "person"}, {"kind": "medium"}, {"kind": "expert"}],
        first_dealer=2,
    )["table"]
    return table, str(api.join(table, "Ann", 0)["token"])


@pytest.fixture(scope="module")
def finished(api: Api) -> tuple[str, str]:
    """A finished match of Ann (played for by a computer) against one: (table, token)."""
    return api.finished_match(target=1)


class Shots:
    """Takes each screen's screenshot after checking it."""

    def __init__(self, page: Page, folder: Path, size: str, lang: str) -> None:
        self.page, self.folder, self.size, self.lang = page, folder, size, lang

    def take(self, screen: str, *, full: bool = False) -> None:
        page = self.page
        page.wait_for_timeout(600)  # let a card's slide or a take's flight finish (< 0.5 s)
        name = f"screen-{screen}-{self.size}-{self.lang}.png"
        page.screenshot(path=str(self.folder / name), full_page=full)
        assert page.evaluate(NO_SCROLL), f"{name}: the page scrolls sideways: {page.evaluate(WIDE)}"
        text = page.locator("body").inner_text()
        assert not KEY.findall(text), f"{name}: message keys on the screen: {KEY.findall(text)}"
        if self.lang != "en":
            found = ENGLISH.findall(text)
            assert not found, f"{name}: English words on the screen: {found}"


def show(page: Page, selector: str) -> None:
    """Scroll ``selector`` to the top of the window (what a person scrolls to)."""
    page.locator(selector).first.evaluate("el => el.scrollIntoView({ block: 'start' })")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_screen_in_both_sizes(
    new_context: NewContext,
    playing: tuple[str, str],
    finished: tuple[str, str],
    artifacts: Path,
    lang: str,
) -> None:
    for size, viewport in SIZES.items():
        context = new_context(viewport=viewport, locale=LOCALES[lang])
        store_seat(context, playing[0], 0, playing[1])
        store_seat(context, finished[0], 0, finished[1])
        page = context.new_page()
        shots = Shots(page, artifacts, size, lang)
        page.goto("/")
        expect(page.locator("#create")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        shots.take("lobby", full=True)

        page.goto(f"/t/{playing[0]}")
        expect(page.locator("#t-turn.mine")).to_be_visible(timeout=60_000)
        if page.locator("#hand button").count() == 8:  # the deal's start: lay a card first
            seq = page.locator("#t-game").get_attribute("data-seq")
            page.keyboard.press("1")
            page.wait_for_function(
                f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
            )
            expect(page.locator("#t-turn.mine")).to_be_visible(timeout=60_000)
        shots.take("table", full=size == "phone")

        page.goto(f"/t/{finished[0]}")
        expect(page.locator("#winner")).to_be_visible(timeout=30_000)
        show(page, "#t-over")
        shots.take("over")
        page.keyboard.press("s")
        show(page, "#t-scores")
        shots.take("scores")
        page.locator(".replay-next").click()
        page.locator(".replay-next").click()
        show(page, ".replay-body")
        shots.take("replay")
        page.locator(".review-start").click()
        expect(page.locator(".review-deal").first).to_be_visible(timeout=120_000)
        show(page, ".review")
        shots.take("review")
        page.locator(".verify-start").click()
        expect(page.locator(".verify-result.verify-ok")).to_be_visible(timeout=30_000)
        show(page, ".verify")
        shots.take("verify")
        page.locator("#rules-open").click()
        expect(page.locator("#rules-body")).not_to_be_empty()
        shots.take("rules")
        context.close()
