"""The keys a G2 record may hold, and the checks of the keys added to G2 (rule G2).

Part of ``core.record``'s check (it calls ``check_keys`` and ``check_added`` before it
replays anything); a module of its own only to keep ``record.py`` short.

G2 says "more keys may be added; none of these may be renamed".  We read it as: the
format may grow keys (this project adds ``first_dealer``, ``lot``, ``seats``,
``settings``, ``table`` and each deal's ``fair``, docs/rules.md), but a record is read
strictly, like the rest of it: a key that is neither in G2 nor one of these is refused
with its JSON path, so that a misspelled key (``"forced_foxrot"``) is an error, not an
option silently left at its default.  Other tools keep their own data in the top-level
``extensions`` object, which is never looked into.

>>> check_keys({"format": "foxtrot-record/1", "options": {"players": 2, "takes": "any"}})
Traceback (most recent call last):
...
foxtrot.core.errors.RecordError: options: unknown key 'takes' (expected players, decks, take, \
forced_foxtrot, leftover_pile, most_cards_tie, target) (rule G2)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .errors import RecordError
from .record_text import json_kind

#: The levels a computer seat of a terminal record may have (``seats``): the three
#: levels offered, and the bot names that may stand for them (never the oracle, which
#: sees every card).
SEAT_LEVELS: Final = ("easy", "medium", "hard", "random", "greedy", "expert", "learned")

_EXTENSIONS: Final = "extensions"

#: Every key an object of a record may hold, by where the object is: G2's keys first,
#: then the project's additions (docs/rules.md, "Added record keys").
TOP_KEYS: Final = (
    "format",
    "options",
    "names",
    "deals",
    "totals",
    "winner",
    "first_dealer",
    "lot",
    "seats",
    "settings",
    "table",
    _EXTENSIONS,
)
OPTION_KEYS: Final = (
    "players",
    "decks",
    "take",
    "forced_foxtrot",
    "leftover_pile",
    "most_cards_tie",
    "target",
)
#: A mini game's options add ``pack`` (``TableOptions.to_json``); a real game's never do,
#: so the messages about options name G2's keys only.
MINI_OPTION_KEYS: Final = ("pack",)
PACK_KEYS: Final = ("ranks", "suits", "hand_size")
DEAL_KEYS: Final = ("dealer", "deck", "actions", "scores", "fair")
ACTION_KEYS: Final = ("seat", "play", "take")
SCORE_KEYS: Final = ("foxtrots", "double_foxtrots", "cards", "card_points", "most_cards", "total")
DRAW_KEYS: Final = ("seat", "card")
FAIR_KEYS: Final = ("algorithm", "commitment", "player_seeds", "server_seed")
SEAT_KEYS: Final = ("kind", "level")
SETTINGS_KEYS: Final = ("lang",)


def check_keys(data: Mapping[str, Any]) -> None:
    """Refuse a key that no object of a record may hold, naming it and its JSON path.

    Only objects are looked at: a value of the wrong type is left to the checks that
    read it (they say what was expected).  ``extensions`` is not looked into.
    """
    _known(data, TOP_KEYS, "the record")
    options = data.get("options")
    _known(options, OPTION_KEYS, "options", MINI_OPTION_KEYS)
    if isinstance(options, Mapping):
        _known(options.get("pack"), PACK_KEYS, "options.pack")
    _known(data.get("settings"), SETTINGS_KEYS, "settings")
    for index, entry in _items(data.get("seats")):
        _known(entry, SEAT_KEYS, f"seats[{index}]")
    for number, rnd in _items(data.get("lot")):
        for index, draw in _items(rnd):
            _known(draw, DRAW_KEYS, f"lot[{number}][{index}]")
    for index, deal in _items(data.get("deals")):
        if not isinstance(deal, Mapping):
            continue
        where = f"deals[{index}]"
        _known(deal, DEAL_KEYS, where)
        _known(deal.get("fair"), FAIR_KEYS, f"{where}.fair")
        for number, action in _items(deal.get("actions")):
            _known(action, ACTION_KEYS, f"{where}.actions[{number}]")
        for seat, line in _items(deal.get("scores")):
            _known(line, SCORE_KEYS, f"{where}.scores[{seat}]")


def check_added(data: Mapping[str, Any], players: int) -> list[tuple[str, str]] | None:
    """Check the added keys other than ``first_dealer`` and ``lot`` (checked with the deal).

    Returns the ``seats`` as ``(kind, level)`` pairs (``("human", "")`` for a person),
    or ``None`` when the record has no ``seats``.
    """
    if _EXTENSIONS in data and not isinstance(data[_EXTENSIONS], Mapping):
        raise RecordError(
            "extensions: expected an object (other tools' data),"
            f" got {json_kind(data[_EXTENSIONS])} (rule G2)"
        )
    if "table" in data and not _text(data["table"]):
        raise RecordError(f"table: expected the table's id as text, got {json_kind(data['table'])}")
    if "settings" in data:
        settings = data["settings"]
        if not isinstance(settings, Mapping):
            raise RecordError(f"settings: expected an object, got {json_kind(settings)}")
        if "lang" in settings and not _text(settings["lang"]):
            raise RecordError(
                f"settings.lang: expected a language code, got {_shown(settings, 'lang')}"
            )
    for index, deal in _items(data.get("deals")):
        if isinstance(deal, Mapping) and "fair" in deal:
            _check_fair(deal["fair"], f"deals[{index}].fair")
    return _seats(data["seats"], players) if "seats" in data else None


def _seats(raw: object, players: int) -> list[tuple[str, str]]:
    """The ``seats`` key of a terminal record: one entry for each seat."""
    if not isinstance(raw, list) or len(raw) != players:
        got = f"{len(raw)} entries" if isinstance(raw, list) else json_kind(raw)
        raise RecordError(f"seats: expected one entry for each of {players} seats, got {got}")
    seats = []
    for index, entry in enumerate(raw):
        where = f"seats[{index}]"
        if not isinstance(entry, Mapping):
            raise RecordError(
                f"{where}: expected an object like {{'kind': 'human'}}, got {json_kind(entry)}"
            )
        kind, level = entry.get("kind"), entry.get("level")
        if kind == "human":
            if "level" in entry:
                raise RecordError(f"{where}.level: a person's seat has no level")
            seats.append(("human", ""))
        elif kind == "bot":
            if not isinstance(level, str) or level not in SEAT_LEVELS:
                raise RecordError(
                    f"{where}.level is {_shown(entry, 'level')}, expected one of"
                    f" {', '.join(SEAT_LEVELS)}"
                )
            seats.append(("bot", level))
        else:
            raise RecordError(f"{where}.kind is {_shown(entry, 'kind')}, expected 'human' or 'bot'")
    return seats


def _check_fair(fair: object, where: str) -> None:
    """The shape of a deal's ``fair`` proof; ``foxtrot verify`` checks what it proves."""
    if not isinstance(fair, Mapping):
        raise RecordError(f"{where}: expected an object, got {json_kind(fair)}")
    for key in ("algorithm", "commitment"):
        if not _text(fair.get(key)):
            raise RecordError(f"{where}.{key}: expected text, got {_shown(fair, key)}")
    seeds = fair.get("player_seeds")
    if not isinstance(seeds, list) or not all(isinstance(seed, str) for seed in seeds):
        raise RecordError(
            f"{where}.player_seeds: expected an array of text, got {json_kind(seeds)}"
        )
    if "server_seed" not in fair or not (
        fair["server_seed"] is None or isinstance(fair["server_seed"], str)
    ):
        raise RecordError(
            f"{where}.server_seed: expected text (null until the deal ends),"
            f" got {_shown(fair, 'server_seed')}"
        )


def _known(value: object, keys: tuple[str, ...], where: str, unnamed: tuple[str, ...] = ()) -> None:
    """Refuse a key of ``value`` that is neither in ``keys`` nor ``unnamed`` (allowed, but
    left out of the message's list)."""
    if not isinstance(value, Mapping):
        return
    for key in value:
        if key not in keys and key not in unnamed:
            hint = "; other tools' data goes in 'extensions'" if where == "the record" else ""
            raise RecordError(
                f"{where}: unknown key {_key(key)} (expected {', '.join(keys)}{hint}) (rule G2)"
            )


def _items(value: object) -> list[tuple[int, Any]]:
    return list(enumerate(value)) if isinstance(value, list) else []


def _text(value: object) -> bool:
    return isinstance(value, str) and value != ""


def _key(key: object) -> str:
    """A key for a message: JSON spelling, cut short (keys come from anyone's file)."""
    text = json.dumps(key, ensure_ascii=True) if isinstance(key, str) else repr(key)
    text = "'" + text[1:-1] + "'" if isinstance(key, str) else text
    return text if len(text) <= 40 else text[:36] + "...'"


def _shown(data: Mapping[str, Any], key: str) -> str:
    """``data[key]`` for a message: text and numbers spelled out, short; else its kind."""
    if key not in data:
        return "nothing (the key is missing)"
    value = data[key]
    if isinstance(value, str):
        return _key(value)
    if value is None or isinstance(value, bool | int | float):
        return json.dumps(value)[:40]
    return json_kind(value)
