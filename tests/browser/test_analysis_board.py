"""The analysis board in the page (static/analysis/analysis.js, ``data-region="analysis"``).

From a reviewed move of a finished match: the board opens at the position before it, two
moves are tried, and at every position the values beside the cards are the ones ``foxtrot
hint``'s search gives (``coach.suggest``, the same samples); back and forward walk the tried
line; no frame with the hands hidden names a card the seat could not see (the table tests'
leak checker); "show all hands" shows them; a bad position text is refused in words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, Response, expect

from foxtrot.analysis import Board
from foxtrot.bots.coach import suggest
from foxtrot.cli.main import main
from foxtrot.core import State
from foxtrot.i18n import catalog
from foxtrot.web.http.analysis import SAMPLES
from web.test_web_analysis import visible
from web.test_web_hidden import cards_in

from .browser_support import Api, open_after_match
from .conftest import NewContext
from .test_a11y import fits, violations
from .test_screens import LOCALES, Shots, to_top
from .test_table_layout import VIEWPORTS

pytestmark = pytest.mark.timeout(300)

BOARD = '[data-region="analysis"]'


def _settled(page: Page) -> None:
    page.wait_for_function(
        "(sel) => { const b = document.querySelector(sel);"
        " return b && b.getAttribute('aria-busy') === 'false'; }",
        arg=BOARD,
        timeout=120_000,
    )


def _shown_values(page: Page) -> dict[str, float | None]:
    found: dict[str, float | None] = {}
    for item in page.locator(f"{BOARD} .analysis-move").all():
        value = item.get_attribute("data-value") or ""
        found[item.get_attribute("data-move") or ""] = float(value) if value else None
    return found


def _check_against_hint(board: Board, line: list[str], values: dict[str, float | None]) -> None:
    state = board.at(line).state
    mover = state.to_move
    assert mover is not None
    obs = state.observation(mover)
    assert sorted(values) == sorted(str(a) for a in obs.legal_actions)
    if len(values) == 1:
        return
    hint = suggest(obs, iterations=SAMPLES, seconds=None)
    assert hint.value is not None and hint.alternative_value is not None
    assert values[str(hint.action)] == round(hint.value, 1)
    assert values[str(hint.alternative)] == round(hint.alternative_value, 1)


@pytest.fixture(scope="module")
def finished(api: Api) -> tuple[str, str]:
    """A finished one-deal match: (table, the person's token)."""
    return api.finished_match(target=1)


def test_try_two_moves_from_a_reviewed_position(
    page: Page, api: Api, finished: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    table, token = finished
    record = api.get(f"/api/tables/{table}/record", token).json()
    frames: list[dict[str, Any]] = []

    def note(response: Response) -> None:
        if response.url.endswith("/api/analysis") and response.status == 200:
            frames.append(response.json())

    open_after_match(page, table, token)
    page.wait_for_selector(".review-deal", timeout=180_000)  # the deal is reviewed
    page.check(".review-filter input")  # every move, not only the weaker ones
    link = page.locator('.review-move [data-action="analyse"]').first
    href = link.get_attribute("href")
    assert href is not None and href.startswith("/analysis?")
    query = {k: v[0] for k, v in parse_qs(urlparse(href).query).items()}
    page.on("response", note)
    page.goto(href)
    page.wait_for_selector(f'{BOARD} [data-action="try"]', timeout=120_000)
    _settled(page)
    seat = frames[-1]["seat"]
    board = Board.from_record(record, int(query["deal"]), int(query.get("move", "1")), seat)
    assert board.seat == board.start.to_move  # a reviewed move: the seat is to move
    line: list[str] = []
    for _ in range(2):
        if page.locator(f"{BOARD} .analysis-move").count() == 0:  # another seat to move
            page.check(f"{BOARD} .analysis-hands-box input")
            _settled(page)
        values = _shown_values(page)
        _check_against_hint(board, line, values)
        worst = page.locator(f"{BOARD} .analysis-move").last
        move = worst.get_attribute("data-move")
        assert move is not None
        worst.locator('[data-action="try"]').click()
        line.append(move)
        _settled(page)
        expect(page.locator(f"{BOARD} .analysis-line")).to_contain_text("Line:")
        assert frames[-1]["line"] == line
    # back and forward walk the tried line; the address bar holds it
    page.click(f'{BOARD} [data-action="back"]')
    _settled(page)
    expect(page.locator(f'{BOARD} [data-action="forward"]')).to_have_attribute(
        "aria-disabled", "false"
    )  # the frame was kept: no new answer, and forward leads back along the line
    assert parse_qs(urlparse(page.url).query)["line"] == [line[0]]
    page.click(f'{BOARD} [data-action="forward"]')
    _settled(page)
    assert parse_qs(urlparse(page.url).query)["line"] == [",".join(line)]
    # with the hands hidden, no frame names a card the seat could not see
    for frame in frames:
        if "hands" in frame["view"]:
            assert frame["open"]  # shown only after the end
            continue
        state = board.at(frame["line"]).state
        text = json.dumps(frame, ensure_ascii=False)
        assert cards_in(text) <= visible(state, frame["seat"]), frame["line"]
    # every hand shown: the other seat's cards face up in its box
    page.check(f"{BOARD} .analysis-hands-box input")
    _settled(page)
    other = 1 - seat
    state = board.at(line).state
    faces = page.locator(f'{BOARD} [data-stock="hand:{other}"] [data-card]:not([data-card=""])')
    expect(faces).to_have_count(len(state.hand(other)))
    # the same position as a position text: `foxtrot hint` gives the values shown beside the cards
    shown = frames[-1]
    assert State.from_text(shown["position"]) == state
    mover = shown["mover"]
    values = _shown_values(page)
    if mover is not None and len(values) > 1:
        where = ["--position", shown["position"], "--seat", str(mover + 1), "--lang", "en"]
        assert main(["hint", *where]) == 0
        said = capsys.readouterr().out
        best = re.search(r"The coach plays (\S+) \(([+-]\d+\.\d)\)", said)
        assert best is not None, said
        move = next(m["action"] for m in shown["moves"] if m["text"] == best[1])
        assert values[move] == float(best[2])


def test_a_bad_position_text_is_refused_in_words(page: Page, base_url: str) -> None:
    page.goto("/analysis?position=2%3Amatch%3Anonsense")
    status = page.locator(f"{BOARD} .analysis-status")
    expect(status).to_contain_text("not the 16 fields of a position", timeout=60_000)
    text = "2:match:no:discard:none:200 - playing 0 1 2SKH/3S 4S 6S5S -/- -/- - - - 0,0 - -"
    page.locator(f"{BOARD} details.analysis-text summary").click()
    page.fill(f"{BOARD} .analysis-position", text)
    page.click(f'{BOARD} [data-action="open-position"]')
    expect(page.locator(f"{BOARD} .analysis-move")).to_have_count(1)  # 3S, the only move
    expect(page.locator(f"{BOARD} .analysis-where")).to_have_text("A position set up by hand")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_board_at_every_size(
    new_context: NewContext, finished: tuple[str, str], artifacts: Path, lang: str
) -> None:
    """The screen checks of every other screen (no sideways scroll, the controls inside the
    window, no text over its box, no English on a Russian or Ukrainian page) at every
    viewport, shot as ``screen-analysis-<size>-<lang>.png``; axe-core finds no WCAG A/AA
    violation on a phone."""
    table, _ = finished
    context = new_context(viewport={"width": 375, "height": 667}, locale=LOCALES[lang])
    context.add_init_script(f"try {{ localStorage.setItem('foxtrot.lang', '{lang}'); }} catch {{}}")
    page = context.new_page()
    page.goto(f"/analysis?table={table}&deal=1&move=2&hands=1")
    page.wait_for_selector(f'{BOARD} [data-action="try"]', timeout=120_000)
    _settled(page)
    expect(page.locator(f"{BOARD} h2")).to_have_text(catalog(lang).text("analysis_title"))
    assert violations(page) == []
    assert fits(page)
    assert "analysis_" not in page.locator("body").inner_text()  # no message key shown
    shots = Shots(page, artifacts, lang)
    shots.every_size("analysis", (f"{BOARD} .analysis-controls",), to_top(page, BOARD))
    assert len(shots.taken) == len(VIEWPORTS)
