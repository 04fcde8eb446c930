"""Each deal's review shows as soon as the deal has ended, while the match goes on:
its summary and costliest move in the pause after the deal, the whole deal below the
table, grouped by deal, the costliest move first, each move in parts (what was played, what
the coach preferred, the cost in points, why) with a button that opens the replay there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .browser_support import Api
from .conftest import NewContext
from .test_table_flow import ann_at, play_until

pytestmark = pytest.mark.timeout(300)

#: How long the test waits for the first review lines.  The issue's bound, within 5 s of the
#: deal's end, is a timing claim: ``benchmarks/bench_review.py`` measures it (a test on a
#: loaded machine would fail on the machine, not on the page).  This test holds what does not
#: depend on the machine's speed: the review comes while the match goes on.
FIRST_REVIEW_SECONDS = 60.0


def test_the_first_deals_review_shows_before_the_match_ends(
    new_context: NewContext, api: Api, artifacts: Path
) -> None:
    page, table = ann_at(
        new_context,
        api,
        viewport={"width": 1280, "height": 800},
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        deal_pause_seconds=120,
        first_dealer=1,
    )
    expect(page.locator("#t-turn.mine")).to_be_visible()
    play_until(page, "#t-pause")
    peek = page.locator("#t-pause .review-peek .review-go")
    expect(peek).to_be_visible(timeout=FIRST_REVIEW_SECONDS * 1000)
    assert api.table(table)["status"] == "playing", "the review came before the match's end"
    expect(peek).to_have_text("Review of deal 1")
    page.screenshot(path=str(artifacts / "live-review-pause.png"))

    deal = page.locator("#t-review .review-deal[data-deal='0']")
    expect(deal.locator("h4")).to_have_text("Deal 1")
    expect(deal.locator(".review-summary")).not_to_be_empty()
    page.check("#t-review .review-filter input")  # every move, the good ones too
    moves = deal.locator(".review-move")
    assert moves.count() > 5
    losses = [float(moves.nth(i).get_attribute("data-loss") or "") for i in range(moves.count())]
    assert losses == sorted(losses, reverse=True), "the costliest move comes first"
    for i in range(moves.count()):
        move = moves.nth(i)
        expect(move.locator(".review-played")).to_contain_text("Your move: ")
        expect(move.locator(".review-why")).to_contain_text("Why: ")
        if move.get_attribute("data-grade") != "good":
            expect(move.locator(".review-best")).to_contain_text("The coach: ")
            expect(move.locator(".review-cost")).to_have_text(re.compile(r"^-\d+ points?$"))

    peek.click()  # the pause's link leads to the deal's review
    expect(deal).to_be_focused()
    page.screenshot(path=str(artifacts / "live-review-deal.png"))
    first = moves.nth(0)
    number = int(first.get_attribute("data-move") or "0")
    first.locator(".review-open").click()  # the replay of the match so far, at that move
    position = page.locator("#t-review .replay-position")
    expect(position).to_contain_text(f"move {number - 1} of" if number > 1 else "Deal 1")
    assert api.table(table)["status"] == "playing"

    # the server reviews only what has ended: not the deal in progress, not the whole match
    seat = json.loads(page.evaluate(f"() => localStorage.getItem('foxtrot.seat.{table}')"))
    review = f"/api/tables/{table}/review"
    assert api.get(f"{review}?deal=0", seat["token"]).status_code == 200
    for query in ("?deal=1", ""):
        refused = api.get(f"{review}{query}", seat["token"])
        assert (refused.status_code, refused.json()["code"]) == (409, "not_finished"), query
