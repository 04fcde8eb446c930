"""Message catalogs for the front ends: one per language, with plural forms.

Every text a front end shows comes from here.  A message is looked up by key;
a counted message has one form per plural category of its language (English:
one/other; Russian and Ukrainian: one/few/many).

>>> ru = catalog("ru")
>>> [ru.count("cards", n) for n in (1, 2, 5, 11, 21, 22, 25)]
['1 карта', '2 карты', '5 карт', '11 карт', '21 карта', '22 карты', '25 карт']
>>> catalog("uk").count("cards", 3)
'3 карти'
>>> catalog("en").text("plays", name="Ann", card="Q♠")
'Ann plays Q♠.'
"""

from __future__ import annotations

import importlib
import locale
import os
from collections.abc import Mapping
from functools import cache
from typing import Final

LANGUAGES: Final = ("en", "ru", "uk")
#: Each area of the program keeps its messages in modules ``<area>_<lang>.py`` beside this one.
AREAS: Final = ("narration", "coach", "tui")

Message = str | Mapping[str, str]


def messages(lang: str) -> dict[str, Message]:
    """Every message of ``lang``, from all areas."""
    found: dict[str, Message] = {}
    for area in AREAS:
        try:
            module = importlib.import_module(f"{__name__}.{area}_{lang}")
        except ModuleNotFoundError:
            continue
        for key, value in module.MESSAGES.items():
            if key in found:
                raise KeyError(f"message {key!r} of {lang} is defined twice")
            found[key] = value
    return found


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang``: one, few, many or other."""
    n = abs(n)
    if lang == "en":
        return "one" if n == 1 else "other"
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


class Catalog:
    """The messages of one language."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r} (expected en, ru or uk)")
        self.lang = lang
        self._messages = messages(lang)

    def text(self, key: str, **values: object) -> str:
        """The message ``key`` with ``values`` filled in."""
        message = self._messages[key]
        if not isinstance(message, str):
            raise KeyError(f"{key!r} is a counted message: use count()")
        return message.format(**values)

    def count(self, key: str, n: int, **values: object) -> str:
        """The counted message ``key`` in the plural form for ``n``."""
        forms = self._messages[key]
        if isinstance(forms, str):
            raise KeyError(f"{key!r} is not a counted message: use text()")
        return forms[plural_category(self.lang, n)].format(n=n, **values)


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (en, ru or uk)."""
    return Catalog(lang)


def system_language() -> str:
    """en, ru or uk from the environment's locale; en if it is none of them."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "")[:2].lower()
    return code if code in LANGUAGES else "en"
