"""Table options: one frozen value, with named presets (rules C3, T2, T6, E2, P3, M1, X7).

>>> TableOptions(players=3).decks
2
>>> TableOptions.preset("original").take
<TakeRule.MATCH: 'match'>
>>> TableOptions.from_json(TableOptions(players=8).to_json()) == TableOptions(players=8)
True
>>> TableOptions(players=10)
Traceback (most recent call last):
...
foxtrot.core.errors.OptionsError: players: 10 is not allowed (2 to 6, or 7 to 9 with three decks)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, Final

from .errors import OptionsError

STANDARD_TARGETS: Final = (150, 200, 300, 400)


class TakeRule(enum.StrEnum):
    """How a pile is taken besides a Jack and a foxtrot (rule T2)."""

    ANY = "any"  # the seed texts: take the pile at any time on your turn (T4)
    MATCH = "match"  # the English original: a card matching the top card takes it (T3d)


class LeftoverPile(enum.StrEnum):
    """What happens to the pile left on the table when a deal ends (rule E2, X5)."""

    DISCARD = "discard"
    LAST_TAKER = "last_taker"


class MostCardsTie(enum.StrEnum):
    """Who scores the 5 points for most cards on a tie (rules P3, X6)."""

    NONE = "none"
    ALL = "all"


@dataclasses.dataclass(frozen=True, slots=True)
class TableOptions:
    """Everything chosen when a table is created; the first value of each rule is the default."""

    players: int = 2
    take: TakeRule = TakeRule.ANY
    forced_foxtrot: bool = False
    leftover_pile: LeftoverPile = LeftoverPile.DISCARD
    most_cards_tie: MostCardsTie = MostCardsTie.NONE
    target: int = 200

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 9:
            raise OptionsError(
                f"players: {self.players!r} is not allowed (2 to 6, or 7 to 9 with three decks)"
            )
        if type(self.target) is not int or self.target <= 0:
            raise OptionsError(
                f"target: {self.target!r} is not allowed (150, 200, 300, 400 or another"
                " positive whole number)"
            )
        if not isinstance(self.forced_foxtrot, bool):
            raise OptionsError(f"forced_foxtrot: {self.forced_foxtrot!r} is not true or false")
        for name, kind in (
            ("take", TakeRule),
            ("leftover_pile", LeftoverPile),
            ("most_cards_tie", MostCardsTie),
        ):
            value = getattr(self, name)
            if not isinstance(value, kind):
                object.__setattr__(self, name, _choice(name, kind, value))

    @property
    def decks(self) -> int:
        """Packs in play: 2 for 2-6 players, 3 for 7-9 (rules C3, X7)."""
        return 2 if self.players <= 6 else 3

    @property
    def deck_size(self) -> int:
        """Cards in play: 104 or 156."""
        return 52 * self.decks

    @classmethod
    def preset(cls, name: str, **changes: Any) -> TableOptions:
        """A named preset (see ``PRESETS``), with any option changed by keyword."""
        if name not in PRESETS:
            raise OptionsError(f"preset: unknown {name!r} (expected one of {', '.join(PRESETS)})")
        return dataclasses.replace(PRESETS[name], **changes)

    def replace(self, **changes: Any) -> TableOptions:
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The ``options`` object of a G2 record."""
        return {
            "players": self.players,
            "decks": self.decks,
            "take": self.take.value,
            "forced_foxtrot": self.forced_foxtrot,
            "leftover_pile": self.leftover_pile.value,
            "most_cards_tie": self.most_cards_tie.value,
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableOptions:
        """Read the ``options`` object of a G2 record; every key of G2 is required."""
        if not isinstance(data, Mapping):
            raise OptionsError(f"options: expected an object, got {type(data).__name__}")
        keys = (
            "players",
            "decks",
            "take",
            "forced_foxtrot",
            "leftover_pile",
            "most_cards_tie",
            "target",
        )
        missing = [key for key in keys if key not in data]
        if missing:
            raise OptionsError(f"options: missing {', '.join(missing)}")
        options = cls(**{key: data[key] for key in keys if key != "decks"})
        if data["decks"] != options.decks:
            raise OptionsError(
                f"options: decks is {data['decks']!r}, but {options.players} players play with"
                f" {options.decks} (rule X7)"
            )
        return options


def _choice(name: str, kind: type[enum.StrEnum], value: object) -> Any:
    try:
        return kind(value if isinstance(value, str) else repr(value))
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise OptionsError(f"{name}: {value!r} is not allowed (expected {allowed})") from None


#: Named presets.  ``classic`` follows the seed texts, ``original`` Ed Vasicek's English rules.
PRESETS: Final[Mapping[str, TableOptions]] = {
    "classic": TableOptions(),
    "original": TableOptions(take=TakeRule.MATCH),
    "short": TableOptions(target=150),
    "long": TableOptions(target=400),
    "strict": TableOptions(forced_foxtrot=True, leftover_pile=LeftoverPile.LAST_TAKER),
    "party": TableOptions(players=8),
}
