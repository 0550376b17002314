"""What the event's modules share: its logger, its statuses and the points a seat starts
with, :class:`EventError`, the event's row locked for a change, the check that it still takes
registrations, and where a member played in a round.

Registering, the rounds, the rulings and the tables' hook each lean on some of these; they live
apart so that those modules import them without importing one another."""

from __future__ import annotations

import json
import logging

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.errors import RuleError
from thirteen.server.db.models import (
    DuplicateEvent,
    DuplicateMember,
    DuplicateTable,
)
from thirteen.server.db.session import lock_row

log = logging.getLogger("thirteen.server.events")
"""The one logger of every event module (its name is the one log lines have always carried)."""

EVENT_STACK = 1_000_000
"""Points each seat starts a round with: nobody can run out."""
STATUSES = ("registering", "running", "finished", "cancelled")


class EventError(RuleError):
    """A request about an event that cannot be done (not registering, team full, …)."""


async def _locked(s: AsyncSession, event_id: int) -> DuplicateEvent:
    """The event's row, locked for the rest of this transaction (:func:`lock_row`)."""
    row = await lock_row(s, DuplicateEvent, event_id)
    if row is None:
        raise EventError("no_event", f"There is no event {event_id}.")
    return row


def _registering(row: DuplicateEvent) -> None:
    if row.status != "registering":
        raise EventError(
            "not_registering", f"Event {row.id} is {row.status}; teams register before it starts."
        )


async def _member_table(
    s: AsyncSession, event_id: int, round_: int, member: DuplicateMember
) -> DuplicateTable | None:
    """The table ``member`` played at in round ``round_``: player k plays at the group's
    table k, so among the round's tables at that position, the one of their team's group."""
    for placed in (
        await s.scalars(
            select(DuplicateTable).where(
                DuplicateTable.event_id == event_id,
                DuplicateTable.round == round_,
                DuplicateTable.position == member.number - 1,
            )
        )
    ).all():
        if member.team_id in json.loads(placed.teams):
            return placed
    return None
