"""The lobby over HTTP: the table list (live over ``/ws/lobby``), "Play now" (the table a
newcomer is best seated at), and admins opening and closing tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from thirteen.server.http.api import Admin, ApiError, Body, RowId, User, db_of, errors
from thirteen.server.money import ledger
from thirteen.server.room import Room, TableSpec

router = APIRouter()


class TableCreate(Body):
    preset: str = Field(max_length=48, description="A preset such as chinese-2-4 or ofc-pineapple.")
    name: str = Field(default="", max_length=64)
    rules: dict[str, Any] = Field(
        default_factory=dict, description="Any setting the engine accepts, over the preset's."
    )
    unit: int = Field(default=1, ge=1, le=1_000_000, description="Chips one point is worth.")
    seats: int | None = Field(default=None, ge=2, le=4)
    min_buy_in: int | None = Field(default=None, ge=1, le=10**12)
    max_buy_in: int | None = Field(default=None, ge=1, le=10**12)
    bots: int = Field(default=0, ge=0, le=4)
    bot_level: str = Field(
        default="strong",
        max_length=16,
        description="The table's bots: beginner, club or expert (or random, heuristic, strong).",
    )
    practice: bool = False
    time_bank_seconds: float = Field(
        default=30.0, ge=0, le=600, description="A seat's time bank, refilled at this much an hour."
    )
    sit_out_hands: int = Field(
        default=3, ge=1, le=100, description="Hands a player may sit out before leaving the seat."
    )


class TableOut(BaseModel):
    id: int
    name: str
    preset: str
    game: str
    scoring: str
    unit: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    taken: int
    free: int
    players: list[str]
    bots: int
    bot_level: str
    practice: bool
    time_bank_seconds: float
    sit_out_hands: int
    status: str
    hands_per_hour: int
    timers: dict[str, float]
    tournament: int | None = None
    """The sit & go this table plays (its stacks are tournament chips), else ``null``."""
    event: int | None = None
    """The duplicate event this table plays, else ``null`` (always ``null`` here: an event's
    tables are private, as in the lobby socket's list, which this mirrors field for field)."""


class Lobby(BaseModel):
    server_time: float
    tables: list[TableOut]


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


@router.get("/api/tables", responses=errors(422))
async def list_tables(request: Request, game: str | None = None, free: bool = False) -> Lobby:
    """Every open table; ``game`` filters by game (``chinese`` or ``ofc``) or preset."""
    frame = _room(request).lobby_frame()
    tables = [TableOut(**t) for t in frame["tables"]]
    if game:
        key = game.strip().lower()
        tables = [t for t in tables if key in (t.game, t.preset)]
    if free:
        tables = [t for t in tables if t.free > 0]
    return Lobby(server_time=frame["server_time"], tables=tables)


class PlayNow(BaseModel):
    table: TableOut
    seated: bool
    """You sit at this table already (go back to it rather than buy in again)."""


GAME_NAMES = {"chinese": "Chinese Poker", "ofc": "Open-Face Chinese"}


def play_now_choice(tables: list[TableOut], game: str, name: str, balance: int) -> PlayNow | None:
    """The table "Play now" seats ``name`` at: the one of ``game`` (a game or a preset) where
    they sit already, else the fullest open table with a free seat whose smallest buy-in the
    wallet covers (the table that deals soonest and with the most company; the oldest first
    among equals). A sit & go's or an event's table is never chosen: their seats are entered
    otherwise."""
    mine = [t for t in tables if game in (t.game, t.preset) and t.tournament is None]
    for t in mine:
        if name in t.players:
            return PlayNow(table=t, seated=True)
    open_ = [t for t in mine if t.event is None and t.free > 0 and t.min_buy_in <= balance]
    if not open_:
        return None
    best = min(open_, key=lambda t: (-t.taken, t.id))
    return PlayNow(table=best, seated=False)


@router.get("/api/tables/play-now", responses=errors(401, 404, 422))
async def play_now(request: Request, me: User, game: str = "chinese") -> PlayNow:
    """The table to sit at now for ``game`` (``chinese``, ``ofc`` or a preset); see
    :func:`play_now_choice`. Sitting is still the buy-in on the table's socket."""
    key = game.strip().lower()
    async with db_of(request).begin() as s:
        balance = (await ledger.wallet(s, me.user_id)).balance
    tables = [TableOut(**t) for t in _room(request).lobby_frame()["tables"]]
    choice = play_now_choice(tables, key, me.name, balance)
    if choice is None:
        what = GAME_NAMES.get(key, key)
        raise ApiError(
            "no_open_table",
            f"No open table of {what} has a free seat for a buy-in your wallet covers "
            f"({balance} chips); try a duplicate practice run, or watch a table until a seat "
            "is free.",
        )
    return choice


@router.post("/api/tables", status_code=201, responses=errors(400, 401, 403, 422))
async def create_table(body: TableCreate, request: Request, _admin: Admin) -> TableOut:
    """Open a table (admins): any preset with any rule the engine accepts, and bots."""
    owner = await _room(request).create_table(
        TableSpec(
            preset=body.preset,
            name=body.name,
            overrides=body.rules,
            unit=body.unit,
            seats=body.seats,
            min_buy_in=body.min_buy_in,
            max_buy_in=body.max_buy_in,
            bots=body.bots,
            bot_level=body.bot_level,
            practice=body.practice,
            time_bank_seconds=body.time_bank_seconds,
            sit_out_hands=body.sit_out_hands,
        )
    )
    return TableOut(**owner.lobby_entry())


@router.delete("/api/tables/{table_id}", status_code=202, responses=errors(401, 403, 404, 422))
async def close_table(table_id: RowId, request: Request, _admin: Admin) -> None:
    """Close a table (admins): the hand in play finishes, then everyone leaves with their chips."""
    await _room(request).close_table(table_id)


__all__ = ["router"]
