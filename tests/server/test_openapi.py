"""Schemathesis against the live room's /openapi.json: no 5xx, every response matches its schema
(errors included), as a visitor, a player and an admin; then every body poisoned (non-finite
numbers, huge integers, deep JSON, unknown keys: api_fuzz.poison_bodies), each refused with a
sentence; the ledger still balances after, and the room restarted on what was left opens a new
table, plays a hand and audits clean."""

from __future__ import annotations

from api_fuzz import Identity, fuzz_api, poison_bodies
from play import play
from poison import the_room_restarts_and_plays
from test_play import run_audit

from thirteen.client import RoomClient
from thirteen.engine.rules import get_rules
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings

EXAMPLES = 12
"""Per operation and mode, for each database; scripts/fuzz_room.py runs many more."""


def test_every_response_matches_the_schema(settings: Settings) -> None:
    with (
        serve_in_thread(create_app(settings)) as room,
        RoomClient(room) as boss,
        RoomClient(room) as ann,
    ):
        boss.sign_up("boss", "the chief's password")
        ann.sign_up("ann", "password of A-N-N")
        rules = get_rules("chinese-1-6")
        table = boss.create_table(
            "chinese-1-6", bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.1}
        )
        # a finished hand that ann played, so its histories (JSON and text) are fuzzed too
        conn = ann.open_table(table["id"])
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        play(conn, rules, hands=1)
        conn.close()
        hand_id = ann.request("GET", "/api/hands")[0]["id"]
        identities = {
            "player": Identity(ann, "password of A-N-N"),
            "admin": Identity(boss, "the chief's password"),
        }
        pinned = {"hand_id": {"hand_id": hand_id}, "table_id": {"table_id": table["id"]}}
        report = fuzz_api(room, identities, examples=EXAMPLES, pinned=pinned)
        assert report.total > 100
        assert not [status for status in report.statuses if status >= 500]
        poisoned = poison_bodies(room, identities["admin"], path_values={"table_id": table["id"]})
        assert poisoned.total > 500
        assert poisoned.failures == []
        assert boss.request("GET", "/healthz") == {"status": "ok"}
    assert run_audit(settings) == []
    the_room_restarts_and_plays(settings)
