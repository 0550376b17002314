"""The arithmetic behind the room benchmark's figures, and what a measurement window holds.

Quantiles of latency samples (nearest rank), the server's ``/metrics`` parsed and its histogram
read as Prometheus reads one, the knee of the steps; :class:`Window` is what the players record
while a window is open, :class:`Measured` what a window found. Pure: no sockets, no clock.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q ≤ 1) of sorted values; NaN for none."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def parse_metrics(text: str) -> dict[str, float]:
    """Prometheus text exposition as ``{"name{labels}": value}``."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        with contextlib.suppress(ValueError):
            out[key] = float(value)
    return out


def histogram(metrics: dict[str, float], name: str) -> list[tuple[float, float]]:
    """A histogram's cumulative buckets ``(le, count)``, in order."""
    prefix = f'{name}_bucket{{le="'
    buckets = [
        (float(key[len(prefix) : key.index('"', len(prefix))]), value)
        for key, value in metrics.items()
        if key.startswith(prefix)
    ]
    return sorted(buckets)


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """``q`` quantile of cumulative buckets, interpolated inside its bucket as Prometheus'
    ``histogram_quantile`` does; NaN when empty."""
    if not buckets or buckets[-1][1] <= 0:
        return math.nan
    rank = q * buckets[-1][1]
    low, below = 0.0, 0.0
    for le, count in buckets:
        if count >= rank:
            if math.isinf(le):
                return low
            if count <= below:
                return le
            return low + (le - low) * (rank - below) / (count - below)
        low, below = le, count
    return low


def bucket_delta(
    after: list[tuple[float, float]], before: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    earlier = dict(before)
    return [(le, count - earlier.get(le, 0.0)) for le, count in after]


def merged_delta(
    after: Sequence[dict[str, float]], before: Sequence[dict[str, float]], name: str
) -> list[tuple[float, float]]:
    """The histogram ``name``'s cumulative buckets over a window, every process's added up
    (``after`` and ``before``: each process's ``/metrics`` at the window's end and start)."""
    buckets: dict[float, float] = {}
    for now, was in zip(after, before, strict=True):
        for le, count in bucket_delta(histogram(now, name), histogram(was, name)):
            buckets[le] = buckets.get(le, 0.0) + count
    return sorted(buckets.items())


def total(metrics: dict[str, float], name: str) -> float:
    return sum(v for k, v in metrics.items() if k == name or k.startswith(name + "{"))


def window_total(
    after: Sequence[dict[str, float]], before: Sequence[dict[str, float]], name: str
) -> float:
    """How much ``name`` (every label's :func:`total`) grew over a window, every process's
    added up (``after`` and ``before`` as for :func:`merged_delta`)."""
    return sum(total(now, name) - total(was, name) for now, was in zip(after, before, strict=True))


GC_PAUSES = "thirteen_gc_pause_seconds"
WRITER = "thirteen_writer"
"""The group writer's counters: ``_batches_total`` and ``_pieces_total``."""


def pauses_longer(metrics: dict[str, float], seconds: float) -> float:
    """Collections (every generation) whose pause was longer than ``seconds`` — a bound of
    the histogram's buckets — from one ``/metrics`` reading."""
    count = total(metrics, f"{GC_PAUSES}_count")
    within = sum(
        v
        for k, v in metrics.items()
        if k.startswith(f"{GC_PAUSES}_bucket{{") and k.endswith(f'le="{seconds}"}}')
    )
    return count - within


def knee_of(steps: Sequence[tuple[int, float]]) -> int | None:
    """The first step (tables) whose p99 is at least twice the lowest p99 before it."""
    lowest = math.inf
    for tables, p99 in steps:
        if p99 >= 2 * lowest:
            return tables
        lowest = min(lowest, p99)
    return None


@dataclass
class Window:
    """What happened while a measurement window was open."""

    recording: bool = False
    opened: float = 0.0
    """When it opened (``time.perf_counter``): a latency counts if its action was sent since,
    not one sent before and answered inside (a stall just before the window is not its)."""
    latencies: list[float] = field(default_factory=list)
    ending: list[float] = field(default_factory=list)
    """Latencies of the actions that ended a hand (their transaction settles it)."""
    actions: int = 0
    client_hands: int = 0
    lag: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def open(self) -> None:
        """Record afresh: each measurement starts empty. The window is one object for the whole
        run, opened again for each measurement, because every player and table records into it."""
        self.latencies, self.ending, self.lag = [], [], []
        self.actions = self.client_hands = 0
        self.errors = Counter()
        self.opened = time.perf_counter()
        self.recording = True


@dataclass
class ProcessFigures:
    """One server process in a measurement window."""

    name: str
    tables: int
    """Tables it ran at the window's end (held their leases)."""
    sockets: int
    """Players' sockets it accepted (its own tables' or relayed to another process)."""
    hands: float
    cpu: float
    """Cores' worth of CPU it used (1.0: a whole core)."""
    rss_kib: int


@dataclass
class Measured:
    """One measurement window."""

    tables: int
    sockets: int
    seconds: float
    latencies: list[float]
    ending: list[float]
    actions: int
    hands: float
    client_hands: int
    server_actions: float
    server_p50: float
    server_p99: float
    server_cpu: float
    generator_cpu: float
    lag_p99: float
    """The generator's own event loop's lag (ms): its latencies are late by about this."""
    generator_collect: float
    """How long the generator's own collection before the window took (ms): what fell due
    meanwhile went out in the second before the window opened (:data:`.meter.SETTLE`)."""
    server_rss_kib: int
    errors: dict[str, int]
    seating_seconds: float = 0.0
    """How long the step's new tables took to seat (tickets, sockets, buy-ins)."""
    processes: list[ProcessFigures] = field(default_factory=list)
    relayed: int = 0
    """Players' sockets on a process other than their table's (relayed over Redis)."""
    backing_cpu: float | None = None
    """Cores' worth of CPU the run's own PostgreSQL and Redis used (``None``: none started)."""
    gc_pauses: float = 0.0
    """Collections the server processes ran in the window (every generation)."""
    gc_long_pauses: float = 0.0
    """Those whose pause was longer than 25 ms."""
    gc_seconds: float = 0.0
    """Seconds the server processes spent paused for the collector in the window."""
    commits: float = 0.0
    """Transactions the servers' group writers committed in the window."""
    pieces: float = 0.0
    """Pieces of work (actions, tickets) those transactions held."""
    server_lag_p99: float = math.nan
    """The servers' event loops' lag, p99 of their histogram (``thirteen_loop_lag_seconds``,
    ms): what an action waited for the room's loop before it was even read."""
    loopback_bytes: int | None = None
    """Bytes sent over loopback during the window: the sockets' frames and their TCP/IP
    headers both ways (and the database's and Redis's traffic when they run on loopback too);
    ``None`` where it cannot be read."""

    def latency(self, q: float) -> float:
        return percentile(self.latencies, q) * 1000

    def ending_latency(self, q: float) -> float:
        """Milliseconds, the ``q`` quantile of the actions that ended a hand."""
        return percentile(self.ending, q) * 1000


__all__ = [
    "GC_PAUSES",
    "WRITER",
    "Measured",
    "ProcessFigures",
    "Window",
    "bucket_delta",
    "bucket_quantile",
    "histogram",
    "knee_of",
    "merged_delta",
    "parse_metrics",
    "pauses_longer",
    "percentile",
    "total",
    "window_total",
]
