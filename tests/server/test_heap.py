"""The collector kept off the hot path (``THIRTEEN_GC=scheduled``) and its pauses measured
(server/heap.py, issue 33)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from thirteen.server.heap import PauseMeter, ScheduledCollector, collector_for
from thirteen.server.metrics import Metrics
from thirteen.server.settings import Settings


class Cycle:
    """Garbage only the cyclic collector frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def test_the_schedule_collects_cycles_with_automatic_collection_off() -> None:
    async def body() -> tuple[bool, bool, list[int]]:
        freed = asyncio.Event()
        collector = ScheduledCollector(every=0.05, full_every=0.5)
        collector.start()
        try:
            during = gc.isenabled()
            garbage = Cycle()
            weakref.finalize(garbage, freed.set)
            del garbage
            await asyncio.wait_for(freed.wait(), 30)
            while collector.collections[2] == 0:  # a full collection comes too
                collector.collected.clear()
                await asyncio.wait_for(collector.collected.wait(), 30)
        finally:
            await collector.stop()
        return during, gc.isenabled(), collector.collections

    during, after, collections = asyncio.run(body())
    assert not during
    assert after
    assert collections[0] > collections[2] >= 1  # the youngest every tick, all now and then


def test_every_pause_is_measured_by_generation() -> None:
    metrics = Metrics()
    meter = PauseMeter(metrics)
    meter.install()
    try:
        gc.collect(0)
        gc.collect(2)
    finally:
        meter.remove()
    assert meter not in gc.callbacks
    count = {
        s.labels["generation"]: s.value
        for m in metrics.registry.collect()
        if m.name == "thirteen_gc_pause_seconds"
        for s in m.samples
        if s.name.endswith("_count")
    }
    assert count["0"] >= 1
    assert count["2"] >= 1


def test_the_setting_chooses_the_schedule() -> None:
    assert collector_for(Settings(gc="automatic")) is None
    scheduled = collector_for(Settings(gc="scheduled", gc_seconds=2, gc_full_seconds=60))
    assert scheduled is not None
    assert (scheduled.every, scheduled.full_every) == (2, 60)
    assert Settings().gc == "scheduled"


def test_what_survives_a_tick_is_frozen_out_of_later_collections() -> None:
    """A scheduled tick collects what was made since the last one and freezes what lives on,
    so later ticks never walk it again (the pause stays one tick's objects)."""

    async def body() -> tuple[bool, bool, int, list[int]]:
        collector = ScheduledCollector(every=0.05, full_every=0)  # 0: never a full one
        survivor = [object()]  # a container: the collector tracks it
        gc.unfreeze()
        before = any(o is survivor for o in gc.get_objects())
        collector.start()
        try:
            while collector.collections[0] < 3:
                collector.collected.clear()
                await asyncio.wait_for(collector.collected.wait(), 30)
        finally:
            await collector.stop()
        after = any(o is survivor for o in gc.get_objects())
        return before, after, gc.get_freeze_count(), collector.collections

    try:
        before, after, frozen, collections = asyncio.run(body())
    finally:
        gc.unfreeze()  # leave the test process as it was
    assert before  # walked by collections before the schedule ran
    assert not after  # frozen: no generation holds it now
    assert frozen > 0
    assert collections[2] == 0
