"""The room: every live table's owner, the lobby's watchers, and opening and closing tables.

On start every table that was open is rebuilt from the database (a crash loses nothing anyone
was told); a fresh room with no tables opens one of every preset with bots already playing.

A room may run as several processes on one PostgreSQL and one Redis. Each process runs the
tables whose lease it holds (:mod:`thirteen.server.tables.leases`) — about its share of them, so
a room's tables spread over its processes — takes over the tables of a process that died (as
soon as it is gone from the bus, or once its leases run out), and learns of the others' tables
and sockets over the bus
(:mod:`thirteen.server.tables.bus`): their lobby entries, and the frames of sockets it holds at
tables another process runs (:mod:`thirteen.server.tables.relay`).

The room composes pieces, each of its own module: where tables run
(:mod:`thirteen.server.tables.placement`: discovery, leases, shedding, taking over), the lobby's
feed (:mod:`thirteen.server.tables.lobby`) and the duplicate events' clock
(:mod:`thirteen.server.competitions.events.clock`). What those need from the competitions — a
table's hook and gate, whether the lobby lists a table — the room hands them, so the ``tables``
package stays below the competitions.

May import: settings, metrics, db, money, tables, competitions.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.errors import RuleError, quote
from thirteen.engine.history import snapshot_to_json
from thirteen.engine.rules import PRESETS, Bounds, Rules, get_rules, rules_from_dict
from thirteen.engine.state import TableState, new_table
from thirteen.engine.table import MAX_POINT_VALUE
from thirteen.server.competitions import practice, tournaments
from thirteen.server.competitions.events import DuplicateHook
from thirteen.server.competitions.events.clock import EventClock
from thirteen.server.competitions.tournaments import TournamentHook
from thirteen.server.db.models import LIVE, GameTable, Meta
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.money.accounts import Accounts
from thirteen.server.settings import Settings
from thirteen.server.tables import broken, leases
from thirteen.server.tables.bus import Bus, BusError, Message, end
from thirteen.server.tables.lobby import LobbyFeed
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.placement import Placement
from thirteen.server.tables.protocol import CLOSE_GOING_AWAY
from thirteen.server.tables.relay import Call, CallError, Relay
from thirteen.server.tables.requests import Request
from thirteen.server.tables.sessions import SessionSockets

log = logging.getLogger("thirteen.server.room")

CLOSE_SECONDS = 3.0
"""How long the room waits for sockets to take their goodbye when it stops."""


@dataclass(frozen=True)
class TableSpec:
    """What an admin asks for when opening a table."""

    preset: str
    name: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)
    unit: int = 1
    seats: int | None = None
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    bots: int = 0
    bot_level: str = "strong"
    practice: bool = False
    time_bank_seconds: float = 30.0
    sit_out_hands: int = 3


async def insert_table(
    db: Database, spec: TableSpec, *, holder: str | None = None, with_table: AlsoWrite = None
) -> int:
    """Write a new open table (any preset with any setting the engine accepts); its id.

    A running room picks it up (:meth:`Room.discover`) and seats its bots — or, with
    ``holder``, the process of that name, which holds its lease from the start.
    ``with_table(session, table_id)`` writes what belongs with it in the same transaction
    (a practice run's row), so neither is ever written without the other."""
    rules, state = _checked(spec)
    seats = state.config.seats
    min_buy_in, max_buy_in = state.config.min_buy_in, state.config.max_buy_in
    name = (spec.name or f"{rules.name} table").strip()[:64]
    async with db.begin() as s:
        row = GameTable(
            name=name,
            preset=get_rules(spec.preset).name,  # the preset; the rules column has the overrides
            rules=json.dumps(rules.to_dict()),
            seats=seats,
            unit=spec.unit,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
            bots=spec.bots,
            bot_level=spec.bot_level,
            practice=spec.practice,
            time_bank_seconds=spec.time_bank_seconds,
            sit_out_hands=spec.sit_out_hands,
            status="open",
            created_at=time.time(),
            snapshot=json.dumps(snapshot_to_json(state)),
            snapshot_state_id=0,
            lease_owner=holder,
            lease_token=0,
        )
        s.add(row)
        await s.flush()
        if with_table is not None:
            await with_table(s, row.id)
    return row.id


CHIPS = Bounds(1, MAX_POINT_VALUE, "chips")
"""A point's worth and a buy-in (the engine's bound on a point's worth)."""
TIME_BANK = Bounds(0, 600, "seconds", whole=False)
SIT_OUT_HANDS = Bounds(1, 100, "hands")


def _checked(spec: TableSpec) -> tuple[Rules, TableState]:
    """The table's rules and its empty state, every number of ``spec`` checked (finite, in its
    range) — or :class:`RuleError` naming the number and its range, before anything is written."""
    if spec.bot_level not in NAMES:
        raise RuleError("bad_table", f"Bots are {', '.join(NAMES)}, not {quote(spec.bot_level)}.")
    rules = get_rules(spec.preset, spec.overrides)  # unknown_rules, bad_rules: the engine's
    unit = CHIPS.check("unit", spec.unit, "bad_table")
    seats = Bounds(2, rules.max_players, "seats").check(
        "seats", spec.seats or rules.max_players, "bad_table"
    )
    min_buy_in = CHIPS.check("min_buy_in", spec.min_buy_in or 50 * unit, "bad_table")
    max_buy_in = CHIPS.check("max_buy_in", spec.max_buy_in or 200 * unit, "bad_table")
    TIME_BANK.check("time_bank_seconds", spec.time_bank_seconds, "bad_table")
    SIT_OUT_HANDS.check("sit_out_hands", spec.sit_out_hands, "bad_table")
    Bounds(0, seats, "bots").check("bots", spec.bots, "bad_table")
    state = new_table(
        rules, seats=seats, min_buy_in=min_buy_in, max_buy_in=max_buy_in, point_value=unit
    )
    return rules, state


AlsoWrite = Callable[[AsyncSession, int], Awaitable[None]] | None
"""What to write with a new table, in its transaction (given the session and the table's id)."""


async def close_broken_table(db: Database, table_id: int) -> dict[int, int]:
    """Close a table set aside as broken (:mod:`thirteen.server.tables.broken`) in one
    transaction: every seat's chips back to its wallet, a hand in play voided, and a sit & go
    it played cancelled with every buy-in back. What each account got back from the seats;
    :class:`RuleError` ``no_table`` when the table is not broken."""
    try:
        async with db.begin() as s:
            paid = await broken.close_broken(s, table_id)
            row = await s.get_one(GameTable, table_id)
            if row.tournament_id is not None:
                await tournaments.cancel_in(s, row.tournament_id)
    except broken.NotBrokenError:
        raise RuleError("no_table", f"There is no broken table {table_id}.") from None
    return paid


async def _seat_bots(accounts: Accounts, owner: TableOwner, wanted: int) -> None:
    """Fill free seats with bots until the table has ``wanted`` of them (the room hands this
    to its placement, which calls it once a table it took runs: it needs the accounts alone)."""
    have = sum(1 for who in owner.seated.values() if who.is_bot)
    for seat in range(owner.settings.seats):
        if have >= wanted:
            break
        if owner.state.seats[seat] is None:
            await _seat_bot(accounts, owner, seat)
            have += 1


async def _seat_bot(accounts: Accounts, owner: TableOwner, seat: int) -> None:
    name = f"bot-{owner.id}-{seat}"
    amount = owner.settings.max_buy_in
    user_id = await accounts.staked_bot(name, amount)
    answer = await owner.submit(
        Request(
            "action",
            user_id=user_id,
            name=name,
            client_id=f"seat-bot-{seat}",
            payload={"type": "sit", "seat": seat, "buy_in": amount},
        )
    )
    if answer.get("type") != "ack":
        log.warning(
            "bot could not sit",
            extra={"table": owner.id, "seat": seat, "code": answer.get("code")},
        )


def _tournament_table() -> RuleError:
    return RuleError(
        "tournament_table",
        "A sit & go's table closes by itself when its last player wins, an event's table when "
        "its round is over.",
    )


class Room:
    """The room in this process, composed of its pieces: where tables run
    (:class:`~thirteen.server.tables.placement.Placement`), the lobby's feed
    (:class:`~thirteen.server.tables.lobby.LobbyFeed`) and the duplicate events' clock
    (:class:`~thirteen.server.competitions.events.clock.EventClock`). It opens and closes itself,
    creates and closes tables, seats their bots, gives each table it loads its competition's hook,
    and answers questions about any table of the room's wherever it runs."""

    def __init__(self, db: Database, settings: Settings, accounts: Accounts, metrics: Metrics):
        self.db = db
        self.settings = settings
        self.accounts = accounts
        self.metrics = metrics
        self.me = settings.process_name or leases.default_process_name()
        """This process's name among the room's processes (its leases carry it)."""
        self.owners: dict[int, TableOwner] = {}
        """Every live table's owner in this process (the placement puts them in and takes them
        out; the lobby reads them)."""
        metrics.tables_open.set_function(
            lambda: sum(1 for o in self.owners.values() if o.settings.status == "open")
        )
        stats = db.writer.stats
        metrics.watch_writer(lambda: (stats.batches, stats.pieces))
        self.lobby = LobbyFeed(self.owners, listed=practice.listed)
        self.placement = Placement(
            db,
            settings,
            metrics,
            self.me,
            self.owners,
            self.lobby,
            attach=self._attach_hooks,
            seat_bots=functools.partial(_seat_bots, accounts),
        )
        self.events = EventClock(db, self.placement.discover, settings.discover_seconds)
        self.sessions = SessionSockets(accounts.live_sessions)
        """This process's table sockets by session (closed when their session ends)."""
        self.bus: Bus | None = None
        self.relay: Relay | None = None
        self.calls: dict[str, Call] = {}
        """Questions another process may ask about a table this one runs (by name)."""
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def accepting(self) -> bool:
        """Whether the room is open (``False`` once it starts closing)."""
        return self.placement.accepting

    async def open(self) -> None:
        """Join the bus (with Redis), rebuild every open table this process takes from the
        database, and open the default tables in a new room."""
        if self.settings.redis_url is not None:
            self.bus = Bus(
                self.settings.redis_url.get_secret_value(), self.me, self._heard, self._reset
            )
            self.relay = Relay(self.bus, self.calls, self.placement.running)
            # the pieces reach the other processes through them (before the first message)
            self.lobby.bus = self.placement.bus = self.sessions.bus = self.bus
            self.placement.relay = self.relay
            if await self.bus.alive(self.me):  # thirteen serve said so before it started
                await self.bus.close()
                raise BusError(
                    f"Another process of this room is running as {self.me!r}: give each process "
                    "its own THIRTEEN_PROCESS_NAME."
                )
            await self.bus.start()
            self.bus.broadcast({"k": "hello"})  # every process tells us its lobby entries
        await leases.heartbeat(self.db, self.me, self.settings.lease_seconds)
        if self.settings.default_tables and await self._first_start():
            for preset, rules in PRESETS.items():
                bots = max(2, rules.max_players - 1)
                await self.create_table(
                    TableSpec(preset=preset, name=f"{preset} ({bots} bots)", bots=bots, unit=1)
                )
        await self.discover()
        self._tasks = [
            asyncio.create_task(self._discover_forever(), name="discover"),
            asyncio.create_task(self.placement.renew_forever(), name="renew-leases"),
        ]
        if self.bus is not None:  # a process leaving the bus: its tables are looked at at once
            self.bus.start_watching(self.placement.discover)

    async def _first_start(self) -> bool:
        """Whether this is a new room's first process to start (one of several starting at
        once: exactly one of them), claimed in the database."""
        try:
            async with self.db.begin() as s:
                if await s.scalar(select(GameTable.id).limit(1)) is not None:
                    return False
                s.add(Meta(key="default_tables", value=self.me))
        except IntegrityError:
            return False
        return True

    async def _discover_forever(self) -> None:
        """Pick up tables opened or closed by ``thirteen admin``, and those left by a process
        that stopped or died."""
        while self.accepting:
            await asyncio.sleep(self.settings.discover_seconds)
            try:
                await self.events.look_at_due()
                await self.discover()
            except Exception:
                log.exception("discovering tables failed; trying again")

    async def close(self) -> None:
        """Stop every table (what was accepted is written), give back their leases for the
        room's other processes, and say goodbye to every socket."""
        if not self.accepting:
            return
        log.info("room closing", extra={"tables": len(self.owners)})
        # ended before the tables stop: a look that went on would take a table meanwhile, or
        # use Redis once it is let go (tables/bus.py)
        await end(self._tasks)
        self.lobby.close()
        self.events.close()
        await self.placement.close()  # not accepting from its first line: a second close returns
        watchers = {*self.lobby.watchers, *(w for o in self.owners.values() for w in o.watchers)}
        for watcher in watchers:
            watcher.offer(
                {"type": "closing", "message": "The room is restarting; reconnect in a moment."}
            )
            watcher.close_with(CLOSE_GOING_AWAY, "The room is restarting; reconnect in a moment.")
        if self.relay is not None:
            self.relay.reset()
        if watchers:  # let each socket's writer send its goodbye before the server closes them
            done = asyncio.gather(*(w.finished.wait() for w in watchers))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done, CLOSE_SECONDS)
        if self.bus is not None:
            with contextlib.suppress(TimeoutError):  # the goodbyes of relayed sockets
                await asyncio.wait_for(self.bus.drain(), CLOSE_SECONDS)
            await self.bus.close()

    # ------------------------------------------------------------------ tables
    async def create_table(self, spec: TableSpec, *, with_table: AlsoWrite = None) -> TableOwner:
        """Open a table and start it here, seating its bots (``with_table``: as in
        :func:`insert_table`, written before any look of the room's can run it)."""
        return await self.placement.run_new(
            lambda: insert_table(self.db, spec, holder=self.me, with_table=with_table)
        )

    async def close_table(self, table_id: int) -> None:
        """Close a table (after the hand in play); another process's table through the
        database, where its process sees it at its next look."""
        owner = self.owners.get(table_id)
        if owner is not None and owner.settings.status != "closed":
            if owner.settings.is_tournament:
                raise _tournament_table()
            await owner.submit(Request("close"))
            return
        if owner is None:
            async with self.db.begin() as s:
                status = await s.scalar(select(GameTable.status).where(GameTable.id == table_id))
            if status == "broken":
                await close_broken_table(self.db, table_id)
                return
        async with self.db.begin() as s:
            row = await s.get(GameTable, table_id)
            if owner is not None or row is None or row.status != "open":
                raise RuleError("no_table", f"There is no open table {table_id}.")
            if row.tournament_id is not None or row.event_id is not None:
                raise _tournament_table()
            row.status = "closing"

    async def _attach_hooks(self, owner: TableOwner, row: GameTable) -> None:
        """Give a table taken here, before it starts, what its competition needs: a sit & go's
        hook, an event's hook and gate, a duplicate practice run's hook."""
        if row.tournament_id is not None:
            owner.hook = TournamentHook(self.db, row.tournament_id)
        if row.event_id is not None:
            hook = DuplicateHook(
                self.db, self.accounts, row.id, wake=self._wake, look=self.events.look_at_event
            )
            await hook.load()
            owner.hook = owner.gate = hook
        elif row.practice:  # a duplicate practice run's table (competitions/practice.py)
            owner.hook = await practice.hook_for(self.db, self.accounts, row.id)

    def _wake(self, table_id: int) -> None:
        owner = self.owners.get(table_id)
        if owner is not None:
            owner.wake()

    async def ask(self, table_id: int, what: str, args: dict[str, Any]) -> dict[str, Any]:
        """The answer to question ``what`` about open table ``table_id`` from the process that
        runs it (this one included): :class:`RuleError` for a refusal. A table that is moving
        between processes when asked (handed over between hands, or its process gone) is
        followed to where it went (:meth:`settle`'s patience) before the answer is ``moving``."""
        process = await self.locate(table_id)
        for last in (False, True):
            owner = await self.running(table_id)
            if owner is not None:
                return await self.calls[what](owner, args)
            if process is None:
                raise RuleError("no_table", f"There is no open table {table_id}.")
            if process not in ("", self.me) and self.relay is not None:
                try:
                    return await self.relay.call(process, table_id, what, args)
                except CallError as e:
                    if e.code != "moving" or last:
                        raise
            elif last:
                break
            process = await self.settle(table_id, gone_from=process or None)
        raise CallError("moving", "This table is moving to another server; try again in a moment.")

    async def table_rules(self, table_id: int) -> Rules:
        """The rules of open table ``table_id``, wherever it runs."""
        owner = self.owners.get(table_id)
        if owner is not None and owner.settings.status != "closed":
            return owner.rules
        async with self.db.begin() as s:
            row = (
                await s.execute(
                    select(GameTable.rules).where(
                        GameTable.id == table_id, GameTable.status.in_(LIVE)
                    )
                )
            ).first()
        if row is None:
            raise RuleError("no_table", f"There is no open table {table_id}.")
        return rules_from_dict(json.loads(row.rules))

    # ------------------------------------------------------------------ the pieces' own words
    async def discover(self) -> None:
        """:meth:`Placement.discover`: run this process's share of the open tables."""
        await self.placement.discover()

    async def renew_leases(self) -> None:
        """:meth:`Placement.renew_leases`."""
        await self.placement.renew_leases()

    async def hand_over(self, owner: TableOwner) -> None:
        """:meth:`Placement.hand_over`: let another process run ``owner``'s table."""
        await self.placement.hand_over(owner)

    async def running(self, table_id: int) -> TableOwner | None:
        """:meth:`Placement.running`: the table's owner if it runs here."""
        return await self.placement.running(table_id)

    async def locate(self, table_id: int) -> str | None:
        """:meth:`Placement.locate`: the process running the table."""
        return await self.placement.locate(table_id)

    async def settle(self, table_id: int, gone_from: str | None = None) -> str | None:
        """:meth:`Placement.settle`: :meth:`locate`, waiting while the table moves."""
        return await self.placement.settle(table_id, gone_from)

    def lobby_frame(self) -> dict[str, Any]:
        """:meth:`LobbyFeed.frame`: the lobby's frame now."""
        return self.lobby.frame()

    def look_at_event(self, event_id: int, delay: float = 0.0) -> None:
        """:meth:`EventClock.look_at_event`."""
        self.events.look_at_event(event_id, delay)

    async def advance_event(self, event_id: int) -> None:
        """:meth:`EventClock.advance_event`."""
        await self.events.advance_event(event_id)

    # ------------------------------------------------------------------ the bus
    def _heard(self, message: Message) -> None:
        """A message from the bus: the relay's, or another process's news for the lobby."""
        if self.relay is not None and self.relay.take(message):
            return
        if self.sessions.take(message):
            return
        if message.get("from") != self.me:
            self.lobby.heard(message)

    def _reset(self) -> None:
        if self.relay is not None:
            self.relay.reset()
        self.sessions.reset()


__all__ = ["Room", "TableSpec", "close_broken_table", "insert_table"]
