"""Hands seeded for the room's review tests (server and browser): played by bots on a real
table (the engine's), then written to the room's database as the room writes a finished hand (a
closed table, the hand's full history, the account's seat), so a test reviews a hand of any
preset after milliseconds of play. And asking the room for reviews and waiting until they are
done."""

from __future__ import annotations

import asyncio
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import select

from review_helpers import play_recorded
from thirteen.bots.registry import make_bot
from thirteen.client import RoomClient
from thirteen.engine.history import HandHistory, history_to_json, snapshot_to_json
from thirteen.engine.rules import get_rules
from thirteen.engine.state import new_table
from thirteen.server.db.models import GameTable, Hand, HandSeat, User
from thirteen.server.db.session import Database, migrate

WAIT_SECONDS = 120.0


def play(preset: str, seed: int, fantasyland: bool = False) -> HandHistory:
    """A hand of ``preset`` between a heuristic player (seat 0) and a beginner (seat 1); with
    ``fantasyland``, seat 0 starts it in fantasyland."""
    rules = get_rules(preset)
    options: dict[str, Any] = {}
    if fantasyland:
        options["fantasyland"] = {0: max(c for _, c in rules.fantasyland_entry)}
    bots = [make_bot("heuristic", rules), make_bot("beginner", rules, seed=seed)]
    history, _ = play_recorded(rules, bots, random.Random(seed), budget=0.02, **options)
    return history


def seed_hands(
    database_url: str, name: str, histories: list[HandHistory], seat: int = 0
) -> list[int]:
    """Write ``histories`` as finished hands the account ``name`` played at ``seat``; their ids."""

    async def write(db: Database) -> list[int]:
        ids = []
        async with db.begin() as s:
            user = await s.scalar(select(User.id).where(User.name_key == name.lower()))
            assert user is not None, name
            for history in histories:
                rules = history.start.rules
                table = GameTable(
                    name="seeded",
                    preset=rules.name,
                    rules=json.dumps(rules.to_dict()),
                    seats=2,
                    unit=1,
                    min_buy_in=50,
                    max_buy_in=200,
                    status="closed",
                    created_at=time.time(),
                    snapshot=json.dumps(snapshot_to_json(new_table(rules, seats=2))),
                )
                s.add(table)
                await s.flush()
                data = history_to_json(history)
                hand = Hand(
                    table_id=table.id,
                    number=1,
                    status="settled",
                    commitment=data["commitment"],
                    start_state_id=0,
                    started_at=time.time(),
                    finished_at=time.time(),
                    history=json.dumps(data),
                )
                s.add(hand)
                await s.flush()
                s.add(HandSeat(hand_id=hand.id, seat=seat, user_id=user, delta=0))
                ids.append(hand.id)
        return ids

    async def main() -> list[int]:
        await migrate(database_url)
        db = Database(database_url)
        try:
            return await write(db)
        finally:
            await db.close()

    # in a thread of its own: a browser test's thread runs Playwright's event loop already
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()


def answer(who: RoomClient, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """The status and JSON of a request (``RoomClient.request`` keeps only the JSON)."""
    headers = {"x-csrf-token": who.csrf} if who.csrf else {}
    r = who.http.request(method, path, json=body, headers=headers)
    return r.status_code, r.json()


def wait_done(who: RoomClient, hand: int) -> dict[str, Any]:
    """Poll the hand's review until it is done or failed (nothing to wait on over HTTP)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        got: dict[str, Any] = who.request("GET", f"/api/hands/{hand}/review")
        if got["status"] in ("done", "failed"):
            return got
        assert time.monotonic() < deadline, got
        time.sleep(0.05)  # allowed: nothing to wait on over HTTP (see above)
