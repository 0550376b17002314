"""Help for a player at a table, over HTTP: what an arrangement of cards makes under the table's
rules (``/evaluate``, for anyone)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from thirteen.server.api import ApiError, RowId, errors
from thirteen.server.arrangement import MAX_ROW_TEXT, assess
from thirteen.server.room import Room
from thirteen.server.tables import TableOwner

router = APIRouter()


def _owner(request: Request, table_id: int) -> TableOwner:
    room: Room = request.app.state.room
    owner = room.owners.get(table_id)
    if owner is None or owner.settings.status == "closed":
        raise ApiError("no_table", f"There is no open table {table_id}.")
    return owner


class RowOut(BaseModel):
    row: Literal["front", "middle", "back"]
    cards: str = Field(description='The row\'s cards as the room writes them ("" for none).')
    name: str | None = Field(
        description="What the cards make (an incomplete row: by ranks so far), or null when empty."
    )
    royalty: int = Field(description="Royalty units the row earns at this table (complete rows).")


class Evaluation(BaseModel):
    rows: list[RowOut] = Field(description="Front, middle and back, in that order.")
    foul: bool = Field(
        description="The arrangement fouls, or can no longer avoid fouling however it is finished."
    )
    warning: str | None = Field(description="Why it fouls, in a sentence; null when it does not.")
    royalties: int = Field(description="The royalty units of the complete rows (0 on a foul).")


RowCards = Annotated[
    str,
    Query(
        max_length=MAX_ROW_TEXT,
        description='The row\'s cards, e.g. "As Kd" (may be empty or incomplete).',
    ),
]


@router.get("/api/tables/{table_id}/evaluate", responses=errors(404, 422))
async def evaluate_arrangement(
    table_id: RowId,
    request: Request,
    front: RowCards = "",
    middle: RowCards = "",
    back: RowCards = "",
) -> Evaluation:
    """Each row's hand name, whether the arrangement fouls and the royalties it would earn under
    this table's rules; rows may be incomplete. Anyone may ask."""
    rules = _owner(request, table_id).rules
    found = assess(rules, front, middle, back)
    return Evaluation(
        rows=[RowOut(row=r.row, cards=r.cards, name=r.name, royalty=r.royalty) for r in found.rows],
        foul=found.foul,
        warning=found.warning,
        royalties=found.royalties,
    )


__all__ = ["router"]
