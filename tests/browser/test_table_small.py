"""Small things of the table page: Undo off with its reason once the stock was dealt again
since your move, the card count that never covers a seat, the seats' names reachable by
the keyboard, and the table rebuilt right after a change of language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .browser_support import ARTIFACTS, Api, wait_settled
from .conftest import NewContext
from .test_table_flow import ann_at
from .test_table_layout import computer_table, overlap, seat_me

RECT = (
    "(el) => { const r = el.getBoundingClientRect();"
    " return { top: r.top, left: r.left, bottom: r.bottom, right: r.right }; }"
)


def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def _table_page(new_context: NewContext, api: Api, players: int, viewport: dict[str, int]) -> Page:
    table, token = computer_table(api, players)
    context = new_context(viewport=viewport)
    seat_me(context, table, token)
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator("#t-turn.mine")).to_be_visible()
    wait_settled(page)
    return page


def _play_one(page: Page) -> None:
    """Play the first card on our turn and wait until the view has moved on."""
    expect(page.locator("#t-turn.mine")).to_be_visible()
    seq = page.locator("#t-game").get_attribute("data-seq")
    page.keyboard.press("1")
    page.wait_for_function(
        f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
    )


def test_undo_is_off_after_a_redeal(new_context: NewContext, api: Api) -> None:
    """After the stock is dealt again the rules refuse an undo (a hidden card was seen): the
    button says so before it is pressed, on hover and on focus, and pressed says why."""
    page, _ = ann_at(
        new_context,
        api,
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        first_dealer=1,
    )
    hand = page.locator("#hand .card")
    undo = page.locator("[data-action='undo']")
    expect(page.locator("#t-turn.mine")).to_be_visible()
    expect(hand).to_have_count(8)
    _play_one(page)
    expect(page.locator("#t-turn.mine")).to_be_visible()
    expect(undo).to_be_enabled()  # one move of Ann's, nothing dealt since: allowed
    for left in range(6, -1, -1):  # the rest of the hand; then the stock is dealt again
        _play_one(page)
        if left:
            expect(hand).to_have_count(left)
    expect(hand).to_have_count(8)  # dealt again: eight new cards
    expect(page.locator("#t-turn.mine")).to_be_visible()
    expect(undo).to_be_disabled()
    expect(undo).to_have_attribute("title", re.compile("Too late to take back"))
    undo.focus()  # still reachable by the keyboard, its reason with it
    expect(undo).to_be_focused()
    undo.click(force=True)
    expect(page.locator("#t-msg")).to_contain_text("Too late to take back")
    expect(hand).to_have_count(8)  # nothing was taken back


@pytest.mark.parametrize("players", [2, 4, 6, 9])
def test_the_card_count_never_covers_a_seat(
    new_context: NewContext, api: Api, players: int
) -> None:
    for viewport in ({"width": 375, "height": 667}, {"width": 1280, "height": 800}):
        page = _table_page(new_context, api, players, viewport)
        page.locator("#count-btn").click()
        count = page.locator("#t-count")
        expect(count).to_be_visible()
        panel = count.evaluate(RECT)
        for seat in page.locator("[data-region='seat']").all():
            box = seat.evaluate(RECT)
            assert not overlap(panel, box), f"{players} players at {viewport}: covers {box}"


def test_a_cut_name_is_reachable_by_focus(new_context: NewContext, api: Api) -> None:
    """A long name cut short on a phone takes the focus (Tab, a tap) and then shows whole over
    its seat; a name that fits is no tab stop."""
    long = "Maximiliana-Alexandrina Konstantinova"
    summary = api.create(
        options={"players": 6, "target": 300},
        seats=[{"kind": "person"}, {"kind": "person"}] + [{"kind": "easy"}] * 4,
        bot_delay=10,
        first_dealer=5,
    )
    table = summary["table"]
    token = api.join(table, "Ann", 0)["token"]
    api.join(table, long, 1)
    context = new_context(viewport={"width": 375, "height": 667})
    seat_me(context, table, token)
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator("#hand .card").first).to_be_visible()
    seat = page.locator("[data-region='seat'][data-seat='1']")
    name = seat.locator(".seat-name")
    expect(name).to_have_attribute("tabindex", "0")
    assert seat.get_attribute("data-full") == long
    name.focus()
    expect(name).to_be_focused()
    shown = seat.evaluate("(el) => getComputedStyle(el, '::before').content")
    assert shown == json.dumps(long), shown
    page.screenshot(path=str(artifacts_dir() / "seat-name-focused-phone.png"))
    fits = page.locator("[data-region='seat'][data-seat='3'] .seat-name")
    expect(fits).not_to_have_attribute("tabindex", "0")  # "Computer 4 (easy)" fits


def test_a_change_of_language_rebuilds_the_table_and_keeps_playing(
    new_context: NewContext, api: Api
) -> None:
    """After a switch to Russian the table is whole (seats, hand, pile) and in Russian, and the
    next card played is accepted: the socket's sequence number was not set back."""
    page = _table_page(new_context, api, 3, {"width": 1280, "height": 800})
    hand = page.locator("#hand .card")
    cards = hand.count()
    page.select_option("#lang-pick", "ru")
    expect(page.locator("#t-turn")).to_have_text("Ваш ход.")
    expect(page.locator("[data-region='seat']")).to_have_count(3)  # the far seats and yours
    expect(hand).to_have_count(cards)
    expect(page.locator("#log-list li").first).to_be_visible()
    _play_one(page)
    expect(hand).to_have_count(cards - 1)
    expect(page.locator("#t-msg")).not_to_contain_text("Отказано")
    polite = page.locator("#live-polite").inner_text()
    assert (
        "Anastasia кладёт" in polite
        or "Anastasia забирает" in polite
        or "Anastasia делает" in polite
    )
