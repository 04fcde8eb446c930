"""Every screen at every viewport in every language: screenshots, fit and translations.

Screens: the lobby, the table at 2, 4 and 6 players (mid-deal, your turn), the score sheet in
the pause after a deal, the end of a match with Rematch, the replay, the review of your moves,
the fair-deal check and the rules; viewports 375×667, 390×844, 768×1024, 1280×800 and
1920×1080; languages en, ru and uk. Each is kept as
``test-artifacts/browser/screen-<screen>-<width>x<height>-<lang>.png`` (git-ignored; looked at
by a person before a release), and each must pass checks that can fail:

- no sideways scroll (the elements that stick out are named);
- the screen's primary control (or, at the table, every region: hand, pile, stock, turn, last
  action, message) lies inside the viewport;
- no element's text runs over its box (``scrollWidth`` past ``clientWidth`` where the box
  does not scroll or clip on purpose);
- no message key on the screen (a message missing from the catalog shows as its key) and, on a
  Russian or Ukrainian page, none of the English words of the page.

One browser, one server and one page per language; each screen is set up once and then shot at
every viewport (the page is resized, as a person turning a tablet would).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from websockets.sync.client import ClientConnection, connect

from .browser_support import Api, wait_settled
from .conftest import NewContext
from .test_table_layout import VIEWPORTS

pytestmark = pytest.mark.timeout(900)

LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}
#: A message key on the screen: a message the catalog did not have.
KEY = re.compile(r"\b(?:web|tui|replay|review|verify|coach|card|computer)_[a-z0-9_]+\b")
#: English words of the page that a Russian or Ukrainian screen must not show.
ENGLISH = re.compile(
    r"\b(?:Computer|Deal|Replay|Review|Score|Players?|Take|Hint|Rules|Language|Choose|"
    r"Queen|King|Jack|Ace|spades|hearts|diamonds|clubs|wins|points?|Move|Why|coach|Guest)\b"
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
#: Elements on the screen whose text runs over their box: a block (not inline) element that
#: neither scrolls nor clips, whose content is wider than its box (a word too long for a
#: button, a heading in a too-narrow column).  Card drawings are measured in test_cards.py.
OVERFLOWING = """() => {
  const out = [];
  const shown = (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
  for (const el of document.querySelectorAll(
      'button, a, label, th, td, h1, h2, h3, h4, p, li, summary, select, dt, dd, legend')) {
    if (el.closest('svg, dialog:not([open]), [hidden]')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!shown(r) || style.display.startsWith('inline') && el.tagName !== 'BUTTON'
        && el.tagName !== 'SELECT') continue;
    if (style.overflowX !== 'visible' || style.visibility === 'hidden') continue;
    if (el.scrollWidth > el.clientWidth + 2 && el.clientWidth > 0) {
      out.push(`${el.tagName}#${el.id}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`
        + ` "${el.textContent.trim().slice(0, 30)}"`);
    }
  }
  return out.slice(0, 6);
}"""
#: The box of the first element matching a selector, in the viewport's coordinates.
BOX = """(selector) => { const el = document.querySelector(selector); if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right, width: r.width,
          height: r.height, vw: document.documentElement.clientWidth, vh: innerHeight}; }"""
TABLE_REGIONS = ("hand", "pile", "stock", "turn", "last-action", "message")
SIZES = (2, 4, 6)


def store_seat(context: BrowserContext, table: str, token: str) -> None:
    value = json.dumps({"seat": 0, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


Table = tuple[str, str]


@pytest.fixture(scope="module")
def tables(api: Api) -> dict[int, Table]:
    """Tables of 2, 4 and 6 players where the computers have played and Ann (seat 0) is to move."""
    made = {}
    for players in SIZES:
        levels = ("easy", "medium")
        summary = api.create(
            options={"players": players, "target": 300},
            seats=[{"kind": "person"}] + [{"kind": levels[i % 2]} for i in range(players - 1)],
            bot_delay=0,
            first_dealer=0,  # seat 1 leads: the pile has cards when Ann's turn comes
            grace_seconds=3600,
        )
        made[players] = (summary["table"], str(api.join(summary["table"], "Anastasia", 0)["token"]))
    return made


def play_one_deal(ws: ClientConnection, token: str) -> None:
    """Play seat 0's moves (its first legal one) over the protocol until the deal has ended,
    at a person's pace (a connection may send only so many messages a second)."""
    ws.send(json.dumps({"type": "hello", "token": token}))
    sent = 0
    last: dict[str, Any] = {}
    while True:
        message = json.loads(ws.recv(timeout=60))
        if message.get("type") == "error":  # throttled: that move again, a little later
            time.sleep(1)
            sent += 1
            ws.send(json.dumps({**last, "id": f"a{sent}"}))
            continue
        view = message.get("view") or {}
        if not view.get("players"):
            continue
        if view["deal_scores"]:
            return
        if view["phase"] == "playing" and view["to_move"] == 0 and view.get("legal"):
            sent += 1
            time.sleep(0.15)
            last = {"type": "action", "seq": message["seq"], "action": view["legal"][0]}
            ws.send(json.dumps({**last, "id": f"a{sent}"}))


@pytest.fixture(scope="module")
def paused(api: Api) -> Iterator[Table]:
    """A 2-player table in the pause after deal 1, waiting for Ann's Next deal (for 10 min):
    her connection stays open (the pause waits for the people present)."""
    summary = api.create(
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        deal_pause_seconds=600,
        grace_seconds=3600,
        first_dealer=1,
    )
    table = summary["table"]
    token = str(api.join(table, "Anastasia", 0)["token"])
    url = api.base_url.replace("http://", "ws://") + f"/ws/tables/{table}"
    with connect(url, open_timeout=10) as ws:
        play_one_deal(ws, token)
        yield table, token


@pytest.fixture(scope="module")
def finished(api: Api) -> Table:
    """A finished match of Ann (played for by a computer) against one: (table, token)."""
    return api.finished_match(target=1)


class Shots:
    """Shoots one screen at every viewport, after checking it there."""

    def __init__(self, page: Page, folder: Path, lang: str) -> None:
        self.page, self.folder, self.lang = page, folder, lang
        self.taken: list[str] = []

    def every_size(
        self, screen: str, inside: tuple[str, ...], scroll: Callable[[], None] | None = None
    ) -> None:
        """At every viewport: resize, ``scroll`` (else to the top), check, and shoot."""
        page = self.page
        for size, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            wait_settled(page)  # the table has fitted itself to the window
            if scroll is None:
                page.evaluate("() => window.scrollTo(0, 0)")
            else:
                scroll()
            wait_settled(page)  # a card's slide or a take's flight is over
            name = f"screen-{screen}-{size}-{self.lang}.png"
            page.screenshot(path=str(self.folder / name))
            self.taken.append(name)
            self.check(name, inside)

    def check(self, name: str, inside: tuple[str, ...]) -> None:
        page = self.page
        assert page.evaluate(NO_SCROLL), f"{name}: the page scrolls sideways: {page.evaluate(WIDE)}"
        for selector in inside:
            box: dict[str, Any] | None = page.evaluate(BOX, selector)
            assert box is not None, f"{name}: {selector} is not on the page"
            fits = (
                box["top"] >= -1
                and box["left"] >= -1
                and box["bottom"] <= box["vh"] + 1
                and box["right"] <= box["vw"] + 1
                and box["width"] > 0
            )
            assert fits, f"{name}: {selector} is not inside the viewport: {box}"
        over = page.evaluate(OVERFLOWING)
        assert not over, f"{name}: text runs over its box: {over}"
        text = page.locator("body").inner_text()
        assert not KEY.findall(text), f"{name}: message keys on the screen: {KEY.findall(text)}"
        if self.lang != "en":
            found = ENGLISH.findall(text)
            assert not found, f"{name}: English words on the screen: {found}"


def to_top(page: Page, selector: str) -> Callable[[], None]:
    """Scroll ``selector`` to the top of the window (what a person scrolls to)."""
    return lambda: page.locator(selector).first.evaluate(
        "el => el.scrollIntoView({ block: 'start' })"
    )


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_screen_at_every_size(
    *,
    new_context: NewContext,
    tables: dict[int, Table],
    paused: Table,
    finished: Table,
    artifacts: Path,
    lang: str,
) -> None:
    context = new_context(viewport={"width": 1280, "height": 800}, locale=LOCALES[lang])
    for table, token in [*tables.values(), paused, finished]:
        store_seat(context, table, token)
    page = context.new_page()
    shots = Shots(page, artifacts, lang)

    page.goto("/")
    expect(page.locator("[data-action='play-computer']")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    shots.every_size("lobby", ("[data-action='play-computer']",))

    for players, (table, _) in tables.items():
        page.goto(f"/t/{table}")
        expect(page.locator("#t-turn.mine")).to_be_visible(timeout=60_000)
        expect(page.locator("[data-region='seat']")).to_have_count(players)
        regions = tuple(f"[data-region='{region}']" for region in TABLE_REGIONS)
        shots.every_size(f"table{players}", regions)

    page.goto(f"/t/{paused[0]}")
    expect(page.locator("[data-action='next-deal']")).to_be_visible(timeout=30_000)
    expect(page.locator("#t-pause .review-go")).to_be_visible(timeout=30_000)
    shots.every_size("scores", ("[data-action='next-deal']",))

    page.goto(f"/t/{finished[0]}")
    expect(page.locator("#winner")).to_be_visible(timeout=30_000)
    shots.every_size("over", ("[data-action='rematch']",), to_top(page, "#t-over"))
    page.locator(".replay-next").click()
    page.locator(".replay-next").click()
    shots.every_size(
        "replay", (".replay-next", ".replay-position"), to_top(page, ".replay-controls")
    )
    # a deal may hold no inaccuracy and no mistake (the deck is the fair deal's, new each run):
    # the good moves too, so that the review always has lines to show
    page.locator("#t-review input[type=checkbox]").check()
    expect(page.locator("#t-review .review-move").first).to_be_visible(timeout=120_000)
    shots.every_size("review", (".review-open",), to_top(page, "#t-review .review-move"))
    page.locator(".verify-start").click()
    expect(page.locator(".verify-result.verify-ok")).to_be_visible(timeout=30_000)
    shots.every_size("verify", (".verify-result",), to_top(page, ".verify"))
    page.locator("#rules-open").click()
    expect(page.locator("#rules-body")).not_to_be_empty()
    shots.every_size("rules", ("#rules-close",), lambda: None)
    assert len(shots.taken) == 10 * len(VIEWPORTS)
