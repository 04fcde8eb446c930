"""Small things of the table page: Undo off with its reason once the stock was dealt again
since your move, the card count that never covers a seat, the seats' names reachable by
the keyboard, and the table rebuilt right after a change of language."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from .browser_support import Api
from .conftest import NewContext
from .test_table_flow import ann_at


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
