"""An event's scoreboard, read for its pages: everything about it loaded in one transaction,
its summary, the listing of events, and the standings (teams ranked by points and rulings, each
round's groups, tables and hands, a hand's result shown only once its three tables settled it).
(Not named ``standings``: that is the package's function, and a module of the same name would
hide behind it on the package.)

The loaded event and its readings by group and by hand serve :mod:`.results` too."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from thirteen.engine.rules import get_rules
from thirteen.server.competitions.duplicate import TABLES, seating
from thirteen.server.competitions.events.common import EventError
from thirteen.server.db.models import (
    DuplicateConfirmation,
    DuplicateDeal,
    DuplicateEvent,
    DuplicateMember,
    DuplicateRuling,
    DuplicateTable,
    DuplicateTeam,
    Hand,
    HandSeat,
    User,
)
from thirteen.server.db.session import Database


@dataclass
class _Loaded:
    row: DuplicateEvent
    teams: list[DuplicateTeam]
    members: list[tuple[DuplicateMember, str]]
    tables: list[DuplicateTable]
    hands: dict[int, dict[int, Hand]]
    seats: dict[int, dict[int, tuple[int | None, str]]]
    rulings: list[tuple[DuplicateRuling, str, str]]
    """Each ruling with its player's name and its director's."""
    director: str
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
    by = aliased(User)
    rulings = [
        (r, n, b)
        for r, n, b in (
            await s.execute(
                select(DuplicateRuling, User.name, by.name)
                .join(User, User.id == DuplicateRuling.user_id)
                .join(by, by.id == DuplicateRuling.by_id)
                .where(DuplicateRuling.event_id == event_id)
                .order_by(DuplicateRuling.id)
            )
        ).all()
    ]
    director = await s.scalar(select(User.name).where(User.id == row.director_id)) or ""
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
    return _Loaded(row, teams, members, tables, hands, seats, rulings, director, confirmed, roots)


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
    three have settled it (never before); and the rulings that changed the standings after the
    finish (``changed_after_finish``: which, by whom, when and why)."""
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
    for ruling, player, by in loaded.rulings:
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
                "by": by,
                "after_finish": ruling.after_finish,
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
        "director": loaded.director,
        "standings": out_teams,
        "round_results": rounds_out,
        "rulings": rulings_out,
        "changed_after_finish": [
            {k: r[k] for k in ("id", "kind", "player", "by", "at", "reason")}
            for r in rulings_out
            if r["after_finish"]
        ],
    }
