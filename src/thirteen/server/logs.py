"""One JSON object per log line: time, level, logger, message and the event's fields.

Never a password, a ticket, a session token or a card: what the room logs is chosen field by
field at each call (``log.info("hand settled", extra={"table": 3, "hand": 12})``), and the
formatter writes only those fields. What the room does not choose — uvicorn's lines for each
request and each socket's handshake, which carry the address asked for — has every ticket in it
replaced by ``[redacted]`` (a ticket not yet spent would open a socket for whoever read it).

May import: nothing of the room.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

import orjson

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}

SECRET_PARAMETER = re.compile(r"([?&]ticket=)[^&\s\"']*")
"""A ticket in an address (``/ws/tables/3?ticket=…``), up to the next parameter or the line's
end."""


def redact(message: str) -> str:
    """``message`` with every ticket in an address replaced."""
    return SECRET_PARAMETER.sub(r"\1[redacted]", message)


class JsonFormatter(logging.Formatter):
    """A record as one JSON line. Cheap, since a busy room writes one for every hand it
    settles: the time's text made once a second, the ticket pattern looked for only in a
    message that has ``ticket=`` in it, the line encoded by ``orjson`` (issue 33)."""

    def __init__(self) -> None:
        super().__init__()
        self._second = -1
        self._stamp = ""

    def _time(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second:  # (formatting runs under the handler's lock)
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
            self._second = second
        return f"{self._stamp}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": self._time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(message) if "ticket=" in message else message,
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(line, default=str, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # what orjson will not write (an integer past 64 bits): as json does
            return json.dumps(line, default=str, ensure_ascii=False)


def configure_logging(level: str = "info") -> None:
    """JSON lines on standard error for the room and uvicorn alike. A record does not look
    up the thread, process or source line that made it: no line shows them (the Logging HOWTO's
    "Optimization")."""
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logging._srcfile = None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)


__all__ = ["JsonFormatter", "configure_logging", "redact"]
