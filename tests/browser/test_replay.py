"""The replay after a match in a real browser: step, jump, the seat's and the public view, download.

The page's replay (static/replay.js) is mounted into a bench page of the
server's origin (browser_support.open_after_match) and compared with what the
server's ``/api/tables/{id}/replay`` says for the same table.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .browser_support import Api, open_after_match

pytestmark = pytest.mark.timeout(180)

Match = tuple[str, str]


@pytest.fixture(scope="module")
def match(api: Api) -> Match:
    """A finished two-player match of several deals: (table, the person's token)."""
    table, token = api.finished_match(target=300)
    return table, token


def _replay(api: Api, table: str, token: str | None, lang: str = "en") -> dict[str, Any]:
    response = api.get(f"/api/tables/{table}/replay?lang={lang}", token)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _cards(page: Page, selector: str) -> list[str]:
    return [
        str(x) for x in page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")
    ]


def _position(page: Page) -> str:
    return page.inner_text(".replay-position").strip()


def test_steps_and_jumps_as_the_seat_saw_it(page: Page, api: Api, match: Match) -> None:
    table, token = match
    data = _replay(api, table, token)
    deals = data["deals"]
    assert len(deals) >= 2, "a match to 300 has more than one deal"
    open_after_match(page, table, token)
    first = deals[0]
    moves = len(first["steps"])
    assert _position(page) == f"Deal 1, as dealt: {moves} moves follow."
    assert Counter(_cards(page, ".replay-hand .card")) == Counter(first["hand"])
    for _ in range(3):
        page.click(".replay-next")
    step = first["steps"][2]
    assert _position(page) == f"Deal 1, move 3 of {moves}."
    assert page.inner_text(".replay-text").split("\n") == step["text"]
    assert _cards(page, ".replay-board .pile-card") == step["view"]["pile"]
    assert Counter(_cards(page, ".replay-hand .card")) == Counter(step["hand"])
    assert step["spoken"][0] in page.inner_text("#live-polite")  # the cards in words
    page.click(".replay-prev")
    assert _position(page) == f"Deal 1, move 2 of {moves}."
    # the keyboard: arrows step, End goes to the end of the deal, where the score sheet is
    page.focus(".replay-next")
    page.keyboard.press("ArrowRight")
    assert _position(page) == f"Deal 1, move 3 of {moves}."
    page.keyboard.press("End")
    assert _position(page) == f"Deal 1, move {moves} of {moves}."
    assert page.get_attribute(".replay-next", "aria-disabled") == "true"
    rows = page.eval_on_selector_all(
        ".replay-sheet tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    last = first["steps"][-1]["view"]
    assert [row[0] for row in rows] == last["names"]
    for row, line, total in zip(rows, first["scores"], last["totals"], strict=True):
        assert int(row[7]) == line["total"]  # P4, the deal's score
        assert int(row[8]) == total  # the match total after the deal
        assert int(row[5]) == line["card_points"]
    # jump to the last deal and back to its start
    page.select_option(".replay-controls select", str(len(deals) - 1))
    moves = len(deals[-1]["steps"])
    assert _position(page) == f"Deal {len(deals)}, as dealt: {moves} moves follow."
    assert Counter(_cards(page, ".replay-hand .card")) == Counter(deals[-1]["hand"])
    page.click(".replay-last")
    page.click(".replay-first")
    assert _position(page) == f"Deal {len(deals)}, as dealt: {moves} moves follow."


def _hands_in(value: Any) -> list[Any]:
    """Every non-empty ``hand`` anywhere in a JSON value."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k == "hand" and v]
        return found + [x for v in value.values() for x in _hands_in(v)]
    if isinstance(value, list):
        return [x for v in value for x in _hands_in(v)]
    return []


def test_the_public_replay_shows_no_hand(page: Page, api: Api, match: Match) -> None:
    table, token = match

    def fetched() -> Any:
        return page.expect_response(lambda r: "/api/tables/" in r.url and "/replay?" in r.url)

    with fetched() as answer:
        open_after_match(page, table, token)
    assert answer.value.request.headers.get("authorization") == f"Bearer {token}"
    assert _hands_in(answer.value.json()), "a seat's replay holds its hands"
    with fetched() as answer:
        page.check("input[value=public]")
    page.wait_for_function("() => !document.querySelector('.replay-hand')")
    assert answer.value.request.headers.get("authorization") is None, "no token for the public"
    public = answer.value.json()
    assert public["seat"] is None
    assert not _hands_in(public)
    page.click(".replay-next")
    assert page.query_selector(".replay-hand") is None
    # a spectator (no token) gets the public replay only: no seat view, no record, no review
    with fetched() as answer:
        open_after_match(page, table, None)
    assert not _hands_in(answer.value.json())
    assert page.query_selector("input[value=seat]") is None
    assert page.query_selector(".replay-hand") is None
    assert page.query_selector(".replay-download") is None
    assert page.query_selector(".review-start") is None


def test_the_record_downloads(page: Page, api: Api, match: Match, tmp_path: Path) -> None:
    table, token = match
    open_after_match(page, table, token)
    with page.expect_download() as info:
        page.click(".replay-download")
    path = tmp_path / "record.json"
    info.value.save_as(path)
    assert info.value.suggested_filename == f"foxtrot-{table}.json"
    record = api.get(f"/api/tables/{table}/record", token).json()
    assert json.loads(path.read_text()) == record
    assert record["format"] == "foxtrot-record/1"
    assert "saved" in page.inner_text(".replay-download-msg")


def test_the_replay_speaks_russian(page: Page, api: Api, match: Match) -> None:
    table, token = match
    data = _replay(api, table, token, "ru")
    open_after_match(page, table, token, "ru")
    assert page.get_attribute("html", "lang") == "ru"
    assert page.inner_text(".replay h3") == "Повтор матча"
    page.click(".replay-next")
    step = data["deals"][0]["steps"][0]
    assert page.inner_text(".replay-text").split("\n") == step["text"]
    # the same lines for a screen reader: the card in words, in its sentence's case
    # (a card the sentence declines, «валетом треф», is in words on the screen too)
    assert len(step["spoken"]) == len(step["text"])
    assert not any(glyph in " ".join(step["spoken"]) for glyph in "♠♥♦♣")
    for spoken, text in zip(step["spoken"], step["text"], strict=True):
        assert (spoken != text) == any(glyph in text for glyph in "♠♥♦♣")
    expect(page.locator("#live-polite")).to_contain_text(step["spoken"][0])
    assert _position(page) == f"Раздача 1, ход 1 из {len(data['deals'][0]['steps'])}."
    assert (
        data["deals"][0]["steps"][0]["text"]
        != _replay(api, table, token)["deals"][0]["steps"][0]["text"]
    ), "the narration follows the language"


def test_the_replay_refuses_an_unknown_language(api: Api, match: Match) -> None:
    table, token = match
    response = api.get(f"/api/tables/{table}/replay?lang=xx", token)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_schema"
