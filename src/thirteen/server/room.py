"""The room: every live table's owner, the lobby's watchers, and opening and closing tables.

On start every table that was open is rebuilt from the database (a crash loses nothing anyone
was told); a fresh room with no tables opens one of every preset with bots already playing.

A room may run as several processes on one PostgreSQL and one Redis. Each process runs the
tables whose lease it holds (:mod:`thirteen.server.tables.leases`) — about its share of them, so
a room's tables spread over its processes — takes over the tables of a process that died once
their leases run out, and learns of the others' tables and sockets over the bus
(:mod:`thirteen.server.tables.bus`): their lobby entries, and the frames of sockets it holds at
tables another process runs (:mod:`thirteen.server.tables.relay`).

May import: settings, metrics, db, money, tables, competitions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from thirteen.bots.registry import NAMES
from thirteen.engine.errors import RuleError
from thirteen.engine.history import snapshot_to_json
from thirteen.engine.rules import PRESETS, Rules, get_rules, rules_from_dict
from thirteen.engine.state import Phase, new_table
from thirteen.server.competitions import events, practice
from thirteen.server.competitions.events import DuplicateHook
from thirteen.server.competitions.tournaments import TournamentHook
from thirteen.server.db.models import GameTable, Meta, RoomProcess
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.money.accounts import Accounts
from thirteen.server.settings import Settings
from thirteen.server.tables import leases
from thirteen.server.tables.bus import Bus, BusError, Message
from thirteen.server.tables.owner import Request, TableOwner, Watcher, load_owner
from thirteen.server.tables.protocol import CLOSE_GOING_AWAY
from thirteen.server.tables.relay import Call, CallError, Relay

log = logging.getLogger("thirteen.server.room")

CLOSE_SECONDS = 3.0
"""How long the room waits for sockets to take their goodbye when it stops."""
LOBBY_SECONDS = 0.25
"""A table's change reaches the lobbies within this (changes meanwhile go in one frame)."""


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
    if spec.bot_level not in NAMES:
        raise RuleError("bad_table", f"Bots are {', '.join(NAMES)}, not {spec.bot_level!r}.")
    if spec.unit < 1:
        raise RuleError("bad_table", "A point must be worth at least one chip.")
    rules = get_rules(spec.preset, spec.overrides)
    seats = spec.seats or rules.max_players
    min_buy_in = spec.min_buy_in or 50 * spec.unit
    max_buy_in = spec.max_buy_in or 200 * spec.unit
    state = new_table(
        rules, seats=seats, min_buy_in=min_buy_in, max_buy_in=max_buy_in, point_value=spec.unit
    )
    if not 0 <= spec.time_bank_seconds <= 600 or not 1 <= spec.sit_out_hands <= 100:
        raise RuleError(
            "bad_table", "A time bank holds 0 to 600 seconds; players may sit out 1 to 100 hands."
        )
    if not 0 <= spec.bots <= seats:
        raise RuleError("bad_table", f"A table of {seats} seats holds 0 to {seats} bots.")
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


AlsoWrite = Callable[[AsyncSession, int], Awaitable[None]] | None
"""What to write with a new table, in its transaction (given the session and the table's id)."""


def _tournament_table() -> RuleError:
    return RuleError(
        "tournament_table",
        "A sit & go's table closes by itself when its last player wins, an event's table when "
        "its round is over.",
    )


class Room:
    def __init__(self, db: Database, settings: Settings, accounts: Accounts, metrics: Metrics):
        self.db = db
        self.settings = settings
        self.accounts = accounts
        self.metrics = metrics
        self.me = settings.process_name or leases.default_process_name()
        """This process's name among the room's processes (its leases carry it)."""
        self.owners: dict[int, TableOwner] = {}
        self.lobby: set[Watcher] = set()
        self._changes: dict[int, TableOwner] = {}
        """Tables whose lobby entry changed since the lobby was last pushed."""
        self._lobby_due: asyncio.TimerHandle | None = None
        metrics.tables_open.set_function(
            lambda: sum(1 for o in self.owners.values() if o.settings.status == "open")
        )
        self.accepting = True
        self.bus: Bus | None = None
        self.relay: Relay | None = None
        self.where: dict[int, str | None] = {}
        """Each open table's process at the last look (``None``: between processes)."""
        self.alive: set[str] = {self.me}
        self.remote_lobby: dict[int, tuple[str, dict[str, Any]]] = {}
        """The lobby entries of tables other processes run, with the process."""
        self.calls: dict[str, Call] = {}
        """Questions another process may ask about a table this one runs (by name)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._loading: dict[int, asyncio.Future[TableOwner | None]] = {}
        """Tables whose lease this process took and which it is rebuilding now."""
        self._event_looks: dict[int, asyncio.TimerHandle] = {}
        """The next look at each duplicate event (:meth:`look_at_event`)."""
        self._event_tasks: set[asyncio.Task[None]] = set()
        self._discovering = asyncio.Lock()
        self._looked = asyncio.Condition()
        """Notified after every look at the database's tables (:meth:`discover`)."""

    async def open(self) -> None:
        """Join the bus (with Redis), rebuild every open table this process takes from the
        database, and open the default tables in a new room."""
        if self.settings.redis_url is not None:
            self.bus = Bus(
                self.settings.redis_url.get_secret_value(), self.me, self._heard, self._reset
            )
            self.relay = Relay(self.bus, self.calls, self.running)
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
            asyncio.create_task(self._renew_forever(), name="renew-leases"),
        ]

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
                for event_id in await events.due_events(self.db):
                    if event_id not in self._event_looks:  # (a look already waits for its time)
                        self.look_at_event(event_id)
                await self.discover()
            except Exception:
                log.exception("discovering tables failed; trying again")

    async def _renew_forever(self) -> None:
        while self.accepting:
            await asyncio.sleep(self.settings.lease_seconds / 3)
            try:
                await self.renew_leases()
            except Exception:
                log.exception("renewing leases failed; trying again")

    async def renew_leases(self) -> None:
        """Renew this process's leases; a table whose lease another process took stops here.

        Only the owners running before the renewal read the leases are judged by what it read:
        a table opened or taken meanwhile has a lease the reading may not have seen yet (it is
        judged at the next renewal)."""
        running = {table_id: owner.lease_token for table_id, owner in self.owners.items()}
        held = await leases.renew(self.db, self.me, self.settings.lease_seconds)
        for table_id, owner in list(self.owners.items()):
            if running.get(table_id) != owner.lease_token or owner.settings.status == "closed":
                continue
            if held.get(table_id) != owner.lease_token:
                log.warning("lease lost", extra={"table": table_id})
                await owner.lose()

    async def discover(self) -> None:
        """Start an owner for every open table not running anywhere (this process taking up to
        its share of the room's tables); pass on closings; check relayed sockets."""
        async with self._discovering:
            await self._discover()

    async def _processes(self) -> set[str]:
        """The room's live processes: alive by the database, and — with the bus — still
        listening (Redis drops a dead process's subscription at once)."""
        alive = await leases.live_processes(self.db) | {self.me}
        if self.bus is None:
            return alive
        try:
            return alive & ({self.me} | await self.bus.processes())
        except Exception:
            log.warning("the bus does not answer; counting by the database alone")
            return alive

    async def _discover(self) -> None:
        looked = time.monotonic()
        async with self.db.begin() as s:
            rows = (
                await s.execute(
                    select(GameTable.id, GameTable.status).where(GameTable.status != "closed")
                )
            ).all()
        holding = await leases.holders(self.db)
        self.alive = await self._processes()
        where: dict[int, str | None] = {}
        free: list[int] = []
        for table_id, status in rows:
            owner = self.owners.get(table_id)
            if owner is not None:
                where[table_id] = self.me
                if status == "closing" and owner.settings.status == "open":
                    await owner.submit(Request("close"))
                continue
            holder = holding.get(table_id)
            held = holder is not None and holder != self.me
            where[table_id] = holder if held else None
            if not held:
                free.append(table_id)
        share = math.ceil(len(rows) / len(self.alive))
        for table_id in free:
            if self._running() >= share:
                break
            if await self._take(table_id):
                where[table_id] = self.me
        if not free and len(self.alive) > 1:
            for table_id in await self._shed(share):
                where[table_id] = None
        self.where = where
        for table_id, (process, _entry) in list(self.remote_lobby.items()):
            if where.get(table_id) not in (process, None):
                del self.remote_lobby[table_id]
        if self.relay is not None:
            self.relay.check(self.alive, where, looked)
        async with self._looked:
            self._looked.notify_all()

    async def _shed(self, share: int) -> list[int]:
        """Hand tables over (between hands) while this process runs more than its share: a
        process that joins, or comes back after a restart, gets its part of the room (a tenth
        of the share at most per look, so the room moves a little at a time). A process takes
        tables only below its share, so a table handed over goes elsewhere."""
        surplus = self._running() - share
        handed: list[int] = []
        for owner in list(self.owners.values()):
            if len(handed) >= min(surplus, max(1, share // 10)):
                break
            if owner.settings.status == "open" and owner.state.phase != Phase.PLAYING:
                await self.hand_over(owner)
                handed.append(owner.id)
        return handed

    async def hand_over(self, owner: TableOwner) -> None:
        """Stop running ``owner``'s table here and give its lease back, for another process to
        take at its next look; its sockets are closed with 1012 (their clients reconnect, and
        wait at the handshake until the table runs again)."""
        log.info("handing a table over", extra={"table": owner.id})
        await owner.stop()
        with contextlib.suppress(Exception):
            await leases.release(self.db, owner.id, owner.lease_token)
        owner.abandon()

    def _running(self) -> int:
        return sum(1 for o in self.owners.values() if o.settings.status != "closed")

    async def _take(self, table_id: int) -> TableOwner | None:
        """Take the table's lease and run it here (``None``: another process has it)."""
        token = await leases.acquire(self.db, table_id, self.me)
        if token is None:
            return None
        loading = self._loading[table_id] = asyncio.get_running_loop().create_future()
        try:
            owner = await self._load(table_id, token)
        finally:
            loading.set_result(self.owners.get(table_id))
            del self._loading[table_id]
        return owner

    async def running(self, table_id: int) -> TableOwner | None:
        """The table's owner if it runs here — waiting while it is being rebuilt here (its
        lease, already this process's, sends sockets here before it runs)."""
        loading = self._loading.get(table_id)
        if loading is not None:
            await asyncio.shield(loading)
        owner = self.owners.get(table_id)
        return owner if owner is not None and owner.settings.status != "closed" else None

    async def _load(self, table_id: int, token: int) -> TableOwner:
        async with self.db.begin() as s:
            row = await s.get(GameTable, table_id)
        assert row is not None
        owner = await load_owner(
            self.db,
            row,
            metrics=self.metrics,
            bot_budget=self.settings.bot_budget,
            bot_delay=self.settings.bot_delay,
            on_change=self._changed,
            lease_token=token,
            on_lost=self._lost,
        )
        if row.tournament_id is not None:
            owner.hook = TournamentHook(self.db, row.tournament_id)
        if row.event_id is not None:
            hook = DuplicateHook(
                self.db, self.accounts, row.id, wake=self._wake, look=self.look_at_event
            )
            await hook.load()
            owner.hook = owner.gate = hook
        elif row.practice:  # a duplicate practice run's table (competitions/practice.py)
            owner.hook = await practice.hook_for(self.db, self.accounts, row.id)
        self._start(owner)
        self.remote_lobby.pop(table_id, None)
        log.info(
            "table open",
            extra={"table": row.id, "preset": row.preset, "resumed_at": owner.state.state_id},
        )
        await self._seat_bots(owner, row.bots)
        return owner

    def _wake(self, table_id: int) -> None:
        owner = self.owners.get(table_id)
        if owner is not None:
            owner.wake()

    def look_at_event(self, event_id: int, delay: float = 0.0) -> None:
        """Look at a duplicate event in ``delay`` seconds: open its next round's tables (and
        run this process's share of them) when its round is over; start it at its time."""
        if not self.accepting:
            return
        known = self._event_looks.pop(event_id, None)
        if known is not None:
            known.cancel()
        loop = asyncio.get_running_loop()

        def look() -> None:
            self._event_looks.pop(event_id, None)
            task = loop.create_task(self.advance_event(event_id))
            self._event_tasks.add(task)
            task.add_done_callback(self._event_tasks.discard)

        self._event_looks[event_id] = loop.call_later(max(0.0, delay), look)

    async def advance_event(self, event_id: int) -> None:
        """Move the event on now if it can (:func:`thirteen.server.competitions.events.advance`)
        and run this process's share of any tables that opened; look again when it says."""
        try:
            again = await events.advance(self.db, event_id)
            await self.discover()
        except Exception:
            log.exception("advancing an event failed; trying again", extra={"event": event_id})
            again = time.time() + self.settings.discover_seconds
        if again is not None:
            self.look_at_event(event_id, again - time.time())

    def _lost(self, owner: TableOwner) -> None:
        """``owner`` stopped: another process runs its table now."""
        if self.owners.get(owner.id) is owner:
            del self.owners[owner.id]
        if self.relay is not None:
            self.relay.table_lost(owner.id)
        self.where[owner.id] = None
        # the lobbies hear of it from its new process (a word from here could arrive after;
        # :meth:`_flush_lobby` says nothing of a table this process no longer runs)
        self._lobby_changed()

    async def locate(self, table_id: int) -> str | None:
        """The process running open table ``table_id`` now: ``""`` when none does (its
        process died and no other has taken it yet), ``None`` when there is no such table."""
        owner = self.owners.get(table_id)
        if owner is not None:
            return self.me if owner.settings.status != "closed" else None
        async with self.db.begin() as s:
            row = (
                await s.execute(
                    select(GameTable.status, GameTable.lease_owner, RoomProcess.alive_until)
                    .outerjoin(RoomProcess, RoomProcess.name == GameTable.lease_owner)
                    .where(GameTable.id == table_id)
                )
            ).first()
        if row is None or row.status == "closed":
            return None
        if row.lease_owner is None or (row.alive_until or 0.0) < time.time():
            return ""
        if self.bus is not None and not await self.bus.alive(row.lease_owner):
            return ""
        return str(row.lease_owner)

    async def ask(self, table_id: int, what: str, args: dict[str, Any]) -> dict[str, Any]:
        """The answer to question ``what`` about open table ``table_id`` from the process that
        runs it (this one included): :class:`RuleError` for a refusal."""
        process = await self.locate(table_id)
        owner = await self.running(table_id)
        if owner is not None:
            return await self.calls[what](owner, args)
        if process is None:
            raise RuleError("no_table", f"There is no open table {table_id}.")
        if process in ("", self.me) or self.relay is None:
            raise CallError(
                "moving", "This table is moving to another server; try again in a moment."
            )
        return await self.relay.call(process, table_id, what, args)

    async def table_rules(self, table_id: int) -> Rules:
        """The rules of open table ``table_id``, wherever it runs."""
        owner = self.owners.get(table_id)
        if owner is not None and owner.settings.status != "closed":
            return owner.rules
        async with self.db.begin() as s:
            row = (
                await s.execute(
                    select(GameTable.rules).where(
                        GameTable.id == table_id, GameTable.status != "closed"
                    )
                )
            ).first()
        if row is None:
            raise RuleError("no_table", f"There is no open table {table_id}.")
        return rules_from_dict(json.loads(row.rules))

    async def settle(self, table_id: int) -> str | None:
        """:meth:`locate`, waiting while the table is between processes (its process died or
        stopped, and its lease has not run out or not been taken yet) — at most a lease and two
        looks — so a client that reconnects at once gets its table where it went."""
        patience = self.settings.lease_seconds + 2 * self.settings.discover_seconds + 1
        deadline = time.monotonic() + patience
        while True:
            process = await self.locate(table_id)
            unreachable = process == "" or (process not in (None, self.me) and self.relay is None)
            left = deadline - time.monotonic()
            if not unreachable or left <= 0 or not self.accepting:
                return process
            async with self._looked:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._looked.wait(), left)

    # ------------------------------------------------------------------ the bus
    def _heard(self, message: Message) -> None:
        if self.relay is not None and self.relay.take(message):
            return
        kind, sender = message.get("k"), message.get("from")
        if sender == self.me:
            return
        if kind == "hello":
            for owner in self.owners.values():
                self._publish(owner)
        elif kind == "lobby":
            table_id = int(message["table"])
            if table_id in self.owners:
                return
            entry = message.get("entry")
            if isinstance(entry, dict):
                self.remote_lobby[table_id] = (str(sender), entry)
            else:
                self.remote_lobby.pop(table_id, None)
            self._lobby_changed()

    def _reset(self) -> None:
        if self.relay is not None:
            self.relay.reset()

    def _publish(self, owner: TableOwner) -> None:
        """Tell the other processes' lobbies of a table this one runs."""
        if self.bus is None:
            return
        closed = owner.settings.status == "closed" or self.owners.get(owner.id) is not owner
        closed = closed or not practice.listed(owner)
        entry = None if closed else owner.lobby_entry()
        self.bus.broadcast({"k": "lobby", "table": owner.id, "entry": entry})

    async def _seat_bots(self, owner: TableOwner, wanted: int) -> None:
        """Fill free seats with bots until the table has ``wanted`` of them."""
        have = sum(1 for who in owner.seated.values() if who.is_bot)
        for seat in range(owner.settings.seats):
            if have >= wanted:
                break
            if owner.state.seats[seat] is None:
                await self._seat_bot(owner, seat)
                have += 1

    def _start(self, owner: TableOwner) -> None:
        self.owners[owner.id] = owner
        owner.start()
        self._changed(owner)
        self._flush_lobby()  # the lobby hears of a new table at once

    async def close(self) -> None:
        """Stop every table (what was accepted is written), give back their leases for the
        room's other processes, and say goodbye to every socket."""
        if not self.accepting:
            return
        self.accepting = False
        log.info("room closing", extra={"tables": len(self.owners)})
        for task in self._tasks:
            task.cancel()
        if self._lobby_due is not None:
            self._lobby_due.cancel()
        for handle in self._event_looks.values():
            handle.cancel()
        await asyncio.gather(*(owner.stop() for owner in list(self.owners.values())))
        for owner in list(self.owners.values()):  # a look may end meanwhile
            with contextlib.suppress(Exception):
                await leases.release(self.db, owner.id, owner.lease_token)
        with contextlib.suppress(Exception):
            await leases.retire(self.db, self.me)
        watchers = {*self.lobby, *(w for o in self.owners.values() for w in o.watchers)}
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

    async def create_table(self, spec: TableSpec, *, with_table: AlsoWrite = None) -> TableOwner:
        """Open a table and start it here, seating its bots (``with_table``: as in
        :func:`insert_table`, written before any look of the room's can run it)."""
        async with self._discovering:
            table_id = await insert_table(self.db, spec, holder=self.me, with_table=with_table)
            owner = self.owners.get(table_id) or await self._take(table_id)
        assert owner is not None  # its lease is this process's from the start
        return owner

    async def _seat_bot(self, owner: TableOwner, seat: int) -> None:
        name = f"bot-{owner.id}-{seat}"
        amount = owner.settings.max_buy_in
        user_id = await self.accounts.staked_bot(name, amount)
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

    async def close_table(self, table_id: int) -> None:
        """Close a table (after the hand in play); another process's table through the
        database, where its process sees it at its next look."""
        owner = self.owners.get(table_id)
        if owner is not None and owner.settings.status != "closed":
            if owner.settings.is_tournament:
                raise _tournament_table()
            await owner.submit(Request("close"))
            return
        async with self.db.begin() as s:
            row = await s.get(GameTable, table_id)
            if owner is not None or row is None or row.status != "open":
                raise RuleError("no_table", f"There is no open table {table_id}.")
            if row.tournament_id is not None or row.event_id is not None:
                raise _tournament_table()
            row.status = "closing"

    def lobby_frame(self) -> dict[str, Any]:
        tables = [
            o.lobby_entry()
            for o in self.owners.values()
            if o.settings.status != "closed" and o.settings.event_id is None and practice.listed(o)
        ]  # an event's tables and a practice run's are private (not in anyone's lobby)
        tables += [e for _process, e in self.remote_lobby.values() if e.get("event") is None]
        tables.sort(key=lambda entry: int(entry["id"]))
        return {"type": "lobby", "server_time": time.time(), "tables": tables}

    def _changed(self, owner: TableOwner) -> None:
        """A table's lobby entry changed (a seat taken or left, a hand begun or ended)."""
        self._changes[owner.id] = owner
        self._lobby_changed()

    def _lobby_changed(self) -> None:
        """Push the lobby within :data:`LOBBY_SECONDS`: every table changes twice a hand, and a
        lobby frame lists every table, so a busy room sends one frame for many changes (the
        other processes likewise hear one message a table)."""
        if self._lobby_due is None:
            loop = asyncio.get_running_loop()
            self._lobby_due = loop.call_later(LOBBY_SECONDS, self._flush_lobby)

    def _flush_lobby(self) -> None:
        if self._lobby_due is not None:
            self._lobby_due.cancel()
            self._lobby_due = None
        changes, self._changes = self._changes, {}
        for table_id, owner in changes.items():
            # one this process lost since is another's to announce (its word would come later)
            if self.owners.get(table_id) is owner or owner.settings.status == "closed":
                self._publish(owner)
        self._push_lobby()

    def _push_lobby(self) -> None:
        if not self.lobby:
            return
        frame = self.lobby_frame()
        for watcher in list(self.lobby):
            watcher.offer(frame)
            if watcher.dropped:
                self.lobby.discard(watcher)


__all__ = ["Room", "TableSpec", "insert_table"]
