"""Structured logs: one JSON object a line, naming table, seat and action only.

No log line carries a card of a hand, the stock, a seed before its reveal or a
token: the server logs what happened to which table and seat, never the
message it came in.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Final

log = logging.getLogger("foxtrot.web")
FIELDS: Final = ("table", "seat", "action", "cause", "retry_seconds")


class JsonLines(logging.Formatter):
    """Format a record as ``{"time", "level", "event", "table", "seat", "action"}``.

    ``cause`` (a failure's exception type and message, never a traceback) and
    ``retry_seconds`` are added when a record carries them.
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": round(time.time(), 3),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                line[field] = value
        if record.exc_info and record.exc_info[1] is not None and "cause" not in line:
            error = record.exc_info[1]  # its type and first line: never a traceback
            first = (str(error).splitlines() or [""])[0][:200]
            line["cause"] = f"{type(error).__name__}: {first}" if first else type(error).__name__
        return json.dumps(line)


def cause(error: BaseException) -> str:
    """What went wrong, for the log: the exception's type and the first line of its message.

    A database error's message is the driver's (the statement and its parameters, which
    SQLAlchemy appends, are left out), cut to 200 characters.
    """
    inner = getattr(error, "orig", None) or error
    first = (str(inner).splitlines() or [""])[0][:200]
    return f"{type(inner).__name__}: {first}" if first else type(inner).__name__


#: uvicorn's own loggers (its warnings, "Invalid HTTP request received." among them).
UVICORN_LOGGERS: Final = ("uvicorn", "uvicorn.error", "uvicorn.access")


def configure(level: int = logging.INFO) -> None:
    """Send the server's log to stderr as JSON lines, uvicorn's own lines too.

    stderr then carries only JSON lines, one object each, whatever wrote them: a log
    reader never meets uvicorn's plain text or a traceback (``foxtrot serve`` gives
    uvicorn no logging configuration of its own: ``web/http/running.py``).
    """
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    log.handlers[:] = [handler]
    log.setLevel(level)
    log.propagate = False
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
