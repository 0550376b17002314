"""Where tables run: which of the room's processes runs each open table, from this one's side.

Each process runs the tables whose lease it holds (:mod:`.leases`) — about its share of them,
so a room's tables spread over its processes. A look at the database (:meth:`Placement.discover`,
every few seconds, whenever something opens tables, and at once when a process leaves the bus)
takes free tables up to the share, hands tables over while this process runs more than its
share, takes over the tables of a process that died — as soon as it is gone from the bus, or
once its lease runs out — and passes on closings; renewing the leases
(:meth:`Placement.renew_leases`) stops a table whose lease another process took.

A table taken here is rebuilt from the database (:func:`~.resume.load_owner`) and started; what
it needs from its competition (its hook and gate) the room gives it, through ``attach``, so this
module imports no competition. A table whose row cannot be loaded is set aside
(:mod:`.broken`) and the look goes on: no stored row stops the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable

from sqlalchemy import select

from thirteen.engine.errors import RuleError
from thirteen.engine.state import Phase
from thirteen.server.db.models import LIVE, GameTable, RoomProcess
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.settings import Settings
from thirteen.server.tables import broken, leases
from thirteen.server.tables.bus import Bus
from thirteen.server.tables.lobby import LobbyFeed
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.relay import Relay
from thirteen.server.tables.requests import Request
from thirteen.server.tables.resume import load_owner

log = logging.getLogger("thirteen.server.room")  # the room's lines, as before this module


class Placement:
    """This process's side of where the room's tables run (see the module's docstring).

    ``owners`` are the tables running here, by id (the room's: this piece alone puts a table
    in and takes it out); ``lobby`` hears of every table started or lost here."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        metrics: Metrics,
        me: str,
        owners: dict[int, TableOwner],
        lobby: LobbyFeed,
        *,
        attach: Callable[[TableOwner, GameTable], Awaitable[None]],
        seat_bots: Callable[[TableOwner, int], Awaitable[None]],
    ) -> None:
        self.db = db
        self.settings = settings
        self.metrics = metrics
        self.me = me
        self.owners = owners
        self.lobby = lobby
        self.attach = attach
        """Gives a table taken here what its competition needs (its hook and gate), before it
        starts: the room's to say, as this package knows no competition."""
        self.seat_bots = seat_bots
        """Fills a table's free seats with bots until it has that many, once it runs."""
        self.accepting = True
        """``False`` once the room closes: no more renewals, no more waiting for a table."""
        self.bus: Bus | None = None
        self.relay: Relay | None = None
        """The room's bus and relay (with Redis), set when the room joins the bus."""
        self.where: dict[int, str | None] = {}
        """Each open table's process at the last look (``None``: between processes)."""
        self.alive: set[str] = {me}
        self._loading: dict[int, asyncio.Future[TableOwner | None]] = {}
        """Tables whose lease this process took and which it is rebuilding now."""
        self._discovering = asyncio.Lock()
        self._looked = asyncio.Condition()
        """Notified after every look at the database's tables (:meth:`discover`)."""

    # ------------------------------------------------------------------ leases
    async def renew_forever(self) -> None:
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

    # ------------------------------------------------------------------ looking
    async def discover(self) -> None:
        """Start an owner for every open table not running anywhere (this process taking up to
        its share of the room's tables); pass on closings; check relayed sockets."""
        async with self._discovering:
            await self._discover()

    async def _processes(self) -> set[str]:
        """The room's live processes: alive by the database, and — with the bus — still
        listening (Redis drops a dead process's subscription at once). One alive by the
        database but gone from the bus (:attr:`.bus.Bus.gone`) is retired here: its tables are
        free now, not once its lease runs out (its writes are fenced off all the same)."""
        alive = await leases.live_processes(self.db) | {self.me}
        if self.bus is None:
            return alive
        try:
            listening = {self.me} | await self.bus.processes()
        except Exception:
            log.warning("the bus does not answer; counting by the database alone")
            return alive
        gone = (alive & self.bus.gone) - listening
        if gone:
            log.warning("processes gone from the bus: retired", extra={"processes": sorted(gone)})
            await leases.retire(self.db, *gone)
        return alive & listening

    async def _discover(self) -> None:
        looked = time.monotonic()
        async with self.db.begin() as s:
            rows = (
                await s.execute(
                    select(GameTable.id, GameTable.status).where(GameTable.status.in_(LIVE))
                )
            ).all()
        self.alive = await self._processes()  # first: it may free a gone process's tables
        holding = await leases.holders(self.db)
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
            try:
                if await self._take(table_id):
                    where[table_id] = self.me
            except Exception:  # (the database away, say): the next look tries it again
                log.exception("taking a table failed; trying again", extra={"table": table_id})
        if not free and len(self.alive) > 1:
            for table_id in await self._shed(share):
                where[table_id] = None
        self.where = where
        self.lobby.forget_moved(where)
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

    # ------------------------------------------------------------------ taking a table
    async def run_new(self, write: Callable[[], Awaitable[int]]) -> TableOwner:
        """Write a new table with ``write`` (its id; its lease this process's from the start)
        and run it here — no look runs in between, to take it first."""
        async with self._discovering:
            table_id = await write()
            owner = self.owners.get(table_id) or await self._take(table_id)
        if owner is None:  # its lease is this process's from the start: it was set aside
            raise RuleError(
                "table_broken",
                f"Table {table_id} was written but could not be started, so it was set aside "
                "for an administrator; nothing of yours was taken.",
            )
        return owner

    async def _take(self, table_id: int) -> TableOwner | None:
        """Take the table's lease and run it here (``None``: another process has it, or its row
        cannot be loaded and it was set aside)."""
        token = await leases.acquire(self.db, table_id, self.me)
        if token is None:
            return None
        loading = self._loading[table_id] = asyncio.get_running_loop().create_future()
        try:
            owner = await self._load(table_id, token)
        except Exception as e:
            if not broken.row_at_fault(e) or not self.accepting:
                raise
            await broken.set_aside(self.db, table_id, token, e)
            return None
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
        """Rebuild the table and give it its hooks (what may fail on what its row holds), then
        run it here."""
        async with self.db.begin() as s:
            row = await s.get(GameTable, table_id)
        assert row is not None
        owner = await load_owner(
            self.db,
            row,
            metrics=self.metrics,
            bot_budget=self.settings.bot_budget,
            bot_delay=self.settings.bot_delay,
            on_change=self.lobby.changed,
            lease_token=token,
            on_lost=self._lost,
        )
        await self.attach(owner, row)
        self.owners[owner.id] = owner
        owner.start()
        self.lobby.opened(owner)  # the lobby hears of a new table at once
        log.info(
            "table open",
            extra={"table": row.id, "preset": row.preset, "resumed_at": owner.state.state_id},
        )
        await self.seat_bots(owner, row.bots)
        return owner

    def _lost(self, owner: TableOwner) -> None:
        """``owner`` stopped: another process runs its table now."""
        if self.owners.get(owner.id) is owner:
            del self.owners[owner.id]
        if self.relay is not None:
            self.relay.table_lost(owner.id)
        self.where[owner.id] = None
        # the lobbies hear of it from its new process (a word from here could arrive after;
        # :meth:`LobbyFeed.flush` says nothing of a table this process no longer runs)
        self.lobby.soon()

    # ------------------------------------------------------------------ finding a table
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
        if row is None or row.status not in LIVE:
            return None
        if row.lease_owner is None or (row.alive_until or 0.0) < time.time():
            return ""
        if self.bus is not None and not await self.bus.alive(row.lease_owner):
            return ""
        return str(row.lease_owner)

    async def settle(self, table_id: int, gone_from: str | None = None) -> str | None:
        """:meth:`locate`, waiting while the table is between processes (its process died or
        stopped, and its lease has not run out or not been taken yet) — at most a lease and two
        looks — so a client that reconnects at once gets its table where it went. ``gone_from``
        is a process that just said it no longer runs the table (it handed it over): while the
        database still names it, the table is waited for too."""
        patience = self.settings.lease_seconds + 2 * self.settings.discover_seconds + 1
        deadline = time.monotonic() + patience
        while True:
            process = await self.locate(table_id)
            gone = process == "" or (gone_from is not None and process == gone_from)
            unreachable = gone or (process not in (None, self.me) and self.relay is None)
            left = deadline - time.monotonic()
            if not unreachable or left <= 0 or not self.accepting:
                return process
            async with self._looked:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._looked.wait(), left)

    # ------------------------------------------------------------------ closing
    async def close(self) -> None:
        """Stop every table here (what was accepted is written) and give back their leases,
        and this process's place among the room's, for the room's other processes."""
        self.accepting = False
        await asyncio.gather(*(owner.stop() for owner in list(self.owners.values())))
        for owner in list(self.owners.values()):  # a look may end meanwhile
            with contextlib.suppress(Exception):
                await leases.release(self.db, owner.id, owner.lease_token)
        with contextlib.suppress(Exception):
            await leases.retire(self.db, self.me)


__all__ = ["Placement"]
