"""Quick reactions in Chromium: sent from the React menu, shown by the sender's seat and said
once to a screen reader, muted per person, refused past the limit, and not offered to a
spectator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .browser_support import Api
from .conftest import NewContext
from .test_screens import LOCALES, Shots

pytestmark = pytest.mark.timeout(300)


def seat_page(context: BrowserContext, table: str, seat: int, token: str) -> Page:
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator("#t-game")).to_be_visible()
    return page


def react(page: Page, reaction: str) -> None:
    page.locator('[data-action="react"]').click()
    page.locator(f'[data-reaction="{reaction}"]').click()


def test_reactions_sent_shown_muted_and_limited(new_context: NewContext, api: Api) -> None:
    table = api.create(options={"players": 2}, seats=[{"kind": "person"}, {"kind": "person"}])[
        "table"
    ]
    ann, bob = api.join(table, "Ann", 0), api.join(table, "Bob", 1)
    a = seat_page(new_context(), table, 0, ann["token"])
    b = seat_page(new_context(), table, 1, bob["token"])
    watcher = new_context().new_page()
    watcher.goto(f"/t/{table}")
    expect(watcher.locator("#t-game")).to_be_visible()

    react(a, "well_played")
    bubble = b.locator('.seat[data-seat="0"] .reaction-bubble')
    expect(bubble).to_have_text("Well played")
    expect(watcher.locator('.seat[data-seat="0"] .reaction-bubble')).to_be_visible()
    said = b.locator("#live-polite p", has_text="Ann: Well played")
    expect(said).to_have_count(1)  # said once
    expect(bubble).to_have_count(0, timeout=15_000)  # gone after a few seconds
    expect(said).to_have_count(1)

    # Bob mutes Ann on his device: her next reaction is not shown to him, still to the watcher
    b.locator('[data-action="react"]').click()
    b.locator('[data-mute="0"]').click()
    expect(b.locator('[data-mute="0"]')).to_have_attribute("aria-pressed", "true")
    react(a, "clap")
    expect(watcher.locator('.seat[data-seat="0"] .reaction-bubble')).to_have_text("👏")
    expect(b.locator("#live-polite p", has_text="Ann: Applause")).to_have_count(0)
    expect(b.locator(".reaction-bubble")).to_have_count(0)

    # at most three reactions in ten seconds: of four at once one is refused, said plainly
    for reaction in ("thanks", "oops", "sorry", "good_luck"):
        react(a, reaction)
    expect(a.locator("#t-msg")).to_contain_text("Too many reactions")

    # a spectator may mute, not send
    watcher.locator('[data-action="react"]').click()
    expect(watcher.locator("[data-reaction]")).to_have_count(0)
    expect(watcher.locator('[data-mute="table"]')).to_be_visible()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_reactions_menu_at_every_size(
    new_context: NewContext, api: Api, artifacts: Path, lang: str
) -> None:
    """The open menu at every viewport, shot as ``screen-reactions-<size>-<lang>.png`` and
    checked as every screen is (inside the window, no sideways scroll, no English words on a
    Russian or Ukrainian page); then a reaction shown by the sender's seat."""
    table = api.create(options={"players": 2}, seats=[{"kind": "person"}, {"kind": "person"}])[
        "table"
    ]
    ann, bob = api.join(table, "Анна", 0), api.join(table, "Богдан", 1)
    a = seat_page(new_context(locale=LOCALES[lang]), table, 0, ann["token"])
    b = seat_page(new_context(locale=LOCALES[lang]), table, 1, bob["token"])
    a.locator('[data-action="react"]').click()
    shots = Shots(a, artifacts, lang)
    shots.every_size("reactions", ('[data-reaction="thanks"]',), lambda: None)
    a.locator('[data-reaction="thanks"]').click()
    bubble = b.locator('.seat[data-seat="0"] .reaction-bubble')
    expect(bubble).to_be_visible()
    b.screenshot(path=str(artifacts / f"screen-reaction-shown-1280x800-{lang}.png"))
