"""The deal of the day's page and the reactions menu pass axe-core (WCAG 2.1 A/AA) on a laptop
and a phone, and the page never scrolls sideways on the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser_support import Api
from .conftest import NewContext
from .test_a11y import fits, violations
from .test_reactions import seat_page

pytestmark = pytest.mark.timeout(300)
SIZES = ({"width": 1280, "height": 800}, {"width": 375, "height": 667})


@pytest.mark.parametrize("lang", ["en-US", "ru-RU"])
def test_the_deal_of_the_day_page_is_accessible(new_context: NewContext, lang: str) -> None:
    for viewport in SIZES:
        page = new_context(viewport=viewport, locale=lang).new_page()
        page.goto("/daily")
        expect(page.locator(".daily-hard")).to_be_visible()
        assert violations(page) == []
        assert fits(page), viewport


def test_the_reactions_menu_is_accessible(new_context: NewContext, api: Api) -> None:
    table = api.create(options={"players": 2}, seats=[{"kind": "person"}, {"kind": "person"}])[
        "table"
    ]
    ann, _bob = api.join(table, "Ann", 0), api.join(table, "Bob", 1)
    for viewport in SIZES:
        page = seat_page(new_context(viewport=viewport), table, 0, ann["token"])
        page.locator('[data-action="react"]').click()
        expect(page.locator("[data-reaction]")).to_have_count(10)
        expect(page.locator('[data-action="react"]')).to_have_attribute("aria-expanded", "true")
        assert violations(page) == []
        assert fits(page), viewport
