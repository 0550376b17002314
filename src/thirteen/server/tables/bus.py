"""The message bus between the room's processes: Redis pub/sub.

Each process listens on a channel of its own (``thirteen:<db>:p:<name>``: frames for the sockets
it holds, messages for the tables it runs) and on the lobby's (``thirteen:<db>:lobby``), where
``<db>`` is the Redis database number of ``THIRTEEN_REDIS_URL``: pub/sub ignores database
numbers, so two rooms on one Redis keep apart by using different ones. A process is
alive while its channel has a subscriber — Redis drops the subscription the moment the process's
connection does, kill -9 included — so :meth:`Bus.alive` asks Redis and no heartbeat is needed.
Each process looks who listens every :data:`WATCH_SECONDS` (:meth:`Bus.watch`): a process that
stopped listening is *missing*, and missing for :data:`GONE_SECONDS` it is *gone* (:attr:`Bus.gone`)
— dead or stopped, as a live one whose connection broke listens again sooner — so the others
take its tables at once rather than when its lease runs out (:mod:`.placement`).

Messages from one process to another arrive in the order they were sent (one connection
publishes, one listens) or not at all: pub/sub keeps nothing for a subscriber that is away. So
whenever this process's connection to Redis breaks, or a publish fails, ``on_reset`` runs: the
room then closes every socket whose frames travel through Redis, and the clients reconnect
with ``since`` and catch up from the table's own state (the protocol's resync), resending what
was not acknowledged.

The bus's tasks end before its connections to Redis are let go (:meth:`Bus.close`, :func:`end`):
a task cancelled inside a Redis command can go on — redis-py's client was seen to lose the
cancellation (``Bus.processes`` returning normally in a cancelled task) — and a look that went
on after the close opened a connection nobody would close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from thirteen.server.tables.protocol import encode

log = logging.getLogger("thirteen.server.bus")

MAX_PIPELINE = 500
"""Messages published in one round trip at most."""
RETRY_SECONDS = 0.5
"""How long a broken connection to Redis waits before it tries again."""
WATCH_SECONDS = 0.25
"""How often a process looks who is listening on the bus (:meth:`Bus.watch`)."""
GONE_SECONDS = 2 * RETRY_SECONDS
"""How long a process must be missing from the bus to count as gone: a live process whose
connection broke listens again sooner — it reconnects at once, and tries again after
:data:`RETRY_SECONDS` if Redis did not answer."""

STOP_SECONDS = 0.5
"""How long :func:`end` waits for cancelled tasks before it cancels again those still running."""

Message = dict[str, Any]


async def end(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again — every
    :data:`STOP_SECONDS` — one that lost its cancellation (see the module's docstring); what
    one raised besides is raised here, but a broken connection to Redis."""
    running = {t for t in tasks if not t.done()}
    while running:
        for task in running:
            task.cancel()
        _, running = await asyncio.wait(running, timeout=STOP_SECONDS)
    for task in tasks:
        if not task.cancelled():
            with contextlib.suppress(RedisError, OSError):
                task.result()


class BusError(Exception):
    """The bus cannot be joined (a sentence for the operator)."""


def prefix_of(client: Redis | redis.Redis) -> str:
    """The channels' prefix: ``thirteen:<db>`` (pub/sub ignores database numbers)."""
    return f"thirteen:{client.connection_pool.connection_kwargs.get('db', 0)}"


def preflight(url: str, me: str) -> None:
    """Before serving: Redis answers, and no live process of the room has the name ``me``;
    :class:`BusError` with a sentence otherwise (the URL's password never in it)."""
    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    where = client.connection_pool.connection_kwargs
    try:
        counts = client.pubsub_numsub(f"{prefix_of(client)}:p:{me}")
    except (RedisError, OSError) as error:
        raise BusError(
            f"Redis at {where.get('host', '?')}:{where.get('port', '?')} does not answer "
            f"({type(error).__name__}); check THIRTEEN_REDIS_URL."
        ) from None
    finally:
        client.close()
    if counts and counts[0][1]:
        raise BusError(
            f"Another process of this room is running as {me!r}: give each process its own "
            "THIRTEEN_PROCESS_NAME."
        )


class Bus:
    """This process's end of the bus (``me``: its name among the room's processes)."""

    def __init__(
        self,
        url: str,
        me: str,
        on_message: Callable[[Message], None],
        on_reset: Callable[[], None],
    ) -> None:
        self.me = me
        self.redis: Redis = Redis.from_url(url, health_check_interval=10)
        self.prefix = prefix_of(self.redis)
        self.lobby = f"{self.prefix}:lobby"
        self.on_message = on_message
        self.on_reset = on_reset
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self.open = True
        """Until :meth:`close`: the bus's loops stop when it is not, cancelled or not."""
        self.published = 0
        self.received = 0
        self._listening: set[str] = set()
        """The processes listening at the last look (:meth:`watch`)."""
        self._missing: dict[str, float] = {}
        """Processes that stopped listening since, by when (monotonic) that was seen."""
        self.gone: set[str] = set()
        """The processes missing from the bus for :data:`GONE_SECONDS` at the last look: dead or
        stopped (see the module's docstring)."""

    async def start(self) -> None:
        """Listen (returns once subscribed: from then on this process counts as alive)."""
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listen"),
            asyncio.create_task(self._publish(), name="bus-publish"),
        ]
        await self._subscribed.wait()

    def start_watching(self, changed: Callable[[], Awaitable[None]]) -> None:
        """:meth:`watch` from now until the bus closes."""
        self._tasks.append(asyncio.create_task(self.watch(changed), name="watch-bus"))

    async def close(self) -> None:
        """Stop listening, publishing and watching, then let Redis go: no task of the bus's
        is left to open a connection afterwards."""
        self.open = False
        await end(self._tasks)
        await self.redis.aclose()

    def channel_of(self, process: str) -> str:
        return f"{self.prefix}:p:{process}"

    async def drain(self) -> None:
        """Wait until everything sent so far is published (or given up on)."""
        await self.outbox.join()

    # ------------------------------------------------------------------ sending
    def send(self, process: str, message: Message) -> None:
        """Send ``message`` to ``process`` (in order with everything else sent to it)."""
        self.outbox.put_nowait((self.channel_of(process), encode(message)))

    def broadcast(self, message: Message) -> None:
        """Send ``message`` to every process's lobby (this one's included)."""
        self.outbox.put_nowait((self.lobby, encode({**message, "from": self.me})))

    async def _publish(self) -> None:
        while self.open:
            batch = [await self.outbox.get()]
            while len(batch) < MAX_PIPELINE and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError) as error:
                log.warning(
                    "publishing failed", extra={"messages": len(batch), "error": str(error)}
                )
                self.on_reset()  # what was lost is recovered by the sockets' resync
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                for _ in batch:
                    self.outbox.task_done()

    # ------------------------------------------------------------------ listening
    async def _listen(self) -> None:
        first = True
        while self.open:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel_of(self.me), self.lobby)
                if not first:
                    self.on_reset()  # whatever was sent while we were away is gone
                first = False
                self._subscribed.set()
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    self.received += 1
                    try:
                        message = orjson.loads(raw["data"])
                    except orjson.JSONDecodeError:
                        continue
                    if isinstance(message, dict):
                        try:
                            self.on_message(message)  # must not wait: it queues
                        except Exception:
                            log.exception("a bus message failed", extra={"kind": message.get("k")})
            except (RedisError, OSError) as error:
                log.warning("the bus connection broke; reconnecting", extra={"error": str(error)})
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------------ who is there
    async def processes(self) -> set[str]:
        """The names of the room's live processes (each listening on its channel)."""
        found = await self.redis.pubsub_channels(f"{self.prefix}:p:*")
        start = len(f"{self.prefix}:p:")
        return {(c.decode() if isinstance(c, bytes) else str(c))[start:] for c in found}

    async def alive(self, process: str) -> bool:
        counts = await self.redis.pubsub_numsub(self.channel_of(process))
        return bool(counts and counts[0][1])

    async def watch(self, changed: Callable[[], Awaitable[None]]) -> None:
        """Look who listens every :data:`WATCH_SECONDS`; call ``changed`` at once when a process
        went missing (one that stopped has given its tables back) or gone (:attr:`gone`); until
        the bus closes (:meth:`start_watching` runs it so)."""
        while self.open:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                news = await self.look()
            except Exception:  # Redis does not answer: the leases judge meanwhile
                news = self._lost_sight()
            if news:
                try:
                    await changed()
                except Exception:
                    log.exception("looking after a process left the bus failed")

    async def look(self) -> bool:
        """Who listens now, against the last look; whether a process went missing or gone."""
        listening = await self.processes()
        if self.me not in listening:  # off the bus itself, this process judges nobody
            return self._lost_sight()
        now = time.monotonic()
        left = self._listening - listening
        for process in left:
            self._missing[process] = now
        for process in listening:
            self._missing.pop(process, None)
        self._listening = listening
        gone = {p for p, since in self._missing.items() if now - since >= GONE_SECONDS}
        news = bool(left or gone - self.gone)
        self.gone = gone
        return news

    def _lost_sight(self) -> bool:
        """This process cannot see the bus: it forgets who was missing (judged afresh from
        the next look it can make), and counts nobody as gone meanwhile."""
        self._listening, self._missing, self.gone = set(), {}, set()
        return False


__all__ = ["Bus", "BusError", "Message", "preflight"]
