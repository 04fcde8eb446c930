"""A take in motion (none with prefers-reduced-motion), and actions resent until answered.

- When someone takes, the pile's card elements move to the taker's stock of taken cards
  (static/table/stocks.js) and fly there: with ``prefers-reduced-motion: reduce`` nothing
  flies, the cards just change place.
- An action with no answer is sent again with the same id, after a timeout and after a
  reconnect (docs/protocol.md: the server answers a resent id with its original result and
  never applies it twice). Playwright's WebSocket routing stands between the page and the
  server and loses the first action, or the server's answer to it.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Error, Page, WebSocketRoute, expect

from .browser_support import Api, page_wait_until
from .conftest import NewContext

pytestmark = pytest.mark.timeout(180)

#: Records every card that flies (the animator's class on a card; a flight is under half a second).
FLIGHT_WATCH = """
window.__flown = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    const f = change.target;
    if (f.classList && f.classList.contains('flying')) window.__flown.push(f.dataset.card);
  }
}).observe(document, { attributes: true, attributeFilter: ['class'], subtree: true });
"""


def store_seat(context: BrowserContext, table: str, seat: int, token: str) -> None:
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )


def take_table(api: Api) -> tuple[str, str]:
    """take = any against a medium computer; seat 0 (Ann) plays first, the upturned card
    is a one-card pile he may take (X1)."""
    summary = api.create(
        options={"players": 2, "target": 150, "take": "any"},
        seats=[{"kind": "person"}, {"kind": "medium"}],
        first_dealer=1,
    )
    return str(summary["table"]), str(api.join(summary["table"], "Ann", 0)["token"])


def my_turn(page: Page) -> None:
    expect(page.locator("#t-turn.mine")).to_be_visible(timeout=30_000)


def take_once(page: Page) -> list[str]:
    """Play until it is Ann's turn with cards on the pile, take them; the pile's cards."""
    for _ in range(30):
        my_turn(page)
        pile = page.locator("#t-pile .pile-card").count()
        seq = page.locator("#t-game").get_attribute("data-seq")
        if pile:
            cards: list[str] = page.evaluate(
                "() => [...document.querySelectorAll('#t-pile .pile-card')]"
                ".map((c) => { c.__taken = true; return c.dataset.card; })"
            )
            page.keyboard.press("t")
        else:
            page.keyboard.press("1")
        page.wait_for_function(
            f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
        )
        if pile:
            return cards
    raise AssertionError("Ann never had a pile to take")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_take_flies_to_the_taker_unless_less_motion(
    new_context: NewContext, api: Api, motion: str
) -> None:
    table, token = take_table(api)
    context = new_context(reduced_motion=motion)
    store_seat(context, table, 0, token)
    context.add_init_script(FLIGHT_WATCH)
    page = context.new_page()
    page.goto(f"/t/{table}")
    page.evaluate("() => { window.__flown = []; }")
    taken = take_once(page)
    game = page.locator("#t-game")
    # the pile's own card elements are now in Ann's stock of taken cards
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-stock=\"taken:0\"] > .card').length >= n",
        arg=len(taken),
    )
    moved = page.evaluate(
        "() => [...document.querySelectorAll('.card')].filter((c) => c.__taken)"
        ".map((c) => c.parentNode.dataset.stock)"
    )
    assert moved == ["taken:0"] * len(taken), moved
    flown: list[str] = page.evaluate("() => window.__flown")
    if motion == "reduce":
        assert flown == [] and game.get_attribute("data-flights") is None
    else:
        # every card of the pile flew, and the flight is over soon after
        assert len(flown) >= len(taken) >= 1, (flown, taken)
        expect(page.locator(".card.flying")).to_have_count(0, timeout=3_000)
    # the take itself happened either way: Ann's taken count went up (the computer may
    # have laid a new card on the emptied pile already)
    ann_taken = page.locator("[data-region='seat'][data-seat='0'] .seat-taken")
    assert int(ann_taken.get_attribute("data-value") or "0") >= len(taken)


Frames = list[dict[str, Any]]


def routed_page(
    new_context: NewContext, table: str, token: str, lose: Callable[[dict[str, Any]], str]
) -> tuple[Page, Frames, Frames]:
    """Ann's page with a WebSocket route: ``lose(first action)`` says what to lose of it:
    "action" (it never reaches the server) or "answer" (the server gets it, the page's
    connection drops before the answer). Returns the page, the frames the page sent and
    the frames it received (each with ``hellos_before``: how many hellos the page had sent
    when it came, which tells the connections apart)."""
    sent: Frames = []
    received: Frames = []
    state = {"lost": False}

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            sent.append(data)
            if data.get("type") == "action" and not state["lost"]:
                state["lost"] = True
                if lose(data) == "action":
                    return  # swallowed: the page waits for an answer that never comes
                server.send(message)
                ws.close()  # the network drops before the answer comes back
                return
            server.send(message)

        def from_server(message: str | bytes) -> None:
            hellos = sum(m.get("type") == "hello" for m in sent)  # the connection it came on
            received.append(json.loads(message) | {"hellos_before": hellos})
            with contextlib.suppress(Error):  # the page's side may be closed by now
                ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    context = new_context()
    store_seat(context, table, 0, token)
    page = context.new_page()
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.goto(f"/t/{table}")
    return page, sent, received


@pytest.mark.parametrize("lose", ["action", "answer"])
def test_an_unanswered_action_is_resent_with_its_id(
    new_context: NewContext, api: Api, lose: str
) -> None:
    table, token = take_table(api)
    page, sent, received = routed_page(new_context, table, token, lambda _: lose)
    my_turn(page)
    card = page.locator("#hand .card").first.get_attribute("data-card")
    copies = page.locator(f"#hand .card[data-card='{card}']")
    held = copies.count()  # two packs: the hand may hold two of it
    page.keyboard.press("1")
    # the card is played once the resend gets through: after the timeout, or the reconnect
    # (the timeout alone is RESEND_MS, 4 s: the deadline leaves a busy machine plenty more)
    expect(copies).to_have_count(held - 1, timeout=60_000)
    # The hand can show the move before the resend is answered (after a reconnect the new
    # connection's catch-up already holds it): wait for the resend and its answer themselves.
    actions = page_wait_until(
        page,
        lambda: (found := [m for m in sent if m.get("type") == "action"])[1:] and found,
        what="the action sent a second time",
    )
    assert actions[0] == actions[1], actions  # same id, same seq
    action_id = actions[0]["id"]
    connections = 2 if lose == "answer" else 1  # the answer to the resend comes on the last
    page_wait_until(
        page,
        lambda: any(
            m.get("id") == action_id and m["hellos_before"] >= connections for m in received
        ),
        what="the server's answer to the resent action",
    )
    hellos = [i for i, m in enumerate(sent) if m.get("type") == "hello"]
    resent = [i for i, m in enumerate(sent) if m.get("type") == "action"][1]
    if lose == "action":
        # nothing dropped the connection: the resend is the timeout's (RESEND_MS)
        assert len(hellos) == 1 and resent > hellos[0], sent
    else:
        assert len(hellos) >= 2, "the page connected again"
        assert resent > hellos[1], "resent after the new connection's hello"
    answers = [m for m in received if m.get("id") == action_id]
    assert answers and all(m["type"] == "ack" for m in answers), answers  # never refused
    # applied once: Ann's move is in the history once, however often it was sent
    view = api.get(f"/api/tables/{table}/replay?lang=en", token).json()
    steps = [s for s in view["deals"][0]["steps"] if s["seat"] == 0]
    assert [s["action"] for s in steps].count(card) == 1
