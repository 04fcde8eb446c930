"""The pause after a deal on a phone: the heading says what the table waits for, the deal's and
the match's rows of the score sheet are in view at 375×667 with four players in Russian and
Ukrainian (the sheet scrolls inside itself, never sideways), and the turn line never says the
next deal is being dealt while the table waits for Next deal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .browser_support import Api, wait_settled
from .conftest import NewContext
from .test_table_flow import play_until
from .test_table_layout import seat_me

PHONE = {"width": 375, "height": 667}
LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA"}
#: What the heading says while the table waits for this person's Next deal.
WAITS_FOR_YOU = {"en": "the table waits for you", "ru": "стол ждёт вас", "uk": "стіл чекає на вас"}
PRESS_NEXT = {
    "en": "Press Next deal",
    "ru": "Нажмите «Следующая раздача»",
    "uk": "Натисніть «Наступна роздача»",
}
BEING_DEALT = {"en": "being dealt", "ru": "Идёт сдача", "uk": "Іде здача"}


def _pause_page(new_context: NewContext, api: Api, lang: str) -> Page:
    summary = api.create(
        options={"players": 4, "target": 10_000},
        seats=[{"kind": "person"}] + [{"kind": "easy"}] * 3,
        bot_delay=0,
        deal_pause_seconds=300,
    )
    table = summary["table"]
    joined = api.join(table, "Анна-Мария Константинопольская", 0)
    context = new_context(viewport=PHONE, locale=LOCALES[lang])
    seat_me(context, table, joined["token"])
    page = context.new_page()
    page.goto(f"/t/{table}")
    play_until(page, "#t-pause")
    wait_settled(page)  # the deal's last cards have flown to their taker
    return page


def _seen(page: Page, selector: str) -> bool:
    """The element is inside the window and on top at its centre (nothing covers it)."""
    seen: bool = page.locator(selector).evaluate(
        """(el) => { const r = el.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!top && (el === top || el.contains(top)); }"""
    )
    return seen


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_pause_sheet_fits_a_phone(
    new_context: NewContext, api: Api, artifacts: Path, lang: str
) -> None:
    page = _pause_page(new_context, api, lang)
    pause = page.locator("#t-pause")
    expect(pause.locator("#pause-title")).to_contain_text(WAITS_FOR_YOU[lang])
    expect(page.locator("#t-turn")).to_contain_text(PRESS_NEXT[lang])
    expect(page.locator("#t-turn")).not_to_contain_text(BEING_DEALT[lang])
    expect(pause.locator("#sheet-last")).to_be_visible()
    page.screenshot(path=str(artifacts / f"pause-phone-4p-{lang}.png"))
    # the deal's row and the match's row, every player's cell in each, seen without scrolling
    for row in ("#sheet-pinned tr.deal", "#sheet-pinned tr.total"):
        cells = pause.locator(f"{row} > *")
        expect(cells).to_have_count(5)  # the row's name and four players
        for i in range(5):
            assert _seen(page, f"#t-pause {row} > :nth-child({i + 1})"), f"{row} cell {i}"
    # scrolled to its end, the sheet still shows them: pinned at its foot
    page.locator("#t-pause .pause-sheet").evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    assert _seen(page, "#t-pause #sheet-pinned tr.total > :last-child")
    # never sideways: neither the page, nor the panel, nor the sheet
    wide = page.evaluate(
        """() => [document.documentElement, ...document.querySelectorAll(
            '#t-pause, #t-pause .pause-sheet, #t-pause .scroll')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1)
            .map((el) => el.className || el.id)"""
    )
    assert not wide, f"scrolls sideways: {wide}"
    assert _seen(page, "[data-action='next-deal']")
    # a negative score with a real minus sign, as the match-end sheet writes it (−20)
    numbers = pause.locator("td.num").all_inner_texts()
    assert numbers and not [x for x in numbers if x.startswith("-")], numbers
    # the deal's review, one line under the sheet, punctuated: "Review of deal 1: 25 good moves…"
    peek = pause.locator(".review-peek p").first
    expect(peek).to_contain_text(re.compile(r"1: \d+ \S"))
    assert peek.inner_text().rstrip().endswith(".")
    page.locator("#t-pause .pause-sheet").evaluate("(el) => { el.scrollTop = 0; }")
    page.screenshot(path=str(artifacts / f"pause-phone-4p-{lang}.png"))
    # pressed: nobody else to wait for, the next deal comes
    page.locator("[data-action='next-deal']").click()
    expect(page.locator("#t-game")).to_have_attribute("data-phase", "playing")
    expect(pause).to_be_hidden()
