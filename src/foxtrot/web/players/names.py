"""Display names people can tell apart: normalised, without invisible or path characters,
and not a look-alike of a name taken already.

A display name stands for a person in the lobby, at the table, in a profile's address
(``/p/{name}``) and in the leaderboard.  Two names that look the same on screen would let
one person pass for another, so a new name is refused when its **skeleton** equals an
existing name's.

The skeleton follows Unicode's confusables (UTS #39), whose data comes from a maintained
library, ``confusable-homoglyphs`` (Unicode's ``confusables.txt``, every script):

1. NFKC (``unicodedata``): compatibility forms become their plain letters (full-width
   ``Ａ`` is ``A``, ``ﬁ`` is ``fi``, a non-breaking space a space);
2. every character that is confusable with others stands for its group's prototype
   (``PROTOTYPES``: the group's ASCII character if it has one, else its lowest code point;
   Cyrillic ``р``, Greek ``ρ``, Coptic ``ⲣ`` and the mathematical ``𝐩`` are all ``p``);
3. case folding (``str.casefold``): "Anna" and "ANNA" are one name already; then step 2
   again, for the lower-case forms;
4. ``LOOK_ALIKES``: the folds the data leaves to case or to small print: Cyrillic and Greek
   lower-case letters that look like Latin ones (``в``, ``н``, ``κ``...); ``i``, ``1`` and
   ``l`` are one letter, ``0`` and ``o`` another, as are ``rn`` and ``m``, ``vv`` and ``w``;
5. combining marks are kept (``Anná`` is not ``Anna``): UTS #39 keeps them too.

It errs on the side of refusing: "Bill" and "Biii" share a skeleton.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

from confusable_homoglyphs.confusables import confusables_data

#: Characters refused in a display name besides the record's rule (controls, bidi controls):
#: format characters (category Cf: zero-width space, joiners, the byte-order mark, the soft
#: hyphen...) and the path separators a name in an address (``/p/{name}``) must not hold.
PATH_CHARACTERS: Final = frozenset("/\\")

#: Letter -> the Latin letter it looks like after case folding, where Unicode's data does not
#: say so (step 4 above; the data's own groups come first).
LOOK_ALIKES: Final = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "і": "l",
        "ї": "l",
        "ј": "j",
        "һ": "h",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "ζ": "z",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "μ": "m",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "y",
        "χ": "x",
        # Latin and digits that look alike
        "i": "l",
        "1": "l",
        "|": "l",
        "0": "o",
    }
)
#: Letter pairs that look like one letter (applied after ``LOOK_ALIKES``).
PAIRS: Final = (("rn", "m"), ("vv", "w"))


def normal(name: str) -> str:
    """The form a display name is kept in: NFKC (compatibility characters made plain)."""
    return unicodedata.normalize("NFKC", name)


def invisible_or_path(name: str) -> str | None:
    """What in ``name`` is invisible or a path character, or None (see ``PATH_CHARACTERS``)."""
    for ch in name:
        if ch in PATH_CHARACTERS:
            return f"{name!r} holds {ch!r}, a path character"
        if unicodedata.category(ch) == "Cf":
            return f"{name!r} holds U+{ord(ch):04X}, an invisible format character"
    return None


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character -> its group's prototype (step 2 above), from Unicode's
    confusables: the groups are the data's pairs of single characters, closed under
    "looks like" (a union-find), so that a chain of look-alikes is one group."""
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for ch, glyphs in confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"]
            if len(ch) == 1 and len(other) == 1:
                a, b = root(ch), root(other)
                if a != b:
                    parent[a] = b
    groups: dict[str, list[str]] = {}
    for ch in list(parent):
        groups.setdefault(root(ch), []).append(ch)
    found = {}
    for members in groups.values():
        prototype = min(members, key=lambda ch: (not ch.isascii(), ord(ch)))
        found.update({ch: prototype for ch in members if ch != prototype})
    return found


def _prototype(text: str) -> str:
    table = prototypes()
    return "".join(table.get(ch, ch) for ch in text)


def skeleton(name: str) -> str:
    """The form two names that look alike share (described above).

    >>> skeleton("Аnnа") == skeleton("Anna") == skeleton("ANNA")  # Cyrillic А and а
    True
    >>> skeleton("Bob") == skeleton("B0b"), skeleton("Anna") == skeleton("Anne")
    (True, False)
    """
    folded = _prototype(_prototype(normal(name).strip()).casefold()).translate(LOOK_ALIKES)
    for pair, one in PAIRS:
        folded = folded.replace(pair, one)
    return folded
