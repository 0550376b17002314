"""Persistence: an accepted action journaled, its chips moved and its hand recorded in one
committed transaction, before anyone hears of it.

The database's group writer commits the actions of every table waiting at that moment together
(:mod:`thirteen.server.db.writer`); :class:`_Commit` is the piece it runs for one action — its
journal entry, the hand's rows, the chips it moves (the postings of :mod:`.seating`) and, now and
then, a snapshot of the table. A hand settles in the same transaction as the action that ended
it, keyed by the hand, so a retry can never pay twice. :class:`Journal` is what the owner keeps
for that: the hand in play's history and row, and when the next snapshot is due. Rebuilding a
table from what is written here is :mod:`.resume`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import Connection

from thirteen.engine.actions import Action, StartHand, action_to_json
from thirteen.engine.events import (
    Event,
    HandSettled,
    HandStarted,
    PlayerLeft,
    PlayerSat,
    PlayerToppedUp,
)
from thirteen.engine.history import (
    HandHistory,
    action_json,
    begin_history,
    history_to_json,
    record,
    result_summary,
    snapshot_to_json,
)
from thirteen.engine.records import quick_init, renew
from thirteen.engine.rules import Rules
from thirteen.engine.state import Phase, TableState
from thirteen.server.db.models import GameTable, Hand, HandSeat, JournalEntry
from thirteen.server.db.session import Database
from thirteen.server.db.writer import Prepared, inserted_id
from thirteen.server.tables import seating
from thirteen.server.tables.leases import fence, fence_sync
from thirteen.server.tables.live import LiveTable, Seated, now
from thirteen.server.tables.protocol import ack_frame, encode

SNAPSHOT_EVERY = 64
"""Actions between two snapshots of a table between hands (one is written as each hand
settles), so a rebuild replays only so much of its journal."""

_JOURNAL = cast(Table, JournalEntry.__table__)
_HANDS = cast(Table, Hand.__table__)
_HAND_SEATS = cast(Table, HandSeat.__table__)
_TABLES = cast(Table, GameTable.__table__)
# The group writer's statements, built once (binding values is all each action pays for).
_WRITE_JOURNAL = Prepared(insert(_JOURNAL))
_OPEN_HAND = Prepared(insert(_HANDS))
_SEAT_HAND = Prepared(insert(_HAND_SEATS))
_SETTLE_HAND = Prepared(
    update(_HANDS)
    .where(_HANDS.c.id == bindparam("h_id"), _HANDS.c.status == "playing")
    .values(status="settled", finished_at=bindparam("h_at"), history=bindparam("h_history"))
)
_HAND_SEAT_DELTA = Prepared(
    update(_HAND_SEATS)
    .where(_HAND_SEATS.c.hand_id == bindparam("h_id"), _HAND_SEATS.c.seat == bindparam("h_seat"))
    .values(delta=bindparam("h_delta"))
)
_SNAPSHOT = Prepared(
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("g_id"))
    .values(snapshot=bindparam("g_snapshot"), snapshot_state_id=bindparam("g_state_id"))
)


@quick_init
@dataclass(frozen=True)
class Step:
    """An action applied on the state before it, as :meth:`Journal.commit_together` takes
    it."""

    before: TableState
    new: TableState
    action: Action
    events: tuple[Event, ...]
    user_id: int | None
    client_id: str | None


@dataclass(frozen=True)
class _Written:
    """What a committed action tells its owner: the new hand's id, the new seats."""

    hand_id: int | None = None
    seated: dict[int, Seated] = field(default_factory=dict)


@dataclass(frozen=True)
class _Commit:
    """One accepted action's writes — its journal entry and every chip it moves — as Core
    statements on a synchronous connection, for the group writer (:meth:`Database.write`).

    Everything it needs is copied in when it is made, and it changes nothing in memory: it may
    run twice (the first run rolled back with a batch that failed) and the owner applies the
    :class:`_Written` it returns only once it is committed."""

    table_id: int
    table_name: str
    state_id: int
    action: str
    user_id: int | None
    client_id: str | None
    at: float
    events: tuple[Event, ...]
    seated: dict[int, Seated]
    hand_id: int | None
    hand_number: int | None
    history: str | None
    snapshot: str | None
    lease_token: int
    tournament: bool = False
    """A sit & go's table: seats, hands and leaving move no money (tournament chips)."""

    def __call__(self, conn: Connection) -> _Written:
        fence_sync(conn, self.table_id, self.lease_token)
        return self.write(conn)

    def write(self, conn: Connection) -> _Written:
        """The piece's writes, the lease's fence checked before in the same transaction."""
        _WRITE_JOURNAL.run(
            conn,
            {
                "table_id": self.table_id,
                "state_id": self.state_id,
                "action": self.action,
                "user_id": self.user_id,
                "client_id": self.client_id,
                "created_at": self.at,
            },
        )
        pending: dict[int, Seated] = {}
        hand_id: int | None = None
        for event in self.events:
            if isinstance(event, PlayerSat):
                assert self.user_id is not None
                pending[event.seat] = seating.buy_in_sync(conn, self, event, self.user_id)
            elif isinstance(event, PlayerToppedUp) and not self.tournament:
                seating.top_up_sync(conn, self, self.seated[event.seat], event)
            elif isinstance(event, HandStarted):
                made = _OPEN_HAND.run(
                    conn,
                    {
                        "table_id": self.table_id,
                        "number": event.number,
                        "status": "playing",
                        "commitment": event.commitment,
                        "start_state_id": self.state_id,
                        "started_at": self.at,
                    },
                )
                hand_id = inserted_id(made)
                _SEAT_HAND.run(
                    conn,
                    [
                        {"hand_id": hand_id, "seat": seat, "user_id": self.seated[seat].user_id}
                        for seat in event.seats
                    ],
                )
            elif isinstance(event, HandSettled):
                self._settle(conn, event)
            elif isinstance(event, PlayerLeft):
                who = self.seated.get(event.seat) or pending[event.seat]
                seating.cash_out_sync(conn, self, who, seating.leave_reason(who, event))
        if self.snapshot is not None:
            _SNAPSHOT.run(
                conn,
                {"g_id": self.table_id, "g_snapshot": self.snapshot, "g_state_id": self.state_id},
            )
        return _Written(hand_id, pending)

    def _settle(self, conn: Connection, event: HandSettled) -> None:
        """Move the hand's chips through its pot, once: the hand row flips from playing to
        settled in the same transaction, or the whole transaction fails."""
        hand_id = self.hand_id
        assert hand_id is not None
        assert self.hand_number is not None
        flipped = _SETTLE_HAND.run(
            conn, {"h_id": hand_id, "h_at": self.at, "h_history": self.history}
        )
        if flipped.rowcount != 1:
            raise RuntimeError(f"hand {hand_id} is not in play; it cannot be settled again")
        _HAND_SEAT_DELTA.run(  # each seat's result, for its player's hand list
            conn,
            [
                {"h_id": hand_id, "h_seat": seat, "h_delta": delta}
                for seat, delta in zip(event.seats, event.deltas, strict=True)
            ],
        )
        if self.tournament:  # tournament chips: the hand is recorded, no money moves
            return
        seating.pay_pot_sync(conn, self, self.seated, hand_id, self.hand_number, event)


@dataclass(frozen=True)
class _Together:
    """Actions applied one after another, written as one piece (all or none)."""

    works: tuple[_Commit, ...]

    def __call__(self, conn: Connection) -> list[_Written]:
        first = self.works[0]  # one table's: one fence, held for the transaction
        fence_sync(conn, first.table_id, first.lease_token)
        return [work.write(conn) for work in self.works]


class Journal:
    """What a table's owner writes, and what it keeps to write it: the hand in play's history
    and row, and the state its last snapshot was taken at."""

    def __init__(self, db: Database, table: LiveTable, *, lease_token: int) -> None:
        self.db = db
        self.table = table
        self.lease_token = lease_token
        """The fencing token of this process's lease on the table (:mod:`.leases`)."""
        self.history: HandHistory | None = None
        self.hand_id: int | None = None
        self.pending_hand_id: int | None = None
        """The hand row the last deal wrote, the hand in play once the deal is tracked."""
        self.snapshot_state_id = 0
        self._rules: tuple[Rules, dict[str, Any]] | None = None
        """The table's rules and their JSON, made once (a hand writes them twice)."""
        self._actions: list[dict[str, Any]] = []
        """The JSON of the hand in play's actions, as its history writes them."""
        self._journaled: list[tuple[Action, dict[str, Any]]] = []
        """The actions of the last piece written, each with its JSON (its history's, too,
        unless a deal)."""

    async def commit(
        self,
        new: TableState,
        action: Action,
        events: tuple[Event, ...],
        user_id: int | None,
        client_id: str | None,
    ) -> None:
        """Journal ``action`` and move its chips in one transaction — the group writer's next
        batch — and return once it is committed; only then does the table remember it."""
        (work,) = self._pieces([Step(self.table.state, new, action, events, user_id, client_id)])
        self._committed(work, await self.db.write(work))

    async def commit_together(self, steps: Sequence[Step]) -> None:
        """Journal actions applied one after another (a table's decisions queued together) as
        :meth:`commit` does, in one piece of the group writer's: all of them or none — if it
        raises, nothing was written and nothing remembered; the actions may be taken again one
        at a time."""
        works = self._pieces(steps)
        written = await self.db.write(_Together(tuple(works)))
        for work, one in zip(works, written, strict=True):
            self._committed(work, one)

    def _pieces(self, steps: Sequence[Step]) -> list[_Commit]:
        """The group writer's piece for each of ``steps``, each on the hand's history and the
        last snapshot as the ones before it leave them."""
        self._journaled = []
        history, actions, since = self.history, self._actions, self.snapshot_state_id
        works: list[_Commit] = []
        for n, step in enumerate(steps):
            if n and history is not None:  # this one's hand history holds the one before
                history = record(history, steps[n - 1].action)
                actions = [*actions, self._action_json(steps[n - 1].action)]
            work = self._piece(step, history, actions, since)
            works.append(work)
            if work.snapshot is not None:
                since = work.state_id
        return works

    def _piece(
        self,
        step: Step,
        history: HandHistory | None,
        actions: list[dict[str, Any]],
        since: int,
    ) -> _Commit:
        """The group writer's piece for one action (``history`` and ``actions``: the hand's,
        up to the one before it; ``since``: the state of the last snapshot)."""
        new, action, events = step.new, step.action, step.events
        at = now()
        settled = any(isinstance(e, HandSettled) for e in events)
        snapshot: str | None = None
        if settled or (new.phase != Phase.PLAYING and new.state_id - since >= SNAPSHOT_EVERY):
            snapshot = encode(snapshot_to_json(new, self._rules_json(new.rules)))
        table = self.table
        settings = table.settings
        journaled = action_to_json(action)
        self._journaled.append((action, journaled))
        return _Commit(
            table_id=settings.id,
            table_name=settings.name,
            state_id=new.state_id,
            action=encode(journaled),
            user_id=step.user_id,
            client_id=step.client_id,
            at=at,
            events=events,
            seated=dict(table.seated),
            hand_id=self.hand_id,
            hand_number=new.hand.number if new.hand is not None else None,
            history=self._history_json(action, new, history, actions) if settled else None,
            snapshot=snapshot,
            lease_token=self.lease_token,
            tournament=settings.is_tournament,
        )

    def _committed(self, work: _Commit, written: _Written) -> None:
        """What the table remembers of a piece once it is committed."""
        if written.hand_id is not None:
            self.pending_hand_id = written.hand_id
        if work.snapshot is not None:
            self.snapshot_state_id = work.state_id
        for seat, who in written.seated.items():
            self.table.seated[seat] = who

    def _history_json(
        self,
        last: Action,
        final: TableState,
        history: HandHistory | None,
        actions: list[dict[str, Any]],
    ) -> str:
        """The finished hand's full history with its result (``final``: the state after
        ``last``; ``history`` and ``actions``: the hand's before it)."""
        assert history is not None
        assert final.hand is not None
        history = renew(record(history, last), result=result_summary(final))
        # the commitment the table published at the deal (the history's own, made once), and
        # each action's JSON as the table journaled it
        return encode(
            history_to_json(
                history,
                final.hand.commitment,
                self._rules_json(history.start.rules),
                [*actions, self._action_json(last)],
            )
        )

    def _action_json(self, action: Action) -> dict[str, Any]:
        """:func:`action_json`, taken from the journal's entry when that is the action's."""
        if not isinstance(action, StartHand):
            for journaled, made in self._journaled:
                if journaled is action:
                    return made
        return action_json(action)

    def _rules_json(self, rules: Rules) -> dict[str, Any]:
        """``rules.to_dict()``, made again only for other rules (read-only: it is encoded and
        let go)."""
        if self._rules is None or self._rules[0] is not rules:
            self._rules = (rules, rules.to_dict())
        return self._rules[1]

    def record(self, before: TableState, action: Action) -> None:
        """Keep the hand's history (and which hand row is in play) after an accepted action."""
        if isinstance(action, StartHand):
            self.history = begin_history(before, action)
            self._actions = [action_json(action)]
            self.hand_id = self.pending_hand_id
        elif self.history is not None:
            self.history = record(self.history, action)
            self._actions.append(self._action_json(action))

    def hand_settled(self) -> None:
        self.history = None
        self._actions = []

    async def journaled_answer(self, user_id: int, client_id: str) -> dict[str, Any] | None:
        """The answer to an action id accepted before a restart or a move, if any: its ``ack``
        as it was given then (its ``state_id`` the state the action made, as the ack says)."""
        async with self.db.begin() as s:
            state_id = await s.scalar(
                select(JournalEntry.state_id).where(
                    JournalEntry.table_id == self.table.id,
                    JournalEntry.user_id == user_id,
                    JournalEntry.client_id == client_id,
                )
            )
        if state_id is None:
            return None
        return ack_frame(client_id, state_id)

    async def set_status(self, status: str) -> None:
        table_id = self.table.id
        async with self.db.begin() as s:
            await fence(s, table_id, self.lease_token)
            await s.execute(update(GameTable).where(GameTable.id == table_id).values(status=status))


__all__ = ["Journal", "Step"]
