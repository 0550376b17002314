"""Hand reviews over HTTP (issue 34): ask for the review of your seat in a hand, or of your last
hands, and read them — the review of your own copy only (what you could see when you decided),
computed once by the room's review workers (:mod:`thirteen.server.reviews`) and stored."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from thirteen.engine.rules import Bounds
from thirteen.review.figures import HandReview
from thirteen.review.summary import summarize
from thirteen.server.http.api import Body, RowId, User, db_of, errors, settings_of
from thirteen.server.reviews import store
from thirteen.server.reviews.workers import ReviewWorkers

router = APIRouter()

SESSION_HANDS = Bounds(1, 100, "hands")
"""How many of the last hands "Review my session" takes."""


class ReviewSettingsOut(BaseModel):
    budget: float = Field(description="Seconds of sampling work a stage of an OFC street.")
    seed: int


class ReviewOut(BaseModel):
    """A hand's review as the room has it."""

    hand: int
    seat: int
    status: str = Field(
        description="none (not asked for), pending (queued), running, done, failed."
    )
    done: int = Field(description="Decisions reviewed so far.")
    total: int | None = Field(description="Decisions in the hand (known once it runs).")
    settings: ReviewSettingsOut | None
    review: dict[str, Any] | None = Field(
        description="The review (docs/review.md's figures) once done."
    )
    error: str | None = Field(description="Why it failed, in a sentence.")
    queued_at: float | None
    finished_at: float | None


def _out(s: store.Stored) -> ReviewOut:
    settings = None
    if s.budget is not None and s.seed is not None:
        settings = ReviewSettingsOut(budget=s.budget, seed=s.seed)
    return ReviewOut(
        hand=s.hand,
        seat=s.seat,
        status=s.status,
        done=s.done,
        total=s.total,
        settings=settings,
        review=s.review,
        error=s.error,
        queued_at=s.queued_at,
        finished_at=s.finished_at,
    )


def _wake(request: Request) -> None:
    workers: ReviewWorkers | None = getattr(request.app.state, "reviews", None)
    if workers is not None:
        workers.wake()


@router.post(
    "/api/hands/{hand_id}/review",
    status_code=202,
    responses={
        200: {"model": ReviewOut, "description": "Stored already."},
        **errors(401, 403, 404, 422, 429),
    },
)
async def ask_review(hand_id: RowId, me: User, request: Request, response: Response) -> ReviewOut:
    """Queue the review of your seat's copy of a finished hand (202); asking again answers the
    review queued or stored (200 once done or failed)."""
    db = db_of(request)
    seat = await store.own_seat(db, hand_id, me.user_id)
    [answer] = await store.ask(db, settings_of(request), me.user_id, [(hand_id, seat)])
    if answer.status in store.WAITING:
        _wake(request)
    else:
        response.status_code = 200
    return _out(answer)


@router.get("/api/hands/{hand_id}/review", responses=errors(401, 404, 422))
async def read_review(hand_id: RowId, me: User, request: Request) -> ReviewOut:
    """Your review of a hand: its status, its progress, and the review once done."""
    db = db_of(request)
    seat = await store.own_seat(db, hand_id, me.user_id)
    [answer] = await store.stored(db, [(hand_id, seat)])
    return _out(answer)


class SessionIn(Body):
    hands: int = Field(default=20, description="How many of your last hands, 1 to 100.")


class HandLoss(BaseModel):
    hand: int
    loss: float = Field(description="Points the hand's decisions gave up.")
    loss_se: float
    points: int | None = Field(description="Points the hand won or lost.")


class WorstOut(BaseModel):
    hand: int
    index: int = Field(description="The decision's action in the hand's history.")
    decision: str
    street: int | None
    kind: str | None
    loss: float
    loss_se: float


class SessionOut(BaseModel):
    """ "Review my session": the summary of your last hands' stored reviews."""

    hands: list[int] = Field(description="Your last hands, oldest first.")
    reviewed: list[int] = Field(description="Those whose review is stored.")
    pending: list[int] = Field(description="Those still to review (queued, running, or not asked).")
    failed: list[int]
    summary: dict[str, Any] = Field(description="docs/review.md's summary, of the reviewed hands.")
    worst: list[WorstOut]
    series: list[HandLoss] = Field(description="Each reviewed hand's loss, oldest first.")


async def _session(request: Request, user_id: int, count: int, ask: bool) -> SessionOut:
    count = SESSION_HANDS.check("hands", count, "bad_review")
    db = db_of(request)
    wanted = await store.recent_hands(db, user_id, count)
    if ask:
        answers = await store.ask(db, settings_of(request), user_id, wanted)
        if any(a.status in store.WAITING for a in answers):
            _wake(request)
    else:
        answers = await store.stored(db, wanted)
    done = [a for a in answers if a.status == "done" and a.review is not None]
    reviews = [HandReview.from_json(a.review) for a in done if a.review is not None]
    summary = summarize(reviews)
    return SessionOut(
        hands=[a.hand for a in answers],
        reviewed=[a.hand for a in done],
        pending=[a.hand for a in answers if a.status in ("none", *store.WAITING)],
        failed=[a.hand for a in answers if a.status == "failed"],
        summary={k: v for k, v in summary.to_json().items() if k != "worst"},
        worst=[
            WorstOut(
                hand=done[w.hand].hand,
                index=w.decision.index,
                decision=w.decision.decision,
                street=w.decision.street,
                kind=w.decision.kind,
                loss=round(w.decision.loss, 4),
                loss_se=round(w.decision.loss_se, 4),
            )
            for w in summary.worst
        ],
        series=[
            HandLoss(
                hand=a.hand, loss=round(r.loss, 4), loss_se=round(r.loss_se, 4), points=r.points
            )
            for a, r in zip(done, reviews, strict=True)
        ],
    )


@router.post("/api/reviews/session", status_code=202, responses=errors(400, 401, 403, 422, 429))
async def ask_session(body: SessionIn, me: User, request: Request) -> SessionOut:
    """Queue the reviews of your last ``hands`` hands that are not stored; what is stored so
    far, as ``GET`` answers it."""
    return await _session(request, me.user_id, body.hands, ask=True)


@router.get("/api/reviews/session", responses=errors(400, 401, 422))
async def read_session(me: User, request: Request, hands: int = 20) -> SessionOut:
    """The summary of your last ``hands`` hands' stored reviews, the hands still pending, and
    each reviewed hand's loss for the chart."""
    return await _session(request, me.user_id, hands, ask=False)


__all__ = ["router"]
