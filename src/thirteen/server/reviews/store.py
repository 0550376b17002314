"""The review queue, in the database (``hand_reviews``): asking for a review (idempotent, and
bounded per account), claiming one to compute (atomically: one process a review), writing its
progress and its result, and reading what is stored.

A row is ``pending`` until a process claims it (``running``, ``worker`` its name), then
``done`` or ``failed``. A ``running`` row whose process is no longer alive
(``room_processes``: it stopped, or died and stopped beating) may be claimed again, as the
tables' leases are (:mod:`thirteen.server.tables.leases`); a process restarted under its name
puts its own ``running`` rows back in the queue. Every write of a claimed row names the worker
that claimed it, so a process that lost its claim (paused past its life) writes nothing.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from thirteen.engine.errors import RuleError
from thirteen.review.figures import REVIEW_VERSION
from thirteen.server.db.models import Hand, HandReviewRow, HandSeat, RoomProcess
from thirteen.server.db.session import Database
from thirteen.server.settings import Settings

__all__ = [
    "WAITING",
    "Job",
    "Stored",
    "ask",
    "claim",
    "fail",
    "finish",
    "own_seat",
    "progress",
    "recent_hands",
    "requeue_mine",
    "stored",
]

WAITING = ("pending", "running")
"""A review still to be computed."""
MOST_ATTEMPTS = 3
"""A review whose worker process died this many times is failed (it would kill the next)."""


@dataclass(frozen=True)
class Stored:
    """What the room knows of one (hand, seat)'s review, as plain data."""

    hand: int
    seat: int
    status: str
    """``none`` (never asked, or stored by another ``review_version``), ``pending``,
    ``running``, ``done``, ``failed``."""
    done: int = 0
    total: int | None = None
    budget: float | None = None
    seed: int | None = None
    review: dict[str, Any] | None = None
    error: str | None = None
    queued_at: float | None = None
    finished_at: float | None = None


@dataclass(frozen=True)
class Job:
    """A claimed review, for a worker: the full history and the seat whose copy it reviews."""

    id: int
    hand: int
    seat: int
    history: str
    budget: float
    seed: int


def _stored(row: HandReviewRow | None, hand: int, seat: int) -> Stored:
    if row is None or (row.status == "done" and row.review_version != REVIEW_VERSION):
        return Stored(hand, seat, "none")
    return Stored(
        hand,
        seat,
        row.status,
        done=row.done,
        total=row.total,
        budget=row.budget,
        seed=row.seed,
        review=json.loads(row.review) if row.status == "done" and row.review else None,
        error=row.error,
        queued_at=row.queued_at,
        finished_at=row.finished_at,
    )


async def own_seat(db: Database, hand_id: int, user_id: int) -> int:
    """The seat ``user_id`` played in finished hand ``hand_id``; ``not_found`` (the sentences of
    ``GET /api/hands/{id}``) for a hand not finished or not theirs."""
    async with db.begin() as s:
        finished = await s.scalar(
            select(Hand.id).where(Hand.id == hand_id, Hand.history.is_not(None))
        )
        seat = await s.scalar(
            select(HandSeat.seat).where(HandSeat.hand_id == hand_id, HandSeat.user_id == user_id)
        )
    if finished is None:
        raise RuleError("not_found", f"There is no finished hand {hand_id}.")
    if seat is None:
        raise RuleError("not_found", f"You did not play hand {hand_id}.")
    return int(seat)


async def recent_hands(db: Database, user_id: int, count: int) -> list[tuple[int, int]]:
    """The account's last ``count`` finished hands as ``(hand, seat)``, oldest first."""
    async with db.begin() as s:
        rows = (
            await s.execute(
                select(HandSeat.hand_id, HandSeat.seat)
                .join(Hand, Hand.id == HandSeat.hand_id)
                .where(HandSeat.user_id == user_id, Hand.history.is_not(None))
                .order_by(Hand.id.desc())
                .limit(count)
            )
        ).all()
    return [(int(h), int(seat)) for h, seat in reversed(rows)]


async def stored(db: Database, wanted: list[tuple[int, int]]) -> list[Stored]:
    """The reviews of these ``(hand, seat)`` as the room has them, in the same order."""
    if not wanted:
        return []
    async with db.begin() as s:
        rows = (
            await s.scalars(
                select(HandReviewRow).where(
                    HandReviewRow.hand_id.in_([h for h, _ in wanted]),
                )
            )
        ).all()
    by_key = {(r.hand_id, r.seat): r for r in rows}
    return [_stored(by_key.get(key), *key) for key in wanted]


async def ask(
    db: Database, settings: Settings, user_id: int, wanted: list[tuple[int, int]]
) -> list[Stored]:
    """Queue the reviews of ``wanted`` (the account's own ``(hand, seat)``) that are not stored
    or queued already — a review stored by another ``review_version`` is made again — and
    answer each as it stands. ``review_queue_full`` when the account would have more than
    ``settings.review_queue`` reviews waiting; nothing is queued then."""
    for _ in range(2):  # two askers of the same review at once: the second reads the first's
        try:
            async with db.begin() as s:
                await _ask_in(s, settings, user_id, wanted)
            break
        except IntegrityError:
            continue
    return await stored(db, wanted)


async def _ask_in(s: Any, settings: Settings, user_id: int, wanted: list[tuple[int, int]]) -> None:
    rows = (
        await s.scalars(
            select(HandReviewRow).where(HandReviewRow.hand_id.in_([h for h, _ in wanted]))
        )
    ).all()
    by_key = {(r.hand_id, r.seat): r for r in rows}
    missing = [k for k in wanted if k not in by_key]
    stale = [r for r in rows if r.status == "done" and r.review_version != REVIEW_VERSION]
    if not missing and not stale:
        return
    waiting = await s.scalar(
        select(func.count())
        .select_from(HandReviewRow)
        .where(HandReviewRow.user_id == user_id, HandReviewRow.status.in_(WAITING))
    )
    if int(waiting or 0) + len(missing) + len(stale) > settings.review_queue:
        raise RuleError(
            "review_queue_full",
            f"You have {waiting} reviews waiting and may have at most {settings.review_queue}; "
            "ask again when some are done.",
        )
    now = time.time()
    for row in stale:
        row.status, row.done, row.total, row.review, row.review_version = (
            "pending",
            0,
            None,
            None,
            None,
        )
        row.budget, row.seed, row.queued_at, row.finished_at = (
            settings.review_budget,
            settings.review_seed,
            now,
            None,
        )
        row.worker, row.attempts, row.error = None, 0, None
    for hand, seat in missing:
        s.add(
            HandReviewRow(
                hand_id=hand,
                seat=seat,
                user_id=user_id,
                status="pending",
                attempts=0,
                done=0,
                budget=settings.review_budget,
                seed=settings.review_seed,
                queued_at=now,
            )
        )


def _claimable(me: str, now: float) -> ColumnElement[bool]:
    """SQL: a review waiting for a worker — queued, or running in a process no longer alive."""
    alive = exists().where(RoomProcess.name == HandReviewRow.worker, RoomProcess.alive_until >= now)
    return or_(
        HandReviewRow.status == "pending",
        and_(HandReviewRow.status == "running", HandReviewRow.worker != me, ~alive),
    )


async def requeue_mine(db: Database, me: str, review_id: int | None = None) -> int:
    """Put back in the queue what ``me`` was computing (before it restarted, as it stops — so
    another process may take it at once — or, with ``review_id``, that one review, whose worker
    process died); how many."""
    mine = [HandReviewRow.status == "running", HandReviewRow.worker == me]
    if review_id is not None:
        mine.append(HandReviewRow.id == review_id)
    async with db.begin() as s:
        result = await s.execute(
            update(HandReviewRow)
            .where(*mine)
            .values(status="pending", worker=None)
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)


async def claim(db: Database, me: str, skip: set[int]) -> Job | None:
    """Take the oldest review waiting for a worker for ``me`` (never one in ``skip``: those
    ``me`` computes already), atomically — of several processes claiming at once exactly one
    gets it — or ``None``. A review whose worker died :data:`MOST_ATTEMPTS` times is failed."""
    now = time.time()
    async with db.begin() as s:
        candidates = (
            await s.scalars(
                select(HandReviewRow.id)
                .where(_claimable(me, now), HandReviewRow.id.not_in(skip or {0}))
                .order_by(HandReviewRow.id)
                .limit(8)
            )
        ).all()
    for review_id in candidates:
        async with db.begin() as s:
            taken = await s.execute(
                update(HandReviewRow)
                .where(HandReviewRow.id == review_id, _claimable(me, now))
                .values(
                    status="running",
                    worker=me,
                    attempts=HandReviewRow.attempts + 1,
                    done=0,
                    started_at=now,
                )
                .execution_options(synchronize_session=False)
            )
            if getattr(taken, "rowcount", 0) != 1:
                continue  # another process claimed it first
            row = await s.get_one(HandReviewRow, review_id)
            history = await s.scalar(select(Hand.history).where(Hand.id == row.hand_id))
            if row.attempts > MOST_ATTEMPTS:
                row.status, row.worker, row.finished_at = "failed", None, now
                row.error = "The review stopped its worker each time it was tried; it was given up."
                continue
            return Job(row.id, row.hand_id, row.seat, history or "{}", row.budget, row.seed)
    return None


def _mine(review_id: int, me: str) -> ColumnElement[bool]:
    return and_(
        HandReviewRow.id == review_id,
        HandReviewRow.status == "running",
        HandReviewRow.worker == me,
    )


async def progress(db: Database, me: str, review_id: int, done: int, total: int) -> None:
    """``done`` of the review's ``total`` decisions are reviewed (if ``me`` still has it)."""
    async with db.begin() as s:
        await s.execute(
            update(HandReviewRow)
            .where(_mine(review_id, me))
            .values(done=done, total=total)
            .execution_options(synchronize_session=False)
        )


async def finish(db: Database, me: str, review_id: int, review: dict[str, Any]) -> None:
    """Store the review ``me`` computed (if ``me`` still has it)."""
    total = len(review.get("decisions", []))
    async with db.begin() as s:
        await s.execute(
            update(HandReviewRow)
            .where(_mine(review_id, me))
            .values(
                status="done",
                worker=None,
                done=total,
                total=total,
                review=json.dumps(review, separators=(",", ":")),
                review_version=int(review.get("review_version", REVIEW_VERSION)),
                finished_at=time.time(),
            )
            .execution_options(synchronize_session=False)
        )


async def fail(db: Database, me: str, review_id: int, error: str) -> None:
    """The review cannot be made (``error``: why, in a sentence); it is not tried again."""
    async with db.begin() as s:
        await s.execute(
            update(HandReviewRow)
            .where(_mine(review_id, me))
            .values(status="failed", worker=None, error=error, finished_at=time.time())
            .execution_options(synchronize_session=False)
        )
