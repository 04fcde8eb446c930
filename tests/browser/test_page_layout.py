"""The page's languages and sizes: the language switch, and no horizontal scroll on a phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from foxtrot.i18n import card_name
from foxtrot.i18n.rules import marked_cards, rules_source, section_ids

from .browser_support import Api
from .conftest import NewContext

NO_SCROLL = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def test_language_switch_changes_the_page_and_lang(page: Page) -> None:
    """en → ru → uk: the texts and ``<html lang>`` follow, and the choice is remembered."""
    page.goto("/")
    expect(page.locator("#create-title")).to_have_text("Play with friends")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#lang-pick", "ru")
    expect(page.locator("#create-title")).to_have_text("Играть с друзьями")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.reload()
    expect(page.locator("#create-title")).to_have_text("Играть с друзьями")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.select_option("#lang-pick", "uk")
    expect(page.locator("#create-title")).to_have_text("Грати з друзями")
    assert page.locator("html").get_attribute("lang") == "uk"
    page.keyboard.press("Escape")
    page.locator("#rules-open").click()
    expect(page.locator("#rules-body")).to_contain_text("Фокстрот")
    expect(page.locator("#rules-close")).to_have_text("Закрити")


def test_browser_language_is_the_default(new_context: NewContext) -> None:
    """A first visit from a Russian browser gets the Russian page."""
    page = new_context(locale="ru-RU").new_page()
    page.goto("/")
    expect(page.locator("#create-title")).to_have_text("Играть с друзьями")
    assert page.locator("html").get_attribute("lang") == "ru"


@pytest.mark.parametrize(
    ("width", "height", "name"), [(375, 667, "phone"), (1920, 1080, "desktop-hd")]
)
def test_fits_the_screen(  # noqa: PLR0917 (fixtures and parameters)
    new_context: NewContext, api: Api, artifacts: Path, width: int, height: int, name: str
) -> None:
    """The lobby and a table in play have no horizontal scroll, at phone and desktop sizes."""
    context = new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto("/")
    expect(page.locator("#create")).to_be_visible()
    assert page.evaluate(NO_SCROLL)
    page.screenshot(path=str(artifacts / f"page-lobby-{name}-en.png"), full_page=True)
    summary = api.create(
        options={"players": 4, "target": 1},
        seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "medium"}, {"kind": "easy"}],
    )
    joined = api.join(summary["table"], "Anastasia", 0)
    value = json.dumps({"seat": 0, "token": joined["token"]})
    context.add_init_script(
        "if (location.protocol.startsWith('http'))"
        f" localStorage.setItem('foxtrot.seat.{summary['table']}', {json.dumps(value)})"
    )
    page.goto(f"/t/{summary['table']}")
    expect(page.locator("#hand .card").first).to_be_visible()
    expect(page.locator("[data-region='seat']")).to_have_count(4)
    assert page.evaluate(NO_SCROLL)
    page.screenshot(path=str(artifacts / f"page-table-{name}-en.png"), full_page=True)


def test_static_files_are_the_page_only(api: Api) -> None:
    """Modules come with a JavaScript type; nothing outside the static folder is served."""
    module = api.get("/static/main.js")
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    for path in ("/static/../page.py", "/static/%2e%2e/page.py", "/static/nope.js"):
        assert api.get(path).status_code == 404, path
    catalog = api.get("/api/i18n/uk").json()
    assert catalog["lang"] == "uk"
    assert catalog["cards"]["QS"] == ["Д♠", "дама пік"]
    assert api.get("/api/i18n/de").status_code == 400
    assert "Фокстрот" in api.get("/api/rules/ru").text
    assert api.get("/t/anything").headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(("lang", "width"), [("ru", 375), ("uk", 1280), ("en", 375)])
def test_the_rules_show_their_examples_as_cards(
    new_context: NewContext, artifacts: Path, lang: str, width: int
) -> None:
    """The rules dialog draws every card mark as the page's own cards, one image named in
    words for a screen reader; its scoring table is a table; its sections have their ids; no
    mark is left as text; nothing scrolls sideways on a phone."""
    marks = marked_cards(rules_source(lang))
    page = new_context(viewport={"width": width, "height": 700}).new_page()
    page.goto("/")
    page.select_option("#lang-pick", lang)
    page.locator("#rules-open").click()
    rows = page.locator("#rules-body .rule-cards")
    expect(rows).to_have_count(len(marks))
    assert page.locator("#rules-body .rule-cards svg.card-svg").count() == sum(map(len, marks))
    labels = rows.evaluate_all("rows => rows.map(r => r.getAttribute('aria-label'))")
    assert labels == [", ".join(card_name(card, lang) for card in cards) for cards in marks]
    assert rows.first.get_attribute("role") == "img"
    expect(page.locator("#rules-body table.rules-table tbody tr")).to_have_count(7)
    ids = page.locator("#rules-body [id^='rules-']").evaluate_all("hs => hs.map(h => h.id)")
    assert ids == [f"rules-{name}" for name in section_ids(rules_source(lang))]
    text = page.locator("#rules-body").inner_text()
    assert [mark for mark in ("[[", "{#", "|", "*", "`") if mark in text] == []  # all read
    dialog = page.locator("#rules-dialog")
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth")
    page.locator("#rules-foxtrot").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"page-rules-{lang}-{width}.png"))
