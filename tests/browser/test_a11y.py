"""Accessibility in a real browser: axe-core on the lobby, a table mid-match, the score sheet and
the replay.

Each screen is scanned with axe-core (bundled by the axe-playwright-python
package, so it works offline) for the WCAG 2.0/2.1 A and AA rules, and must
have no violation at all.  Each must also fit a 375×667 phone screen without
horizontal scrolling, and a keyboard-only user must reach every control with
Tab (a roving-focus toolbar such as the hand counts as one stop: its other
buttons are reached with the arrow keys, as the keys of the page say).
Screenshots of each screen go to the artifacts folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from .browser_support import Api
from .conftest import NewContext

pytestmark = pytest.mark.timeout(240)

#: The axe-core rules of WCAG 2.0 and 2.1, levels A and AA.
WCAG_AA: dict[str, Any] = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}

#: Marks every control a keyboard user must be able to reach, and says which ones are not
#: reached by pressing Tab ``presses`` times from the top of the page.
_CONTROLS = """() => {
  const visible = (el) => {
    if (el.closest('[hidden], [inert], dialog:not([open])')) return false;
    // a folded section (Table rules): its summary is the tab stop, not what it hides
    const folded = el.closest('details:not([open])');
    if (folded && !(el.tagName === 'SUMMARY' && el.parentElement === folded)) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const all = [...document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex]')];
  const wanted = all.filter((el) => {
    if (!visible(el) || el.disabled) return false;
    if (el.getAttribute('tabindex') === '-1') return false;  // roving focus: arrows reach it
    if (el.type === 'radio') {  // a radio group is one tab stop: its checked radio
      const group = document.querySelectorAll(`input[type=radio][name="${el.name}"]`);
      const checked = [...group].find((r) => r.checked);
      if (checked ? checked !== el : group[0] !== el) return false;
    }
    return true;
  });
  wanted.forEach((el, i) => el.setAttribute('data-w3-control', String(i)));
  return wanted.length;
}"""


def _describe(page: Page, index: str) -> str:
    found: str = page.eval_on_selector(
        f"[data-w3-control='{index}']", "el => el.outerHTML.slice(0, 160)"
    )
    return found


def unreachable(page: Page) -> list[str]:
    """The controls of the page that Tab never reaches (each as the start of its HTML)."""
    count: int = page.evaluate(_CONTROLS)
    assert count > 0, "the page has controls"
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.focus("body")
    reached: set[str] = set()
    for _ in range(count + 15):
        page.keyboard.press("Tab")
        mark = page.evaluate("() => document.activeElement?.getAttribute('data-w3-control')")
        if mark is not None:
            reached.add(str(mark))
    return [_describe(page, str(i)) for i in range(count) if str(i) not in reached]


def violations(page: Page) -> list[str]:
    """axe-core's WCAG A/AA violations of the page, one line each with the first nodes."""
    found = Axe().run(page, options=WCAG_AA).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"]) for node in v["nodes"][:3])
        for v in found
    ]


def fits(page: Page) -> bool:
    """No horizontal scrolling: the document is no wider than the window."""
    wide: bool = page.evaluate(
        "() => document.documentElement.scrollWidth <= window.innerWidth"
        " && document.body.scrollWidth <= window.innerWidth"
    )
    return wide


def _seat(context: BrowserContext, table: str, seat: int, token: str) -> None:
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


Opener = Callable[[NewContext, dict[str, int]], Page]


def open_lobby(new_context: NewContext, viewport: dict[str, int]) -> Page:
    page = new_context(viewport=viewport).new_page()
    page.goto("/")
    expect(page.locator("form").first).to_be_visible()
    return page


@pytest.fixture(scope="module")
def playing(api: Api) -> tuple[str, str]:
    """A table mid-match waiting for its person (seat 0) to play: (table, token)."""
    table = api.create(
        options={"players": 2, "target": 150},
        seats=[{"kind": "person"}, {"kind": "medium"}],
        first_dealer=1,  # seat 0 plays first: the table waits for him
    )["table"]
    token = str(api.join(table, "Ann", 0)["token"])
    return table, token


@pytest.fixture(scope="module")
def finished(api: Api) -> tuple[str, str]:
    """A finished match of one person against a computer: (table, token)."""
    return api.finished_match(target=1)


def _screens(playing: tuple[str, str], finished: tuple[str, str]) -> Iterator[tuple[str, Opener]]:
    def table_page(new_context: NewContext, viewport: dict[str, int]) -> Page:
        context = new_context(viewport=viewport)
        _seat(context, playing[0], 0, playing[1])
        page = context.new_page()
        page.goto(f"/t/{playing[0]}")
        expect(page.locator("#t-turn.mine")).to_be_visible(timeout=30_000)
        expect(page.locator("#hand .card").first).to_be_visible()
        return page

    def replay_page(new_context: NewContext, viewport: dict[str, int]) -> Page:
        context = new_context(viewport=viewport)
        _seat(context, finished[0], 0, finished[1])
        page = context.new_page()
        page.goto(f"/t/{finished[0]}")
        expect(page.locator(".after-match .replay-body")).to_be_visible(timeout=30_000)
        page.click(".replay-next")
        page.click(".replay-last")  # the deal's end: its score sheet shows too
        expect(page.locator(".replay-sheet")).to_be_visible()
        return page

    def scores_page(new_context: NewContext, viewport: dict[str, int]) -> Page:
        # the table page at the end of the match: the score sheet (every part P1-P4 of the
        # last deal and the deals' totals) and the winner, with the keyboard's focus on it
        context = new_context(viewport=viewport)
        _seat(context, finished[0], 0, finished[1])
        page = context.new_page()
        page.goto(f"/t/{finished[0]}")
        expect(page.locator("#sheet-last")).to_be_visible(timeout=30_000)
        expect(page.locator("#winner")).to_be_visible()
        page.keyboard.press("s")
        expect(page.locator("#t-scores")).to_be_focused()
        return page

    yield "lobby", open_lobby
    yield "table", table_page
    yield "scores", scores_page
    yield "replay", replay_page


@pytest.mark.parametrize("screen", ["lobby", "table", "scores", "replay"])
def test_screen_is_accessible(
    new_context: NewContext,
    playing: tuple[str, str],
    finished: tuple[str, str],
    artifacts: Path,
    screen: str,
) -> None:
    opener = dict(_screens(playing, finished))[screen]
    page = opener(new_context, DESKTOP)
    page.screenshot(path=str(artifacts / f"a11y-{screen}-desktop.png"), full_page=True)
    assert violations(page) == []
    assert unreachable(page) == []
    phone = opener(new_context, PHONE)
    phone.screenshot(path=str(artifacts / f"a11y-{screen}-phone.png"), full_page=True)
    assert fits(phone), "the page scrolls sideways on a 375×667 screen"
    assert violations(phone) == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_dialog_is_accessible(new_context: NewContext, lang: str) -> None:
    """The rules with their card pictures (one image each row, named in words) and their
    scoring table pass axe-core at both sizes; the keyboard starts on Close, then the table."""
    for viewport in (DESKTOP, PHONE):
        page = open_lobby(new_context, viewport)
        page.select_option("#lang-pick", lang)
        page.locator("#rules-open").click()
        expect(page.locator("#rules-body .rule-cards").first).to_be_visible()
        assert violations(page) == []
        expect(page.locator("#rules-close")).to_be_focused()
        page.keyboard.press("Tab")  # the scoring table's scroll region, inside the dialog
        assert page.evaluate("() => !!document.activeElement.closest('#rules-body')")
