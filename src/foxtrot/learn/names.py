"""The names of the learned level, where a person or a script names a player: ``learned``
plays the policy shipped for the table's size, ``learned:PATH`` a policy file.  No numpy
here: the terminal game and the tournaments read the names before any policy is loaded.
"""

from __future__ import annotations

from typing import Final

#: The learned level's name (``learned:PATH``: a policy file).
LEARNED: Final = "learned"


def policy_file(name: str) -> str | None:
    """The policy file ``name`` gives: None for ``learned`` (the shipped policies), ``PATH``
    for ``learned:PATH``.  A ``ValueError`` for ``learned:`` without a file, and for any
    other name.

    >>> policy_file("learned"), policy_file("learned:mine.npz")
    (None, 'mine.npz')
    >>> policy_file("learned:")
    Traceback (most recent call last):
    ValueError: 'learned:': name the policy file, e.g. learned:learned.npz
    """
    if name == LEARNED:
        return None
    if not name.startswith(LEARNED + ":"):
        raise ValueError(f"{name!r} is not learned or learned:PATH")
    path = name[len(LEARNED) + 1 :]
    if not path:
        raise ValueError(f"{name!r}: name the policy file, e.g. learned:learned.npz")
    return path


__all__ = ["LEARNED", "policy_file"]
