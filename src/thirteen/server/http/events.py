"""Duplicate team events over HTTP: the list, one event's standings, teams registering, the
director's work (create, bot teams, start, rulings, cancel), confirmations, the side-by-side
view of a deal and the results as CSV and JSON. The rules of the event live in
:mod:`thirteen.server.competitions.events`."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from thirteen.server.competitions import events
from thirteen.server.http.api import (
    Admin,
    Body,
    RowId,
    User,
    accounts_of,
    db_of,
    errors,
    optional_user,
)
from thirteen.server.money.accounts import Me
from thirteen.server.room import Room

router = APIRouter()

Small = Annotated[int, Path(ge=1, le=100, description="A round, group or hand: 1, 2, …")]


class EventCreate(Body):
    preset: str = Field(
        default="open-face-cards", max_length=48, description="Any preset that seats three."
    )
    name: str = Field(default="", max_length=64)
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="Any setting the engine accepts, over the preset's (for example the time "
        "per decision: set_hand_seconds, first_street_seconds, street_seconds).",
    )
    rounds: int = Field(default=1, ge=1, le=events.MAX_ROUNDS)
    hands_per_round: int = Field(default=6, ge=1, le=events.MAX_HANDS)
    confirm_seconds: float = Field(
        default=8.0, ge=0, le=120, description="A result confirms itself after this long."
    )
    starts_at: float | None = Field(
        default=None,
        ge=0,
        le=2**40,
        description="When it starts by itself (seconds since the epoch), if its teams are ready.",
    )
    bot_level: str = Field(default="strong", max_length=16)


class TeamCreate(Body):
    name: str = Field(min_length=1, max_length=40, description="The team's name.")


class BotTeams(Body):
    count: int = Field(default=3, ge=1, le=30)


class ConfirmIn(Body):
    round: int = Field(ge=1, le=events.MAX_ROUNDS)
    hand: int = Field(
        ge=0, le=events.MAX_HANDS, description="The hand; 0 for the round's team totals."
    )


class RulingIn(Body):
    kind: Literal["foul", "warning", "disqualify"] = Field(
        description="foul: the hand was not set according to the rules (-12, +6 to each "
        "other player); warning; disqualify: the team is out of the ranking."
    )
    player: str = Field(min_length=1, max_length=64)
    reason: str = Field(min_length=1, max_length=500)
    round: int | None = Field(default=None, ge=1, le=events.MAX_ROUNDS)
    hand: int | None = Field(default=None, ge=1, le=events.MAX_HANDS)


class EventOut(BaseModel):
    id: int
    name: str
    preset: str
    game: str
    status: str
    rounds: int
    hands_per_round: int
    confirm_seconds: float
    round: int = Field(description="The round in play (0 before the start).")
    teams: int
    starts_at: float | None
    started_at: float | None
    finished_at: float | None


class EventList(BaseModel):
    server_time: float
    events: list[EventOut]


class MemberOut(BaseModel):
    number: int
    name: str


class TeamOut(BaseModel):
    id: int
    name: str
    bot: bool
    disqualified: bool
    members: list[MemberOut]
    points: int = Field(description="Points its players scored in hands all three tables played.")
    rulings: int = Field(description="Points the director's rulings moved.")
    total: int
    rounds: list[int] = Field(description="Its total in each round.")
    rank: int | None = Field(description="Its place (ties share one); null if disqualified.")


class SeatResult(BaseModel):
    seat: int
    team: int
    number: int
    player: str
    points: int


class TableResult(BaseModel):
    table_id: int
    position: int
    seats: list[SeatResult]


class HandOut(BaseModel):
    hand: int
    complete: bool = Field(description="Settled at all three tables (only then is it shown).")
    root: str | None = Field(description="The deck's root every one of the three tables shows.")
    scores: dict[str, int] = Field(description="Each team's points (by team id).")
    tables: list[TableResult]
    confirmed: int = Field(description="Players who confirmed the result.")


class SeatPlan(BaseModel):
    team: int
    number: int


class TablePlan(BaseModel):
    table_id: int
    position: int
    seats: list[SeatPlan]


class GroupOut(BaseModel):
    group: int
    teams: list[int]
    tables: list[TablePlan]
    hands: list[HandOut]


class RoundOut(BaseModel):
    round: int
    groups: list[GroupOut]
    confirmed: int = Field(description="Players who confirmed the round's team totals.")


class RulingOut(BaseModel):
    id: int
    kind: str
    player: str
    team: str
    round: int | None
    hand: int | None
    table_id: int | None
    reason: str
    at: float
    points: dict[str, int] = Field(description="The points it moved, by team name.")
    by: str = Field(description="The director who ruled.")
    after_finish: bool = Field(
        description="Ruled after the event finished: it changed the final standings."
    )


class ChangeOut(BaseModel):
    id: int = Field(description="The ruling (in `rulings`).")
    kind: str
    player: str
    by: str = Field(description="The director who ruled.")
    at: float = Field(description="When (seconds since the epoch).")
    reason: str = Field(description="Why.")


class YouOut(BaseModel):
    team: int
    number: int
    table_id: int | None = Field(description="Your table in the round in play, if one is open.")


class EventDetail(EventOut):
    director_id: int
    director: str = Field(description="The director's name: the admin who created the event.")
    standings: list[TeamOut]
    round_results: list[RoundOut]
    rulings: list[RulingOut]
    changed_after_finish: list[ChangeOut] = Field(
        description="The rulings that changed the standings after the event finished (empty: "
        "the standings are as they were at the finish)."
    )
    you: YouOut | None = None


class PlayOut(BaseModel):
    table_id: int
    team: str
    player: str
    outcome: str
    front: str
    middle: str
    back: str
    foul: bool
    points: int


class SeatPlays(BaseModel):
    seat: int
    plays: list[PlayOut] = Field(description="The same cards as the three teams played them.")


class SideBySide(BaseModel):
    event: int
    round: int
    group: int
    hand: int
    root: str | None
    teams: list[str]
    seats: list[SeatPlays]


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


async def _detail(request: Request, event_id: int, me: Me | None = None) -> EventDetail:
    data = await events.standings(db_of(request), event_id)
    if me is not None:
        data["you"] = await events.seat_of(db_of(request), event_id, me.user_id)
    return EventDetail(**data)


@router.get("/api/events", responses=errors(422))
async def list_events(request: Request) -> EventList:
    """Team events registering, running or finished (cancelled ones for a day)."""
    found = await events.listing(db_of(request))
    return EventList(server_time=time.time(), events=[EventOut(**e) for e in found])


@router.post("/api/events", status_code=201, responses=errors(400, 401, 403, 422))
async def create_event(body: EventCreate, request: Request, admin: Admin) -> EventDetail:
    """Create a duplicate team event (admins: its director); teams register until it starts."""
    spec = events.EventSpec(
        name=body.name,
        preset=body.preset,
        overrides=body.rules,
        rounds=body.rounds,
        hands_per_round=body.hands_per_round,
        confirm_seconds=body.confirm_seconds,
        starts_at=body.starts_at,
        bot_level=body.bot_level,
    )
    event_id = await events.create_event(db_of(request), spec, admin.user_id)
    if body.starts_at is not None:
        _room(request).look_at_event(event_id, body.starts_at - time.time())
    return await _detail(request, event_id)


@router.get("/api/events/{event_id}", responses=errors(401, 404, 422))
async def get_event(event_id: RowId, request: Request) -> EventDetail:
    """An event's standings: teams, points by round, rulings, every hand all three tables
    have played; and, for a player, their team and table."""
    return await _detail(request, event_id, await optional_user(request))


@router.post(
    "/api/events/{event_id}/teams", status_code=201, responses=errors(400, 401, 403, 404, 409, 422)
)
async def create_team(event_id: RowId, body: TeamCreate, request: Request, me: User) -> EventDetail:
    """Register a team: you are its player 1; two teammates join it."""
    await events.create_team(db_of(request), event_id, me.user_id, body.name)
    await _ready(request, event_id)
    return await _detail(request, event_id, me)


@router.post(
    "/api/events/{event_id}/teams/{team_id}/members",
    status_code=201,
    responses=errors(400, 401, 403, 404, 409, 422),
)
async def join_team(event_id: RowId, team_id: RowId, request: Request, me: User) -> EventDetail:
    """Join a team as its next player (2, then 3)."""
    await events.join_team(db_of(request), event_id, team_id, me.user_id)
    await _ready(request, event_id)
    return await _detail(request, event_id, me)


@router.delete(
    "/api/events/{event_id}/membership", status_code=204, responses=errors(401, 403, 404, 409, 422)
)
async def leave_team(event_id: RowId, request: Request, me: User) -> None:
    """Leave your team before the start (an empty team is removed)."""
    await events.leave_team(db_of(request), event_id, me.user_id)


@router.post("/api/events/{event_id}/bot-teams", responses=errors(400, 401, 403, 404, 409, 422))
async def add_bot_teams(
    event_id: RowId, body: BotTeams, request: Request, _admin: Admin
) -> EventDetail:
    """Register teams of bots (admins): a practice event, or a field filled to a multiple
    of three."""
    await events.add_bot_teams(db_of(request), accounts_of(request), event_id, body.count)
    await _ready(request, event_id)
    return await _detail(request, event_id)


@router.post("/api/events/{event_id}/start", responses=errors(400, 401, 403, 404, 409, 422))
async def start_event(event_id: RowId, request: Request, _admin: Admin) -> EventDetail:
    """Start now (admins): the rounds' groups are drawn and the first round's tables open."""
    await events.start_event(db_of(request), event_id)
    await _room(request).discover()
    return await _detail(request, event_id)


@router.delete("/api/events/{event_id}", status_code=204, responses=errors(401, 403, 404, 409, 422))
async def cancel_event(event_id: RowId, request: Request, _admin: Admin) -> None:
    """Cancel an event before it starts (admins)."""
    await events.cancel_event(db_of(request), event_id)


@router.post(
    "/api/events/{event_id}/confirmations",
    status_code=204,
    responses=errors(400, 401, 403, 404, 409, 422),
)
async def confirm(event_id: RowId, body: ConfirmIn, request: Request, me: User) -> None:
    """Confirm a hand's result (``hand`` 0: the round's team totals); the next hand is dealt
    once everyone confirmed, or by itself after the event's seconds to confirm."""
    await events.confirm(db_of(request), event_id, me.user_id, body.round, body.hand)
    await _wake(request, event_id)


async def _ready(request: Request, event_id: int) -> None:
    """A team registered or filled up: an event past its start time starts now if its field
    is ready (else at its start time, or by the director)."""
    await _room(request).advance_event(event_id)


async def _wake(request: Request, event_id: int) -> None:
    """A held deal or round may go on now: ask the event's tables here (another process's
    ask again within a moment) and the event itself."""
    room = _room(request)
    for owner in list(room.owners.values()):
        if owner.settings.event_id == event_id:
            owner.wake()
    await room.advance_event(event_id)


@router.post(
    "/api/events/{event_id}/rulings",
    status_code=201,
    responses=errors(400, 401, 403, 404, 409, 422),
)
async def rule(event_id: RowId, body: RulingIn, request: Request, admin: Admin) -> EventDetail:
    """A ruling of the event's director (the admin who created it; anyone else: 403
    ``not_director``), recorded with its reason and shown in the standings; after the finish it
    changes the final standings, which then say so (``changed_after_finish``)."""
    await events.rule(
        db_of(request),
        event_id,
        admin.user_id,
        kind=body.kind,
        player=body.player,
        reason=body.reason,
        round_=body.round,
        hand=body.hand,
    )
    if body.kind == "disqualify":  # nobody waits for its players' confirmations any more
        await _wake(request, event_id)
    return await _detail(request, event_id)


@router.get(
    "/api/events/{event_id}/deals/{round_number}/{group}/{hand}",
    responses=errors(401, 404, 409, 422),
)
async def side_by_side(
    event_id: RowId, round_number: Small, group: Small, hand: Small, request: Request
) -> SideBySide:
    """One deal as the three tables of its group played it, seat by seat: how the other teams
    played the same cards. Once its round is over everywhere (the director: once the three
    tables played it)."""
    me = await optional_user(request)
    found = await events.side_by_side(
        db_of(request),
        event_id,
        round_number,
        group,
        hand,
        director=me is not None and me.is_admin,
    )
    return SideBySide(**found)


@router.get(
    "/api/events/{event_id}/results.csv",
    responses={
        **errors(404, 422),
        200: {
            "description": "The results as CSV.",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        },
    },
)
async def results_csv(event_id: RowId, request: Request) -> PlainTextResponse:
    """Every seat's points in every hand all three tables played, and the rulings, as CSV."""
    text = await events.results_csv(db_of(request), event_id)
    return PlainTextResponse(
        text,
        media_type="text/csv",
        headers={"content-disposition": f'attachment; filename="event-{event_id}.csv"'},
    )


@router.get("/api/events/{event_id}/results.json", responses=errors(404, 422))
async def results_json(event_id: RowId, request: Request) -> EventDetail:
    """The event's standings and every result, as JSON (the same as the event's page)."""
    return await _detail(request, event_id)


__all__ = ["router"]
