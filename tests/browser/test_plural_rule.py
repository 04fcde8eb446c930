"""The page's plural rule, run in the real browser, gives CLDR's category for every count.

The server sends the page each language's plural rule compiled to JavaScript by Babel
(``catalog_json(lang)["plural"]["javascript"]``); the page picks a counted message's form
with it.  Here Chromium evaluates that very function for 0–299 and must agree with CLDR as
Babel reads it in Python.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from foxtrot.i18n import LANGUAGES, catalog_json, cldr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_plural_function_agrees_with_cldr(page: Page, lang: str) -> None:
    rule = catalog_json(lang)["plural"]["javascript"]
    got = page.evaluate(f"() => {{ const f = {rule}; return [...Array(300).keys()].map(f); }}")
    assert got == [cldr.category(lang, n) for n in range(300)]
