"""The card table on every screen: for each viewport and table size, the hand, the
pile, the stock, the turn, the last action, the message line and every seat lie inside the
window without scrolling; seats overlap neither each other nor the hand; no sideways scroll.
Feedback: a key that plays nothing and a refused move each show a visible message in 300 ms.
Screenshots of every case are kept in test-artifacts/browser/table-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, expect

from foxtrot.core import Card
from foxtrot.core.kernel import LAYS, outcome_of

from .browser_support import Api, wait_settled
from .conftest import NewContext
from .test_a11y import violations

VIEWPORTS = {
    "375x667": (375, 667),
    "390x844": (390, 844),
    "768x1024": (768, 1024),
    "1280x800": (1280, 800),
    "1920x1080": (1920, 1080),
}
SIZES = (2, 3, 4, 6, 9)
REGIONS = ("hand", "pile", "stock", "turn", "last-action", "message")

MEASURE = """(regions) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
            width: r.width, height: r.height}; };
  const out = {};
  for (const name of regions) {
    const el = document.querySelector(`[data-region="${name}"]`);
    out[name] = el ? box(el) : null;
  }
  out.seats = [...document.querySelectorAll('[data-region="seat"]')].map(box);
  out.view = {width: document.documentElement.clientWidth, height: window.innerHeight};
  out.sideways = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  out.scrollY = window.scrollY;
  return out;
}"""


def seat_me(context: BrowserContext, table: str, token: str) -> None:
    value = json.dumps({"seat": 0, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


def computer_table(api: Api, players: int, **options: Any) -> tuple[str, str]:
    """Seat 0 a person (Ann) who moves first; the others slow computers (the view stays put)."""
    levels = ("easy", "medium")
    summary = api.create(
        options={"players": players, "target": 300, **options},
        seats=[{"kind": "person"}] + [{"kind": levels[i % 2]} for i in range(players - 1)],
        bot_delay=10,
        first_dealer=players - 1,
    )
    joined = api.join(summary["table"], "Anastasia", 0)
    return summary["table"], joined["token"]


def inside(box: dict[str, float], view: dict[str, float]) -> bool:
    return (
        box["top"] >= -1
        and box["left"] >= -1
        and box["bottom"] <= view["height"] + 1
        and (box["right"] <= view["width"] + 1)
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


@pytest.mark.parametrize("players", SIZES)
def test_every_region_is_in_view_at_every_size(
    new_context: NewContext, api: Api, artifacts: Path, players: int
) -> None:
    for name, (width, height) in VIEWPORTS.items():
        table, token = computer_table(api, players)
        context = new_context(viewport={"width": width, "height": height})
        seat_me(context, table, token)
        page = context.new_page()
        page.goto(f"/t/{table}")
        expect(page.locator("#hand .card").first).to_be_visible()
        expect(page.locator("#t-turn.mine")).to_be_visible()
        expect(page.locator("[data-region='last-action']")).not_to_be_empty()
        wait_settled(page)  # the deal's card has slid in
        page.screenshot(path=str(artifacts / f"table-{players}p-{name}.png"))
        found = page.evaluate(MEASURE, list(REGIONS))
        where = f"{players} players at {name}"
        view = found["view"]
        assert not found["sideways"], f"{where}: the page scrolls sideways"
        assert found["scrollY"] == 0, where
        for region in REGIONS:
            box = found[region]
            assert box is not None, f"{where}: no {region}"
            assert box["width"] > 0 and box["height"] > 0, f"{where}: {region} is not shown"
            assert inside(box, view), f"{where}: {region} {box} is outside {view}"
        if players == 4:  # axe at every viewport (WCAG 2.1 AA), once per size
            assert violations(page) == [], where
        seats = found["seats"]
        assert len(seats) == players, where
        for i, seat in enumerate(seats):
            assert inside(seat, view), f"{where}: seat {i} {seat} is outside {view}"
            assert not overlap(seat, found["hand"]), f"{where}: seat {i} covers the hand"
            for j in range(i):
                assert not overlap(seat, seats[j]), f"{where}: seats {j} and {i} overlap"
        context.close()


def test_a_key_with_no_card_and_a_refused_move_show_a_message_at_once(
    new_context: NewContext, api: Api
) -> None:
    table, token = computer_table(api, 2)
    context = new_context(viewport={"width": 375, "height": 667})
    seat_me(context, table, token)
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator("#t-turn.mine")).to_be_visible()
    message = page.locator("[data-region='message']")
    expect(message).to_be_empty()
    page.keyboard.press("q")  # no card, no command
    expect(message).to_contain_text("does nothing", timeout=300)
    page.keyboard.press("9")  # a hand of 8 has no ninth card... 9 is the ninth key
    expect(message).not_to_contain_text("does nothing", timeout=300)
    expect(message).to_be_visible()
    page.keyboard.press("t")  # take = match: taking the pile at will is refused by the server
    expect(message).to_contain_text("Refused", timeout=300)
    box = message.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 667


def test_the_cards_that_take_are_marked_and_the_setting_is_remembered(
    new_context: NewContext, api: Api
) -> None:
    """The cards of the hand that would take the pile or make a foxtrot (the engine's rule,
    T3a-T3e) wear a mark; the setting turns the marks off, and a reload keeps it off."""
    context = new_context()
    page = context.new_page()
    for _ in range(12):  # deal until seat 0's first hand holds a card that takes
        table, token = computer_table(api, 2)
        seat_me(context, table, token)
        page.goto(f"/t/{table}")
        expect(page.locator("#t-turn.mine")).to_be_visible()
        hand = page.locator("#hand .card").evaluate_all("bs => bs.map(b => b.dataset.card)")
        pile = page.locator("#t-pile .pile-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        top = Card.parse(pile[-1])
        takes = {
            c for c in hand if outcome_of(len(pile), top.rank, Card.parse(c).rank, True) != LAYS
        }
        if takes:
            break
    else:
        pytest.fail("12 deals without a card that takes in the first hand")
    marked = page.locator("#hand .card[data-effect] .effect")
    shown = marked.evaluate_all("es => es.map(e => e.closest('.card').dataset.card)")
    assert set(shown) == takes, (hand, pile)
    page.locator("#mark-takes").click()
    expect(marked).to_have_count(0)
    page.reload()
    expect(page.locator("#t-turn.mine")).to_be_visible()
    expect(page.locator("#mark-takes")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#hand .card .effect")).to_have_count(0)


@pytest.mark.parametrize(("name", "size"), [("desktop", (1280, 800)), ("phone", (390, 844))])
def test_a_table_in_play_stays_in_view(
    new_context: NewContext, api: Api, artifacts: Path, name: str, size: tuple[int, int]
) -> None:
    """Four players, a few rounds in: a pile of several cards, seats with taken cards; every
    region still in the window (the screenshots of docs/ come from here)."""
    summary = api.create(
        options={"players": 4, "target": 300},
        seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "medium"}, {"kind": "hard"}],
        bot_delay=0.05,
        first_dealer=3,
    )
    joined = api.join(summary["table"], "Anastasia", 0)
    context = new_context(viewport={"width": size[0], "height": size[1]})
    seat_me(context, summary["table"], joined["token"])
    page = context.new_page()
    page.goto(f"/t/{summary['table']}")
    for _ in range(4):
        expect(page.locator("#t-turn.mine")).to_be_visible(timeout=20_000)
        seq = page.locator("#t-game").get_attribute("data-seq")
        page.keyboard.press("1")
        page.wait_for_function(
            f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
        )
    expect(page.locator("#t-turn.mine")).to_be_visible(timeout=20_000)
    wait_settled(page)
    page.screenshot(path=str(artifacts / f"table-in-play-{name}.png"))
    found = page.evaluate(MEASURE, list(REGIONS))
    for region in REGIONS:
        assert inside(found[region], found["view"]), f"{name}: {region} is outside the window"
    assert not found["sideways"]
