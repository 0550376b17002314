"""The room's Prometheus metrics, in a registry of its own (one per app, so tests can run
several rooms in one process).

May import: nothing of the room.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables_open = Gauge(
            "thirteen_tables_open", "Tables open for play.", registry=self.registry
        )
        self.hands = Counter(
            "thirteen_hands", "Hands settled, by preset.", ["preset"], registry=self.registry
        )
        self.ws_connections = Gauge(
            "thirteen_ws_connections", "Open WebSocket connections.", registry=self.registry
        )
        self.ws_watching = Gauge(
            "thirteen_ws_watching", "Sockets watching a table.", registry=self.registry
        )
        self.action_seconds = Histogram(
            "thirteen_action_seconds",
            "From an action's arrival at its table to the last watcher's frame queued.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.gc_pause_seconds = Histogram(
            "thirteen_gc_pause_seconds",
            "Pauses of the garbage collector, by generation (2: every live object).",
            ["generation"],
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.loop_lag_seconds = Histogram(
            "thirteen_loop_lag_seconds",
            "How late the event loop ran a timer due every tenth of a second: what anything "
            "arriving then (an action, a request) waited for the loop to be free.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.allocated_blocks = Gauge(
            "thirteen_allocated_blocks",
            "Memory blocks Python's allocator holds for live objects (sys.getallocatedblocks): "
            "level under a steady load; one that keeps rising is a leak (under "
            "THIRTEEN_GC=scheduled, a cycle no collection will free).",
            registry=self.registry,
        )
        # Not the frozen objects' count: gc.get_freeze_count() walks every frozen object, 1.5
        # million at 1,000 tables, and stopped the room 170-200 ms at each scrape (issue 33,
        # benchmarks/README.md); this sums the allocator's pools, about a millisecond.
        self.allocated_blocks.set_function(sys.getallocatedblocks)
        self.reviews = Counter(
            "thirteen_reviews",
            "Hand reviews this process's workers finished, by outcome (done, failed).",
            ["outcome"],
            registry=self.registry,
        )
        self.reviews_running = Gauge(
            "thirteen_reviews_running",
            "Hand reviews this process's workers are computing.",
            registry=self.registry,
        )
        self.review_seconds = Histogram(
            "thirteen_review_seconds",
            "From a review's claim to its result stored (this process's workers).",
            buckets=(0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
            registry=self.registry,
        )

    def watch_writer(self, counts: Callable[[], tuple[int, int]]) -> None:
        """Publish the group writer's transactions and the pieces they committed
        (``counts``: both so far), read when scraped: pieces ÷ transactions is how much the
        group commit groups."""
        self.registry.register(_WriterCounts(counts))


class _WriterCounts(Collector):
    def __init__(self, counts: Callable[[], tuple[int, int]]) -> None:
        self.counts = counts

    def collect(self) -> Iterator[Metric]:
        batches, pieces = self.counts()
        yield CounterMetricFamily(
            "thirteen_writer_batches",
            "Transactions the group writer committed for a whole batch of pieces.",
            value=batches,
        )
        yield CounterMetricFamily(
            "thirteen_writer_pieces",
            "Pieces of work (a table's action, a ticket) the group writer committed.",
            value=pieces,
        )


__all__ = ["Metrics"]
