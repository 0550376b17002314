"""Sit & go tournaments over HTTP: the list, one tournament's standings, registering and
unregistering, and what admins do (create, fill free seats with bots, cancel). The rules of the
game itself live in :mod:`thirteen.server.competitions.tournaments`."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from thirteen.server.competitions import tournaments
from thirteen.server.http.api import Admin, Body, RowId, User, accounts_of, db_of, errors
from thirteen.server.room import Room

router = APIRouter()


class TournamentCreate(Body):
    preset: str = Field(max_length=48, description="Any preset, such as chinese-1-6 or ofc.")
    name: str = Field(default="", max_length=64)
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Any setting the engine accepts, over the preset's."
    )
    seats: int = Field(default=4, ge=2, le=4, description="It starts when these seats fill.")
    buy_in: int = Field(default=100, ge=1, le=10**12, description="Chips from each wallet.")
    starting_stack: int = Field(
        default=1000, ge=1, le=10**9, description="Tournament chips each player starts with."
    )
    unit: int = Field(default=10, ge=1, le=10**9, description="Tournament chips a point is worth.")
    rise_every: int = Field(default=5, ge=1, le=1000, description="The unit rises every N hands.")
    rise_percent: int = Field(
        default=50, ge=0, le=1000, description="By this much (rounded up; at least one chip)."
    )
    payouts: list[int] | None = Field(
        default=None,
        min_length=1,
        max_length=4,
        description="Percent of the pool to 1st, 2nd, … place (sums to 100; default: 100 up "
        "to 3 seats, 70/30 at 4). What whole chips cannot split goes to 1st place.",
    )
    bot_level: str = Field(default="strong", max_length=16)


class BotsAdd(Body):
    count: int | None = Field(default=None, ge=1, le=4, description="Default: every free seat.")


class TournamentOut(BaseModel):
    id: int
    name: str
    preset: str
    game: str
    seats: int
    registered: int
    entrants: list[str] = Field(description="Who registered, first come first.")
    free: int
    buy_in: int
    pool: int
    starting_stack: int
    unit: int
    rise_every: int
    rise_percent: int
    payouts: list[int]
    prizes: list[int]
    status: str
    table_id: int | None
    created_at: float
    started_at: float | None
    finished_at: float | None


class PlayerStanding(BaseModel):
    name: str
    bot: bool
    place: int | None
    payout: int | None
    chips: int | None
    out_at_hand: int | None


class Standings(TournamentOut):
    players: list[PlayerStanding]
    hands_played: int
    current_unit: int
    next_unit: int | None
    next_rise_after_hand: int | None


class TournamentList(BaseModel):
    server_time: float
    tournaments: list[TournamentOut]


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


async def _standings(request: Request, tournament_id: int) -> Standings:
    room = _room(request)
    live = None
    for owner in room.owners.values():
        if owner.settings.tournament_id == tournament_id and owner.settings.status != "closed":
            live = owner.state
    return Standings(**await tournaments.standings(db_of(request), tournament_id, live))


async def _started(request: Request, table_id: int | None) -> None:
    """The seats filled: run the tournament's table now (here, or at another process's look)."""
    if table_id is not None:
        await _room(request).discover()


@router.get("/api/tournaments", responses=errors(422))
async def list_tournaments(request: Request) -> TournamentList:
    """Sit & gos registering or running, and those that ended in the last day."""
    found = await tournaments.listing(db_of(request))
    return TournamentList(server_time=time.time(), tournaments=[TournamentOut(**t) for t in found])


@router.post("/api/tournaments", status_code=201, responses=errors(400, 401, 403, 422))
async def create_tournament(body: TournamentCreate, request: Request, _admin: Admin) -> Standings:
    """Create a sit & go (admins); it starts when its seats fill."""
    spec = tournaments.TournamentSpec(
        preset=body.preset,
        name=body.name,
        overrides=body.rules,
        seats=body.seats,
        buy_in=body.buy_in,
        starting_stack=body.starting_stack,
        unit=body.unit,
        rise_every=body.rise_every,
        rise_percent=body.rise_percent,
        payouts=body.payouts or tournaments.default_payouts(body.seats),
        bot_level=body.bot_level,
    )
    tournament_id = await tournaments.create_tournament(db_of(request), spec)
    return await _standings(request, tournament_id)


@router.get("/api/tournaments/{tournament_id}", responses=errors(404, 422))
async def get_tournament(tournament_id: RowId, request: Request) -> Standings:
    """One sit & go's standings: places, chips, the unit now and the next rise, the prizes."""
    return await _standings(request, tournament_id)


@router.post(
    "/api/tournaments/{tournament_id}/registration",
    status_code=201,
    responses=errors(401, 403, 404, 409, 422),
)
async def register(tournament_id: RowId, request: Request, me: User) -> Standings:
    """Register: the buy-in moves from your wallet to the tournament's pool."""
    table_id = await tournaments.register(db_of(request), tournament_id, me.user_id)
    await _started(request, table_id)
    return await _standings(request, tournament_id)


@router.delete(
    "/api/tournaments/{tournament_id}/registration",
    status_code=204,
    responses=errors(401, 403, 404, 409, 422),
)
async def unregister(tournament_id: RowId, request: Request, me: User) -> None:
    """Unregister before the start: the buy-in comes back to your wallet."""
    await tournaments.unregister(db_of(request), tournament_id, me.user_id)


@router.post(
    "/api/tournaments/{tournament_id}/bots", responses=errors(400, 401, 403, 404, 409, 422)
)
async def add_bots(
    tournament_id: RowId, body: BotsAdd, request: Request, _admin: Admin
) -> Standings:
    """Register bots for free seats (admins); the house stakes their buy-ins."""
    table_id = await tournaments.add_bots(
        db_of(request), accounts_of(request), tournament_id, body.count
    )
    await _started(request, table_id)
    return await _standings(request, tournament_id)


@router.delete(
    "/api/tournaments/{tournament_id}", status_code=204, responses=errors(401, 403, 404, 409, 422)
)
async def cancel(tournament_id: RowId, request: Request, _admin: Admin) -> None:
    """Cancel a sit & go before it starts (admins): every buy-in goes back."""
    await tournaments.cancel(db_of(request), tournament_id)


__all__ = ["router"]
