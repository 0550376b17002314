"""A message Redis may have dropped is never patched up: when a process's link to Redis breaks,
every socket relayed through it is closed with 1012, and the client, reconnecting with
``since``, carries on from the table's own state."""

from __future__ import annotations

from pathlib import Path

from redis import Redis
from services import Postgres, RedisServer, rooms_in_threads

from thirteen.client import RoomClient


def test_a_broken_bus_closes_relayed_sockets_and_they_carry_on(
    postgres: Postgres, redis_server: RedisServer, tmp_path: Path
) -> None:
    url = postgres.new_database()
    redis_url = redis_server.url.removesuffix("/0") + "/3"
    with (
        rooms_in_threads(tmp_path, url, redis_url, ["a", "b"]) as (a, b),
        RoomClient(a) as boss,
        RoomClient(b) as ann,
        Redis.from_url(redis_server.url) as redis,
    ):
        boss.sign_up("boss", "the chief's password")
        table = boss.create_table("chinese-2-4", seats=4, bots=0)
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])  # b holds the socket; a runs the table
        conn.do({"type": "sit", "seat": 0, "buy_in": table["max_buy_in"]})
        seen = conn.state_id
        # cut every subscriber's connection to Redis (both processes' buses)
        killed = redis.client_kill_filter(_type="pubsub")
        assert killed == 2
        assert conn.receive(timeout=60) is None
        assert conn.closed is not None
        assert conn.closed[0] == 1012, conn.closed
        # the client reconnects (through b again): the table is as it was, and goes on
        conn.connect(since=seen)
        assert conn.seat == 0
        assert conn.state_id == seen
        assert conn.do({"type": "sit_out"})["type"] == "ack"
        assert conn.state_id > seen  # its update came back through the bus too
        conn.close()
