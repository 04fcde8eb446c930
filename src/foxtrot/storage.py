"""Records on disk: atomic saves, careful loads, the user's data folder (rule G1).

A save writes a temporary file beside the target and renames it over the
target, so an interrupted save never leaves a half-written record behind.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from .core import RecordError, State, dumps, from_record, parse_record


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


#: The largest record file that is read (64 MiB; a long match takes well under 1 MiB).
MAX_RECORD_BYTES: Final = 64 * 1024 * 1024


def read_text(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file; anything that cannot be read is a ``RecordError``.

    Only a regular file of at most ``MAX_RECORD_BYTES`` is read: a folder, a
    FIFO or a device (``/dev/zero``) is refused at once, never waited on.
    The message names the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{path}: cannot read: {_kind_of_file(info.st_mode)}, not a file")
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(
                f"{path}: cannot read: {info.st_size} bytes, more than a record may have"
                f" ({MAX_RECORD_BYTES // 2**20} MiB)"
            )
        chunks = []
        size = 0
        while size <= MAX_RECORD_BYTES:  # the file may grow while it is read
            chunk = os.read(fd, min(1 << 20, MAX_RECORD_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: cannot read: more than {MAX_RECORD_BYTES // 2**20} MiB")
        return b"".join(chunks)
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None
    finally:
        os.close(fd)


def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON object in a record file, not yet checked; errors name the file."""
    try:
        return parse_record(read_text(path))
    except RecordError as error:
        _name_file(error, path)
        raise


def load(path: str | os.PathLike[str]) -> State:
    """Check and replay the record in ``path``; errors name the file, deal and action."""
    return load_record(path)[1]


def load_record(path: str | os.PathLike[str]) -> tuple[dict[str, Any], State]:
    """The record in ``path`` as JSON data and as the replayed, checked state.

    Errors name the file, the deal and the action.
    """
    data = read_record(path)
    try:
        return data, from_record(data)
    except RecordError as error:
        _name_file(error, path)
        raise


def _name_file(error: RecordError, path: str | os.PathLike[str]) -> None:
    """Put the file's name in front of the message, once."""
    text = str(error)
    if not text.startswith(f"{path}: "):
        error.args = (f"{path}: {text}",)
