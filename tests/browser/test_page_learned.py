"""The learned computer level in the lobby: offered at the table sizes the server has a policy
for (2 and 4 players), gone at others (a seat or the quick level that had it turns back to
medium, with no error), and a table made with it plays: the computer of that level moves.  An
operator's policy (``foxtrot serve --learned PATH``) is offered as "learned: NAME" and plays
too."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from foxtrot.learn.policy import SHIPPED

from .browser_support import ServerProcess
from .conftest import NewContext
from .test_page_computer_seats import MATCH_SECONDS, play_to_the_end

pytestmark = pytest.mark.timeout(240)


def values(page: Page, selector: str) -> list[str]:
    found: list[str] = page.locator(f"{selector} option").evaluate_all("os => os.map(o => o.value)")
    return found


def quick_game(page: Page, level: str) -> None:
    """From the lobby (one opponent chosen): a quick game to 1 point against ``level``, at
    once (no computer delay), until Ann's hand is dealt."""
    page.select_option("#quick-level", level)
    page.locator("#name").fill("Ann")
    page.locator("#rules-more summary").click()
    page.select_option("#target", "custom")
    page.locator("#target-custom").fill("1")
    page.locator("#bot-delay").fill("0")
    page.locator("#play-computer").click()
    expect(page.locator("#hand .card").first).to_be_visible(timeout=15_000)


def test_the_lobby_offers_learned_where_a_policy_is_shipped_and_its_table_plays(
    new_context: NewContext, artifacts: Path
) -> None:
    page = new_context(locale="en-US").new_page()
    page.goto("/")
    message = page.locator("#lobby-msg")
    # the quick game: 1 opponent is a table of 2, where a policy is shipped
    page.select_option("#quick-opponents", "1")
    assert values(page, "#quick-level") == ["easy", "medium", "hard", "expert", "learned"]
    expect(page.locator("#quick-level option[value=learned]")).to_have_text("learned")
    page.select_option("#quick-opponents", "3")  # a table of 4: a policy is shipped too
    assert values(page, "#quick-level")[-1] == "learned"
    page.select_option("#quick-level", "learned")
    page.select_option("#quick-opponents", "2")  # a table of 3: no policy
    assert "learned" not in values(page, "#quick-level")
    expect(page.locator("#quick-level")).to_have_value("medium")
    expect(message).to_have_text("")  # no error: the level simply went back to medium
    # the table of friends: the seat's picker follows the number of players
    expect(page.locator("#seat-1 option[value=learned]")).to_have_text("computer, learned")
    page.select_option("#seat-1", "learned")
    page.select_option("#players", "3")
    assert "learned" not in values(page, "#seat-1")
    expect(page.locator("#seat-1")).to_have_value("medium")
    page.select_option("#players", "2")
    assert values(page, "#seat-1")[-1] == "learned"
    # a quick game against the learned computer, to 1 point, plays to its end
    page.select_option("#quick-opponents", "1")
    quick_game(page, "learned")
    expect(page.locator("#t-players")).to_contain_text("Computer 2 (learned)")
    play_to_the_end(page, time.monotonic() + MATCH_SECONDS)
    moves = [
        line
        for line in page.locator("#log-list li").all_inner_texts()
        if line.startswith("Computer 2 (learned) ")
    ]
    assert moves, "the learned computer never moved"
    page.screenshot(path=str(artifacts / "learned-table-desktop-en.png"), full_page=True)


def test_a_russian_lobby_words_the_learned_level(new_context: NewContext) -> None:
    page = new_context(locale="ru-RU").new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.select_option("#quick-opponents", "1")
    expect(page.locator("#quick-level option[value=learned]")).to_have_text("обученный")
    expect(page.locator("#seat-1 option[value=learned]")).to_have_text("компьютер, обученный")


@pytest.fixture(scope="module")
def operator_server() -> Iterator[ServerProcess]:
    """A server given one policy of its operator's: the shipped file as ``strong-2p.npz``."""
    home = Path(tempfile.mkdtemp(prefix="foxtrot-learned-"))
    policy = home / "strong-2p.npz"
    shutil.copyfile(SHIPPED / "learned-2p.npz", policy)
    server = ServerProcess(home, ("--learned", str(policy)))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(home, ignore_errors=True)


def test_an_operators_policy_is_offered_by_its_name_and_plays(
    browser: Browser, operator_server: ServerProcess
) -> None:
    context = browser.new_context(
        base_url=operator_server.base_url, viewport={"width": 1280, "height": 800}, locale="en-US"
    )
    context.set_default_timeout(30_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/")
        page.select_option("#quick-opponents", "1")
        kind = "learned:strong-2p"
        assert values(page, "#quick-level")[-2:] == ["learned", kind]
        expect(page.locator(f"#quick-level option[value='{kind}']")).to_have_text(
            "learned: strong-2p"
        )
        expect(page.locator(f"#seat-1 option[value='{kind}']")).to_have_text(
            "computer, learned: strong-2p"
        )
        quick_game(page, kind)
        expect(page.locator("#t-players")).to_contain_text("Computer 2 (learned: strong-2p)")
        play_to_the_end(page, time.monotonic() + MATCH_SECONDS)
        said = page.locator("#log-list li").all_inner_texts()
        assert any(line.startswith("Computer 2 (learned: strong-2p) ") for line in said)
    finally:
        context.close()
    assert errors == []
