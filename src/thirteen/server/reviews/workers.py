"""The room's review workers: a bounded pool of processes (``THIRTEEN_REVIEW_WORKERS``) that
compute the reviews queued in the database, off the event loop.

The event loop only claims a review (:func:`~thirteen.server.reviews.store.claim`), hands the
hand's stored history to a worker process and writes what comes back: the worker redacts the
history for the reviewed seat (``redact_history``: the player's own copy, nothing more), reviews
it as :func:`thirteen.review.hand.review_hand` does and reports each decision reviewed through a
queue that a thread reads into the loop, where a small task writes the progress. So a review —
seconds of CPU for an OFC hand — never holds the tables' event loop.

Processes are *spawned* (not forked from a room running threads and an event loop). A worker
that dies takes its review back to the queue (given up after a few deaths); the room stopping
kills its workers at once and puts what they were computing back in the queue, where the next
process to start — or another running one — takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.queues import Queue
from typing import Any

from thirteen.engine.errors import RuleError
from thirteen.engine.history import history_from_json, redact_history
from thirteen.review.figures import ReviewSettings
from thirteen.review.hand import review_rebuilt
from thirteen.review.rebuild import rebuild_seat
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.reviews import store
from thirteen.server.settings import Settings

log = logging.getLogger("thirteen.server.reviews")

__all__ = ["ReviewWorkers", "compute"]

Told = tuple[int, int, int]
"""``(review, decisions done, decisions in the hand)``: a worker's progress."""

_told: Queue[Told | None] | None = None
"""This worker process's progress queue (set when the process starts)."""


def _start_worker(queue: Queue[Told | None]) -> None:
    global _told
    _told = queue


def compute(review_id: int, history: str, seat: int, budget: float, seed: int) -> dict[str, Any]:
    """In a worker process: the review of ``seat``'s copy of the full ``history`` (JSON text),
    as ``{"review": …}``, or ``{"error": sentence}`` when it cannot be reviewed."""

    def told(done: int, total: int) -> None:
        if _told is not None:
            _told.put((review_id, done, total))

    try:
        copy = redact_history(history_from_json(json.loads(history)), seat)
        rebuilt = rebuild_seat(copy)
        told(0, len(rebuilt.decisions))  # the page knows the decisions to come at once
        review = review_rebuilt(rebuilt, ReviewSettings(budget, seed), told)
    except RuleError as e:
        return {"error": e.message}
    return {"review": review.to_json()}


class ReviewWorkers:
    """This process's review workers (none with ``review_workers`` 0): :meth:`start`,
    :meth:`wake` when a review is queued here, :meth:`close`."""

    def __init__(self, db: Database, settings: Settings, me: str, metrics: Metrics) -> None:
        self.db = db
        self.metrics = metrics
        self.settings = settings
        self.me = me
        self.size = settings.review_workers
        self._pool: ProcessPoolExecutor | None = None
        self._queue: Queue[Told | None] | None = None
        self._reader: threading.Thread | None = None
        self._told: asyncio.Queue[Told] = asyncio.Queue()
        self._wake = asyncio.Event()
        self._running: dict[int, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        assert self._queue is not None
        return ProcessPoolExecutor(
            self.size, mp_context=context, initializer=_start_worker, initargs=(self._queue,)
        )

    async def start(self) -> None:
        """Take back what this process computed before a restart and look at the queue (the
        worker processes start with the first review: a room nobody asks stays light)."""
        if self.size == 0:
            return
        again = await store.requeue_mine(self.db, self.me)
        if again:
            log.info("reviews taken back after a restart", extra={"reviews": again})
        self._tasks = [
            asyncio.create_task(self._claim_forever(), name="reviews"),
            asyncio.create_task(self._write_progress(), name="review-progress"),
        ]

    def _started_pool(self) -> ProcessPoolExecutor:
        """The pool, its progress queue and the thread reading it (made at the first review)."""
        if self._pool is None:
            self._queue = multiprocessing.get_context("spawn").Queue()
            self._pool = self._new_pool()
            loop = asyncio.get_running_loop()
            self._reader = threading.Thread(
                target=self._read, args=(loop, self._queue), name="review-progress", daemon=True
            )
            self._reader.start()
        return self._pool

    def wake(self) -> None:
        """A review was queued: look at the queue now (other processes look every
        ``discover_seconds``)."""
        self._wake.set()

    def _read(self, loop: asyncio.AbstractEventLoop, queue: Queue[Told | None]) -> None:
        """In a thread: the workers' progress, into the event loop."""
        while (item := queue.get()) is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed
                loop.call_soon_threadsafe(self._told.put_nowait, item)

    async def _write_progress(self) -> None:
        """Write the progress the workers report (the latest of each review, a write each)."""
        while True:
            latest = [await self._told.get()]
            while not self._told.empty():
                latest.append(self._told.get_nowait())
            by_review = {review: (done, total) for review, done, total in latest}
            for review, (done, total) in by_review.items():
                try:
                    await store.progress(self.db, self.me, review, done, total)
                except Exception:
                    log.exception("writing a review's progress failed")

    async def _claim_forever(self) -> None:
        while not self._closing:
            self._wake.clear()
            try:
                while len(self._running) < self.size:
                    job = await store.claim(self.db, self.me, set(self._running))
                    if job is None:
                        break
                    self._running[job.id] = asyncio.create_task(self._compute(job))
            except Exception:
                log.exception("claiming a review failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.discover_seconds)

    async def _compute(self, job: store.Job) -> None:
        pool = self._started_pool()
        started = time.perf_counter()
        self.metrics.reviews_running.inc()
        try:
            future = pool.submit(compute, job.id, job.history, job.seat, job.budget, job.seed)
            answer = await asyncio.wrap_future(future)
            if "review" in answer:
                await store.finish(self.db, self.me, job.id, answer["review"])
            else:
                await store.fail(self.db, self.me, job.id, answer["error"])
            self.metrics.reviews.labels("done" if "review" in answer else "failed").inc()
            self.metrics.review_seconds.observe(time.perf_counter() - started)
        except BrokenProcessPool:
            if self._closing:
                return
            log.warning("a review worker died; its review goes back to the queue")
            if self._pool is pool:  # (its other reviews fail here too: one new pool for all)
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            await store.requeue_mine(self.db, self.me, job.id)
        except Exception:
            log.exception("a review failed", extra={"review": job.id, "hand": job.hand})
            await store.fail(
                self.db, self.me, job.id, "The review could not be made; the room's log says why."
            )
        finally:
            self.metrics.reviews_running.dec()
            self._running.pop(job.id, None)
            self._wake.set()

    async def close(self) -> None:
        """Stop at once: kill the workers and put what they computed back in the queue."""
        if self.size == 0 or self._closing:
            return
        self._closing = True
        for task in [*self._tasks, *self._running.values()]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._running.values(), return_exceptions=True)
        if self._pool is not None:
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # (Python 3.14's pool has terminate_workers for this)
                process.terminate()
            for process in processes:
                await asyncio.to_thread(process.join, 5.0)
        if self._queue is not None:
            self._queue.put(None)
            if self._reader is not None:
                await asyncio.to_thread(self._reader.join, 5.0)
            self._queue.close()
            self._queue.cancel_join_thread()
        with contextlib.suppress(Exception):
            await store.requeue_mine(self.db, self.me)
