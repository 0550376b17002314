"""The director's rulings (seed 004 §V.2): a foul, which scores the player's hand again as
fouled and keeps the points it moves; a warning; a disqualification, which takes the team out of
the ranking.

Only the event's director — the admin who created it (``duplicate_events.director_id``) — rules
on it; another admin is refused (``not_director``). A ruling on a finished event is allowed (a
foul found in the histories afterwards), always with its reason, and is marked
``after_finish``: the standings and the results then say that they were changed after the
finish, by whom, when and why (:mod:`.scoreboard`, :mod:`.results`)."""

from __future__ import annotations

import json
import time

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.history import history_from_json, replay
from thirteen.engine.scoring import score
from thirteen.engine.table import _showing
from thirteen.server.competitions.duplicate import seating
from thirteen.server.competitions.events.common import EventError, _locked, _member_table, log
from thirteen.server.db.models import (
    DuplicateEvent,
    DuplicateMember,
    DuplicateRuling,
    DuplicateTeam,
    Hand,
    User,
)
from thirteen.server.db.session import Database

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
    """Record a ruling of the event's director ``by_id``; its id. ``foul`` scores the player's
    hand of round ``round_`` again as fouled and keeps the difference; ``disqualify`` takes the
    player's team out of the ranking (its seats are played by the room's bot from the next
    deal). Anyone else is refused with ``not_director``; after the finish the ruling is marked
    as changing the final standings."""
    reason = " ".join(reason.split())
    if kind not in RULING_KINDS:
        raise EventError("bad_ruling", f"A ruling is one of {', '.join(RULING_KINDS)}.")
    if not 1 <= len(reason) <= 500:
        raise EventError("bad_ruling", "A ruling gives its reason, in up to 500 characters.")
    async with db.begin() as s:
        row = await _locked(s, event_id)
        if row.director_id != by_id:
            director = await s.scalar(select(User.name).where(User.id == row.director_id))
            raise EventError(
                "not_director",
                f"Only the event's director, {director}, may rule on event {event_id}.",
            )
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
            after_finish=row.status == "finished",
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
        log.info(
            "ruling",
            extra={
                "event": event_id,
                "kind": kind,
                "ruling": ruling.id,
                "after_finish": ruling.after_finish,
            },
        )
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
