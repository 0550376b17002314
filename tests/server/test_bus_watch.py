"""Who is gone from the bus, on a real Redis: a process whose connection broke is missing until
it listens again — by itself, at once — and is never counted gone (so its tables stay where they
run); one whose connection closed for good is gone once missing for ``GONE_SECONDS``, and
not before."""

from __future__ import annotations

import asyncio
import time

from redis.asyncio import Redis
from services import RedisServer

from thirteen.server.tables.bus import GONE_SECONDS, Bus

POLL = 0.01
"""Seconds between two looks while a condition is awaited (looks are made by hand here)."""


def _bus(url: str, name: str) -> Bus:
    return Bus(url, name, lambda message: None, lambda: None)


async def _subscribers(redis: Redis) -> set[int]:
    return {int(c["id"]) for c in await redis.client_list(_type="pubsub")}


def test_missing_then_back_is_not_gone_and_closed_is_gone_after_its_time(
    redis_server: RedisServer,
) -> None:
    url = redis_server.url.removesuffix("/0") + "/6"

    async def main() -> None:
        watcher, other = _bus(url, "w"), _bus(url, "a")
        async with Redis.from_url(url) as redis:
            await watcher.start()
            before = await _subscribers(redis)
            await other.start()
            (others,) = await _subscribers(redis) - before  # a's own listening connection
            try:
                assert not await watcher.look()  # the first look: both listen
                # a's connection breaks (as in a network blip): missing at once, not gone ...
                assert await redis.client_kill_filter(_id=str(others)) == 1
                broke = time.monotonic()
                assert await watcher.look()  # news: look at the tables now
                # ... while a listens again by itself, looked at all along
                deadline = broke + 30
                while not await watcher.alive("a"):
                    assert "a" not in watcher.gone
                    assert time.monotonic() < deadline, "a did not listen again"
                    await asyncio.sleep(POLL)  # allowed: Redis tells no one a client is back
                    await watcher.look()
                back = time.monotonic() - broke
                assert not await watcher.look()
                assert watcher.gone == set()
                assert back < GONE_SECONDS, back

                # a closes for good (a kill -9 closes its connection as well): gone once
                # missing for GONE_SECONDS, and not before
                await other.close()
                closed = time.monotonic()
                while "a" not in watcher.gone:
                    assert time.monotonic() < closed + 30, "a was never counted gone"
                    await asyncio.sleep(POLL)  # allowed: being gone is a time (GONE_SECONDS)
                    await watcher.look()
                assert time.monotonic() - closed >= GONE_SECONDS

            finally:
                await other.close()
                await watcher.close()

    asyncio.run(main())


def test_a_closed_bus_has_stopped_watching_though_a_look_lost_its_cancellation(
    redis_server: RedisServer,
) -> None:
    """A look cancelled inside a Redis command may go on: redis-py's client lost a cancellation
    so, and the watch went on looking after the room let Redis go — a connection no one closed
    when the room's loop closed (test_bus_reset, once in a run). Here the look itself swallows
    its cancellation: closing the bus still ends the watch, before it lets Redis go."""
    url = redis_server.url.removesuffix("/0") + "/8"

    async def main() -> None:
        watcher, other = _bus(url, "w"), _bus(url, "a")
        looking = asyncio.Event()
        lost: list[str] = []

        async def changed() -> None:  # a look that never ends but by a cancellation, and loses it
            looking.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                lost.append("a cancellation")

        await watcher.start()
        await other.start()
        try:
            assert not await watcher.look()  # both listen: the watch's looks start from here
            watcher.start_watching(changed)
            await other.close()  # news for the watch: a process left
            await asyncio.wait_for(looking.wait(), 30)
        finally:
            await asyncio.wait_for(watcher.close(), 30)
        assert lost == ["a cancellation"]
        assert [t for t in asyncio.all_tasks() if t.get_name() == "watch-bus"] == []

    asyncio.run(main())
