"""The browser game played in a real Chromium: by keyboard against a computer, two people at one
table (one reloads mid-deal), a refused move's message, the hint from the coach.

Every match is short (a custom target of 1 point) and the computers answer at once, so the
whole file runs in well under a minute or two.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocket, expect

from foxtrot.web.http.page import catalog_payload

from .browser_support import Api, page_wait_until
from .conftest import NewContext

MATCH_SECONDS = 120.0


def seat_page(context: BrowserContext, table: str, seat: int, token: str) -> Page:
    """A page that holds the seat's token (as the page keeps it: by table) and opens the table."""
    value = json.dumps({"seat": seat, "token": token})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{table}', {json.dumps(value)})"
    )
    page = context.new_page()
    page.goto(f"/t/{table}")
    expect(page.locator("#t-game")).to_be_visible()
    return page


def computer_table(api: Api, **options: object) -> tuple[str, str]:
    """A 2-player table: seat 0 a person (Ann, joined), seat 1 a medium computer."""
    summary = api.create(
        options={"players": 2, "target": 1, **options},
        seats=[{"kind": "person"}, {"kind": "medium"}],
    )
    joined = api.join(summary["table"], "Ann", 0)
    return str(summary["table"]), str(joined["token"])


def my_turn_or_over(page: Page, timeout: float = 30.0) -> bool:
    """Wait until it is this page's turn (True) or the match is over (False)."""
    page.wait_for_function(
        "() => document.querySelector('#t-turn.mine')"
        " || document.querySelector('#t-game')?.dataset.phase === 'over'",
        timeout=timeout * 1000,
    )
    return page.locator("#t-game").get_attribute("data-phase") != "over"


def play_one(page: Page, key: str = "1") -> None:
    """Press ``key`` (the first card by default) and wait for the table to move on."""
    seq = page.locator("#t-game").get_attribute("data-seq")
    page.keyboard.press(key)
    page.wait_for_function(
        f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
    )


def test_keyboard_match_against_a_computer(page: Page, artifacts: Path) -> None:
    """Create the table in the lobby, then play a whole match with the keyboard only."""
    page.goto("/")
    page.locator("#name").focus()
    page.keyboard.type("Ann")
    page.locator("#rules-more summary").click()
    page.select_option("#target", "custom")
    page.locator("#target-custom").fill("1")
    page.locator("#bot-delay").fill("0")
    page.locator("#create-btn").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)
    page.screenshot(path=str(artifacts / "page-table-desktop-en.png"), full_page=True)
    deadline = time.monotonic() + MATCH_SECONDS
    moves = 0
    while my_turn_or_over(page):
        assert time.monotonic() < deadline, "the match did not end in time"
        if moves % 2:  # both ways of the terminal game: ←/→ then Enter, or a card's key
            page.keyboard.press("ArrowRight")
            expect(page.locator("#hand .card:focus")).to_have_count(1)
            play_one(page, "Enter")
        else:
            play_one(page, "1")
        moves += 1
    assert moves >= 8
    expect(page.locator("#winner")).to_contain_text("wins the match")
    sheet = page.locator("#sheet-last")
    for part in ("Foxtrots", "Doubles", "Foxtrot bonus", "Card points", "Most cards", "Deal"):
        expect(sheet).to_contain_text(part)
    polite = page.locator("#live-polite").inner_text()
    assert "Ann plays" in polite or "Ann" in page.locator("#log-list").inner_text()
    # cards are spoken as words in the live region, never as glyphs
    assert not any(glyph in polite for glyph in "♠♥♦♣"), polite
    page.screenshot(path=str(artifacts / "page-over-desktop-en.png"), full_page=True)


def test_your_turn_is_assertive_and_actions_polite(new_context: NewContext, api: Api) -> None:
    """ "Your turn" goes to the assertive region; every action as a sentence to the polite one."""
    table, token = computer_table(api)
    page = seat_page(new_context(), table, 0, token)
    assert my_turn_or_over(page)
    expect(page.locator("#live-assertive")).to_have_text("Your turn.")
    first = page.locator("#hand .card").first
    label = first.get_attribute("aria-label") or ""
    assert " of " in label, label  # "Queen of spades", not "Q♠"
    # the card's name, then "(takes the pile)" or the like when the card would take
    name = catalog_payload("en")["cards"][first.get_attribute("data-card") or ""][1]
    assert label.startswith(name), (name, label)
    play_one(page)
    said = re.compile(f"Ann (plays|makes|takes)[^.]*{re.escape(name)}")
    expect(page.locator("#live-polite")).to_contain_text(said)


def test_refused_move_shows_a_message(new_context: NewContext, api: Api) -> None:
    """Taking the pile is refused at a take = match table: the page says why."""
    table, token = computer_table(api)
    page = seat_page(new_context(), table, 0, token)
    assert my_turn_or_over(page)
    expect(page.locator("#take")).to_be_hidden()  # no take button under take = match
    page.keyboard.press("t")
    message = page.locator("#t-msg")
    expect(message).to_contain_text("Refused")
    expect(message).to_contain_text("Jack")
    expect(page.locator("#live-polite")).to_contain_text("Refused")


def test_hint_gives_a_legal_move_and_a_reason(new_context: NewContext, api: Api) -> None:
    """The hint button asks the coach for this seat: a card of the hand and a reason."""
    table, token = computer_table(api, take="any")
    page = seat_page(new_context(), table, 0, token)
    assert my_turn_or_over(page)
    hand = page.locator("#hand .card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    page.keyboard.press("h")
    # the first hint of a server starts the coach's process: allow for a busy machine
    expect(page.locator("#hint-text")).to_contain_text("The coach suggests", timeout=90_000)
    text = page.locator("#hint-text").inner_text()
    assert len(text) > 30
    assert not set("♠♥♦♣") & set(text), text  # the move and its reason name cards in words
    page.locator("#hint-play").focus()
    seq = page.locator("#t-game").get_attribute("data-seq")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('#t-game').dataset.seq !== '{seq}'")
    assert hand  # the hand was there to choose from
    response = api.http.post(f"/api/tables/{table}/hint", json={"lang": "en"})
    assert response.status_code == 401  # no token: no hint
    response = api.http.post(
        f"/api/tables/{table}/hint",
        json={"lang": "en"},
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert response.status_code == 403


def test_two_people_play_a_match_one_reloads(new_context: NewContext, artifacts: Path) -> None:
    """Ann creates a table for two people; Bob joins by the invite link; Ann reloads mid-deal."""
    ann = new_context().new_page()
    ann.goto("/")
    ann.locator("#name").fill("Ann")
    ann.select_option("#seat-1", "person")
    ann.locator("#rules-more summary").click()
    ann.select_option("#target", "custom")
    ann.locator("#target-custom").fill("1")
    ann.locator("#create-btn").click()
    link = ann.locator("#invite-link")
    expect(link).to_be_visible()
    invite = link.input_value()
    assert "/t/" in invite
    ann.screenshot(path=str(artifacts / "page-waiting-desktop-en.png"), full_page=True)

    bob = new_context().new_page()
    bob.goto(invite)
    bob.locator("#join-name").fill("Bob")
    bob.locator("#join-btn").click()
    for page in (ann, bob):
        expect(page.locator("#t-game")).to_be_visible(timeout=15_000)
    deadline = time.monotonic() + MATCH_SECONDS
    reloaded = False
    moves = 0
    while ann.locator("#t-game").get_attribute("data-phase") != "over":
        assert time.monotonic() < deadline, "the match did not end in time"
        for page in (ann, bob):
            if page.locator("#t-turn.mine").count():
                play_one(page)
                moves += 1
        if moves >= 6 and not reloaded:
            seat_before = ann.locator("#hand .card").count()
            ann.reload()
            expect(ann.locator("#t-game")).to_be_visible()
            expect(ann.locator("#hand .card")).to_have_count(seat_before)
            expect(ann.locator(".seat.me")).to_contain_text("Ann (you")
            reloaded = True
        time.sleep(0.05)
    assert reloaded
    for page in (ann, bob):
        expect(page.locator("#winner")).to_contain_text("wins the match")


@pytest.mark.parametrize(
    ("lang", "your_turn", "plays", "suits"),
    [
        ("ru", "Ваш ход.", "(кладёт|делает|забирает)", ("пик", "червей", "бубен", "треф")),
        ("uk", "Ваш хід.", "(кладе|робить|забирає)", ("пік", "чирв", "бубон", "треф")),
    ],
)
def test_keyboard_play_in_russian_and_ukrainian(  # noqa: PLR0917 (fixtures and parameters)
    new_context: NewContext,
    api: Api,
    artifacts: Path,
    lang: str,
    your_turn: str,
    plays: str,
    suits: tuple[str, ...],
) -> None:
    """Moves by keyboard in ru and uk: the announcements are sentences of that language."""
    table, token = computer_table(api)
    context = new_context(locale={"ru": "ru-RU", "uk": "uk-UA"}[lang])
    page = seat_page(context, table, 0, token)
    assert page.locator("html").get_attribute("lang") == lang
    assert my_turn_or_over(page)
    expect(page.locator("#live-assertive")).to_have_text(your_turn)
    first = page.locator("#hand .card").first
    label = first.get_attribute("aria-label") or ""
    assert any(suit in label for suit in suits), label  # «дама пик», not «Д♠»
    code = first.get_attribute("data-card") or ""
    # the card's name, then what it would do if it takes («(забирає стопку)»), when it does
    assert label.startswith(catalog_payload(lang)["cards"][code][1]), (code, label)
    play_one(page, "1")
    # "Ann кладёт даму пик", "Ann делает фокстрот дамой пик", "Ann забирает стопку дамой пик":
    # the card in the case of its sentence, never the nominative «дама пик» of its label
    cases = catalog_payload(lang)["card_cases"][code]
    said = re.compile(f"Ann {plays}[^.]* ({re.escape(cases['acc'])}|{re.escape(cases['ins'])})")
    expect(page.locator("#live-polite")).to_contain_text(said)
    assert my_turn_or_over(page)
    page.keyboard.press("ArrowRight")
    play_one(page, "Space")
    polite = page.locator("#live-polite").inner_text()
    assert not any(glyph in polite for glyph in "♠♥♦♣"), polite
    page.screenshot(path=str(artifacts / f"page-table-desktop-{lang}.png"), full_page=True)


def test_a_spectator_never_holds_a_card_of_a_hand(new_context: NewContext, api: Api) -> None:
    """A watcher's page: no hand in the DOM, none in any WebSocket frame it receives."""
    summary = api.create(
        options={"players": 3, "target": 1},
        seats=[{"kind": "easy"}, {"kind": "medium"}, {"kind": "easy"}],
        bot_delay=0.05,
    )
    page = new_context().new_page()
    frames: list[dict[str, object]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda frame: frames.append(json.loads(frame))),
    )
    page.goto(f"/t/{summary['table']}")
    expect(page.locator("#t-game")).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('#log-list li').length > 5")
    expect(page.locator("#hand .card")).to_have_count(0)
    expect(page.locator("#t-mine")).to_be_hidden()
    views = [f["view"] for f in frames if isinstance(f.get("view"), dict)]
    assert views, frames[:3]
    for view in views:
        assert isinstance(view, dict)
        assert "hand" not in view
        assert "legal" not in view
        assert view.get("seat") is None


def test_lobby_lists_an_open_table_to_join(new_context: NewContext, api: Api) -> None:
    """A public table with a free seat is in the lobby's list; Join sits down at it."""
    summary = api.create(
        options={"players": 2, "target": 1}, seats=[{"kind": "person"}, {"kind": "person"}]
    )
    api.join(summary["table"], "Annelies", 0)  # a name no other test's open table has
    page = new_context().new_page()
    page.goto("/")
    page.locator("#name").fill("Bob")
    item = page.locator(".table-item", has_text="Annelies")
    expect(item).to_contain_text("1 free seat")
    item.get_by_role("button", name="Join").click()
    expect(page).to_have_url(f"/t/{summary['table']}")
    expect(page.locator(".seat.me")).to_contain_text("Bob (you")
    assert api.table(summary["table"])["status"] == "playing"


def test_a_name_being_typed_survives_the_waiting_room_redrawn(
    new_context: NewContext, api: Api
) -> None:
    """Somebody else sits down while Bob types his name: the room is drawn anew, his text stays."""
    summary = api.create(options={"players": 3, "target": 1}, seats=[{"kind": "person"}] * 3)
    table = summary["table"]
    api.join(table, "Ann", 0)
    page = new_context().new_page()
    page.goto(f"/t/{table}")
    page.locator("#join-name").fill("Bob")
    api.join(table, "Cy", 1)  # a presence change redraws the seat list and the join form
    expect(page.locator(".seat-list")).to_contain_text("Cy")
    expect(page.locator("#join-name")).to_have_value("Bob")
    expect(page.locator("#join-name")).to_be_focused()
    page.locator("#join-btn").click()
    expect(page.locator(".seat.me")).to_contain_text("Bob (you")


def test_a_lost_connection_comes_back_by_itself(new_context: NewContext, api: Api) -> None:
    """The socket drops (here: closed under the page): the page reconnects to its seat."""
    table, token = computer_table(api)
    context = new_context()
    context.add_init_script(
        "const Original = window.WebSocket; window.__sockets = [];"
        "window.WebSocket = class extends Original {"
        " constructor(...args) { super(...args); window.__sockets.push(this); } };"
    )
    page = seat_page(context, table, 0, token)
    assert my_turn_or_over(page)
    play_one(page)
    assert my_turn_or_over(page)
    cards = page.locator("#hand .card").count()
    hellos: list[dict[str, object]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda frame: hellos.append(json.loads(frame))),
    )
    page.evaluate("() => window.__sockets.forEach((socket) => socket.close())")
    expect(page.locator("#t-conn")).to_contain_text("reconnecting")
    expect(page.locator("#t-conn")).to_have_text("", timeout=15_000)
    expect(page.locator("#hand .card")).to_have_count(cards)
    hello = next(msg for msg in hellos if msg.get("type") == "hello")
    assert hello["token"] == token
    assert isinstance(hello["last_seq"], int) and hello["last_seq"] > 0
    assert my_turn_or_over(page)
    play_one(page)  # the seat is still ours: a move is accepted


def test_language_switch_at_the_table(new_context: NewContext, api: Api) -> None:
    """Switching to Ukrainian mid-match redraws the table and the narration comes in Ukrainian."""
    table, token = computer_table(api)
    page = seat_page(new_context(), table, 0, token)
    assert my_turn_or_over(page)
    expect(page.locator("#t-turn")).to_have_text("Your turn.")
    # The switch reconnects in the new language and has the last events told again: a move
    # sent before that connection has caught up would carry a rewound sequence number (and be
    # refused as stale). So the test waits for the new connection to bring the table's last
    # event, as a person's eyes wait for the narration to come back.
    caught_up = int(page.locator("#t-game").get_attribute("data-seq") or "0")
    newest: dict[str, int] = {}
    page.on("websocket", lambda ws: track_seq(ws, newest))
    page.select_option("#lang-pick", "uk")
    expect(page.locator("#t-turn")).to_have_text("Ваш хід.")
    assert page.locator("html").get_attribute("lang") == "uk"
    expect(page.locator("#hand-title")).to_contain_text("Ваші карти")
    page_wait_until(
        page,
        lambda: newest.get("seq", -1) >= caught_up,
        what=f"the Ukrainian connection to tell event {caught_up} again",
    )
    page.locator("#hand .card").first.focus()
    expect(page.locator("#hand .card").first).to_be_focused()
    play_one(page, "Enter")
    expect(page.locator("#log-list")).to_contain_text(re.compile("Ann (кладе|робить|забирає)"))


def track_seq(ws: WebSocket, newest: dict[str, int]) -> None:
    """Keep in ``newest["seq"]`` the highest sequence number ``ws`` has received."""

    def heard(payload: str | bytes) -> None:
        with contextlib.suppress(ValueError, TypeError):
            seq = json.loads(payload).get("seq")
            if isinstance(seq, int):
                newest["seq"] = max(newest.get("seq", -1), seq)

    ws.on("framereceived", heard)


def test_an_unknown_seat_token_is_dropped_for_watching(new_context: NewContext, api: Api) -> None:
    """A token the table does not know (an old one): the page says so and watches instead."""
    table, _token = computer_table(api)
    context = new_context()
    page = seat_page(context, table, 0, "x" * 43)
    expect(page.locator("#t-msg")).to_contain_text("not known here")
    expect(page.locator("#t-mine")).to_be_hidden()
    assert page.evaluate(f"() => localStorage.getItem('foxtrot.seat.{table}')") is None


def test_turn_timer_counts_down_and_warns(new_context: NewContext, api: Api) -> None:
    """With a turn timer the turn line counts down and the assertive region says "Hurry"."""
    summary = api.create(
        options={"players": 2, "target": 1},
        seats=[{"kind": "person"}, {"kind": "medium"}],
        turn_seconds=11,
    )
    joined = api.join(summary["table"], "Ann", 0)
    page = seat_page(new_context(), summary["table"], 0, joined["token"])
    assert my_turn_or_over(page)
    expect(page.locator("#t-timer")).to_contain_text("seconds left")
    expect(page.locator("#live-assertive")).to_contain_text("Hurry", timeout=8_000)


def test_an_away_player_shows_the_countdown(new_context: NewContext, api: Api) -> None:
    """When the other person's page closes, the table shows how long until a computer plays."""
    summary = api.create(
        options={"players": 2, "target": 1},
        seats=[{"kind": "person"}, {"kind": "person"}],
        grace_seconds=120,
    )
    ann = api.join(summary["table"], "Ann", 0)
    bob = api.join(summary["table"], "Bob", 1)
    ann_page = seat_page(new_context(), summary["table"], 0, ann["token"])
    bob_context = new_context()
    seat_page(bob_context, summary["table"], 1, bob["token"])
    bob_row = ann_page.locator("[data-region='seat']", has_text="Bob")
    expect(bob_row).to_contain_text("here")
    bob_context.close()
    expect(bob_row).to_contain_text(re.compile(r"away: a computer plays in 1[01]\d seconds"))
