"""Reading a record's JSON text (rule G2): the first half of ``core.record``'s check.

Records are written by programs, so their text is read strictly: UTF-8 without a byte
order mark, one JSON object, no ``NaN`` or ``Infinity``, whole numbers of at most
``MAX_DIGITS`` digits, nesting at most ``MAX_DEPTH`` deep, and no object that holds a
key twice (parsers disagree on which one wins, so two programs would read two records).
A module of its own only to keep ``record.py`` short; use it through ``core.record``.

>>> parse_record('{"format": "foxtrot-record/1", "deals": [{"deck": [], "deck": []}]}')
Traceback (most recent call last):
...
foxtrot.core.errors.RecordError: deals[0]: the key "deck" is given twice (rule G2)
"""

from __future__ import annotations

import codecs
import json
import math
from typing import Any, Final

from .errors import RecordError


def parse_record(text: str | bytes) -> dict[str, Any]:
    """JSON text to a dict, refusing anything that is not one JSON object (see the module doc).

    Bytes must be UTF-8 without a byte order mark; text must not start with
    one either.  ``NaN`` and ``Infinity``, whole numbers of more than
    ``MAX_DIGITS`` digits, nesting deeper than ``MAX_DEPTH`` and an object that
    holds a key twice (JSON parsers disagree on which one wins) are refused.
    """
    if isinstance(text, bytes | bytearray):
        text = _decode(bytes(text))
    elif not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {json_kind(text)} (rule G2)")
    if text.startswith("\ufeff"):
        raise RecordError("the text starts with a byte order mark; records are UTF-8 without one")
    twice: list[_Twice] = []  # objects that gave a key twice (rare: then found by their path)

    def pairs_to_dict(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) == len(pairs):
            return value
        marked = _twice(value, pairs)
        twice.append(marked)
        return marked

    try:
        data = json.loads(
            text,
            object_pairs_hook=pairs_to_dict,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        # "Unterminated string starting at" ends in "at": do not say "at at line 1"
        raise RecordError(
            f"not JSON: {error.msg.removesuffix(' at')} at line {error.lineno},"
            f" column {error.colno} (rule G2)"
        ) from None
    except RecursionError:
        raise RecordError(_TOO_DEEP) from None
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {json_kind(data)} (rule G2)")
    _check_depth(data)
    if twice:
        _find_twice(data)
    return data


MAX_DEPTH: Final = 64
"""Deepest nesting of arrays and objects a record may have (a record itself needs 5)."""
MAX_DIGITS: Final = 100
"""Most digits a whole number in a record may have (Python refuses above 4300)."""
_TOO_DEEP: Final = f"arrays and objects nested more than {MAX_DEPTH} levels deep (rule G2)"


def _decode(raw: bytes) -> str:
    """UTF-8 bytes to text; a byte order mark, UTF-16 and UTF-32 are refused (rule G2)."""
    if raw.startswith(codecs.BOM_UTF8):
        raise RecordError("the file starts with a byte order mark; records are UTF-8 without one")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in raw:
        raise RecordError("the text looks like UTF-16 or UTF-32; records are UTF-8 (rule G2)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(
            f"not UTF-8 text: {error.reason} at byte {error.start} (rule G2)"
        ) from None


def _parse_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise RecordError(
            f"a whole number of {digits} digits; a record allows at most {MAX_DIGITS} (rule G2)"
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def _parse_constant(name: str) -> float:
    raise RecordError(f"{name} is not a JSON number (rule G2)")


class _Twice(dict[str, Any]):
    """A JSON object that held ``key`` twice (found by ``_find_twice``, which knows where)."""

    key = ""


def _twice(value: dict[str, Any], pairs: list[tuple[str, Any]]) -> _Twice:
    """``value`` marked with the first key that ``pairs`` gives twice."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            break
        seen.add(key)
    marked = _Twice(value)
    marked.key = key
    return marked


def _check_depth(data: Any) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` (without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(_TOO_DEEP)
        items = value.values() if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items if isinstance(item, dict | list))


def _find_twice(data: Any) -> None:
    """Name the first object (in document order) that gives a key twice, by its JSON path;
    ``where`` is a chain ``(parent, step)``."""
    stack: list[tuple[Any, Any]] = [(data, None)]
    while stack:
        value, where = stack.pop()
        if type(value) is _Twice:
            raise RecordError(
                f"{_path(where)}: the key {json.dumps(value.key)} is given twice (rule G2)"
            )
        items = list(value.items() if isinstance(value, dict) else enumerate(value))
        stack.extend(
            (item, (where, step)) for step, item in reversed(items) if isinstance(item, dict | list)
        )


def _path(where: Any) -> str:
    """A JSON path (``deals[2].actions[0]``) from a ``(parent, step)`` chain."""
    steps: list[str] = []
    while where is not None:
        where, step = where
        if isinstance(step, int):
            steps.append(f"[{step}]")
        else:
            steps.append(f".{step}" if step.isidentifier() else f"[{json.dumps(step)}]")
    text = "".join(reversed(steps)).removeprefix(".")
    return text or "the record"


def json_kind(value: object) -> str:
    """The JSON name of a value's type, for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
