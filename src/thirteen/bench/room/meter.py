"""Measuring the room: a window of a few seconds over the tables at play (the players'
latencies, each process's hands, histogram, CPU and RSS, the tables' owners, the relayed
sockets, the run's own PostgreSQL's and Redis's CPU, the bytes on loopback, and how late this
process's own loop wakes), and the server memory an idle socket costs."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections import Counter
from collections.abc import Iterator

from websockets.asyncio.client import ClientConnection

from thirteen.bench.room.client import RoomClient, bounded
from thirteen.bench.room.figures import (
    GC_PAUSES,
    WRITER,
    Measured,
    ProcessFigures,
    Window,
    bucket_quantile,
    merged_delta,
    pauses_longer,
    percentile,
    total,
    window_total,
)
from thirteen.bench.room.machine import cpu_seconds, loopback_bytes, rss_kib
from thirteen.bench.room.players import TableLoad
from thirteen.bench.room.servers import Backing

SETTLE = 1.0
"""Seconds between the generator's own collection and the window: whatever fell due while it
collected (players' actions, frames to read) goes out and is answered before the window opens."""


@contextlib.contextmanager
def collector_held() -> Iterator[float]:
    """This process's own garbage collector off for a window, giving the seconds its collection
    before took: the generator is the instrument, and a latency is measured on its loop. Its
    young collections walk every object that survived since the last one — with 3,000 sockets,
    tens of thousands, whatever the young count says, because frees of old objects count
    against it too — 10–70 ms each, and an older one 80–450 ms, every few seconds: a p99 of the
    generator's own (issue 33, ``benchmarks/README.md``). What it made before is collected
    first; what it makes in the window waits for Python's own collection, on again after it (a
    window of minutes makes megabytes, not more)."""
    started = time.perf_counter()
    gc.collect()
    collected = time.perf_counter() - started
    was = gc.isenabled()
    gc.disable()
    try:
        yield collected
    finally:
        if was:
            gc.enable()


class Meter:
    """Measurements of the room's processes (and what they stand on) through ``room``; its
    :attr:`window` is what the players record into."""

    def __init__(self, room: RoomClient, backing: Backing | None = None) -> None:
        self.room = room
        self.servers = room.servers
        self.backing = backing
        self.window = Window()
        self.lagging: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Watch this loop's lag from now on (until :meth:`stop`)."""
        self.lagging = asyncio.create_task(self._watch_lag())

    async def stop(self) -> None:
        if self.lagging is not None:
            self.lagging.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.lagging

    async def _watch_lag(self) -> None:
        """How late this loop wakes: a busy generator inflates every latency it measures."""
        tick = 0.05
        while True:
            start = time.perf_counter()
            await asyncio.sleep(tick)
            if self.window.recording:
                self.window.lag.append(time.perf_counter() - start - tick)

    async def measure(self, seconds: float, tables: list[TableLoad]) -> Measured:
        """A window of ``seconds`` over ``tables``: what their players recorded meanwhile, and
        what the processes (and the run's PostgreSQL and Redis) did."""
        pids = [server.pid for server in self.servers]
        backing = self.backing.pids() if self.backing is not None else []
        with collector_held() as collected:
            # The collection stops this loop for a while (0.1–0.5 s at 3,000 sockets): every
            # action that fell due meanwhile would go out at once as the window opens, a burst
            # no room of independent players sends, and the window's p99 would be that
            # burst's queue (issue 33). It goes out, and is answered, before.
            await asyncio.sleep(SETTLE)
            before = await self.room.metrics()
            cpu_before = [cpu_seconds(pid) for pid in pids]
            backing_cpu, own_cpu = sum(cpu_seconds(p) for p in backing), time.process_time()
            wire = loopback_bytes()
            start = time.perf_counter()
            self.window.open()
            await asyncio.sleep(seconds)
            self.window.recording = False
            elapsed = time.perf_counter() - start
        cpu = [cpu_seconds(pid) - was for pid, was in zip(pids, cpu_before, strict=True)]
        backing_cpu = sum(cpu_seconds(p) for p in backing) - backing_cpu
        own_cpu = time.process_time() - own_cpu
        wire_after = loopback_bytes()
        after = await self.room.metrics()
        owners = await self.room.owners(t.id for t in tables)
        name = "thirteen_action_seconds"
        merged = merged_delta(after, before, name)
        lags = merged_delta(after, before, "thirteen_loop_lag_seconds")
        ran = Counter(owners.values())
        processes = [
            ProcessFigures(
                name=server.name,
                tables=ran.get(server.name, 0),
                sockets=sum(1 for t in tables for p in t.players if p.via == n),
                hands=total(now, "thirteen_hands_total") - total(was, "thirteen_hands_total"),
                cpu=used / elapsed,
                rss_kib=rss_kib(server.pid),
            )
            for n, (server, now, was, used) in enumerate(
                zip(self.servers, after, before, cpu, strict=True)
            )
        ]
        relayed = sum(
            1
            for t in tables
            for p in t.players
            if self.servers[p.via].name != owners.get(t.id, self.servers[p.via].name)
        )
        window = self.window
        return Measured(
            tables=len(tables),
            sockets=sum(len(t.players) for t in tables),
            seconds=elapsed,
            latencies=sorted(window.latencies),
            ending=sorted(window.ending),
            actions=window.actions,
            hands=sum(p.hands for p in processes),
            client_hands=window.client_hands,
            server_actions=window_total(after, before, f"{name}_count"),
            server_p50=bucket_quantile(merged, 0.5) * 1000,
            server_p99=bucket_quantile(merged, 0.99) * 1000,
            server_cpu=sum(cpu) / elapsed,
            generator_cpu=own_cpu / elapsed,
            lag_p99=percentile(sorted(window.lag), 0.99) * 1000,
            generator_collect=collected * 1000,
            server_lag_p99=bucket_quantile(lags, 0.99) * 1000,
            server_rss_kib=sum(p.rss_kib for p in processes),
            errors=dict(window.errors),
            processes=processes,
            relayed=relayed,
            backing_cpu=backing_cpu / elapsed if backing else None,
            loopback_bytes=None if wire is None or wire_after is None else wire_after - wire,
            gc_pauses=window_total(after, before, f"{GC_PAUSES}_count"),
            gc_long_pauses=sum(
                pauses_longer(now, 0.025) - pauses_longer(was, 0.025)
                for now, was in zip(after, before, strict=True)
            ),
            gc_seconds=window_total(after, before, f"{GC_PAUSES}_sum"),
            commits=window_total(after, before, f"{WRITER}_batches_total"),
            pieces=window_total(after, before, f"{WRITER}_pieces_total"),
        )

    def rss(self) -> int:
        """KiB resident in every server process."""
        return sum(rss_kib(server.pid) for server in self.servers)

    async def idle_memory(
        self, sockets: int, *, compression: bool, showdown: float
    ) -> tuple[float, int]:
        """KiB of server RSS (every process's) per idle spectator socket, and the RSS before
        them. With several processes the tables are spread and so are the sockets."""
        n = len(self.servers)
        tables = [await self.room.create_table(showdown, via=i % n) for i in range(10)]

        async def spectate(i: int) -> ClientConnection:
            path = f"/ws/tables/{tables[i % 10]}"
            return await self.room.connect(path, compression=compression, via=(i // 10) % n)

        warm = await bounded(32, (spectate(i) for i in range(20)))  # first-use costs, not sockets
        await bounded(32, (ws.close() for ws in warm))
        await self._until_connections(0)
        await asyncio.sleep(1.0)
        before = self.rss()
        idle = await bounded(32, (spectate(i) for i in range(sockets)))
        await self._until_connections(sockets)
        await asyncio.sleep(1.0)
        after = self.rss()
        await bounded(64, (ws.close() for ws in idle))
        await self._until_connections(0)
        await bounded(8, (self.room.close_table(t) for t in tables))
        return (after - before) / sockets, before

    async def _until_connections(self, count: int, timeout: float = 60) -> None:
        """Until the processes count ``count`` sockets in all (each counts those it accepted)."""
        deadline = time.monotonic() + timeout
        while sum(m.get("thirteen_ws_connections", -1) for m in await self.room.metrics()) != count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server never counted {count} sockets")
            await asyncio.sleep(0.1)


__all__ = ["Meter"]
