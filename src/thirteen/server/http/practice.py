"""Duplicate practice over HTTP: start a run, list your runs, and one run's hands — your points,
the strong bot's with the same cards, the difference and its running total, and both boards
once a hand is over. How a run plays is :mod:`thirteen.server.competitions.practice`."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.rules import get_rules
from thirteen.server.competitions import practice
from thirteen.server.db.models import GameTable, Hand, HandSeat, PracticeHand, PracticeRun
from thirteen.server.db.session import Database
from thirteen.server.http.api import ApiError, Body, RowId, User, db_of, errors, settings_of
from thirteen.server.room import Room, TableSpec
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.requests import Request as OwnerRequest

router = APIRouter()

DEFAULT_BUY_IN = 500
"""Chips a run takes from the wallet unless told (a point is worth one chip)."""


class DuplicateStart(Body):
    preset: str = Field(
        max_length=48, description="Any preset: chinese-1-6, chinese-2-4, ofc, ofc-pineapple, …"
    )
    deals: int = Field(default=10, description="Deals in the run, 1 to 100.")
    opponents: int | None = Field(
        default=None,
        description="Bots at the table, 1 to the preset's seats less one (default: every "
        "other seat).",
    )
    bot_level: str = Field(
        default="club",
        max_length=16,
        description="The opponents: beginner, club or expert (or random, heuristic, strong). "
        "Your hands are always measured against the strong bot.",
    )
    buy_in: int = Field(
        default=DEFAULT_BUY_IN,
        description="Chips from your wallet for the seat (a point is worth one chip); what is "
        "left goes back when the run ends.",
    )
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="Any setting the engine accepts, over the preset's (timers, say).",
    )


class Board(BaseModel):
    cards: str = Field(description="Every card dealt to the seat in the hand.")
    front: str = Field(description="The front row's cards, as text (Qh Js 2c).")
    middle: str = Field(description="The middle row's cards.")
    back: str = Field(description="The back row's cards.")
    discards: str = Field(description="Cards discarded (pineapple variants), else empty.")
    foul: bool = Field(description="Whether the rows fouled.")
    royalties: int = Field(description="Royalty points of the rows.")
    natural: str | None = Field(description="The natural declared, if any.")
    surrendered: bool = Field(description="Whether the hand was surrendered.")
    fantasyland_next: bool = Field(description="Whether the hand earned fantasyland.")


class DuplicateHand(BaseModel):
    number: int = Field(description="The hand's number at the table.")
    hand_id: int = Field(description="The hand's id (its history: GET /api/hands/{id}).")
    pending: bool = Field(description="The hand is over but the bot's replay is not done yet.")
    your_points: int | None = Field(description="Your points in the hand.")
    bot_points: int | None = Field(
        description="The strong bot's points with the same cards from your seat."
    )
    difference: int | None = Field(
        description="your_points - bot_points: above zero you did better than the bot."
    )
    running_total: int | None = Field(description="The differences so far, this hand included.")
    your_board: Board | None = Field(description="Your rows at the end of the hand.")
    bot_board: Board | None = Field(description="The bot's rows with the same cards.")


class DuplicateRun(BaseModel):
    table_id: int = Field(description="The run's table (#/table/ID in the browser).")
    preset: str = Field(description="The table's preset.")
    game: str = Field(description="chinese or ofc.")
    seats: int = Field(description="Seats at the table: you and the bots.")
    bot_level: str = Field(description="The opponents' level.")
    deals: int = Field(description="Deals the run was asked for.")
    played: int = Field(description="Hands you played to the end so far.")
    status: str = Field(
        description="playing; finished (every deal played); ended (you left before)."
    )
    buy_in: int = Field(description="Chips your seat took from the wallet.")
    total: int = Field(description="The sum of the differences of the hands compared so far.")
    compared: int = Field(description="Hands whose bot replay is done.")
    created_at: float = Field(description="When the run started (server time).")
    finished_at: float | None = Field(description="When it ended, else null.")


class DuplicateDetail(DuplicateRun):
    hands: list[DuplicateHand] = Field(description="Every hand you played to the end, in order.")


class DuplicateList(BaseModel):
    runs: list[DuplicateRun] = Field(description="Your runs, newest first (at most 100).")


def _room(request: Request) -> Room:
    room: Room = request.app.state.room
    return room


def _bad(message: str) -> ApiError:
    return ApiError("bad_practice", message)


async def _counts(db: Database, run: PracticeRun) -> tuple[int, int, int]:
    """(hands played to the end, hands compared, total difference)."""
    async with db.begin() as s:
        played = await s.scalar(
            select(func.count(Hand.id))
            .join(HandSeat, HandSeat.hand_id == Hand.id)
            .where(
                Hand.table_id == run.table_id,
                Hand.status == "settled",
                HandSeat.user_id == run.user_id,
            )
        )
        compared, total = (
            await s.execute(
                select(func.count(PracticeHand.hand_id), func.sum(PracticeHand.difference)).where(
                    PracticeHand.table_id == run.table_id
                )
            )
        ).one()
    return int(played or 0), int(compared or 0), int(total or 0)


async def _summary(db: Database, run: PracticeRun, table: GameTable) -> DuplicateRun:
    played, compared, total = await _counts(db, run)
    return DuplicateRun(
        table_id=run.table_id,
        preset=table.preset,
        game=json.loads(table.rules).get("game", "chinese"),
        seats=table.seats,
        bot_level=table.bot_level,
        deals=run.deals,
        played=played,
        # a run whose table an administrator closed ended there
        status="ended" if run.status == "playing" and table.status == "closed" else run.status,
        buy_in=run.buy_in,
        total=total,
        compared=compared,
        created_at=run.created_at,
        finished_at=run.finished_at,
    )


async def _mine(db: Database, table_id: int, user_id: int) -> tuple[PracticeRun, GameTable]:
    async with db.begin() as s:
        found = (
            await s.execute(
                select(PracticeRun, GameTable)
                .join(GameTable, GameTable.id == PracticeRun.table_id)
                .where(PracticeRun.table_id == table_id, PracticeRun.user_id == user_id)
            )
        ).first()
    if found is None:
        raise ApiError("not_found", f"You have no duplicate practice run at table {table_id}.")
    return found[0], found[1]


@router.post("/api/practice/duplicate", status_code=201, responses=errors(400, 401, 403, 409, 422))
async def start_run(body: DuplicateStart, request: Request, me: User) -> DuplicateDetail:
    """Start a duplicate practice run: a private practice table, you in one seat and bots in
    the others; after each hand the strong bot plays the same deal from your seat."""
    rules = get_rules(body.preset, body.rules)  # unknown_rules, bad_rules: the engine's sentence
    most = rules.max_players - 1
    fewest = max(1, rules.min_players - 1)
    if not 1 <= body.deals <= practice.MAX_DEALS:
        raise _bad(f"A run is 1 to {practice.MAX_DEALS} deals, not {body.deals}.")
    opponents = most if body.opponents is None else body.opponents
    if not fewest <= opponents <= most:
        raise _bad(
            f"{rules.name} seats {rules.max_players}: play against {fewest} to {most} bots, "
            f"not {opponents}."
        )
    if body.bot_level.strip().lower() not in NAMES:
        raise _bad(
            "The opponents are beginner, club or expert (or random, heuristic, strong), "
            f"not {body.bot_level[:16]!r}."
        )
    if not 1 <= body.buy_in <= 10**9:
        raise _bad("A buy-in is 1 to 1,000,000,000 chips.")
    spec = TableSpec(
        preset=body.preset,
        name=f"Duplicate practice ({me.name})",
        overrides=body.rules,
        unit=1,
        seats=opponents + 1,
        min_buy_in=max(1, body.buy_in // 10),
        max_buy_in=body.buy_in,
        bots=0,  # the run's hook seats them with the player, before the first deal
        bot_level=body.bot_level.strip().lower(),
        practice=True,
    )
    owner = await _open(_room(request), spec, me.user_id, body)
    await owner.submit(OwnerRequest("hook"))  # the seats are taken when this answers
    return await _detail(request, owner.id, me.user_id)


async def _open(room: Room, spec: TableSpec, user_id: int, body: DuplicateStart) -> TableOwner:
    """Write the table and its run in one transaction — or neither, if the run is refused
    (:func:`practice.write_run`) — then run it here (no look of the room's can run it before
    its run is written and its hook attached)."""

    async def run_row(s: AsyncSession, table_id: int) -> None:
        await practice.write_run(s, table_id, user_id, deals=body.deals, buy_in=body.buy_in)

    return await room.create_table(spec, with_table=run_row)


@router.get("/api/practice/duplicate", responses=errors(401, 422))
async def my_runs(request: Request, me: User) -> DuplicateList:
    """Your duplicate practice runs, newest first: how far each went and its total."""
    db = db_of(request)
    async with db.begin() as s:
        rows = (
            await s.execute(
                select(PracticeRun, GameTable)
                .join(GameTable, GameTable.id == PracticeRun.table_id)
                .where(PracticeRun.user_id == me.user_id)
                .order_by(PracticeRun.table_id.desc())
                .limit(100)
            )
        ).all()
    return DuplicateList(runs=[await _summary(db, run, table) for run, table in rows])


async def _detail(request: Request, table_id: int, user_id: int) -> DuplicateDetail:
    db = db_of(request)
    run, table = await _mine(db, table_id, user_id)
    if table.status == "closed":  # nobody's hook shadows its hands any more: do it now
        await practice.catch_up(db, run, table.bot_level, settings_of(request).bot_budget)
    async with db.begin() as s:
        rows = (
            await s.execute(
                select(Hand.id, Hand.number, PracticeHand)
                .join(HandSeat, HandSeat.hand_id == Hand.id)
                .outerjoin(PracticeHand, PracticeHand.hand_id == Hand.id)
                .where(
                    Hand.table_id == table_id,
                    Hand.status == "settled",  # never a hand still in play
                    HandSeat.user_id == user_id,
                )
                .order_by(Hand.number)
            )
        ).all()
    hands: list[DuplicateHand] = []
    running = 0
    for hand_id, number, shadow in rows:
        if shadow is None:
            hands.append(
                DuplicateHand(
                    number=number,
                    hand_id=hand_id,
                    pending=True,
                    your_points=None,
                    bot_points=None,
                    difference=None,
                    running_total=None,
                    your_board=None,
                    bot_board=None,
                )
            )
            continue
        running += shadow.difference
        boards = json.loads(shadow.boards)
        hands.append(
            DuplicateHand(
                number=number,
                hand_id=hand_id,
                pending=False,
                your_points=shadow.player_points,
                bot_points=shadow.bot_points,
                difference=shadow.difference,
                running_total=running,
                your_board=Board(**boards["player"]),
                bot_board=Board(**boards["bot"]),
            )
        )
    summary = await _summary(db, run, table)
    return DuplicateDetail(**summary.model_dump(), hands=hands)


@router.get("/api/practice/duplicate/{table_id}", responses=errors(401, 404, 422))
async def one_run(table_id: RowId, request: Request, me: User) -> DuplicateDetail:
    """One of your runs, hand by hand: your points, the bot's with the same cards, the
    difference and the running total, and both boards — for hands that are over only."""
    return await _detail(request, table_id, me.user_id)


__all__ = ["router"]
