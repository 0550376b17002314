"""The room: every live table's owner, the lobby's watchers, and opening and closing tables.

On start every table that was open is rebuilt from the database (a crash loses nothing anyone
was told); a fresh room with no tables opens one of every preset with bots already playing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from thirteen.bots.registry import NAMES
from thirteen.engine.errors import RuleError
from thirteen.engine.history import snapshot_to_json
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import new_table
from thirteen.server import ledger
from thirteen.server.accounts import Accounts, user_by_name
from thirteen.server.db.models import GameTable
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.protocol import CLOSE_GOING_AWAY
from thirteen.server.settings import Settings
from thirteen.server.tables import Request, TableOwner, Watcher, load_owner

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


async def insert_table(db: Database, spec: TableSpec) -> int:
    """Write a new open table (any preset with any setting the engine accepts); its id.

    A running room picks it up (:meth:`Room.discover`) and seats its bots."""
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
        )
        s.add(row)
        await s.flush()
    return row.id


class Room:
    def __init__(self, db: Database, settings: Settings, accounts: Accounts, metrics: Metrics):
        self.db = db
        self.settings = settings
        self.accounts = accounts
        self.metrics = metrics
        self.owners: dict[int, TableOwner] = {}
        self.lobby: set[Watcher] = set()
        self.accepting = True
        self._discovery: asyncio.Task[None] | None = None
        self._discovering = asyncio.Lock()

    async def open(self) -> None:
        """Rebuild every open table from the database; open the default tables in a new room."""
        async with self.db.begin() as s:
            any_table = await s.scalar(select(GameTable.id).limit(1))
        if any_table is None and self.settings.default_tables:
            for preset, rules in PRESETS.items():
                bots = max(2, rules.max_players - 1)
                await self.create_table(
                    TableSpec(preset=preset, name=f"{preset} ({bots} bots)", bots=bots, unit=1)
                )
        await self.discover()
        self._discovery = asyncio.create_task(self._discover_forever())

    async def _discover_forever(self) -> None:
        """Pick up tables opened or closed by ``thirteen admin`` (or another process)."""
        while self.accepting:
            await asyncio.sleep(self.settings.discover_seconds)
            try:
                await self.discover()
            except Exception:
                log.exception("discovering tables failed; trying again")

    async def discover(self) -> None:
        """Start an owner for every open table not running here; pass on closings."""
        async with self._discovering:
            await self._discover()

    async def _discover(self) -> None:
        async with self.db.begin() as s:
            rows = (await s.scalars(select(GameTable).where(GameTable.status != "closed"))).all()
        for row in rows:
            owner = self.owners.get(row.id)
            if owner is None:
                owner = await load_owner(
                    self.db,
                    row,
                    metrics=self.metrics,
                    bot_budget=self.settings.bot_budget,
                    bot_delay=self.settings.bot_delay,
                    on_change=self._changed,
                )
                self._start(owner)
                log.info(
                    "table open",
                    extra={
                        "table": row.id,
                        "preset": row.preset,
                        "resumed_at": owner.state.state_id,
                    },
                )
                await self._seat_bots(owner, row.bots)
            elif row.status == "closing" and owner.settings.status == "open":
                await owner.submit(Request("close"))

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
        self._changed(owner)  # the lobby hears of a new table at once
        self.metrics.tables_open.set(
            sum(1 for o in self.owners.values() if o.settings.status == "open")
        )

    async def close(self) -> None:
        """Stop every table (what was accepted is written) and say goodbye to every socket."""
        if not self.accepting:
            return
        self.accepting = False
        log.info("room closing", extra={"tables": len(self.owners)})
        if self._discovery is not None:
            self._discovery.cancel()
        await asyncio.gather(*(owner.stop() for owner in self.owners.values()))
        watchers = {*self.lobby, *(w for o in self.owners.values() for w in o.watchers)}
        for watcher in watchers:
            watcher.offer(
                {"type": "closing", "message": "The room is restarting; reconnect in a moment."}
            )
            watcher.close_with(CLOSE_GOING_AWAY, "The room is restarting; reconnect in a moment.")
        if watchers:  # let each socket's writer send its goodbye before the server closes them
            done = asyncio.gather(*(w.finished.wait() for w in watchers))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done, CLOSE_SECONDS)

    async def create_table(self, spec: TableSpec) -> TableOwner:
        """Open a table and start it here, seating its bots."""
        table_id = await insert_table(self.db, spec)
        await self.discover()
        return self.owners[table_id]

    async def _seat_bot(self, owner: TableOwner, seat: int) -> None:
        name = f"bot-{owner.id}-{seat}"
        async with self.db.begin() as s:
            user = await user_by_name(s, name)
        user_id = (
            user.id if user is not None else await self.accounts.create_user(name, None, "bot")
        )
        amount = owner.settings.max_buy_in
        async with self.db.begin() as s:
            key = f"bot-refill:{user_id}:{secrets.token_hex(8)}"
            await ledger.fill_wallet(s, user_id, amount, key=key, memo="bot stake")
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
        owner = self.owners.get(table_id)
        if owner is None or owner.settings.status == "closed":
            raise RuleError("no_table", f"There is no open table {table_id}.")
        await owner.submit(Request("close"))

    def lobby_frame(self) -> dict[str, Any]:
        tables = [o.lobby_entry() for o in self.owners.values() if o.settings.status != "closed"]
        return {"type": "lobby", "server_time": time.time(), "tables": tables}

    def _changed(self, _owner: TableOwner) -> None:
        self.metrics.tables_open.set(
            sum(1 for o in self.owners.values() if o.settings.status == "open")
        )
        if not self.lobby:
            return
        frame = self.lobby_frame()
        for watcher in list(self.lobby):
            watcher.offer(frame)
            if watcher.dropped:
                self.lobby.discard(watcher)


__all__ = ["Room", "TableSpec", "insert_table"]
