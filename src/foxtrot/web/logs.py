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
        return json.dumps(line)


def configure(level: int = logging.INFO) -> None:
    """Send the server's log to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    log.handlers[:] = [handler]
    log.setLevel(level)
    log.propagate = False
