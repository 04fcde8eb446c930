"""Every message the page asks for by a literal key exists in every language.

The page (``web/static/*.js``) looks its texts up with ``t("key")`` and ``n("key", …)``; a
key missing from the catalog would show as the key itself. The keys built at run time
(``web_kind_${kind}``, ``tui_level_${level}``, ``card_rank_${rank}``) are checked for each
value they take.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from foxtrot.bots import LEVELS as BOT_LEVELS
from foxtrot.i18n import COMPUTER_LEVELS, LANGUAGES, messages
from foxtrot.web.protocol import LEVELS as SERVER_LEVELS

STATIC = Path(__file__).resolve().parents[1] / "src" / "foxtrot" / "web" / "static"
CALL = re.compile(r"""\b(?:t|n|has)\(\s*["']([a-z][a-z0-9_]*)["']""")


def page_keys() -> set[str]:
    found: set[str] = set()
    for path in STATIC.rglob("*.js"):
        found |= set(CALL.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_page_asks_for_many_keys() -> None:
    assert len(page_keys()) > 100  # the pattern finds the page's calls


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_literal_key_of_the_page_is_in_the_catalog(lang: str) -> None:
    missing = sorted(page_keys() - set(messages(lang)))
    assert missing == [], f"{lang}: keys the page uses but the catalog lacks: {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_level_is_worded(lang: str) -> None:
    found = messages(lang)
    assert set(SERVER_LEVELS) | {"learned"} == set(COMPUTER_LEVELS)
    assert set(SERVER_LEVELS) <= set(BOT_LEVELS)
    for level in COMPUTER_LEVELS:
        assert f"web_kind_{level}" in found and f"tui_level_{level}" in found, level
