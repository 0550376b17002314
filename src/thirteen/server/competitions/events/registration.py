"""Registering for an event: the director creates it (:class:`EventSpec`, checked against
the game and the limits), captains name teams and teammates join or leave them, the director
fills the field with bot teams, or cancels the event before it starts."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.rules import get_rules
from thirteen.server.competitions.duplicate import TABLES
from thirteen.server.competitions.events.common import EventError, _locked, _registering, log
from thirteen.server.db.models import (
    DuplicateEvent,
    DuplicateMember,
    DuplicateTeam,
)
from thirteen.server.db.session import Database
from thirteen.server.money.accounts import Accounts

MAX_ROUNDS = 50
MAX_HANDS = 100
TEAM_NAME = re.compile(r"^[\w][\w .'&-]{0,38}[\w.']$|^\w$")


def _bad(message: str) -> EventError:
    return EventError("bad_event", message)


@dataclass(frozen=True)
class EventSpec:
    """What a director asks for when creating an event."""

    name: str = ""
    preset: str = "open-face-cards"
    overrides: dict[str, Any] = field(default_factory=dict)
    rounds: int = 1
    hands_per_round: int = 6
    confirm_seconds: float = 8.0
    starts_at: float | None = None
    bot_level: str = "strong"
    seed: int | None = None


def _validate(spec: EventSpec) -> tuple[str, Any]:
    rules = get_rules(spec.preset, spec.overrides or {})  # RuleError: unknown preset, bad rule
    if rules.max_players < TABLES:
        raise _bad(
            f"A duplicate event seats three at each table; {rules.name} seats at most "
            f"{rules.max_players}."
        )
    if not 1 <= spec.rounds <= MAX_ROUNDS:
        raise _bad(f"An event has 1 to {MAX_ROUNDS} rounds, not {spec.rounds}.")
    if not 1 <= spec.hands_per_round <= MAX_HANDS:
        raise _bad(f"A round has 1 to {MAX_HANDS} hands, not {spec.hands_per_round}.")
    if not 0 <= spec.confirm_seconds <= 120:
        raise _bad("A result confirms itself after 0 to 120 seconds.")
    if spec.bot_level not in NAMES:
        raise _bad(f"Bots are {', '.join(NAMES)}, not {spec.bot_level!r}.")
    name = (spec.name or f"{rules.name} team event").strip()[:64]
    return name, rules


def _team_name(name: str) -> str:
    name = " ".join(name.split())
    if not TEAM_NAME.match(name):
        raise EventError(
            "bad_team",
            "A team's name is 1 to 40 letters, digits, spaces or . ' & - _, starting and "
            "ending with a letter or digit.",
        )
    return name


async def create_event(db: Database, spec: EventSpec, director_id: int) -> int:
    """Write a new event, open for teams to register; its id."""
    name, rules = _validate(spec)
    async with db.begin() as s:
        row = DuplicateEvent(
            name=name,
            preset=get_rules(spec.preset).name,
            rules=json.dumps(rules.to_dict()),
            rounds=spec.rounds,
            hands_per_round=spec.hands_per_round,
            confirm_seconds=spec.confirm_seconds,
            bot_level=spec.bot_level,
            seed=spec.seed if spec.seed is not None else random.SystemRandom().randrange(2**31),
            status="registering",
            round=0,
            starts_at=spec.starts_at,
            director_id=director_id,
            created_at=time.time(),
        )
        s.add(row)
        await s.flush()
        log.info("event created", extra={"event": row.id, "preset": row.preset})
        return row.id


async def create_team(db: Database, event_id: int, user_id: int, name: str) -> int:
    """A new team captained by ``user_id`` (its player 1); the team's id."""
    name = _team_name(name)
    async with db.begin() as s:
        row = await _locked(s, event_id)
        _registering(row)
        await _not_in_a_team(s, event_id, user_id)
        taken = await s.scalar(
            select(DuplicateTeam.id).where(
                DuplicateTeam.event_id == event_id, func.lower(DuplicateTeam.name) == name.lower()
            )
        )
        if taken is not None:
            raise EventError("team_name_taken", f"A team called {name!r} is already registered.")
        team = DuplicateTeam(event_id=event_id, name=name, bot=False, created_at=time.time())
        s.add(team)
        await s.flush()
        s.add(DuplicateMember(event_id=event_id, team_id=team.id, number=1, user_id=user_id))
        return team.id


async def _not_in_a_team(s: AsyncSession, event_id: int, user_id: int) -> None:
    if await s.scalar(
        select(DuplicateMember.id).where(
            DuplicateMember.event_id == event_id, DuplicateMember.user_id == user_id
        )
    ):
        raise EventError("already_registered", "You are already in a team of this event.")


async def join_team(db: Database, event_id: int, team_id: int, user_id: int) -> int:
    """``user_id`` joins the team as its next player; their number (2 or 3)."""
    async with db.begin() as s:
        row = await _locked(s, event_id)
        _registering(row)
        team = await s.get(DuplicateTeam, team_id)
        if team is None or team.event_id != event_id:
            raise EventError("no_team", f"Event {event_id} has no team {team_id}.")
        if team.bot:
            raise EventError("team_full", "A bot team has no place for a person.")
        await _not_in_a_team(s, event_id, user_id)
        numbers = set(
            (
                await s.scalars(
                    select(DuplicateMember.number).where(DuplicateMember.team_id == team_id)
                )
            ).all()
        )
        free = [n for n in range(1, TABLES + 1) if n not in numbers]
        if not free:
            raise EventError("team_full", f"Team {team.name!r} has its three players.")
        s.add(DuplicateMember(event_id=event_id, team_id=team_id, number=free[0], user_id=user_id))
        return free[0]


async def leave_team(db: Database, event_id: int, user_id: int) -> None:
    """``user_id`` leaves their team before the start (a team left empty is removed)."""
    async with db.begin() as s:
        row = await _locked(s, event_id)
        _registering(row)
        member = await s.scalar(
            select(DuplicateMember).where(
                DuplicateMember.event_id == event_id, DuplicateMember.user_id == user_id
            )
        )
        if member is None:
            raise EventError("not_registered", "You are not in a team of this event.")
        team_id = member.team_id
        await s.delete(member)
        await s.flush()
        left = await s.scalar(
            select(func.count(DuplicateMember.id)).where(DuplicateMember.team_id == team_id)
        )
        if not left:
            await s.execute(delete(DuplicateTeam).where(DuplicateTeam.id == team_id))


async def add_bot_teams(db: Database, accounts: Accounts, event_id: int, count: int) -> list[int]:
    """Register ``count`` teams of bots (a practice event, or a short field filled up)."""
    if not 1 <= count <= 30:
        raise _bad("Add 1 to 30 bot teams at a time.")
    made: list[int] = []
    for _ in range(count):
        async with db.begin() as s:
            row = await _locked(s, event_id)
            _registering(row)
            teams = await s.scalar(
                select(func.count(DuplicateTeam.id)).where(DuplicateTeam.event_id == event_id)
            )
            k = int(teams or 0) + 1
            names = set(
                (
                    await s.scalars(
                        select(DuplicateTeam.name).where(DuplicateTeam.event_id == event_id)
                    )
                ).all()
            )
            while f"Bots {k}" in names:
                k += 1
            team = DuplicateTeam(
                event_id=event_id, name=f"Bots {k}", bot=True, created_at=time.time()
            )
            s.add(team)
            await s.flush()
            team_id = team.id
        for number in range(1, TABLES + 1):
            user_id = await accounts.bot(f"ev{event_id}-t{team_id}-{number}")
            async with db.begin() as s:
                s.add(
                    DuplicateMember(
                        event_id=event_id, team_id=team_id, number=number, user_id=user_id
                    )
                )
        made.append(team_id)
    return made


async def cancel_event(db: Database, event_id: int) -> None:
    """Cancel an event before it starts (nothing was played; no chips were ever at stake)."""
    async with db.begin() as s:
        row = await _locked(s, event_id)
        _registering(row)
        row.status = "cancelled"
        row.finished_at = time.time()
