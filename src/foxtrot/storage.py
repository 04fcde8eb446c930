"""Records on disk: atomic saves, careful loads, the user's data folder (rule G1).

A save writes a temporary file beside the target and renames it over the
target, so an interrupted save never leaves a half-written record behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .core import RecordError, State, dumps, loads


def data_dir() -> Path:
    """Where Foxtrot keeps saved matches: ``$FOXTROT_HOME`` or the XDG data folder."""
    home = os.environ.get("FOXTROT_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "foxtrot"


def save(state: State, path: str | os.PathLike[str]) -> Path:
    """Write the record of ``state`` to ``path`` atomically."""
    return write_atomic(dumps(state), path)


def save_record(record: Mapping[str, Any], path: str | os.PathLike[str]) -> Path:
    """Write a record dict (G2, with any added keys) to ``path`` atomically."""
    return write_atomic(json.dumps(record, ensure_ascii=False) + "\n", path)


def write_atomic(text: str, path: str | os.PathLike[str]) -> Path:
    """Write ``text`` to ``path``: a temporary file beside it, fsync, rename."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def read_text(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file; a missing or unreadable file is a ``RecordError``."""
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None


def load(path: str | os.PathLike[str]) -> State:
    """Check and replay the record in ``path``; errors name the file, deal and action."""
    try:
        return loads(read_text(path))
    except RecordError as error:
        error.args = (f"{path}: {error}",)
        raise
