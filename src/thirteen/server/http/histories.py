"""Hand histories: a player's list of hands and their own copy of each (only the cards they
saw opened); admins get everything. Every history handed out carries the room's signature
(:mod:`thirteen.server.money.signing`), whose public key is at ``GET /api/key``."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel
from sqlalchemy import select

from thirteen.engine.history import history_from_json, redact_history
from thirteen.engine.history_text import history_to_text
from thirteen.server.db.models import GameTable, Hand, HandSeat
from thirteen.server.http.api import Admin, ApiError, RowId, User, db_of, errors
from thirteen.server.money.signing import Signer

router = APIRouter()

AS_TEXT: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The history as JSON, or as text with format=text.",
        "content": {"application/json": {}, "text/plain": {"schema": {"type": "string"}}},
    }
}


def _signer(request: Request) -> Signer:
    signer: Signer = request.app.state.signer
    return signer


def _hand_out(
    request: Request, history: dict[str, Any], format: str
) -> dict[str, Any] | PlainTextResponse:
    """A history as the room hands it out: signed, as JSON or text."""
    signed = _signer(request).sign(history)
    if format == "text":
        return PlainTextResponse(history_to_text(signed))
    return signed


class PublicKey(BaseModel):
    algorithm: str
    key_id: str
    public_key: str


@router.get("/api/key")
async def public_key(request: Request) -> PublicKey:
    """The room's public key (Ed25519, raw 32 bytes in base64): ``thirteen verify FILE --key
    KEY`` checks a history's signature with it."""
    return PublicKey(**_signer(request).public())


class HandLine(BaseModel):
    id: int
    table: str
    preset: str
    number: int
    seat: int
    result: int | None
    status: str
    started_at: float
    finished_at: float | None


@router.get("/api/hands", responses=errors(401, 422))
async def my_hands(me: User, request: Request, limit: int = 50) -> list[HandLine]:
    """The account's recent hands, newest first, with what each won or lost."""
    limit = max(1, min(limit, 500))
    async with db_of(request).begin() as s:
        rows = (
            await s.execute(
                select(Hand, HandSeat, GameTable)
                .join(HandSeat, HandSeat.hand_id == Hand.id)
                .join(GameTable, GameTable.id == Hand.table_id)
                .where(HandSeat.user_id == me.user_id)
                .order_by(Hand.id.desc())
                .limit(limit)
            )
        ).all()
    return [
        HandLine(
            id=hand.id,
            table=table.name,
            preset=table.preset,
            number=hand.number,
            seat=part.seat,
            result=part.delta,
            status=hand.status,
            started_at=hand.started_at,
            finished_at=hand.finished_at,
        )
        for hand, part, table in rows
    ]


async def _finished_hand(request: Request, hand_id: int) -> Hand:
    async with db_of(request).begin() as s:
        hand = await s.get(Hand, hand_id)
    if hand is None or hand.history is None:
        raise ApiError("not_found", f"There is no finished hand {hand_id}.")
    return hand


@router.get(
    "/api/hands/{hand_id}", response_model=None, responses={**errors(401, 404, 422), **AS_TEXT}
)
async def my_hand(
    hand_id: RowId, me: User, request: Request, format: str = "json"
) -> dict[str, Any] | PlainTextResponse:
    """Your copy of a finished hand: only the cards you saw are opened (``format=text`` too)."""
    hand = await _finished_hand(request, hand_id)
    async with db_of(request).begin() as s:
        seat = await s.scalar(
            select(HandSeat.seat).where(HandSeat.hand_id == hand_id, HandSeat.user_id == me.user_id)
        )
    if seat is None:
        raise ApiError("not_found", f"You did not play hand {hand_id}.")
    copy = redact_history(history_from_json(json.loads(hand.history or "{}")), seat)
    return _hand_out(request, copy, format)


class TableHand(BaseModel):
    id: int
    number: int
    status: str
    commitment: str
    started_at: float
    finished_at: float | None


@router.get("/api/admin/tables/{table_id}/hands", responses=errors(401, 403, 422))
async def table_hands(table_id: RowId, _admin: Admin, request: Request) -> list[TableHand]:
    """Every hand dealt at a table, oldest first (admins)."""
    async with db_of(request).begin() as s:
        hands = (
            await s.scalars(select(Hand).where(Hand.table_id == table_id).order_by(Hand.number))
        ).all()
    return [
        TableHand(
            id=h.id,
            number=h.number,
            status=h.status,
            commitment=h.commitment,
            started_at=h.started_at,
            finished_at=h.finished_at,
        )
        for h in hands
    ]


@router.get(
    "/api/admin/hands/{hand_id}",
    response_model=None,
    responses={**errors(401, 403, 404, 422), **AS_TEXT},
)
async def full_hand(
    hand_id: RowId, _admin: Admin, request: Request, format: str = "json"
) -> dict[str, Any] | PlainTextResponse:
    """The whole history of a finished hand, deck opened (admins)."""
    hand = await _finished_hand(request, hand_id)
    data: dict[str, Any] = json.loads(hand.history or "{}")
    return _hand_out(request, data, format)


__all__ = ["router"]
