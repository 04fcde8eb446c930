"""The flow of a table in the browser: "Play the computer" in one click, the
browser's own seed in deal 1, the pause after a deal that holds until Next deal, and the
invitee who lands on the Sit form."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from .browser_support import Api
from .conftest import NewContext
from .test_table_layout import seat_me

MATCH_SECONDS = 240


def play_until(page: Page, done: str, seconds: float = MATCH_SECONDS) -> int:
    """Play the first card whenever it is our turn, until the selector ``done`` is visible."""
    deadline = time.monotonic() + seconds
    moves = 0
    while not page.locator(done).is_visible():
        assert time.monotonic() < deadline, f"{done} did not come in time"
        if page.locator("#t-turn.mine").is_visible():
            seq = page.locator("#t-game").get_attribute("data-seq")
            page.keyboard.press("1")
            page.wait_for_function(
                f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
                f" || !!document.querySelector('{done}:not([hidden])')"
            )
            moves += 1
        else:
            page.wait_for_timeout(50)
    return moves


def ann_at(
    new_context: NewContext, api: Api, *, viewport: Any = None, **body: Any
) -> tuple[Page, str]:
    """Ann's page (seat 0) at a new table created with ``body``; the page and the table."""
    summary = api.create(**body)
    joined = api.join(summary["table"], "Ann", 0)
    context = new_context(viewport=viewport) if viewport else new_context()
    seat_me(context, summary["table"], joined["token"])
    page = context.new_page()
    page.goto(f"/t/{summary['table']}")
    return page, str(summary["table"])


def test_play_the_computer_in_one_click_and_deal_one_has_the_browsers_seed(
    page: Page, api: Api
) -> None:
    page.goto("/")
    page.locator("#name").fill("Ann")
    page.select_option("#quick-level", "easy")
    page.locator("#rules-more summary").click()  # a match of one deal, for a short test
    page.select_option("#target", "custom")
    page.locator("#target-custom").fill("1")
    page.locator("#bot-delay").fill("0")
    page.locator("[data-action='play-computer']").click()
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)
    expect(page.locator("[data-region='seat']")).to_have_count(2)
    expect(page.locator("[data-region='seat']").nth(0)).to_contain_text("Computer 2 (easy)")
    table = page.url.rsplit("/", 1)[1]
    # the fair-deal lines are folded: one line for the deal, its details on demand
    fair = page.locator("#log-list .fair-line")
    expect(fair).to_have_count(1)
    expect(fair.locator("summary")).to_contain_text("Deal 1 is shuffled fairly")
    expect(fair.locator("ul")).to_be_hidden()
    fair.locator("summary").click()
    expect(fair.locator("ul")).to_contain_text("adds a seed of their own to deal 1")
    play_until(page, "#winner")
    seat = json.loads(page.evaluate(f"() => localStorage.getItem('foxtrot.seat.{table}')"))
    record = api.get(f"/api/tables/{table}/record", seat["token"]).json()
    seeds = record["deals"][0]["fair"]["player_seeds"]
    assert seeds[0], f"deal 1 was dealt without the browser's seed: {seeds}"


def test_the_pause_after_a_deal_holds_until_next_deal(new_context: NewContext, api: Api) -> None:
    page, table = ann_at(
        new_context,
        api,
        viewport={"width": 390, "height": 844},
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        deal_pause_seconds=120,
        first_dealer=1,
    )
    expect(page.locator("#t-turn.mine")).to_be_visible()
    play_until(page, "#t-pause")
    pause = page.locator("#t-pause")
    expect(pause.locator("#sheet-last")).to_be_visible()  # every part of the deal's score
    expect(pause).to_contain_text("starts by itself in")
    button = page.locator("[data-action='next-deal']")
    expect(button).to_be_focused()
    # wholly inside the 390 x 844 window: not below the fold (retried while the pause redraws)
    expect(button).to_be_in_viewport(ratio=1)
    # the table holds: its countdown moves on (time passes, seen on the page, not slept)
    # and no deal 2 comes meanwhile
    counting = re.compile(r"starts by itself in (\d+)")
    shown = counting.search(pause.inner_text())
    assert shown is not None
    expect(pause).to_contain_text(re.compile(rf"starts by itself in (?!{shown[1]}\b)\d+"))
    assert page.locator("#t-game").get_attribute("data-phase") == "awaiting_deal"
    assert api.table(table)["status"] == "playing"
    page.keyboard.press("Enter")
    expect(page.locator("#t-title")).to_contain_text("Deal 2", timeout=10_000)
    expect(pause).to_be_hidden()


def test_the_invitee_lands_on_the_sit_form(new_context: NewContext, api: Api) -> None:
    summary = api.create(options={"players": 3, "target": 200}, seats=[{"kind": "person"}] * 3)
    api.join(summary["table"], "Ann", 0)
    page = new_context(viewport={"width": 375, "height": 667}).new_page()
    page.goto(summary["invite"])
    name = page.locator("[data-field='name']")
    expect(name).to_be_visible()
    expect(page.locator("#t-wait")).to_contain_text("3 players, a match to 200 points")
    expect(page.locator("#t-title")).to_contain_text("invited")
    sit = page.locator("[data-action='sit']")
    expect(sit).to_be_visible()
    bottom = page.evaluate(
        "() => document.querySelector(\"[data-action='sit']\").getBoundingClientRect().bottom"
    )
    assert bottom <= 667, "Sit is below the fold"
    assert page.locator("#invite-link").count() == 0  # the invite is for those seated
    name.fill("Bob")
    sit.click()
    expect(page.locator("#invite-link")).to_be_visible()
    expect(page.locator(".seat-list")).to_contain_text("Bob (you)")


def test_undo_against_computers_restores_the_position(new_context: NewContext, api: Api) -> None:
    page, _ = ann_at(
        new_context,
        api,
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        first_dealer=1,
    )
    expect(page.locator("#t-turn.mine")).to_be_visible()
    hand = page.locator("#hand .card")
    before = hand.evaluate_all("bs => bs.map(b => b.dataset.card)")
    pile = page.locator("#t-pile .pile-card")
    pile_before = pile.evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.keyboard.press("1")
    expect(hand).to_have_count(len(before) - 1)
    expect(page.locator("#t-turn.mine")).to_be_visible()  # the computer replied
    undo = page.locator("[data-action='undo']")
    expect(undo).to_be_visible()
    undo.click()
    expect(page.locator("[data-region='last-action']")).to_contain_text("Ann takes back a move.")
    expect(hand).to_have_count(len(before))
    assert hand.evaluate_all("bs => bs.map(b => b.dataset.card)") == before
    assert pile.evaluate_all("cs => cs.map(c => c.dataset.card)") == pile_before
    # nothing of Ann's left in this deal: the button says why it is off
    expect(undo).to_be_disabled()
    expect(undo).to_have_attribute("title", re.compile("no move of yours"))


def test_rematch_starts_a_new_match_with_the_same_seats(new_context: NewContext, api: Api) -> None:
    page, table = ann_at(
        new_context,
        api,
        options={"players": 3, "target": 1},
        seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "medium"}],
        bot_delay=0,
    )
    play_until(page, "#winner")
    page.locator("[data-action='rematch']").click()
    expect(page).not_to_have_url(f"/t/{table}")
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)
    new = page.url.rsplit("/", 1)[1]
    again = api.table(new)
    old = api.table(table)
    assert again["status"] == "playing" and old["rematch"] == new
    assert [(s["kind"], s["name"]) for s in again["seats"]] == [
        (s["kind"], s["name"]) for s in old["seats"]
    ]
    assert again["options"] == old["options"]
    expect(page.locator("[data-region='seat']")).to_have_count(3)
    expect(page.locator("#t-title")).to_contain_text("Deal 1")
