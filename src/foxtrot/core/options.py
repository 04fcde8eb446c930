"""Table options: one frozen value, with named presets (rules C3, T2, T6, E2, P3, M1, X7).

Examples:
    >>> TableOptions(players=3).decks
    2
    >>> TableOptions().take, TableOptions.preset("literal").take
    (<TakeRule.MATCH: 'match'>, <TakeRule.ANY: 'any'>)
    >>> TableOptions.from_json(TableOptions(players=8).to_json()) == TableOptions(players=8)
    True
    >>> TableOptions(players=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    foxtrot.core.errors.OptionsError: players: 10 is not allowed (2 to 6, or 7 to 9 with ...)
"""

from __future__ import annotations

import dataclasses
import enum
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .cards import Rank
from .errors import OptionsError
from .kernel import HAND_SIZE

STANDARD_TARGETS: Final = (150, 200, 300, 400)
#: Every rank, in the order of rule C2: the real game's pack.
ALL_RANKS: Final = tuple(rank.symbol for rank in Rank)
#: Cards dealt to each player in the real game (D3), and the most at a redeal (R1).
HAND_CARDS: Final = HAND_SIZE


class TakeRule(enum.StrEnum):
    """How a pile is taken besides a Jack and a foxtrot (rule T2)."""

    MATCH = "match"  # the default, Ed Vasicek's original: a card matching the top takes (T3d)
    ANY = "any"  # the Russian/Ukrainian texts: take the pile at any time on your turn (T4)


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
    take: TakeRule = TakeRule.MATCH  # T2: under ``any`` the first deal decides most matches
    forced_foxtrot: bool = False
    leftover_pile: LeftoverPile = LeftoverPile.DISCARD
    most_cards_tie: MostCardsTie = MostCardsTie.NONE
    target: float = 200  # a whole number from the menus; any positive number is allowed (M1)
    # The pack and the deal, shrunk for a mini game (docs/research/mini.md); the defaults
    # are the real game's, and a table that keeps them is the real game in every respect.
    packs: int | None = None  # decks mixed together; None: rule X7 (2, or 3 for 7-9 players)
    ranks: tuple[str, ...] = ALL_RANKS  # the ranks in the pack (C2 order), e.g. ("J", "Q")
    suits: int = 4  # the first ``suits`` of spades, hearts, diamonds, clubs
    hand_size: int = HAND_CARDS  # cards dealt to each player, and at most at a redeal (D3, R1)

    def __post_init__(self) -> None:
        if type(self.players) is not int:
            raise OptionsError(f"players: {self.players!r} is not a whole number (2 to 9)")
        if not 2 <= self.players <= 9:
            raise OptionsError(
                f"players: {self.players!r} is not allowed (2 to 6, or 7 to 9 with three decks)"
            )
        if not _is_target(self.target):
            raise OptionsError(
                f"target: {self.target!r} is not allowed (150, 200, 300, 400 or another"
                " positive number)"
            )
        if not isinstance(self.forced_foxtrot, bool):
            raise OptionsError(f"forced_foxtrot: {self.forced_foxtrot!r} is not true or false")
        _check_pack(self)
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
        """Packs in play: 2 for 2-6 players, 3 for 7-9 (rules C3, X7), or ``packs``."""
        if self.packs is not None:
            return self.packs
        return 2 if self.players <= 6 else 3

    @property
    def deck_size(self) -> int:
        """Cards in play: 104 or 156 in the real game (``decks`` x ranks x suits)."""
        return self.decks * len(self.ranks) * self.suits

    @property
    def is_mini(self) -> bool:
        """True when the pack or the deal is shrunk (any of ``packs``, ``ranks``, ``suits``,
        ``hand_size`` differs from the real game's).

        >>> TableOptions().is_mini, TableOptions(ranks=("J", "Q", "A"), hand_size=2).is_mini
        (False, True)
        """
        return (
            self.packs is not None
            or self.ranks != ALL_RANKS
            or self.suits != 4
            or self.hand_size != HAND_CARDS
        )

    @property
    def copies(self) -> tuple[int, ...]:
        """How many copies of each card id (0..51) the pack holds: ``decks`` for a card of
        a kept rank and suit, 0 for a card left out.

        >>> mini = TableOptions(packs=1, ranks=("J", "Q", "K"), suits=1, hand_size=1)
        >>> [card for card, n in enumerate(mini.copies) if n]  # JS, QS, KS: rank * 4 + suit
        [36, 40, 44]
        """
        kept = {ALL_RANKS.index(rank) for rank in self.ranks}
        return tuple(
            self.decks if card >> 2 in kept and card & 3 < self.suits else 0 for card in range(52)
        )

    @classmethod
    def preset(cls, name: str, **changes: Any) -> TableOptions:
        """A named preset (see ``PRESETS``), with any option changed by keyword."""
        if name in RENAMED_PRESETS:
            raise OptionsError(f"preset: {RENAMED_PRESETS[name]}")
        if not isinstance(name, str) or name not in PRESETS:
            raise OptionsError(f"preset: unknown {name!r} (expected one of {', '.join(PRESETS)})")
        return PRESETS[name].replace(**changes)

    def replace(self, **changes: Any) -> TableOptions:
        """A copy with some options changed (validated again)."""
        unknown = [key for key in changes if key not in _FIELDS]
        if unknown:
            raise OptionsError(
                f"options: unknown {', '.join(unknown)} (expected {', '.join(_FIELDS)})"
            )
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The ``options`` object of a G2 record.

        A mini game adds one key, ``pack`` (its ranks, suits and hand size); the real
        game's object is exactly G2's.

        >>> TableOptions(packs=1, ranks=("J", "Q", "A"), suits=2, hand_size=2).to_json()["pack"]
        {'ranks': ['J', 'Q', 'A'], 'suits': 2, 'hand_size': 2}
        """
        data: dict[str, Any] = {
            "players": self.players,
            "decks": self.decks,
            "take": self.take.value,
            "forced_foxtrot": self.forced_foxtrot,
            "leftover_pile": self.leftover_pile.value,
            "most_cards_tie": self.most_cards_tie.value,
            "target": self.target,
        }
        if self.is_mini:
            data["pack"] = {
                "ranks": list(self.ranks),
                "suits": self.suits,
                "hand_size": self.hand_size,
            }
        return data

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
        unknown = [key for key in data if key not in keys and key != "pack"]
        if unknown:
            raise OptionsError(f"options: unknown key {unknown[0]!r} (expected {', '.join(keys)})")
        if "pack" in data:
            return _mini_from_json(data, {key: data[key] for key in keys if key != "decks"})
        options = cls(**{key: data[key] for key in keys if key != "decks"})
        if type(data["decks"]) is not int:
            raise OptionsError(
                f"options: decks is {data['decks']!r}, not a whole number"
                f" ({options.players} players play with {options.decks}, rule X7)"
            )
        if data["decks"] != options.decks:
            raise OptionsError(
                f"options: decks is {data['decks']!r}, but {options.players} players play with"
                f" {options.decks} (rule X7)"
            )
        return options


def _mini_from_json(data: Mapping[str, Any], rules: dict[str, Any]) -> TableOptions:
    """The options of a mini game's record: G2's keys, with ``decks`` as chosen, and
    ``pack``; a record that gives ``pack`` is a mini game (``to_json`` writes it then only)."""
    pack = data["pack"]
    if not isinstance(pack, Mapping):
        raise OptionsError(f"options: pack is {pack!r}, not an object")
    wanted = ("ranks", "suits", "hand_size")
    missing = [key for key in wanted if key not in pack]
    if missing:
        raise OptionsError(f"options: pack: missing {', '.join(missing)}")
    unknown = [key for key in pack if key not in wanted]
    if unknown:
        raise OptionsError(
            f"options: pack: unknown key {unknown[0]!r} (expected {', '.join(wanted)})"
        )
    if type(data["decks"]) is not int:
        raise OptionsError(f"options: decks is {data['decks']!r}, not a whole number")
    ranks = pack["ranks"]
    if not isinstance(ranks, list):
        raise OptionsError(f"options: pack: ranks is {ranks!r}, not a list")
    options = TableOptions(
        **rules,
        packs=data["decks"],
        ranks=tuple(ranks),
        suits=pack["suits"],
        hand_size=pack["hand_size"],
    )
    if not options.is_mini:
        raise OptionsError("options: pack is the real game's; its record has no pack key")
    return options


def parse_ranks(text: str) -> tuple[str, ...]:
    """Ranks written as text, separated by spaces or commas (``"10 J Q A"``; ``""``: all).

    >>> parse_ranks("a, j 10")
    ('10', 'J', 'A')
    """
    if not isinstance(text, str):
        raise OptionsError(f"ranks: {text!r} is not text like '10 J Q A'")
    tokens = text.replace(",", " ").upper().split()
    return _ranks(tuple(tokens)) if tokens else ALL_RANKS


def _ranks(value: object) -> tuple[str, ...]:
    """``value`` as ranks in C2 order, or an ``OptionsError`` naming the field."""
    if isinstance(value, str) or not isinstance(value, tuple | list):
        raise OptionsError(f"ranks: {value!r} is not a list of ranks (2-10, J, Q, K, A)")
    for rank in value:
        if rank not in ALL_RANKS:
            raise OptionsError(f"ranks: {rank!r} is not a rank (expected 2-10, J, Q, K or A)")
    if len(set(value)) != len(value):
        raise OptionsError(f"ranks: {list(value)!r} names a rank twice")
    if not value:
        raise OptionsError("ranks: [] keeps no rank")
    return tuple(rank for rank in ALL_RANKS if rank in value)


def _check_pack(options: TableOptions) -> None:
    """Check ``packs``, ``ranks``, ``suits`` and ``hand_size``: each a fair value, and a
    pack big enough for the first deal (D3: a hand to each player and the upturned card)."""
    packs = options.packs
    if packs is not None and (type(packs) is not int or not 1 <= packs <= 3):
        raise OptionsError(f"packs: {packs!r} is not allowed (1, 2 or 3 decks)")
    ranks = _ranks(options.ranks)
    if ranks != options.ranks:
        object.__setattr__(options, "ranks", ranks)
    suits = options.suits
    if type(suits) is not int or not 1 <= suits <= 4:
        raise OptionsError(f"suits: {suits!r} is not allowed (1 to 4: spades, hearts, ...)")
    hand = options.hand_size
    if type(hand) is not int or not 1 <= hand <= HAND_CARDS:
        raise OptionsError(f"hand_size: {hand!r} is not allowed (1 to {HAND_CARDS} cards)")
    need = hand * options.players + 1
    if options.deck_size < need:
        raise OptionsError(
            f"hand_size: {hand} cards to each of {options.players} players and the upturned"
            f" card need {need} cards; the pack has {options.deck_size}"
            f" ({options.decks} decks x {len(ranks)} ranks x {suits} suits)"
        )


#: Targets may be any positive number (M1), whole or not, below this bound (so that a
#: record can always write and read it back, rule G1).
MAX_TARGET: Final = 10**100


def _is_target(value: object) -> bool:
    """True for a positive, finite number that is not a boolean (the number policy)."""
    if type(value) is int:
        return 0 < value < MAX_TARGET
    return type(value) is float and 0 < value < MAX_TARGET  # NaN and infinity fail


def _choice(name: str, kind: type[enum.StrEnum], value: object) -> Any:
    if not isinstance(value, str):
        allowed = ", ".join(member.value for member in kind)
        raise OptionsError(f"{name}: {value!r} is not allowed (expected {allowed})")
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise OptionsError(f"{name}: {value!r} is not allowed (expected {allowed})") from None


def default_names(players: int) -> tuple[str, ...]:
    """The names a table gets when nobody gives any: ``Player 1``, ``Player 2``, ..."""
    return tuple(f"Player {seat + 1}" for seat in range(players))


def check_names(names: object, players: int) -> tuple[str, ...]:
    """The players' names if there is one for each seat and each is a fair name.

    A name is text of 1 to ``MAX_NAME_LENGTH`` (40) characters (code points) with
    at least one letter, digit or symbol (Unicode categories L, N, S: a name of
    spaces, punctuation or invisible characters such as U+200B alone is refused,
    as nobody could tell who it is); no control characters (Cc, Zl, Zp: no
    newlines, tabs or terminal escapes, which would break a one-line message or
    a terminal); no bidirectional controls (U+202E and the like, which would turn
    the rest of a line around on the screen: "Bob" could show as someone else's
    move); no lone surrogates (Cs, which UTF-8 cannot write: the record could
    not be saved).  Names need not be distinct; spaces inside and around a name
    are kept as they are.
    """
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise OptionsError(f"names: expected a list of {players} names, got {_kind(names)}")
    if len(names) != players:
        raise OptionsError(f"names: {len(names)} names for {players} players")
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            raise OptionsError(f"names[{seat}]: {problem}")
    return tuple(names)


def name_problem(name: object) -> str | None:
    """What makes ``name`` unfit as a player's name (see ``check_names``), or None.

    One rule for the record and for whoever takes names before they reach one (the
    server's join and seat plan), so that a name accepted there makes a valid record.
    """
    if not isinstance(name, str):
        return f"expected text, got {_kind(name)}"
    if not name:
        return "'' is empty"
    shown = repr(name) if len(name) <= 50 else repr(name[:46]) + "..."
    if len(name) > MAX_NAME_LENGTH:
        return f"{shown} has {len(name)} characters; a name has at most {MAX_NAME_LENGTH}"
    for ch in name:
        category = unicodedata.category(ch)
        if category in _REFUSED or ch in BIDI_CONTROLS:
            what = (
                "a lone surrogate"
                if category == "Cs"
                else "a bidirectional control"
                if ch in BIDI_CONTROLS
                else "a control character"
            )
            return f"{shown} holds U+{ord(ch):04X}, {what}"
    if not any(unicodedata.category(ch)[0] in "LNS" for ch in name):
        return f"{shown} has no letter, digit or symbol"
    return None


def _kind(value: object) -> str:
    """A short description of a value of the wrong type, for a message."""
    return "null" if value is None else type(value).__name__


_REFUSED: Final = frozenset({"Cc", "Zl", "Zp", "Cs"})

#: The longest name, in characters (code points): a seat's name fits a line of the table.
MAX_NAME_LENGTH: Final = 40

#: The characters of Unicode's Bidi_Control property: they reorder the text after them.
BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)

#: Presets that were renamed when ``take = match`` became the default, and where they went.
RENAMED_PRESETS: Final[Mapping[str, str]] = {
    "classic": "'classic' (take = any) is now called 'literal'; the default preset is"
    " 'original' (take = match)",
}

_FIELDS: Final = tuple(field.name for field in dataclasses.fields(TableOptions))

#: Named presets.  ``original`` (the default) is Ed Vasicek's game; ``literal`` is the literal
#: reading of the Russian and Ukrainian texts, where the pile may be taken at any time (T2).
PRESETS: Final[Mapping[str, TableOptions]] = {
    "original": TableOptions(),
    "literal": TableOptions(take=TakeRule.ANY),
    "short": TableOptions(target=150),
    "long": TableOptions(target=400),
    "strict": TableOptions(forced_foxtrot=True, leftover_pile=LeftoverPile.LAST_TAKER),
    "party": TableOptions(players=8),
}
