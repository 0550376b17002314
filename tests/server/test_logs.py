"""The room's log lines: one JSON object each, what the call chose and nothing secret."""

from __future__ import annotations

import json
import logging
import sys
import time

from thirteen.server.logs import JsonFormatter


def _record(message: str, *args: object, created: float | None = None) -> logging.LogRecord:
    record = logging.LogRecord("thirteen.test", logging.INFO, __file__, 1, message, args, None)
    if created is not None:
        record.created = created
        record.msecs = int((created - int(created)) * 1000) + 0.0
    return record


def test_a_line_has_the_time_level_logger_message_and_the_fields_chosen() -> None:
    formatter = JsonFormatter()
    record = _record("hand %s settled", 12, created=1_800_000_000.25)
    record.table = 3
    record.seats = {0: "alice", 1: "bob"}  # keys that are not text are written as text
    line = json.loads(formatter.format(record))
    assert line == {
        "time": "2027-01-15T08:00:00.250Z",
        "level": "info",
        "logger": "thirteen.test",
        "message": "hand 12 settled",
        "table": 3,
        "seats": {"0": "alice", "1": "bob"},
    }


def test_the_time_follows_the_clock_across_seconds() -> None:
    formatter = JsonFormatter()
    stamps = [
        json.loads(formatter.format(_record("tick", created=at)))["time"]
        for at in (1_800_000_000.999, 1_800_000_001.0, 1_800_000_001.5, 1_800_000_000.5)
    ]
    assert stamps == [
        "2027-01-15T08:00:00.999Z",
        "2027-01-15T08:00:01.000Z",
        "2027-01-15T08:00:01.500Z",
        "2027-01-15T08:00:00.500Z",
    ]
    now = time.time()
    assert json.loads(formatter.format(_record("now", created=now)))["time"].startswith(
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))
    )


def test_a_ticket_in_an_address_is_never_written() -> None:
    line = JsonFormatter().format(_record('"GET /ws/tables/3?ticket=s3cret&since=4 HTTP/1.1" 101'))
    assert "s3cret" not in line
    assert (
        json.loads(line)["message"] == '"GET /ws/tables/3?ticket=[redacted]&since=4 HTTP/1.1" 101'
    )


def test_what_json_has_no_form_for_is_written_as_text_and_a_failure_with_its_traceback() -> None:
    formatter = JsonFormatter()
    record = _record("odd values")
    record.huge = 2**70  # past what orjson writes
    record.thing = object()
    line = json.loads(formatter.format(record))
    assert line["huge"] == 2**70
    assert line["thing"].startswith("<object object at ")
    try:
        raise ValueError("the disk is full")
    except ValueError:
        failed = logging.LogRecord(
            "thirteen.test", logging.ERROR, __file__, 1, "boom", (), sys.exc_info()
        )
    error = json.loads(formatter.format(failed))["error"]
    assert error.startswith("Traceback")
    assert error.endswith("ValueError: the disk is full")
