"""Time the leaderboards on a large synthetic room: ``python benchmarks/leaderboards.py``.

Writes ``--hands`` settled hands (2 to 4 seats each, so about three seat rows a hand) spread over
``--days`` days at ``--tables`` tables of every preset and stake, among ``--people`` people and
``--bots`` bots, into a fresh database (SQLite in a temporary folder unless ``--database-url``
names an empty one), then times each board (best of ``--repeat``) and prints the query plans of
the day's and all time's. Nothing here is asserted by the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert, text

from thirteen.engine.rules import PRESETS
from thirteen.server.competitions.leaderboards import BoardQuery, leaderboard
from thirteen.server.db.models import GameTable, Hand, HandSeat, User
from thirteen.server.db.session import Database, is_sqlite, migrate

CHUNK = 20_000


async def fill(db: Database, args: argparse.Namespace, today: dt.date) -> int:
    rng = random.Random(13)
    end = dt.datetime(today.year, today.month, today.day, tzinfo=dt.UTC).timestamp() + 86_400
    start = end - args.days * 86_400
    presets = list(PRESETS)
    async with db.begin() as s:
        users = [
            {"id": i, "name": f"p{i}", "name_key": f"p{i}", "role": "player", "created_at": 0.0}
            for i in range(1, args.people + 1)
        ] + [
            {"id": i, "name": f"b{i}", "name_key": f"b{i}", "role": "bot", "created_at": 0.0}
            for i in range(args.people + 1, args.people + args.bots + 1)
        ]
        await s.execute(insert(User), users)
        tables = [
            {
                "id": i,
                "name": f"t{i}",
                "preset": presets[i % len(presets)],
                "rules": "{}",
                "seats": 4,
                "unit": rng.choice((1, 2, 5, 10, 25, 100)),
                "min_buy_in": 1,
                "max_buy_in": 10**9,
                "practice": i % 10 == 0,
                "created_at": 0.0,
                "snapshot": "{}",
            }
            for i in range(1, args.tables + 1)
        ]
        await s.execute(insert(GameTable), tables)
    units = {t["id"]: t["unit"] for t in tables}
    numbers: dict[int, int] = {}
    seats_written = 0
    everyone = len(users)
    for first in range(1, args.hands + 1, CHUNK):
        hands, seats = [], []
        for hand_id in range(first, min(first + CHUNK, args.hands + 1)):
            table = rng.randrange(1, args.tables + 1)
            numbers[table] = numbers.get(table, 0) + 1
            at = rng.uniform(start, end)
            hands.append(
                {
                    "id": hand_id,
                    "table_id": table,
                    "number": numbers[table],
                    "status": "settled" if rng.random() > 0.002 else "voided",
                    "commitment": "c",
                    "start_state_id": 0,
                    "started_at": at - 60,
                    "finished_at": at,
                }
            )
            # about a third of the seats are bots', as at a room whose bots fill tables
            players = [
                rng.randrange(args.people + 1, everyone + 1)
                if rng.random() < 0.3
                else rng.randrange(1, args.people + 1)
                for _ in range(rng.randint(2, 4))
            ]
            if len(set(players)) < len(players):
                players = rng.sample(range(1, everyone + 1), len(players))
            points = [rng.randint(-12, 12) for _ in players[1:]]
            for seat, (user, delta) in enumerate(
                zip(players, [-sum(points), *points], strict=True)
            ):
                seats.append(
                    {
                        "hand_id": hand_id,
                        "seat": seat,
                        "user_id": user,
                        "delta": delta * units[table],
                    }
                )
        async with db.begin() as s:
            await s.execute(insert(Hand), hands)
            await s.execute(insert(HandSeat), seats)
        seats_written += len(seats)
    async with db.begin() as s:
        await s.execute(text("ANALYZE"))
    return seats_written


async def plans(db: Database, sql: str, params: dict[str, Any]) -> list[str]:
    async with db.begin() as s:
        prefix = "EXPLAIN QUERY PLAN " if is_sqlite(db.url) else "EXPLAIN "
        rows = (await s.execute(text(prefix + sql), params)).all()
    return [" | ".join(str(c) for c in row) for row in rows]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--people", type=int, default=5_000)
    parser.add_argument("--bots", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    if args.database_url:
        await run(args, args.database_url)
        return
    with tempfile.TemporaryDirectory() as folder:
        await run(args, f"sqlite+aiosqlite:///{Path(folder) / 'big.db'}")


async def run(args: argparse.Namespace, url: str) -> None:
    today = dt.datetime.now(dt.UTC).date()
    await migrate(url)
    db = Database(url)
    try:
        began = time.perf_counter()
        rows = await fill(db, args, today)
        took = time.perf_counter() - began
        print(f"{args.hands:,} hands, {rows:,} seat rows written in {took:.1f} s")
        print(f"database: {url.split(':')[0]}")
        print(f"| game | period | who | standings | best of {args.repeat} (ms) |")
        print("| --- | --- | --- | ---: | ---: |")
        for game in ("all", "chinese", "ofc-pineapple"):
            for period in ("day", "week", "all"):
                for who in ("people", "bots"):
                    query = BoardQuery(game=game, period=period, who=who, limit=50)
                    best = float("inf")
                    for _ in range(args.repeat):
                        t0 = time.perf_counter()
                        board = await leaderboard(db, query, today=today)
                        best = min(best, time.perf_counter() - t0)
                    n = len(board.standings)
                    print(f"| {game} | {period} | {who} | {n} | {best * 1000:.0f} |")
        since = dt.datetime(today.year, today.month, today.day, tzinfo=dt.UTC).timestamp()
        day_sql = (
            "SELECT hs.user_id, count(*) FROM hands h JOIN tables t ON t.id = h.table_id "
            "JOIN hand_seats hs ON hs.hand_id = h.id JOIN users u ON u.id = hs.user_id "
            "WHERE h.status = 'settled' AND h.finished_at >= :since AND h.finished_at < :until "
            "AND t.practice = false GROUP BY hs.user_id"
        )
        print("\nplan of a day's board:")
        for line in await plans(db, day_sql, {"since": since, "until": since + 86_400}):
            print("  " + line)
    finally:
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
