"""Poison for the room's fuzzers: what an attacker writes in a JSON body that ``json.dumps``
never would — non-finite numbers, huge integers, deep nesting, unknown keys — as raw JSON text,
and a check that the room, restarted on the same database afterwards, still starts, opens a new
table, plays a hand on it and audits clean (issue 31: one request once stored a table that
stopped the room's discovery for good, and the next start failed).

Used by the protocol machine (tests/server/protocol_machine.py), the HTTP pass of
tests/server/api_fuzz.py, and their tests.
"""

from __future__ import annotations

import dataclasses

from services import assert_audit_clean

from thirteen.client import RoomClient
from thirteen.engine.rules import Rules, bounds_of
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings

NUMBERS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1" + "0" * 30,
    str(2**63),
    str(-(2**63) - 1),
    "9" * 400,
]
"""Numbers as JSON text that no range of the room's holds (Python's parser reads them all)."""
DEEP = ["[" * 3000 + "]" * 3000, '{"a":' * 1000 + "1" + "}" * 1000]
"""Nesting deeper than any parser's recursion (each under a socket frame's 8 KiB)."""
POISONS = NUMBERS + DEEP
UNKNOWN_KEY = "zz_not_a_field"
RULE_NUMBERS = sorted(
    f.name
    for f in dataclasses.fields(Rules)
    if bounds_of(f.name) is not None and f.name not in ("royalties", "streets")
)
"""Every rule setting that is a number (or a map of them) of its own."""


def the_room_restarts_and_plays(settings: Settings) -> None:
    """Start the room again on ``settings``' database: it starts (whatever the fuzzing
    stored), opens a new table, deals a hand there that settles, and the audit passes."""
    with serve_in_thread(create_app(settings)) as url, RoomClient(url) as boss:
        boss.log_in("boss", "the chief's password")
        table = boss.create_table(
            "chinese-2-4", bots=2, bot_level="random", rules={"showdown_seconds": 0.05}
        )
        conn = boss.open_table(table["id"], watch_only=True)
        try:
            conn.wait(
                lambda f: any(e["event"] == "HandSettled" for e in f.get("events", [])),
                timeout=120,
            )
        finally:
            conn.close()
    assert_audit_clean(settings.database_url)


__all__ = [
    "DEEP",
    "NUMBERS",
    "POISONS",
    "RULE_NUMBERS",
    "UNKNOWN_KEY",
    "the_room_restarts_and_plays",
]
