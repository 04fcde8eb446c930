"""The learned computer levels of one server: ``learned`` and its operator's ``learned:NAME``.

``learned`` is the distilled policy shipped for the table's size (``foxtrot.learn.policy``;
2 and 4 players today): the lobby offers it only at the sizes a policy is shipped for, and a table
of another size that asks for it is refused with the policy module's own sentence naming the
sizes there are.  An operator adds policies with ``foxtrot serve --learned PATH``: each file
is read and checked once, at startup (a file that cannot be read, or is not a policy, stops
the server before it listens, with the reason), and becomes the level ``learned:NAME``, NAME
being the file's stem, at the table size it was trained for.

A seat's kind is the level's whole name (``learned:NAME``), so the lobby's list, the seat's
default name ("Computer 2 (learned: NAME)") and so the match's record keep which policy
played.  The policy's path stays on the server: no message names it.  Playing needs numpy
(the ``web`` extra has it); without it no learned level is offered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ...learn.names import LEARNED

#: An operator's policy name: the file's stem, short enough for a seat's kind and default name.
NAME_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,15}"
#: Every learned seat kind the protocol lets through (the lobby then asks ``check``).
KIND_PATTERN: Final = rf"^{LEARNED}(:{NAME_PATTERN})?$"


def is_learned(kind: str) -> bool:
    """Whether a seat kind is a learned level (``learned`` or ``learned:NAME``).

    >>> is_learned("learned"), is_learned("learned:mine"), is_learned("medium")
    (True, True, False)
    """
    return kind == LEARNED or kind.startswith(LEARNED + ":")


def policy_name(kind: str) -> str | None:
    """The operator's name in ``learned:NAME``; None for the shipped level.

    >>> policy_name("learned:mine"), policy_name("learned")
    ('mine', None)
    """
    return kind.split(":", 1)[1] if kind.startswith(LEARNED + ":") else None


@dataclass(frozen=True)
class LearnedLevels:
    """The learned levels a server offers: each kind's policy file for each table size."""

    #: kind -> {players: the policy file's path}; the paths are the server's own business.
    policies: Mapping[str, Mapping[int, str]]

    @classmethod
    def load(cls, paths: Sequence[str] = (), *, shipped: bool = True) -> LearnedLevels:
        """The shipped policies (``shipped``) and each operator's file in ``paths``, read and
        checked now; ``ValueError`` saying which file and why when one is unusable."""
        try:
            from ...learn.policy import ArrayPolicy, shipped_players  # noqa: PLC0415 (numpy)
            from ...learn.policy import shipped as shipped_path  # noqa: PLC0415
        except ImportError:
            if paths:
                raise ValueError("--learned needs numpy: pip install 'foxtrot[learned]'") from None
            return cls({})
        policies: dict[str, dict[int, str]] = {}
        if shipped:
            sizes = shipped_players()
            if sizes:
                policies[LEARNED] = {n: str(shipped_path(n)) for n in sizes}
        for path in paths:
            name = Path(path).stem
            if re.fullmatch(NAME_PATTERN, name) is None:
                raise ValueError(
                    f"--learned {path}: the file's stem {name[:40]!r} names the level: 1 to 16"
                    " letters, digits, '_', '.' or '-', starting with a letter or digit;"
                    " rename the file"
                )
            kind = f"{LEARNED}:{name}"
            if kind in policies:
                raise ValueError(f"--learned {path}: a policy named {name!r} is given twice")
            try:
                policy = ArrayPolicy(path)
            except ValueError as error:
                raise ValueError(f"--learned {path}: {error}") from None
            policies[kind] = {policy.players: str(Path(path).resolve())}
        return cls(policies)

    def offered(self) -> dict[str, list[int]]:
        """Each learned level and the table sizes it plays (what the lobby offers).

        >>> LearnedLevels({"learned": {2: "a.npz"}, "learned:x": {4: "x.npz"}}).offered()
        {'learned': [2], 'learned:x': [4]}
        """
        return {kind: sorted(sizes) for kind, sizes in self.policies.items()}

    def path(self, kind: str, players: int) -> str | None:
        """The policy file of ``kind`` at ``players`` seats; None if it has none here."""
        return self.policies.get(kind, {}).get(players)

    def check(self, kind: str, players: int) -> None:
        """Refuse, with a ``ValueError`` a player can read, a learned level that cannot play
        a table of ``players`` here: the shipped level's refusal is the policy module's
        (``foxtrot.learn.policy.shipped``), naming the sizes a policy is shipped for.

        >>> levels = LearnedLevels({"learned:x": {2: "x.npz"}})
        >>> levels.check("learned:x", 4)
        Traceback (most recent call last):
        ...
        ValueError: learned:x was trained for 2 players, not 4
        >>> levels.check("learned:y", 2)
        Traceback (most recent call last):
        ...
        ValueError: learned:y is not a level of this server (its learned levels: learned:x)
        """
        if self.path(kind, players) is not None:
            return
        if kind == LEARNED:
            try:
                from ...learn.policy import shipped  # noqa: PLC0415 (numpy only when used)
            except ImportError:
                raise ValueError(
                    "learned: this server cannot play learned policies (numpy is not installed)"
                ) from None
            shipped(players)  # raises, naming the sizes a policy is shipped for
            raise ValueError(f"learned: this server offers no policy for {players} players")
        sizes = self.policies.get(kind)
        if sizes is None:
            known = ", ".join(k for k in self.policies if k != LEARNED) or "none"
            raise ValueError(f"{kind} is not a level of this server (its learned levels: {known})")
        trained = ", ".join(str(n) for n in sorted(sizes))
        raise ValueError(f"{kind} was trained for {trained} players, not {players}")


__all__ = ["KIND_PATTERN", "LEARNED", "NAME_PATTERN", "LearnedLevels", "is_learned", "policy_name"]
