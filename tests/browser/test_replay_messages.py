"""Every message the replay, review and fair-deal modules of the page show is in every language.

The modules (static/replay.js, review.js, verify.js) look their texts up in the
catalog the server gives the page (``GET /api/i18n/{lang}``); a key missing
there would show as the key itself.  This reads the keys out of the modules'
source, including each refusal reason of verify.js (``verify_err_<code>``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from foxtrot.i18n import LANGUAGES
from foxtrot.web.http.page import STATIC, catalog_payload

MODULES = ("replay/replay.js", "replay/review.js", "replay/verify.js")
_KEY = re.compile(r'"((?:replay|review|verify|web|tui)_[a-z0-9_]+)"')
#: The code (second argument) of every ``new FairError(message, code, ...)``.
_CODE = re.compile(r'FairError\(\s*(?:[^()]|\([^()]*\))*?,\s*"([a-z_]+)"')


def _source(name: str) -> str:
    return (Path(STATIC) / name).read_text(encoding="utf-8")


def used_keys() -> set[str]:
    """Every catalog key the modules name, and one per refusal reason of verify.js."""
    keys = {key for name in MODULES for key in _KEY.findall(_source(name))}
    codes = set(_CODE.findall(_source("replay/verify.js")))
    assert {"deck", "commitment", "seed", "player_seed"} <= codes
    return keys | {f"verify_err_{code}" for code in codes}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_is_in_the_catalog(lang: str) -> None:
    messages = catalog_payload(lang)["messages"]
    keys = used_keys()
    assert len(keys) > 50
    assert sorted(key for key in keys if key not in messages) == []


def test_counted_messages_are_counted() -> None:
    counted = {"verify_ok", "verify_seeds", "tui_pile", "tui_stock", "web_hand_label"}
    for lang in LANGUAGES:
        messages = catalog_payload(lang)["messages"]
        for key in counted:
            assert isinstance(messages[key], dict), (lang, key)
            assert "one" in messages[key], (lang, key)
