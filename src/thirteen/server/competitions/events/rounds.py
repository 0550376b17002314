"""Duplicate team events (seed 004): registering teams, running the rounds, the standings.

A director (an admin) creates an event: the game (any preset that seats three; by default
``open-face-cards``), rounds, hands per round, seconds to confirm a result. Teams of three
register: a captain names the team (player 1), two teammates join it (players 2 and 3); the
director may fill the field with bot teams. At the start the room draws the rounds' groups of
three teams (:func:`.duplicate.schedule`) and opens the first round's tables: for a group
``A, B, C`` three tables seated ``A1 B1 C1 / B2 C2 A2 / C3 A3 B3`` (:func:`.duplicate.seating`).

Each table is run by the room like any other (one owner task, the journal, a restart rebuilds
it) with :class:`DuplicateHook` as both its hook and its dealer:

- **The same cards.** Hand ``n`` of a group is dealt at its three tables from one deck order
  with the same salts (a :class:`~.db.models.DuplicateDeal` row, written by whichever table
  needs it first), so the same seat gets the same cards at every table and the three hands'
  histories carry the same deck root. (Their commitments differ: each binds its own table's
  header — who sits where with what — to that root.)
- **Together, hand by hand.** A table deals hand ``n + 1`` only when the three tables have all
  settled hand ``n`` and its nine players confirmed the result, or ``confirm_seconds`` passed
  since the last of the three settled (a result confirms itself; bots confirm at once). So no
  table is ever a hand ahead, and nothing about one table's play of a deal — its result, its
  timing — can reach another before all three played it: event tables are not in the lobby,
  only their own players and the director may open them, and the standings count a hand only
  once all three tables settled it.
- **Nobody leaves.** Stacks are points (:data:`EVENT_STACK` each; nobody runs out), the room
  seats the players, a player who timed out is dealt in again (the table plays for an absent
  player at every deadline), and leave, sit-out and top-up are refused.
- **Rounds.** When a table has played the round's hands it closes; when every table of the
  round has, and its players confirmed the team totals (or ``confirm_seconds`` passed), the
  next round's tables open — exactly once, whichever process sees it first (the event's row
  moves from round ``r`` to ``r + 1`` in the transaction that writes them). After the last
  round the event is finished.

**Scores** are the table's own (seed 004: ±1 per row, a foul −12 and +6 to each other player,
fans): a hand's points are what its settlement wrote for each seat (the unit is one point), and
a team's score is the sum of its members' at the three tables. **Rulings**: the director can
rule that a player's hand was not set according to the rules (the hand is scored again with
that player fouled — −12 basis points, +6 to each other player — and the difference is added
to the teams' scores, seed 004 §V.2), warn, or disqualify (the team is listed apart and ranked
after the others; its seats are played by the room's bot from the next hand on, so the other
teams' comparisons stay whole). Every ruling is kept with its reason and shown in the standings.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.actions import Leave, Sit, SitIn
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.deck import Deal, fresh_deal
from thirteen.engine.errors import RuleError
from thirteen.engine.history import history_from_json, replay, snapshot_to_json
from thirteen.engine.rules import get_rules
from thirteen.engine.scoring import score
from thirteen.engine.state import Phase, new_table
from thirteen.engine.table import _showing
from thirteen.server.competitions.duplicate import TABLES, schedule, seating
from thirteen.server.db.models import (
    DuplicateConfirmation,
    DuplicateDeal,
    DuplicateEvent,
    DuplicateMember,
    DuplicateRuling,
    DuplicateTable,
    DuplicateTeam,
    GameTable,
    Hand,
    HandSeat,
    User,
)
from thirteen.server.db.session import Database, lock_row
from thirteen.server.money.accounts import Accounts
from thirteen.server.tables.owner import TableOwner

log = logging.getLogger("thirteen.server.events")

EVENT_STACK = 1_000_000
"""Points each seat starts a round with: nobody can run out."""
HOLD_SECONDS = 0.5
"""How soon a held deal asks again (a sibling table on another process settled, a player
confirmed there); on this process the sibling wakes it at once."""
MAX_ROUNDS = 50
MAX_HANDS = 100
TEAM_NAME = re.compile(r"^[\w][\w .'&-]{0,38}[\w.']$|^\w$")
STATUSES = ("registering", "running", "finished", "cancelled")


class EventError(RuleError):
    """A request about an event that cannot be done (not registering, team full, …)."""


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


# ---------------------------------------------------------------------------- registering
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


# ---------------------------------------------------------------------------- starting
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
    rules = get_rules(row.preset, _overrides(row))
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


# ---------------------------------------------------------------------------- the tables
@dataclass
class _Seat:
    team_id: int
    number: int
    user_id: int
    name: str


class DuplicateHook:
    """An event table's dealer and director (see the module's docstring). The owner calls it
    from its own task, so it is never concurrent with the table's other actions.

    ``wake(table_id)`` wakes a table of this process (a sibling whose deal may be held);
    ``look(event_id, delay)`` asks the room to look at the event after ``delay`` seconds (a
    round may be over, its next round's tables to open)."""

    def __init__(
        self,
        db: Database,
        accounts: Accounts,
        table_id: int,
        *,
        wake: Callable[[int], None],
        look: Callable[[int, float], None],
    ) -> None:
        self.db = db
        self.accounts = accounts
        self.table_id = table_id
        self.wake = wake
        self.look = look
        self.event_id = 0
        self.round = 0
        self.grp = 0
        self.position = 0
        self.hands = 0
        self.confirm_seconds = 0.0
        self.siblings: list[int] = []
        self.seats: list[_Seat] = []
        self.allowed: set[int] = set()

    async def load(self) -> None:
        """Read who sits where (before the table starts)."""
        async with self.db.begin() as s:
            placed = await s.scalar(
                select(DuplicateTable).where(DuplicateTable.table_id == self.table_id)
            )
            assert placed is not None
            row = await s.get(DuplicateEvent, placed.event_id)
            assert row is not None
            self.event_id, self.round, self.grp = row.id, placed.round, placed.grp
            self.position = placed.position
            self.hands, self.confirm_seconds = row.hands_per_round, row.confirm_seconds
            self.siblings = list(
                (
                    await s.scalars(
                        select(DuplicateTable.table_id).where(
                            DuplicateTable.event_id == row.id,
                            DuplicateTable.round == placed.round,
                            DuplicateTable.grp == placed.grp,
                        )
                    )
                ).all()
            )
            members = {
                (m.team_id, m.number): (m.user_id, name)
                for m, name in (
                    await s.execute(
                        select(DuplicateMember, User.name)
                        .join(User, User.id == DuplicateMember.user_id)
                        .where(DuplicateMember.event_id == row.id)
                    )
                ).all()
            }
            teams: list[int] = json.loads(placed.teams)
            self.seats = [
                _Seat(team, number, *members[(team, number)])
                for team, number in seating(teams)[placed.position]
            ]
            self.allowed = {seat.user_id for seat in self.seats} | {row.director_id}

    def may_watch(self, user_id: int | None) -> bool:
        return user_id is not None and user_id in self.allowed

    async def next_deal(self, owner: TableOwner) -> Deal | float:
        number = owner.state.hands_played + 1
        if number > self.hands:
            return time.time() + 3600.0  # the round is over here: the table is closing
        # the teams out are read once, before the gate: a disqualification that lands later
        # keeps its team's people among those a result waits for, until the next look
        out = await self._out()
        if number > 1:
            async with self.db.begin() as s:
                row = await s.get(DuplicateEvent, self.event_id)
                assert row is not None
                finished = (
                    await s.execute(
                        select(func.count(Hand.id), func.max(Hand.finished_at)).where(
                            Hand.table_id.in_(self.siblings),
                            Hand.number == number - 1,
                            Hand.status == "settled",
                        )
                    )
                ).one()
                if finished[0] < len(self.siblings):
                    return time.time() + HOLD_SECONDS
                people = set(await _people(s, self.event_id, self.round, self.grp, out))
                wait = None
                if people:
                    wait = await _confirm_wait(
                        s, row, self.round, number - 1, float(finished[1] or 0.0), people
                    )
                if wait is not None:
                    return min(wait, time.time() + HOLD_SECONDS)
        # every seat taken (a disqualified team's by the room's bot) and dealt in (a restart
        # may come between a hand's end and the hook that sits its absent players in): a deal
        # must reach the same three seats at the three tables
        await self._seat_everyone(owner, out)
        for seat, who in enumerate(owner.state.seats):
            if who is not None and who.sitting_out:
                await owner.accept_here(SitIn(seat=seat, at=time.time()))
        if sum(1 for who in owner.state.seats if who is not None) < TABLES:
            return time.time() + HOLD_SECONDS
        async with self.db.begin() as s:
            return await self._deal(s, number)

    async def _out(self) -> set[int]:
        """The event's disqualified teams."""
        async with self.db.begin() as s:
            return set(
                (
                    await s.scalars(
                        select(DuplicateTeam.id).where(
                            DuplicateTeam.event_id == self.event_id,
                            DuplicateTeam.disqualified_at.is_not(None),
                        )
                    )
                ).all()
            )

    async def _deal(self, s: AsyncSession, number: int) -> Deal:
        key = (self.event_id, self.round, self.grp, number)
        known = await s.get(DuplicateDeal, key)
        if known is None:
            fresh = fresh_deal()
            try:
                async with s.begin_nested():
                    s.add(
                        DuplicateDeal(
                            event_id=self.event_id,
                            round=self.round,
                            grp=self.grp,
                            hand=number,
                            deck=format_cards(fresh.order),
                            salts=json.dumps([salt.hex() for salt in fresh.salts]),
                            root=fresh.root,
                        )
                    )
                return fresh
            except IntegrityError:  # a sibling on another process wrote it first
                known = await s.get(DuplicateDeal, key)
                assert known is not None
        return Deal.from_order(
            parse_cards(known.deck), [bytes.fromhex(x) for x in json.loads(known.salts)]
        )

    async def after_hand(self, owner: TableOwner) -> None:
        if owner.settings.status != "open":  # closing or closed: its round is over here (a
            return  # look queued at a restart may come after the close; it must seat nobody)
        async with self.db.begin() as s:
            row = await s.get(DuplicateEvent, self.event_id)
            assert row is not None
        out = await self._out()
        if row.status != "running":
            if owner.settings.status == "open":
                await owner.close_after_hand()
            return
        if owner.state.phase == Phase.PLAYING:
            return
        await self._seat_everyone(owner, out)
        for seat, who in enumerate(owner.state.seats):
            if who is not None and who.sitting_out:
                await owner.accept_here(SitIn(seat=seat, at=time.time()))
        for sibling in self.siblings:
            if sibling != self.table_id:
                self.wake(sibling)
        if owner.state.hands_played >= self.hands:
            # the round may be over: the next round's tables are written (or the event
            # finished) before this table says it closed; the room then runs them
            again = await advance(self.db, self.event_id)
            if owner.settings.status == "open":
                await owner.close_after_hand()
            self.look(self.event_id, 0.0 if again is None else again - time.time())

    async def _seat_everyone(self, owner: TableOwner, out: set[int]) -> None:
        """Seat each of the table's players who has no seat (at the start; after a crash in
        the middle of seating, the rest); a disqualified team's player gives the seat — and
        its points — to the room's bot."""
        for seat, wanted in enumerate(self.seats):
            who = owner.seated.get(seat)
            taken = owner.state.seats[seat]
            if wanted.team_id in out and who is not None and who.user_id == wanted.user_id:
                await owner.accept_here(Leave(seat=seat, at=time.time()))
                name = f"ev{self.event_id}-sub-t{wanted.team_id}-{wanted.number}"
                bot = await self.accounts.bot(name)
                sit = Sit(seat=seat, player=name, stack=EVENT_STACK, at=time.time())
                await owner.accept_here(sit, user_id=bot)
                continue
            if taken is None:
                sit = Sit(seat=seat, player=wanted.name, stack=EVENT_STACK, at=time.time())
                await owner.accept_here(sit, user_id=wanted.user_id)


# ---------------------------------------------------------------------------- rulings
RULING_KINDS = ("foul", "warning", "disqualify")


async def rule(
    db: Database,
    event_id: int,
    by_id: int,
    *,
    kind: str,
    player: str,
    reason: str,
    round_: int | None = None,
    hand: int | None = None,
) -> int:
    """Record a director's ruling; its id. ``foul`` scores the player's hand of round
    ``round_`` again as fouled and keeps the difference; ``disqualify`` takes the player's team
    out of the ranking (its seats are played by the room's bot from the next deal)."""
    reason = " ".join(reason.split())
    if kind not in RULING_KINDS:
        raise EventError("bad_ruling", f"A ruling is one of {', '.join(RULING_KINDS)}.")
    if not 1 <= len(reason) <= 500:
        raise EventError("bad_ruling", "A ruling gives its reason, in up to 500 characters.")
    async with db.begin() as s:
        row = await _locked(s, event_id)
        if row.status not in ("running", "finished"):
            raise EventError("bad_ruling", f"Event {event_id} is {row.status}: nothing to rule on.")
        found = (
            await s.execute(
                select(DuplicateMember, DuplicateTeam)
                .join(User, User.id == DuplicateMember.user_id)
                .join(DuplicateTeam, DuplicateTeam.id == DuplicateMember.team_id)
                .where(
                    DuplicateMember.event_id == event_id, func.lower(User.name) == player.lower()
                )
            )
        ).first()
        if found is None:
            raise EventError("no_player", f"{player!r} plays in no team of this event.")
        member, team = found
        ruling = DuplicateRuling(
            event_id=event_id,
            kind=kind,
            user_id=member.user_id,
            round=round_,
            hand=hand,
            adjustments="[]",
            reason=reason,
            by_id=by_id,
            at=time.time(),
        )
        if kind == "foul":
            if round_ is None or hand is None:
                raise EventError("bad_ruling", "A foul ruling names the round and the hand.")
            await _rule_foul(s, row, member, ruling, round_, hand)
        elif kind == "disqualify":
            if team.disqualified_at is not None:
                raise EventError("bad_ruling", f"Team {team.name!r} is already disqualified.")
            team.disqualified_at = ruling.at
        s.add(ruling)
        try:
            await s.flush()
        except IntegrityError:
            raise EventError(
                "bad_ruling", f"{player!r}'s hand {hand} of round {round_} is already ruled a foul."
            ) from None
        log.info("ruling", extra={"event": event_id, "kind": kind, "ruling": ruling.id})
        return ruling.id


async def _rule_foul(
    s: AsyncSession,
    row: DuplicateEvent,
    member: DuplicateMember,
    ruling: DuplicateRuling,
    round_: int,
    number: int,
) -> None:
    """Score the member's hand again as fouled: the points it moves, by seat and team."""
    table = await _member_table(s, row.id, round_, member)
    if table is None:
        raise EventError("bad_ruling", f"That player did not play in round {round_}.")
    seats = seating(json.loads(table.teams))[table.position]
    seat = seats.index((member.team_id, member.number))
    played = await s.scalar(
        select(Hand).where(
            Hand.table_id == table.table_id, Hand.number == number, Hand.status == "settled"
        )
    )
    if played is None or played.history is None:
        raise EventError(
            "bad_ruling", f"Hand {number} of round {round_} has not been played there."
        )
    final = replay(history_from_json(json.loads(played.history)))
    dealt = final.hand
    assert dealt is not None
    assert dealt.result is not None
    order = [b.seat for b in dealt.boards]
    if seat not in order:
        raise EventError("bad_ruling", "That player was not dealt in that hand.")
    again = score(final.rules, [_showing(b) for b in dealt.boards], ruled_foul=[order.index(seat)])
    point = final.config.point_value
    ruling.table_id = table.table_id
    ruling.adjustments = json.dumps(
        [
            {"seat": s_, "team": seats[s_][0], "points": (new - old) * point}
            for s_, new, old in zip(order, again.totals, dealt.result.totals, strict=True)
            if new != old
        ]
    )


# ---------------------------------------------------------------------------- standings
@dataclass
class _Loaded:
    row: DuplicateEvent
    teams: list[DuplicateTeam]
    members: list[tuple[DuplicateMember, str]]
    tables: list[DuplicateTable]
    hands: dict[int, dict[int, Hand]]
    seats: dict[int, dict[int, tuple[int | None, str]]]
    rulings: list[tuple[DuplicateRuling, str]]
    confirmed: dict[tuple[int, int], int]
    roots: dict[tuple[int, int, int], str]


async def _load(s: AsyncSession, event_id: int) -> _Loaded:
    row = await s.get(DuplicateEvent, event_id)
    if row is None:
        raise EventError("no_event", f"There is no event {event_id}.")
    teams = list(
        (
            await s.scalars(
                select(DuplicateTeam)
                .where(DuplicateTeam.event_id == event_id)
                .order_by(DuplicateTeam.id)
            )
        ).all()
    )
    members = [
        (m, n)
        for m, n in (
            await s.execute(
                select(DuplicateMember, User.name)
                .join(User, User.id == DuplicateMember.user_id)
                .where(DuplicateMember.event_id == event_id)
                .order_by(DuplicateMember.team_id, DuplicateMember.number)
            )
        ).all()
    ]
    tables = list(
        (
            await s.scalars(
                select(DuplicateTable)
                .where(DuplicateTable.event_id == event_id)
                .order_by(DuplicateTable.round, DuplicateTable.grp, DuplicateTable.position)
            )
        ).all()
    )
    ids = [t.table_id for t in tables]
    hands: dict[int, dict[int, Hand]] = defaultdict(dict)
    for hand in (await s.scalars(select(Hand).where(Hand.table_id.in_(ids)))).all():
        hands[hand.table_id][hand.number] = hand
    seats: dict[int, dict[int, tuple[int | None, str]]] = defaultdict(dict)
    for hand_id, seat, delta, name in (
        await s.execute(
            select(HandSeat.hand_id, HandSeat.seat, HandSeat.delta, User.name)
            .join(User, User.id == HandSeat.user_id)
            .join(Hand, Hand.id == HandSeat.hand_id)
            .where(Hand.table_id.in_(ids))
        )
    ).all():
        seats[hand_id][seat] = (delta, name)
    rulings = [
        (r, n)
        for r, n in (
            await s.execute(
                select(DuplicateRuling, User.name)
                .join(User, User.id == DuplicateRuling.user_id)
                .where(DuplicateRuling.event_id == event_id)
                .order_by(DuplicateRuling.id)
            )
        ).all()
    ]
    confirmed = {
        (r, h): int(n)
        for r, h, n in (
            await s.execute(
                select(
                    DuplicateConfirmation.round,
                    DuplicateConfirmation.hand,
                    func.count(DuplicateConfirmation.user_id),
                )
                .where(DuplicateConfirmation.event_id == event_id)
                .group_by(DuplicateConfirmation.round, DuplicateConfirmation.hand)
            )
        ).all()
    }
    roots = {
        (d.round, d.grp, d.hand): d.root
        for d in (
            await s.scalars(select(DuplicateDeal).where(DuplicateDeal.event_id == event_id))
        ).all()
    }
    return _Loaded(row, teams, members, tables, hands, seats, rulings, confirmed, roots)


def summary(row: DuplicateEvent, teams: int) -> dict[str, Any]:
    rules = get_rules(row.preset)
    return {
        "id": row.id,
        "name": row.name,
        "preset": row.preset,
        "game": rules.game,
        "status": row.status,
        "rounds": row.rounds,
        "hands_per_round": row.hands_per_round,
        "confirm_seconds": row.confirm_seconds,
        "round": row.round,
        "teams": teams,
        "starts_at": row.starts_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
    }


async def listing(db: Database) -> list[dict[str, Any]]:
    """Every event not cancelled more than a day ago, newest first."""
    since = time.time() - 86400
    async with db.begin() as s:
        rows = (
            await s.scalars(
                select(DuplicateEvent)
                .where(
                    (DuplicateEvent.status != "cancelled") | (DuplicateEvent.finished_at >= since)
                )
                .order_by(DuplicateEvent.id.desc())
            )
        ).all()
        counts = dict(
            (
                await s.execute(
                    select(DuplicateTeam.event_id, func.count(DuplicateTeam.id)).group_by(
                        DuplicateTeam.event_id
                    )
                )
            ).all()
        )
    return [summary(r, int(counts.get(r.id, 0))) for r in rows]


def _groups(loaded: _Loaded) -> dict[tuple[int, int], list[DuplicateTable]]:
    groups: dict[tuple[int, int], list[DuplicateTable]] = defaultdict(list)
    for t in loaded.tables:
        groups[(t.round, t.grp)].append(t)
    return groups


def _hand_scores(
    loaded: _Loaded, tables: Sequence[DuplicateTable], number: int
) -> tuple[bool, dict[int, int], list[dict[str, Any]]]:
    """Whether hand ``number`` was settled at the group's three tables; if so each team's
    points and every seat's result."""
    played = [loaded.hands.get(t.table_id, {}).get(number) for t in tables]
    if len(tables) < TABLES or any(h is None or h.status != "settled" for h in played):
        return False, {}, []
    teams: list[int] = json.loads(tables[0].teams)
    score_of: dict[int, int] = dict.fromkeys(teams, 0)
    out: list[dict[str, Any]] = []
    for t, hand in zip(tables, played, strict=True):
        assert hand is not None
        order = seating(teams)[t.position]
        seats = []
        for seat, (team, player) in enumerate(order):
            delta, name = loaded.seats.get(hand.id, {}).get(seat, (None, ""))
            points = int(delta or 0)
            score_of[team] += points
            seats.append(
                {"seat": seat, "team": team, "number": player, "player": name, "points": points}
            )
        out.append({"table_id": t.table_id, "position": t.position, "seats": seats})
    return True, score_of, out


async def standings(db: Database, event_id: int) -> dict[str, Any]:
    """An event as its page shows it: teams with their members, points by round, rulings and
    rank; every round's groups and tables; each hand's result at the three tables once all
    three have settled it (never before)."""
    async with db.begin() as s:
        loaded = await _load(s, event_id)
    row = loaded.row
    by_team: dict[int, dict[str, Any]] = {}
    for team in loaded.teams:
        by_team[team.id] = {
            "id": team.id,
            "name": team.name,
            "bot": team.bot,
            "disqualified": team.disqualified_at is not None,
            "members": [],
            "points": 0,
            "rulings": 0,
            "total": 0,
            "rounds": [0] * row.rounds,
            "rank": None,
        }
    for member, name in loaded.members:
        if member.team_id in by_team:
            by_team[member.team_id]["members"].append({"number": member.number, "name": name})
    rulings_by_hand: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
    rulings_out = []
    names = {t.id: t.name for t in loaded.teams}
    team_of_user = {m.user_id: m.team_id for m, _ in loaded.members}
    for ruling, player in loaded.rulings:
        moves = json.loads(ruling.adjustments)
        if ruling.round is not None and ruling.hand is not None and ruling.table_id is not None:
            rulings_by_hand[(ruling.round, ruling.hand, ruling.table_id)].extend(moves)
        rulings_out.append(
            {
                "id": ruling.id,
                "kind": ruling.kind,
                "player": player,
                "team": names.get(team_of_user.get(ruling.user_id, -1), ""),
                "round": ruling.round,
                "hand": ruling.hand,
                "table_id": ruling.table_id,
                "reason": ruling.reason,
                "at": ruling.at,
                "points": {names.get(m["team"], ""): m["points"] for m in moves},
            }
        )
    rounds_out: list[dict[str, Any]] = []
    groups = _groups(loaded)
    for r in range(1, row.round + 1):
        groups_out = []
        for (rr, g), tables in sorted(groups.items()):
            if rr != r:
                continue
            teams: list[int] = json.loads(tables[0].teams)
            hands_out = []
            for n in range(1, row.hands_per_round + 1):
                complete, scores, results = _hand_scores(loaded, tables, n)
                adjust = dict.fromkeys(teams, 0)
                if complete:
                    for t in tables:
                        for m in rulings_by_hand.get((r, n, t.table_id), ()):
                            adjust[m["team"]] += m["points"]
                    for tid in teams:
                        by_team[tid]["points"] += scores[tid]
                        by_team[tid]["rulings"] += adjust[tid]
                        by_team[tid]["rounds"][r - 1] += scores[tid] + adjust[tid]
                hands_out.append(
                    {
                        "hand": n,
                        "complete": complete,
                        "root": loaded.roots.get((r, g, n)) if complete else None,
                        "scores": {str(t): scores[t] + adjust[t] for t in teams}
                        if complete
                        else {},
                        "tables": results,
                        "confirmed": loaded.confirmed.get((r, n), 0),
                    }
                )
            groups_out.append(
                {
                    "group": g + 1,
                    "teams": teams,
                    "tables": [
                        {
                            "table_id": t.table_id,
                            "position": t.position,
                            "seats": [
                                {"team": team, "number": number}
                                for team, number in seating(teams)[t.position]
                            ],
                        }
                        for t in tables
                    ],
                    "hands": hands_out,
                }
            )
        rounds_out.append(
            {"round": r, "groups": groups_out, "confirmed": loaded.confirmed.get((r, 0), 0)}
        )
    ranked = sorted(
        (t for t in by_team.values() if not t["disqualified"]),
        key=lambda t: (-(t["points"] + t["rulings"]), t["name"]),
    )
    for entry in by_team.values():
        entry["total"] = entry["points"] + entry["rulings"]
    for i, entry in enumerate(ranked):
        tied = i > 0 and ranked[i - 1]["total"] == entry["total"]
        entry["rank"] = ranked[i - 1]["rank"] if tied else i + 1
    out_teams = ranked + [t for t in by_team.values() if t["disqualified"]]
    return {
        **summary(row, len(loaded.teams)),
        "director_id": row.director_id,
        "standings": out_teams,
        "round_results": rounds_out,
        "rulings": rulings_out,
    }


async def side_by_side(
    db: Database, event_id: int, round_: int, group: int, number: int, *, director: bool
) -> dict[str, Any]:
    """One deal as the group's three tables played it, seat by seat (the same cards each):
    each team's rows and points. Once the round is over for everyone (the director: once the
    three tables settled the hand). Discards stay hidden (RULES §4.1)."""
    async with db.begin() as s:
        loaded = await _load(s, event_id)
    row = loaded.row
    tables = _groups(loaded).get((round_, group - 1))
    if tables is None or not 1 <= number <= row.hands_per_round:
        raise EventError("no_deal", "That event has no such round, group or hand.")
    round_over = row.status == "finished" or row.round > round_
    complete, _scores, results = _hand_scores(loaded, tables, number)
    if not complete or not (round_over or director):
        raise EventError(
            "not_yet",
            "A deal is shown side by side once its round is over at every table.",
        )
    teams: list[int] = json.loads(tables[0].teams)
    names = {t.id: t.name for t in loaded.teams}
    by_seat: list[list[dict[str, Any]]] = [[] for _ in range(TABLES)]
    for t, result in zip(tables, results, strict=True):
        hand = loaded.hands[t.table_id][number]
        assert hand.history is not None
        final = replay(history_from_json(json.loads(hand.history)))
        dealt = final.hand
        assert dealt is not None
        assert dealt.result is not None
        fouls = {b.seat: p.foul for b, p in zip(dealt.boards, dealt.result.players, strict=True)}
        for b in dealt.boards:
            seat = result["seats"][b.seat]
            by_seat[b.seat].append(
                {
                    "table_id": t.table_id,
                    "team": names[seat["team"]],
                    "player": seat["player"],
                    "outcome": b.outcome,
                    "front": format_cards(b.front),
                    "middle": format_cards(b.middle),
                    "back": format_cards(b.back),
                    "foul": fouls[b.seat],
                    "points": seat["points"],
                }
            )
    return {
        "event": event_id,
        "round": round_,
        "group": group,
        "hand": number,
        "root": loaded.roots.get((round_, group - 1, number)),
        "teams": [names[t] for t in teams],
        "seats": [{"seat": i, "plays": plays} for i, plays in enumerate(by_seat)],
    }


CSV_COLUMNS = ("event", "round", "group", "hand", "table", "seat", "team", "player", "points")


async def results_csv(db: Database, event_id: int) -> str:
    """Every seat's points in every hand settled at all three tables, then the rulings."""
    data = await standings(db, event_id)
    names = {t["id"]: t["name"] for t in data["standings"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rnd in data["round_results"]:
        for grp in rnd["groups"]:
            for hand in grp["hands"]:
                for table in hand["tables"]:
                    for seat in table["seats"]:
                        writer.writerow(
                            (
                                event_id,
                                rnd["round"],
                                grp["group"],
                                hand["hand"],
                                table["table_id"],
                                seat["seat"],
                                names.get(seat["team"], ""),
                                _cell(seat["player"]),
                                seat["points"],
                            )
                        )
    for ruling in data["rulings"]:
        for team, points in ruling["points"].items():
            writer.writerow(
                (
                    event_id,
                    ruling["round"],
                    "",
                    ruling["hand"],
                    ruling["table_id"],
                    "",
                    team,
                    _cell(f"ruling {ruling['id']}: {ruling['kind']} ({ruling['player']})"),
                    points,
                )
            )
    return out.getvalue()


def _cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


__all__ = [
    "EVENT_STACK",
    "DuplicateHook",
    "EventError",
    "EventSpec",
    "add_bot_teams",
    "advance",
    "cancel_event",
    "confirm",
    "create_event",
    "create_team",
    "due_events",
    "join_team",
    "leave_team",
    "listing",
    "results_csv",
    "rule",
    "seat_of",
    "side_by_side",
    "standings",
    "start_event",
]
