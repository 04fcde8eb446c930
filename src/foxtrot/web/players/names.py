"""Display names people can tell apart: normalised, without invisible or path characters,
and not a look-alike of a name taken already.

A display name stands for a person in the lobby, at the table, in a profile's address
(``/p/{name}``) and in the leaderboard.  Two names that look the same on screen would let
one person pass for another, so a new name is refused when its **skeleton** equals an
existing name's.

The skeleton here is a **stop-gap**, not Unicode's confusables skeleton (UTS #39): no
maintained library of the confusables data is installed with the server, and the Python
standard library does not carry that data.  It is built from what the standard library
offers and a small table, documented below:

1. NFKC (``unicodedata``): compatibility forms become their plain letters (full-width
   ``Ａ`` is ``A``, ``ﬁ`` is ``fi``, a non-breaking space a space);
2. case folding (``str.casefold``): "Anna" and "ANNA" are one name already;
3. combining marks are kept (``Anná`` is not ``Anna``): UTS #39 keeps them too;
4. ``LOOK_ALIKES``: the Cyrillic and Greek letters that look like Latin ones once case is
   folded, and the digits ``0`` and ``1``, mapped to the Latin letter they look like;
   ``i``, ``1`` and ``l`` are one letter, as are ``rn`` and ``m``, ``vv`` and ``w``.

It errs on the side of refusing: "Bill" and "Biii" share a skeleton.  Letters of other
scripts that look Latin (Cherokee, Armenian, mathematical alphanumerics beyond what NFKC
folds) are not in the table.
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: Characters refused in a display name besides the record's rule (controls, bidi controls):
#: format characters (category Cf: zero-width space, joiners, the byte-order mark, the soft
#: hyphen...) and the path separators a name in an address (``/p/{name}``) must not hold.
PATH_CHARACTERS: Final = frozenset("/\\")

#: Letter -> the Latin letter it looks like, after NFKC and case folding (a stop-gap table).
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


def skeleton(name: str) -> str:
    """The form two names that look alike share (the stop-gap described above)."""
    folded = normal(name).strip().casefold().translate(LOOK_ALIKES)
    for pair, one in PAIRS:
        folded = folded.replace(pair, one)
    return folded
