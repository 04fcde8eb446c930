"""CLDR's plural rules, from Babel: the one source of every plural rule of the program.

Only the tools that write catalogs (``python -m foxtrot.i18n.compile``, the tests) and the
browser page's catalog import this module; the terminal game, the narration and the coach read
the rule that ``compile`` wrote into each catalog's ``Plural-Forms`` header.

>>> categories("ru")
('one', 'few', 'many', 'other')
>>> [category("ru", n) for n in (1, 3, 5, 11, 21)]
['one', 'few', 'many', 'many', 'one']
"""

from __future__ import annotations

from functools import cache

from babel import Locale
from babel.plural import PluralRule, to_gettext, to_javascript

#: The order of CLDR's categories, which ``babel.plural.to_gettext`` numbers the forms in.
ORDER = ("zero", "one", "two", "few", "many", "other")


@cache
def rule(lang: str) -> PluralRule:
    """CLDR's plural rule of ``lang``."""
    return Locale.parse(lang).plural_form


def categories(lang: str) -> tuple[str, ...]:
    """The plural categories of ``lang``, in the order of its catalog's forms."""
    used = rule(lang).tags | {"other"}
    return tuple(tag for tag in ORDER if tag in used)


def category(lang: str, n: int) -> str:
    """The CLDR plural category of the count ``n`` in ``lang``."""
    return rule(lang)(abs(n))


def plural_forms(lang: str) -> str:
    """The gettext ``Plural-Forms`` header of ``lang``, compiled from CLDR's rule."""
    return to_gettext(rule(lang))


def javascript(lang: str) -> str:
    """CLDR's rule of ``lang`` as a JavaScript function expression from a count to a category."""
    return to_javascript(rule(lang))
