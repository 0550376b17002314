"""The tables' side of an event: :class:`DuplicateHook`, each event table's dealer and
director, which its owner calls before every deal and after every hand. It deals a group's three
tables the same cards, holds a deal until the previous hand is settled and confirmed at all
three, keeps every seat taken (a disqualified team's by the room's bot) and, when the round's
hands are played, moves the event on (:func:`.rounds.advance`)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.engine.actions import Leave, Sit, SitIn
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.deck import Deal, fresh_deal
from thirteen.engine.state import Phase
from thirteen.server.competitions.duplicate import TABLES, seating
from thirteen.server.competitions.events.common import EVENT_STACK
from thirteen.server.competitions.events.rounds import _confirm_wait, _people, advance
from thirteen.server.db.models import (
    DuplicateDeal,
    DuplicateEvent,
    DuplicateMember,
    DuplicateTable,
    DuplicateTeam,
    Hand,
    User,
)
from thirteen.server.db.session import Database
from thirteen.server.money.accounts import Accounts
from thirteen.server.tables.owner import TableOwner

HOLD_SECONDS = 0.5
"""How soon a held deal asks again (a sibling table on another process settled, a player
confirmed there); on this process the sibling wakes it at once."""


@dataclass
class _Seat:
    team_id: int
    number: int
    user_id: int
    name: str


class DuplicateHook:
    """An event table's dealer and director (see the package's docstring). The owner calls it
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
