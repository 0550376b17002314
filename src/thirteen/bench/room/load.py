"""The room benchmark's load generator and its run.

:class:`Load` makes accounts and tables, seats players (:mod:`~thirteen.bench.room.players`)
and paces the measurements: full speed, then the human-paced steps up to the knee. :func:`run`
starts the rooms (:mod:`~thirteen.bench.room.servers`) and measures idle sockets on them too;
:func:`bench_room` reports it all (:mod:`~thirteen.bench.room.report`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import uvloop
from websockets.exceptions import ConnectionClosed

from thirteen.bench.report import Report
from thirteen.bench.room.client import Account, RoomClient, bounded
from thirteen.bench.room.figures import Measured
from thirteen.bench.room.machine import Pinning, engine_hand_ms, pin, pinning, raise_fd_limit
from thirteen.bench.room.meter import Meter
from thirteen.bench.room.options import RoomOptions, database_kind, options_from_env
from thirteen.bench.room.players import Player, Playing, TableLoad
from thirteen.bench.room.report import Results, report_of
from thirteen.bench.room.servers import Backing, Server, served, start_backing
from thirteen.engine.rules import get_rules

Progress = Callable[[str], None]


class Load:
    """The load generator against one server: accounts, tables, players, measurements."""

    def __init__(
        self,
        servers: list[Server],
        options: RoomOptions,
        admin: str,
        progress: Progress,
        backing: Backing | None = None,
    ) -> None:
        self.options = options
        self.progress = progress
        self.room = RoomClient(servers, options, admin)
        self.meter = Meter(self.room, backing)
        self.playing = Playing(
            self.room, self.meter.window, get_rules(options.preset), options.seed, options.pace
        )
        token = secrets.token_hex(3)
        self.names = (f"b{token}x{n}" for n in itertools.count())
        self.human: list[TableLoad] = []
        self.failure = ""

    async def __aenter__(self) -> Load:
        await self.room.__aenter__()
        self.meter.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.meter.stop()
        await self.room.__aexit__()

    # ------------------------------------------------------------------ tables
    async def prepare(self, count: int, *, fast: bool) -> list[tuple[int, list[Account]]]:
        """``count`` empty tables and an account for each of their seats."""
        seats = self.options.seats
        accounts: list[Account] = await bounded(
            16, (self.room.sign_up(next(self.names)) for _ in range(count * seats))
        )
        showdown = self.options.fast_showdown if fast else self.options.human_showdown
        # through each process in turn: the process that opens a table runs it
        n = len(self.room.servers)
        ids: list[int] = await bounded(
            8, (self.room.create_table(showdown, via=i % n) for i in range(count))
        )
        return [(table_id, accounts[i * seats : (i + 1) * seats]) for i, table_id in enumerate(ids)]

    async def seat(
        self, prepared: list[tuple[int, list[Account]]], *, fast: bool
    ) -> list[TableLoad]:
        """Every seat of the prepared tables taken by a bench client that plays."""
        tables = [
            TableLoad(self.meter.window, table_id, len(accounts)) for table_id, accounts in prepared
        ]
        players = [
            Player(self.playing, table, account, seat, fast=fast)
            for table, (_, accounts) in zip(tables, prepared, strict=True)
            for seat, account in enumerate(accounts)
        ]
        for player in players:
            player.table.players.append(player)
        await bounded(32, (p.open(5000) for p in players))
        return tables

    async def close_tables(self, tables: list[TableLoad]) -> None:
        """Close the tables (hands in play finish), then every socket."""
        await bounded(16, (self.room.close_table(t.id) for t in tables))
        readers = [p.reader for t in tables for p in t.players if p.reader is not None]
        if readers:
            await asyncio.wait(readers, timeout=60)
        await bounded(64, (p.close() for t in tables for p in t.players))

    # ------------------------------------------------------------------ measuring
    async def idle_memory(self, sockets: int, *, compression: bool) -> tuple[float, int]:
        """:meth:`Meter.idle_memory` on tables that show a showdown as the human-paced do."""
        return await self.meter.idle_memory(
            sockets, compression=compression, showdown=self.options.human_showdown
        )

    async def full_speed(self, count: int) -> Measured:
        self.progress(f"full speed: seating {count} tables")
        tables = await self.seat(await self.prepare(count, fast=True), fast=True)
        await asyncio.sleep(max(1.0, self.options.warmup_seconds / 2))
        self.progress(f"full speed: measuring {self.options.fast_seconds:g} s")
        measured = await self.meter.measure(self.options.fast_seconds, tables)
        self.progress(
            f"full speed, {count} tables: {measured.hands / measured.seconds:.1f} hands/s, "
            f"p99 {measured.latency(0.99):.0f} ms; closing the tables"
        )
        await self.close_tables(tables)
        return measured

    async def knee(self) -> list[Measured]:
        """Every step's accounts and tables are made first, while the room is idle (under load
        every sign-up and table waits its turn); each step then seats its new tables."""
        most = max(self.options.steps)
        self.progress(f"human pace: {most * self.options.seats} accounts, {most} tables")
        prepared = await self.prepare(most, fast=False)
        steps = []
        for target in self.options.steps:
            missing = prepared[len(self.human) : target]
            start = time.perf_counter()
            if missing:
                self.progress(f"human pace: seating {len(missing)} more tables ({target} in all)")
                try:
                    self.human += await self.seat(missing, fast=False)
                except (RuntimeError, OSError, TimeoutError, ConnectionClosed) as e:
                    self.failure = f"seating {target} tables failed, the steps end there: {e}"
                    self.progress(self.failure)
                    break
            seated = time.perf_counter() - start
            await asyncio.sleep(self.options.warmup_seconds)
            self.progress(f"human pace, {target} tables: measuring {self.options.step_seconds:g} s")
            measured = await self.meter.measure(self.options.step_seconds, self.human)
            measured.seating_seconds = seated
            steps.append(measured)
            self.progress(
                f"human pace, {target} tables: p50 {measured.latency(0.5):.0f} ms, p95 "
                f"{measured.latency(0.95):.0f} ms, p99 {measured.latency(0.99):.0f} ms, "
                f"{measured.hands / measured.seconds:.1f} hands/s"
            )
        return steps

    async def soak(self) -> list[Measured]:
        """The tables at play keep playing for ``soak_minutes``, measured a window at a time."""
        windows: list[Measured] = []
        count = math.ceil(self.options.soak_minutes * 60 / self.options.soak_window)
        for n in range(1, count + 1):
            measured = await self.meter.measure(self.options.soak_window, self.human)
            windows.append(measured)
            self.progress(
                f"soak, {len(self.human)} tables, window {n} of {count}: RSS "
                f"{measured.server_rss_kib / 1024:.0f} MiB, p99 {measured.latency(0.99):.0f} ms"
            )
        return windows

    async def close_all(self) -> None:
        await bounded(64, (p.close() for t in self.human for p in t.players))


async def _idle(
    load: Load, options: RoomOptions, compression: bool, progress: Progress
) -> tuple[bool, float, int]:
    """Idle sockets' memory on ``load``'s room: (compression, KiB a socket, RSS before)."""
    progress(f"idle sockets: {options.idle_sockets}, deflate {compression}")
    kib, base = await load.idle_memory(options.idle_sockets, compression=compression)
    return compression, kib, base


def _yardstick(options: RoomOptions, pinned: Pinning | None) -> float:
    """Simulate's CPU a hand now (:func:`engine_hand_ms`), timed on the room's core when the
    run is pinned — the core whose CPU it is the measure of — and this thread put back on the
    generator's after."""
    if pinned is None:
        return engine_hand_ms(options.engine_hands)
    pin(0, pinned.room)
    try:
        return engine_hand_ms(options.engine_hands)
    finally:
        pin(0, pinned.generator)


async def run(options: RoomOptions, progress: Progress) -> Results:
    fd_limit = raise_fd_limit()
    load_before = os.getloadavg()
    admin = f"boss{secrets.token_hex(4)}"
    idle: list[tuple[bool, float, int]] = []
    pinned = pinning() if options.pin else None
    room_cores = pinned.room if pinned is not None else None
    with contextlib.ExitStack() as stack:
        if pinned is not None:  # this thread now, and the threads it starts (to_thread's)
            everywhere = os.sched_getaffinity(0)
            pin(0, pinned.generator)
            stack.callback(pin, 0, frozenset(everywhere))
        engine_before = _yardstick(options, pinned)
        if options.keep:
            folder = Path(options.keep)
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="thirteen-room-")))
        if database_kind(options) == "postgres" and not options.database_url:
            progress("starting PostgreSQL")
        backing = await asyncio.to_thread(start_backing, options, room_cores)
        stack.callback(backing.stop)
        for n, compression in enumerate(options.idle_compression[1:], 1):
            if not options.idle_sockets:
                break
            async with (
                served(options, backing, folder, admin, f"idle{n}", room_cores) as servers,
                Load(servers, options, admin, progress, backing) as load,
            ):
                idle.append(await _idle(load, options, compression, progress))
        async with (
            served(options, backing, folder, f"{admin}m", "room", room_cores) as servers,
            Load(servers, options, f"{admin}m", progress, backing) as load,
        ):
            if options.idle_sockets and options.idle_compression:
                idle.insert(0, await _idle(load, options, options.idle_compression[0], progress))
            fast = [await load.full_speed(count) for count in options.fast_tables]
            try:
                steps = await load.knee() if options.steps else []
                soak = await load.soak() if steps and options.soak_minutes > 0 else []
            finally:
                progress("stopping")
                await load.close_all()
            retried, failure, reconnects = (
                dict(load.room.retried),
                load.failure,
                load.room.reconnects,
            )
        engine_after = _yardstick(options, pinned)
    database = (options.database_url or "sqlite+aiosqlite").split("://")[0]
    if not options.database_url and database_kind(options) == "postgres":
        database = "postgresql+asyncpg (a throwaway cluster started for the run)"
    return Results(
        idle,
        fast,
        steps,
        fd_limit,
        load_before,
        os.getloadavg(),
        database,
        retried,
        failure,
        reconnects,
        pinned.describe() if pinned is not None else "",
        soak=soak,
        engine_ms=(engine_before, engine_after),
    )


def bench_room(options: RoomOptions | None = None, progress: Progress | None = None) -> Report:
    """Run the room benchmark (options from the environment when not given)."""
    chosen = options_from_env() if options is None else options
    # the generator's loop is uvloop's, as the room's is (uvicorn's): about a tenth less of
    # its core for the same sockets, so less of its own queueing in what it measures
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        results = runner.run(run(chosen, progress or (lambda _: None)))
    return report_of(chosen, results)


__all__ = ["Load", "Progress", "bench_room", "run"]
