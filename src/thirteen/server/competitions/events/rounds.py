"""An event's rounds: starting it (the draw of the groups), opening a round's tables,
moving it on (:func:`advance`: the next round once every table played its hands and the team
totals are confirmed, or the end), the players' confirmations, which events the room should look
at, and where a player sits now.

The confirmation gate (:func:`_confirm_wait`, :func:`_people`) serves both the round's end here
and each hand's deal in :mod:`.hook`."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.errors import RuleError
from thirteen.engine.history import snapshot_to_json
from thirteen.engine.rules import get_rules
from thirteen.engine.state import new_table
from thirteen.server.competitions.duplicate import TABLES, schedule
from thirteen.server.competitions.events.common import (
    EVENT_STACK,
    EventError,
    _locked,
    _member_table,
    _registering,
    log,
)
from thirteen.server.db.models import (
    DuplicateConfirmation,
    DuplicateEvent,
    DuplicateMember,
    DuplicateTable,
    DuplicateTeam,
    GameTable,
    Hand,
    User,
)
from thirteen.server.db.session import Database


async def start_event(db: Database, event_id: int) -> None:
    """Draw the rounds' groups and open the first round's tables."""
    async with db.begin() as s:
        row = await _locked(s, event_id)
        _registering(row)
        await _start(s, row)


async def _start(s: AsyncSession, row: DuplicateEvent) -> None:
    teams = (
        await s.scalars(
            select(DuplicateTeam).where(DuplicateTeam.event_id == row.id).order_by(DuplicateTeam.id)
        )
    ).all()
    counts = dict(
        (
            await s.execute(
                select(DuplicateMember.team_id, func.count(DuplicateMember.id))
                .where(DuplicateMember.event_id == row.id)
                .group_by(DuplicateMember.team_id)
            )
        ).all()
    )
    short = [t.name for t in teams if counts.get(t.id, 0) < TABLES]
    if short:
        raise EventError(
            "teams_not_ready",
            f"Every team needs its three players before the start; {', '.join(short)} "
            f"{'has' if len(short) == 1 else 'have'} fewer.",
        )
    if len(teams) < TABLES or len(teams) % TABLES:
        raise EventError(
            "teams_not_ready",
            f"An event needs a multiple of three teams (3, 6, 9, …); {len(teams)} registered. "
            "Fill the field with bot teams.",
        )
    # a thread: a large field's search takes seconds, and the room's other tables go on
    plan = await asyncio.to_thread(schedule, len(teams), row.rounds, row.seed)
    ids = [t.id for t in teams]
    row.schedule = json.dumps([[[ids[i] for i in g] for g in groups] for groups in plan])
    row.status = "running"
    row.started_at = time.time()
    await _open_round(s, row, 1)
    log.info("event started", extra={"event": row.id, "teams": len(teams)})


async def _open_round(s: AsyncSession, row: DuplicateEvent, round_: int) -> None:
    """Write round ``round_``'s tables (three a group) and make it the event's round."""
    assert row.schedule is not None
    groups: list[list[int]] = json.loads(row.schedule)[round_ - 1]
    try:
        rules = get_rules(row.preset, _overrides(row))
    except RuleError as e:  # stored before today's schema: nothing of the round is written
        raise EventError(
            "bad_event",
            f"Event {row.id} cannot open round {round_}: its rules are refused ({e.message})",
        ) from None
    now = time.time()
    for g, group in enumerate(groups):
        for position in range(TABLES):
            state = new_table(
                rules, seats=TABLES, min_buy_in=EVENT_STACK, max_buy_in=EVENT_STACK, point_value=1
            )
            table = GameTable(
                name=_table_name(row.name, round_, g, position),
                preset=row.preset,
                rules=row.rules,
                seats=TABLES,
                unit=1,
                min_buy_in=EVENT_STACK,
                max_buy_in=EVENT_STACK,
                bots=0,
                bot_level=row.bot_level,
                practice=False,
                time_bank_seconds=30.0,
                sit_out_hands=10**6,
                status="open",
                created_at=now,
                snapshot=json.dumps(snapshot_to_json(state)),
                snapshot_state_id=0,
                event_id=row.id,
            )
            s.add(table)
            await s.flush()
            s.add(
                DuplicateTable(
                    event_id=row.id,
                    round=round_,
                    grp=g,
                    position=position,
                    table_id=table.id,
                    teams=json.dumps(group),
                )
            )
    row.round = round_
    log.info("event round opens", extra={"event": row.id, "round": round_})


def _table_name(event: str, round_: int, group: int, position: int) -> str:
    """``Event · round 2 · group 1 · table 3``, the event's name cut to fit 64 characters."""
    suffix = f" · round {round_} · group {group + 1} · table {position + 1}"
    return event[: 64 - len(suffix)].rstrip() + suffix


def _overrides(row: DuplicateEvent) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(row.rules)
    base = get_rules(row.preset).to_dict()
    return {k: v for k, v in data.items() if base.get(k) != v}


async def advance(db: Database, event_id: int) -> float | None:
    """Move a running event on when it can: start it at its start time; open the next round
    (or finish) once every table of the round played its hands and the team totals are
    confirmed. Returns when to look again (``None``: nothing to wait for); new tables when
    it opened a round are for the room to discover."""
    async with db.begin() as s:
        row = await s.get(DuplicateEvent, event_id)
        if row is None:
            return None
        if row.status == "registering":
            if row.starts_at is None or row.starts_at > time.time():
                return row.starts_at
            row = await _locked(s, event_id)
            if row.status == "registering":
                try:
                    async with s.begin_nested():
                        await _start(s, row)
                except EventError as e:  # its field is not ready: it starts once it is (a
                    # team's registering looks again), or when the director starts it
                    log.debug("event waits for its field", extra={"event": row.id, "code": e.code})
            return None
        if row.status != "running":
            return None
        round_ = row.round
        done = await _round_done(s, row, round_)
        if done is None:
            return None
        wait = await _confirm_wait(s, row, round_, 0, done)
        if wait is not None:
            return wait
        row = await _locked(s, event_id)
        if row.status != "running" or row.round != round_:
            return None
        if round_ >= row.rounds:
            row.status = "finished"
            row.finished_at = time.time()
            log.info("event finished", extra={"event": row.id})
            return None
        await _open_round(s, row, round_ + 1)
        return None


async def _round_done(s: AsyncSession, row: DuplicateEvent, round_: int) -> float | None:
    """When the round's last table settled its last hand, or ``None`` while one still plays."""
    tables = (
        await s.scalars(
            select(DuplicateTable.table_id).where(
                DuplicateTable.event_id == row.id, DuplicateTable.round == round_
            )
        )
    ).all()
    last = (
        await s.execute(
            select(func.count(Hand.id), func.max(Hand.finished_at)).where(
                Hand.table_id.in_(tables),
                Hand.number == row.hands_per_round,
                Hand.status == "settled",
            )
        )
    ).one()
    if not tables or last[0] < len(tables):
        return None
    return float(last[1] or 0.0)


async def _confirm_wait(
    s: AsyncSession,
    row: DuplicateEvent,
    round_: int,
    hand: int,
    since: float,
    people: set[int] | None = None,
) -> float | None:
    """``None`` when a result (``hand`` 0: the round's totals) is confirmed — by every person
    who played it (``people``; default: the round's), or by itself ``confirm_seconds`` after
    ``since`` — else when to look again."""
    due = since + row.confirm_seconds
    if time.time() >= due:
        return None
    if people is None:
        people = set(await _people(s, row.id, round_))
    confirmed = set(
        (
            await s.scalars(
                select(DuplicateConfirmation.user_id).where(
                    DuplicateConfirmation.event_id == row.id,
                    DuplicateConfirmation.round == round_,
                    DuplicateConfirmation.hand == hand,
                )
            )
        ).all()
    )
    return None if people <= confirmed else due


async def _people(
    s: AsyncSession,
    event_id: int,
    round_: int,
    grp: int | None = None,
    out: set[int] | None = None,
) -> list[int]:
    """The people (not bots, not disqualified — or not in ``out``, the teams already known
    to be out) who play round ``round_`` (one group's)."""
    query = (
        select(DuplicateMember.user_id)
        .join(DuplicateTeam, DuplicateTeam.id == DuplicateMember.team_id)
        .join(User, User.id == DuplicateMember.user_id)
        .where(
            DuplicateMember.event_id == event_id,
            DuplicateTeam.bot.is_(False),
            DuplicateTeam.id.not_in(out)
            if out is not None
            else DuplicateTeam.disqualified_at.is_(None),
            User.role != "bot",
        )
    )
    if grp is not None:
        teams = await s.scalar(
            select(DuplicateTable.teams).where(
                DuplicateTable.event_id == event_id,
                DuplicateTable.round == round_,
                DuplicateTable.grp == grp,
            )
        )
        query = query.where(DuplicateMember.team_id.in_(json.loads(teams or "[]")))
    return list((await s.scalars(query)).all())


async def confirm(db: Database, event_id: int, user_id: int, round_: int, hand: int) -> None:
    """``user_id`` confirms a hand's result (``hand`` 0: the round's team totals)."""
    async with db.begin() as s:
        row = await s.get(DuplicateEvent, event_id)
        if row is None:
            raise EventError("no_event", f"There is no event {event_id}.")
        if not 1 <= round_ <= row.round or not 0 <= hand <= row.hands_per_round:
            raise EventError("bad_confirmation", "There is no such result to confirm yet.")
        member = await s.scalar(
            select(DuplicateMember).where(
                DuplicateMember.event_id == event_id, DuplicateMember.user_id == user_id
            )
        )
        if member is None:
            raise EventError("not_registered", "Only the event's players confirm its results.")
        # only a result there is: the hand (for the totals, the round's last hand) settled at
        # the player's table in that round
        placed = await _member_table(s, event_id, round_, member)
        table_id = placed.table_id if placed is not None else None
        settled = await s.scalar(
            select(Hand.id).where(
                Hand.table_id == table_id,
                Hand.number == (hand or row.hands_per_round),
                Hand.status == "settled",
            )
        )
        if settled is None:
            raise EventError("bad_confirmation", "There is no such result to confirm yet.")
        known = await s.scalar(
            select(DuplicateConfirmation.at).where(
                DuplicateConfirmation.event_id == event_id,
                DuplicateConfirmation.round == round_,
                DuplicateConfirmation.hand == hand,
                DuplicateConfirmation.user_id == user_id,
            )
        )
        if known is None:
            s.add(
                DuplicateConfirmation(
                    event_id=event_id, round=round_, hand=hand, user_id=user_id, at=time.time()
                )
            )


async def seat_of(db: Database, event_id: int, user_id: int) -> dict[str, Any] | None:
    """A player's team and number, and their table in the round in play (if it is open)."""
    async with db.begin() as s:
        row = await s.get(DuplicateEvent, event_id)
        member = await s.scalar(
            select(DuplicateMember).where(
                DuplicateMember.event_id == event_id, DuplicateMember.user_id == user_id
            )
        )
        if row is None or member is None:
            return None
        table_id = None
        placed = await _member_table(s, event_id, row.round, member)
        if row.status == "running" and placed is not None:
            status = await s.scalar(select(GameTable.status).where(GameTable.id == placed.table_id))
            table_id = placed.table_id if status != "closed" else None
        return {"team": member.team_id, "number": member.number, "table_id": table_id}


async def due_events(db: Database) -> list[int]:
    """Events the room should look at: running, or registering with a start time."""
    async with db.begin() as s:
        return list(
            (
                await s.scalars(
                    select(DuplicateEvent.id).where(
                        (DuplicateEvent.status == "running")
                        | (
                            (DuplicateEvent.status == "registering")
                            & DuplicateEvent.starts_at.is_not(None)
                        )
                    )
                )
            ).all()
        )
