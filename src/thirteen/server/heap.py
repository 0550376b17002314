"""The garbage collector kept off the room's hot path (issue 33), its pauses and the loop's lag
measured.

Nearly everything a busy room allocates is either freed at once by reference counting or lives
long (tables, sockets, seats): the cyclic collector finds next to no garbage, yet Python runs
it whenever allocations outnumber frees by its thresholds — in the middle of an action, and its
middle and full generations walk every live object (at 1,000 tables: 28–48 ms young pauses,
195–291 ms middle ones every 25–30 s; ``benchmarks/README.md``). So:

- :func:`settle_heap` (always, once the room is up): what start-up made is frozen out of every
  collection, and the youngest generation is collected less often.
- ``THIRTEEN_GC=scheduled`` (the default): automatic collection is off (``gc.disable()``), and
  :class:`ScheduledCollector` collects what was made since its last tick every
  ``THIRTEEN_GC_SECONDS`` (a quarter second), queued behind whatever the event loop has ready
  (so never in the middle of an action), and freezes what survived (``gc.freeze()``): most of
  it is freed by reference counting later, as everything the room makes is, and what lives on
  is never walked again. The one thing given up: a cycle of objects that becomes garbage after
  its first collection is freed only by a full collection (``THIRTEEN_GC_FULL_SECONDS``, never
  by default: it stops the room for about 2 s at 1,000 tables), and the hour's soak at 1,000
  tables is what shows the room makes next to none (``benchmarks/README.md``).
  ``THIRTEEN_GC=automatic`` keeps Python's own collection.
- Either way every collection's pause is in ``thirteen_gc_pause_seconds`` by generation.
- :class:`LagProbe` (always): how late the event loop runs a timer, in
  ``thirteen_loop_lag_seconds`` — a collection's pause is one way the loop is late, not the
  only one (a burst of frames, a long callback), and a player waits for all of them.
- :class:`HeapTrimmer` (``THIRTEEN_MALLOC_TRIM_SECONDS``, every minute): the C library's
  allocator keeps memory freed in the middle of its heap for its own reuse rather than give it
  back; ``malloc_trim`` hands those pages back (3–10 ms, in a worker thread). It makes the
  room's RSS say what the room uses after a burst (a one-table room 30–40 MB lower after each
  of its trims among sockets coming and going; 13 MiB at 1,000 tables), it does not stop a
  leak: what grew without end was a cycle per closed socket (``serve.SocketProtocol``).

May import: settings, metrics.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from typing import Any

from thirteen.server.metrics import Metrics
from thirteen.server.settings import Settings

GC_THRESHOLDS = (10_000, 20, 20)
"""The collector's generation thresholds once the room is up (Python's are 700, 10, 10)."""


def settle_heap() -> None:
    """Keep the garbage collector from stopping the room: everything made while starting —
    modules, the engine's and the bots' tables, the compiled kernels, some 180,000 objects —
    lives as long as the process, so it is frozen out of every collection, and the youngest
    generation is collected less often. Without this a full collection walked all of it every
    few seconds on a busy room, a pause of 100–380 ms that every table felt (a 200-table room
    at human pace on SQLite: p99 321 ms before, 39–102 ms after; benchmarks/README.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class PauseMeter:
    """Times every collection (``gc.callbacks``) into ``thirteen_gc_pause_seconds``."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started:
            pause = time.perf_counter() - self._started
            self.metrics.gc_pause_seconds.labels(str(info["generation"])).observe(pause)
            self._started = 0.0

    def install(self) -> None:
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        if self in gc.callbacks:
            gc.callbacks.remove(self)


class _Repeating:
    """Work done every ``every`` seconds by a task of the loop (:meth:`_run`), from
    :meth:`start` until :meth:`stop`."""

    name = "repeating"

    def __init__(self, every: float) -> None:
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        raise NotImplementedError


LAG_PROBE_SECONDS = 0.1
"""How often :class:`LagProbe` sets its timer."""


class LagProbe(_Repeating):
    """The event loop's lag, in ``thirteen_loop_lag_seconds``: every ``every`` seconds a timer
    is due, and the time from when it was due to when its task ran again is observed. A timer
    falls due at moments unrelated to the room's work, so the histogram is the wait for the
    loop that anything arriving at a random moment has — an action, a request, a frame's
    write — whatever held the loop then: a collection, a burst of frames, a slow callback. It
    is the room's own share of a player's latency, apart from the network and the client."""

    name = "loop-lag"

    def __init__(self, every: float, metrics: Metrics) -> None:
        super().__init__(every)
        self.metrics = metrics
        self.observed = asyncio.Event()
        """Set after each observation (cleared by whoever waits for the next)."""

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.every
            await asyncio.sleep(self.every)
            self.metrics.loop_lag_seconds.observe(max(0.0, loop.time() - due))
            self.observed.set()


class ScheduledCollector(_Repeating):
    """Collection at times the room chooses (``THIRTEEN_GC=scheduled``; module notes).

    Every ``every`` seconds the youngest generation — what was made since the last tick and
    still lives — is collected, and what survives is frozen out of every later collection;
    every ``full_every`` seconds (0: never) everything is unfrozen and collected, then frozen
    again. A pause is the walk over one tick's survivors (about 45,000 objects a second at
    1,000 tables: ``benchmarks/README.md``), never over every live object but at a full
    collection.

    :meth:`start` turns automatic collection off and runs the schedule as a task; :meth:`stop`
    ends it and turns automatic collection back on."""

    name = "collector"

    def __init__(self, every: float, full_every: float) -> None:
        super().__init__(every)
        self.full_every = full_every
        self.collections = [0, 0, 0]
        """Collections this schedule ran, by generation (young, -, full)."""
        self.collected = asyncio.Event()
        """Set after each collection (cleared by whoever waits for the next)."""

    def start(self) -> None:
        gc.disable()
        super().start()

    async def stop(self) -> None:
        await super().stop()
        gc.enable()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        full_at = loop.time() + self.full_every
        while True:
            await asyncio.sleep(self.every)
            full = self.full_every > 0 and loop.time() >= full_at
            if full:
                full_at = loop.time() + self.full_every
            # behind every callback ready now: between actions, not in the middle of one
            done = loop.create_future()
            loop.call_soon(self._collect, full, done)
            await done

    def _collect(self, full: bool, done: asyncio.Future[None]) -> None:
        if full:
            gc.unfreeze()
            gc.collect(2)
        else:
            gc.collect(0)
        gc.freeze()
        self.collections[2 if full else 0] += 1
        self.collected.set()
        done.set_result(None)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (``None`` where the C library has none: musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    call: Callable[[int], int] = trim
    return call


MALLOC_TRIM = _malloc_trim()


def trim_heap() -> bool:
    """Give the C allocator's free pages back to the system; whether it gave any (``False``
    also where there is no ``malloc_trim``). ctypes lets go of the interpreter meanwhile."""
    return MALLOC_TRIM is not None and MALLOC_TRIM(0) == 1


class HeapTrimmer(_Repeating):
    """:func:`trim_heap` every ``every`` seconds, in a worker thread (module notes)."""

    name = "heap-trimmer"

    def __init__(self, every: float) -> None:
        super().__init__(every)
        self.trims = 0
        """Trims run so far."""
        self.trimmed = asyncio.Event()
        """Set after each trim (cleared by whoever waits for the next)."""

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await asyncio.to_thread(trim_heap)
            self.trims += 1
            self.trimmed.set()


def trimmer_for(settings: Settings) -> HeapTrimmer | None:
    """The trimmer ``THIRTEEN_MALLOC_TRIM_SECONDS`` asks for (``None``: 0, or no
    ``malloc_trim`` in this C library)."""
    if settings.malloc_trim_seconds <= 0 or MALLOC_TRIM is None:
        return None
    return HeapTrimmer(settings.malloc_trim_seconds)


def collector_for(settings: Settings) -> ScheduledCollector | None:
    """The schedule ``THIRTEEN_GC`` asks for (``None``: Python's own collection)."""
    if settings.gc == "automatic":
        return None
    return ScheduledCollector(settings.gc_seconds, settings.gc_full_seconds)


__all__ = [
    "GC_THRESHOLDS",
    "LAG_PROBE_SECONDS",
    "HeapTrimmer",
    "LagProbe",
    "PauseMeter",
    "ScheduledCollector",
    "collector_for",
    "settle_heap",
    "trim_heap",
    "trimmer_for",
]
