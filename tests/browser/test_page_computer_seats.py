"""Computer seats in the viewer's language, and the expert level at a table.

The server stores a computer seat nobody named as ``Computer 2 (medium)`` (its records keep
that name, G2 unchanged); the page and the server's narration word it in the language of
the page: ``Компьютер 2 (эксперт)``, ``Комп'ютер 2 (легкий)``. The lobby offers every level
of the bots (easy, medium, hard, expert), and an expert seat created there plays.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .browser_support import Api
from .conftest import NewContext

pytestmark = pytest.mark.timeout(240)

#: A whole match to 1 point against easy and hard computers.
MATCH_SECONDS = 150.0
#: How many moves of the expert the Russian test waits for, and how long each may take: it
#: thinks up to 5 s of CPU a move (1-3 s here with the compiled kernel); a loaded machine
#: stretches that.
EXPERT_MOVES = 3
EXPERT_MOVE_SECONDS = 60


def play_to_the_end(page: Page, deadline: float) -> int:
    """Press 1 on every turn of this page until the match is over; how many moves."""
    moves = 0
    while True:
        page.wait_for_function(
            "() => document.querySelector('#t-turn.mine')"
            " || document.querySelector('#t-game')?.dataset.phase === 'over'",
            timeout=max(1.0, deadline - time.monotonic()) * 1000,
        )
        if page.locator("#t-game").get_attribute("data-phase") == "over":
            return moves
        seq = page.locator("#t-game").get_attribute("data-seq")
        page.keyboard.press("1")
        page.wait_for_function(
            f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
        )
        moves += 1


def test_russian_lobby_offers_the_expert_and_words_it_in_russian(
    new_context: NewContext, artifacts: Path
) -> None:
    page = new_context(locale="ru-RU").new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    levels = page.locator("#seat-1 option").evaluate_all("os => os.map(o => o.value)")
    # at 2 players the learned level comes after the four (test_page_learned.py)
    assert levels == ["person", "easy", "medium", "hard", "expert", "learned"]
    expect(page.locator("#seat-1 option[value=expert]")).to_have_text("компьютер, эксперт")
    page.locator("#name").fill("Аня")
    page.select_option("#seat-1", "expert")
    page.locator("#rules-more summary").click()
    page.select_option("#target", "custom")
    page.locator("#target-custom").fill("1")
    page.locator("#bot-delay").fill("0")
    page.locator("#create-btn").click()
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)
    players = page.locator("#t-players")
    expect(players).to_contain_text("Компьютер 2 (эксперт)")
    # a few moves against the expert (each of its moves is a search of 1-3 s of CPU; a
    # whole match would take minutes on a busy machine): its moves come, told in Russian
    log = page.locator("#log-list li")
    said = re.compile(r"^Компьютер 2 \(эксперт\) (кладёт|делает|забирает)")
    while sum(1 for line in log.all_inner_texts() if said.match(line)) < EXPERT_MOVES:
        page.wait_for_selector("#t-turn.mine", timeout=EXPERT_MOVE_SECONDS * 1000)
        seq = page.locator("#t-game").get_attribute("data-seq")
        page.keyboard.press("1")
        page.wait_for_function(
            f"() => document.querySelector('#t-game').dataset.seq !== {json.dumps(seq)}"
        )
    body = page.locator("body").inner_text()
    assert "Computer" not in body and "expert" not in body, "an English name on a Russian page"
    expect(page.locator("#t-turn")).not_to_contain_text("Computer")
    page.screenshot(path=str(artifacts / "seats-expert-desktop-ru.png"), full_page=True)


def test_ukrainian_page_and_narration_name_computers_in_ukrainian(
    new_context: NewContext, api: Api
) -> None:
    summary = api.create(
        options={"players": 3, "target": 1},
        seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "hard"}],
    )
    table = summary["table"]
    assert [s["name"] for s in summary["seats"]][1:] == ["Computer 2 (easy)", "Computer 3 (hard)"]
    page = new_context(locale="uk-UA").new_page()
    page.goto(f"/t/{table}")
    seats = page.locator(".seat-list")
    expect(seats).to_contain_text("Комп'ютер 2 (легкий)")
    expect(seats).to_contain_text("Комп'ютер 3 (сильний)")
    page.locator("#join-name").fill("Оля")
    page.locator("#join-btn").click()
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)
    play_to_the_end(page, time.monotonic() + MATCH_SECONDS)
    text = page.locator("body").inner_text()
    assert "Computer" not in text, "an English name on a Ukrainian page"
    assert "Комп'ютер 2 (легкий)" in page.locator("#t-players").inner_text()
    assert "Комп'ютер 3 (сильний) " in page.locator("#log-list").inner_text()
    # the record keeps the names the server stored (G2 is a contract): English defaults
    joined = page.evaluate(f"() => JSON.parse(localStorage.getItem('foxtrot.seat.{table}'))")
    record = api.get(f"/api/tables/{table}/record", joined["token"]).json()
    assert record["names"] == ["Оля", "Computer 2 (easy)", "Computer 3 (hard)"]


def test_the_lobby_says_when_a_level_plays_as_the_one_below_at_that_many_players(
    new_context: NewContext,
) -> None:
    page = new_context(locale="en-US").new_page()
    page.goto("/")
    tie = page.locator("#quick-level-tie")
    page.select_option("#quick-level", "hard")
    page.select_option("#quick-opponents", "1")
    expect(tie).to_have_text("")  # at 2 players hard is rated above medium
    page.select_option("#quick-opponents", "3")
    expect(tie).to_contain_text("At a table of 4 players hard plays about as well as medium")
    page.select_option("#quick-level", "medium")
    expect(tie).to_have_text("")
    page.select_option("#quick-level", "expert")
    page.select_option("#quick-opponents", "1")
    expect(tie).to_contain_text("At a table of 2 players expert plays about as well as hard")
