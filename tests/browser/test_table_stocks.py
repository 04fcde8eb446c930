"""The table on card stocks: a view becomes moves of card elements between stocks, and nothing
that did not change is rebuilt (a play moves one element from the hand to the pile; a
presence message adds or removes none); every move goes through the one animator. For a
player and a spectator, at phone, tablet and desktop sizes and 2 to 9 players: every seat
shown once, seats, hand and pile apart, every card of the hand with its corner index and its
mark in view and not covered, no sideways scroll.
Screenshots: test-artifacts/browser/stocks-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .browser_support import Api, open_after_match
from .conftest import NewContext
from .test_table_layout import computer_table, overlap, seat_me

VIEWPORTS = {
    "375x667": (375, 667),
    "390x844": (390, 844),
    "768x1024": (768, 1024),
    "1280x800": (1280, 800),
    "1920x1080": (1920, 1080),
}

#: Card elements added to and removed from the table, by a MutationObserver (window.__cards).
WATCH = """() => {
  const log = window.__cards = { added: [], removed: [] };
  const cards = (nodes) =>
    [...nodes].filter((n) => n.nodeType === 1 && n.classList.contains('card'));
  new MutationObserver((records) => {
    for (const r of records) {
      log.added.push(...cards(r.addedNodes));
      log.removed.push(...cards(r.removedNodes));
    }
  }).observe(document.querySelector('#t-game'), { childList: true, subtree: true });
}"""

#: Every seat, the hand's cards' corner indexes and marks, the regions' boxes.
MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, left: r.left, bottom: r.bottom, right: r.right}; };
  const region = (name) => {
    const el = document.querySelector(`[data-region="${name}"]`);
    return el && el.offsetParent ? box(el) : null;
  };
  const seats = [...document.querySelectorAll('[data-region="seat"]')]
    .filter((s) => s.offsetParent).map((s) => ({ seat: s.dataset.seat, box: box(s) }));
  const covered = [];
  for (const card of document.querySelectorAll('#hand .card')) {
    const art = card.querySelector('.card-svg').getBoundingClientRect();
    // the corner index in the 60 x 84 face: the rank about (8.5, 10), the suit about (8.5, 22)
    const points = [[8.5, 10], [8.5, 22]].map(([x, y]) =>
      [art.left + art.width * x / 60, art.top + art.height * y / 84]);
    const mark = card.querySelector('.effect');
    if (mark) {
      const m = mark.getBoundingClientRect();
      points.push([m.left + m.width / 2, m.top + m.height / 2]);
    }
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      const inView = x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
      if (!inView || !hit || !card.contains(hit)) {
        const what = hit?.className?.baseVal ?? hit?.className;
        covered.push({ card: card.dataset.card, x, y, hit: what });
      }
    }
    if (getComputedStyle(card.querySelector('.card-svg')).opacity !== '1') {
      covered.push({ card: card.dataset.card, see: 'through' });
    }
  }
  return { seats, covered, hand: region('hand'), pile: region('pile'),
    cards: document.querySelectorAll('#hand .card').length,
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth };
}"""


def open_table(page: Page, table: str) -> None:
    page.goto(f"/t/{table}")
    expect(page.locator("#t-game")).to_be_visible(timeout=15_000)
    expect(page.locator("#t-pile .pile-card").first).to_be_visible()


def no_flight(page: Page) -> None:
    """Wait until no card is in flight (the animator's class is off every card)."""
    page.wait_for_function("() => !document.querySelector('.card.flying')")


def test_a_play_moves_one_card_element_and_presence_moves_none(
    new_context: NewContext, api: Api
) -> None:
    table, token = computer_table(api, 2)
    context = new_context(viewport={"width": 390, "height": 844})
    seat_me(context, table, token)
    page = context.new_page()
    open_table(page, table)
    expect(page.locator("#t-turn.mine")).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(8)
    page.evaluate(WATCH)
    page.evaluate(
        "() => document.querySelectorAll('#t-game .card').forEach((c) => { c.__old = true; })"
    )
    # a presence message (someone starts watching): no card element is added or removed
    watcher = new_context().new_page()
    open_table(watcher, table)
    expect(page.locator(".spectators")).to_be_visible()
    assert page.evaluate("() => window.__cards.added.length + window.__cards.removed.length") == 0
    # a play: the card's own element goes from the hand's stock to the pile's (or, when it
    # takes, on to the taker's stock); every card element that moved is one that was there
    moves = int(page.locator("#t-game").get_attribute("data-moves") or "0")
    # a card that lays (no mark: it takes nothing) from the middle of the hand, if there is one
    laying = page.locator("#hand .card:not([data-effect])")
    card = laying.nth(laying.count() // 2) if laying.count() else page.locator("#hand .card").first
    code = card.get_attribute("data-card")
    seq = page.locator("#t-game").get_attribute("data-seq")
    card.evaluate("(c) => { window.__played = c; }")
    card.click(position={"x": 8, "y": 12})
    page.wait_for_function(
        f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
    )
    found = page.evaluate(
        """() => ({
          where: window.__played.parentNode.dataset.stock,
          card: window.__played.dataset.card,
          added: window.__cards.added.map((n) => [n.__old === true, n.dataset.card]),
          removed: window.__cards.removed.length,
          hand: [...document.querySelectorAll('#hand .card')].every((c) => c.__old === true),
          handSize: document.querySelectorAll('#hand .card').length,
        })"""
    )
    assert found["card"] == code and found["where"] in ("pile", "taken:0", "foxtrots:0"), found
    assert found["hand"] and found["handSize"] == 7, found
    assert all(old for old, _ in found["added"]), found  # moved, never made anew
    assert found["removed"] == len(found["added"]), found
    if found["where"] == "pile":  # laid: exactly this one element moved
        assert found["added"] == [[True, code]], found
    # the move went through the animator (data-moves counts every move)
    assert int(page.locator("#t-game").get_attribute("data-moves") or "0") > moves
    no_flight(page)
    # the old animation module is gone: one code path
    assert page.request.get("/static/table/animate.js").status == 404


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_move_flies_unless_less_motion(new_context: NewContext, api: Api, motion: str) -> None:
    table, token = computer_table(api, 2)
    context = new_context(reduced_motion=motion)
    seat_me(context, table, token)
    page = context.new_page()
    open_table(page, table)
    expect(page.locator("#t-turn.mine")).to_be_visible()
    page.evaluate(
        "() => { window.__anims = []; const a = Element.prototype.animate;"
        " Element.prototype.animate = function (...args) {"
        " window.__anims.push(this.className); return a.apply(this, args); }; }"
    )
    page.locator("#hand .card").first.click(position={"x": 8, "y": 12})
    page.wait_for_function("() => Number(document.querySelector('#t-game').dataset.moves || 0) > 0")
    anims: list[str] = page.evaluate("() => window.__anims")
    flights = page.locator("#t-game").get_attribute("data-flights")
    if motion == "reduce":
        assert anims == [] and flights is None
    else:
        assert anims and all("card" in name.split() for name in anims), anims
        assert int(flights or "0") >= 1
        no_flight(page)


@pytest.mark.parametrize("players", [2, 4, 6, 9])
@pytest.mark.parametrize("role", ["player", "spectator"])
def test_every_seat_once_and_every_card_index_in_view(
    new_context: NewContext, api: Api, artifacts: Path, players: int, role: str
) -> None:
    table, token = computer_table(api, players)
    context = new_context(viewport={"width": 375, "height": 667})
    if role == "player":
        seat_me(context, table, token)
    page = context.new_page()
    open_table(page, table)
    if role == "player":
        expect(page.locator("#t-turn.mine")).to_be_visible()
        # a tapped card stays in its place, outlined, not raised over its neighbour
        page.locator("#hand .card").nth(3).focus()
    for name, (width, height) in VIEWPORTS.items():
        page.set_viewport_size({"width": width, "height": height})
        where = f"{role}, {players} players, {name}"
        page.wait_for_function(
            "(w) => document.documentElement.clientWidth === w", arg=width, timeout=5_000
        )
        # the page fits the table to the window at its resize event, in the next frames
        page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        page.wait_for_function(
            "() => { const a = document.querySelector('.arena');"
            " return !a || a.getBoundingClientRect().bottom <= innerHeight + 1; }",
            timeout=5_000,
        )
        no_flight(page)
        found = page.evaluate(MEASURE)
        if name in ("375x667", "390x844", "1280x800"):
            page.screenshot(path=str(artifacts / f"stocks-{role}-{players}p-{name}.png"))
        assert sorted(int(s["seat"]) for s in found["seats"]) == list(range(players)), where
        assert not found["sideways"], f"{where}: the page scrolls sideways"
        assert found["pile"], where
        boxes = [s["box"] for s in found["seats"]]
        for i, seat in enumerate(boxes):
            assert not overlap(seat, found["pile"]), f"{where}: seat {i} covers the pile"
            if found["hand"]:
                assert not overlap(seat, found["hand"]), f"{where}: seat {i} covers the hand"
            for j in range(i):
                assert not overlap(seat, boxes[j]), f"{where}: seats {i} and {j} overlap"
        if role == "player":
            assert found["cards"] == 8, where
            assert found["covered"] == [], f"{where}: {found['covered']}"
        else:
            assert found["cards"] == 0 and found["hand"] is None, where
    context.close()


def test_an_undo_moves_the_played_card_element_back_to_the_hand(
    new_context: NewContext, api: Api
) -> None:
    summary = api.create(
        options={"players": 2, "target": 10_000},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        bot_delay=0,
        first_dealer=1,
    )
    joined = api.join(summary["table"], "Ann", 0)
    context = new_context(viewport={"width": 375, "height": 667})
    seat_me(context, summary["table"], joined["token"])
    page = context.new_page()
    open_table(page, summary["table"])
    expect(page.locator("#t-turn.mine")).to_be_visible()
    undo = page.locator("[data-action='undo']")
    expect(undo).to_be_disabled()  # no move of Ann's in this deal yet
    page.evaluate("() => { window.__played = document.querySelector('#hand .card'); }")
    code = page.locator("#hand .card").first.get_attribute("data-card")
    page.keyboard.press("1")
    expect(page.locator("#hand .card")).to_have_count(7)
    expect(page.locator("#t-turn.mine")).to_be_visible()  # the computer replied
    expect(undo).to_be_enabled()
    undo.click()
    expect(page.locator("#hand .card")).to_have_count(8)
    found = page.evaluate(
        "() => [window.__played.parentNode.dataset.stock, window.__played.dataset.card]"
    )
    assert found == ["hand:0", code], found
    expect(undo).to_be_disabled()


def test_a_seat_shows_a_whole_long_name_and_no_doubled_brackets(
    new_context: NewContext, api: Api
) -> None:
    name = "Anastasia Alexandrovna Konstantinopolska"
    summary = api.create(
        options={"players": 4, "target": 300},
        seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "medium"}, {"kind": "hard"}],
        bot_delay=10,
        first_dealer=3,
    )
    joined = api.join(summary["table"], name, 0)
    for role in ("player", "spectator"):
        context = new_context(viewport={"width": 375, "height": 667})
        if role == "player":
            seat_me(context, summary["table"], joined["token"])
        page = context.new_page()
        open_table(page, summary["table"])
        seat = page.locator("[data-region='seat'][data-seat='0'] .seat-name")
        expect(seat).to_have_attribute("title", re.compile(f"^{name}"))
        dealer = page.locator("[data-region='seat'][data-seat='3']")
        expect(dealer.locator(".dealer-chip")).to_be_visible()
        texts = page.locator("[data-region='seat']").all_inner_texts()
        assert len(texts) == 4, texts
        for text in texts:
            assert not re.search(r"\)\s*\(", text), text
        context.close()


def test_a_replay_step_moves_the_cards_of_the_same_table(page: Page, api: Api) -> None:
    """The replay is the same table fed the steps' views: a step forward moves the card played
    (its element, turned face up when it came from a hand of backs), and builds nothing."""
    table, token = api.finished_match()
    open_after_match(page, table, token)
    board = page.locator(".replay-board")
    expect(board.locator("[data-stock='pile'] > .card")).to_have_count(1)  # the upturned card
    page.evaluate(
        """() => {
          document.querySelectorAll('.replay-board .card').forEach((c) => { c.__old = true; });
          const log = window.__cards = { added: [] };
          new MutationObserver((records) => {
            for (const r of records) for (const n of r.addedNodes) {
              if (n.nodeType === 1 && n.classList.contains('card')) log.added.push(n);
            }
          }).observe(document.querySelector('.replay-board'), { childList: true, subtree: true });
        }"""
    )
    page.locator(".replay-next").click()
    expect(page.locator(".replay-position")).to_contain_text("move 1 of")
    added = page.evaluate(
        "() => window.__cards.added.map((n) => [n.__old === true, n.parentNode.dataset.stock])"
    )
    assert added and all(old for old, _ in added), added
    assert any(stock == "pile" or stock.startswith("taken:") for _, stock in added), added
