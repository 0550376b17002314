"""Live tables: one owner task per table, the only writer of its state.

Everything that touches a table — a player's decision, a timeout, a bot's move, a buy-in, a
top-up, leaving, the next deal — goes through the owner's queue and the engine's ``apply``, one
at a time. An accepted action is journaled (and its chips moved) in a committed database
transaction **before** anyone hears of it — the database's group writer commits the actions of
every table waiting at that moment together (:mod:`thirteen.server.db.writer`); a hand settles
in the same transaction as the action that ended it, keyed by the hand, so a retry can never pay
twice. Each watcher then gets a frame built from
``view(state, its seat)`` and the events redacted for that seat, and nothing else.

After a crash the table is rebuilt from the database alone: the snapshot written when the last
hand settled plus the journal after it (:func:`load_owner`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from thirteen.bots.base import Bot, show_the_showdown
from thirteen.bots.registry import make_bot
from thirteen.engine.actions import (
    Action,
    Leave,
    SitIn,
    StartHand,
    Timeout,
    TopUp,
    UseTimeBank,
    action_from_json,
    action_to_json,
)
from thirteen.engine.deck import Deal, fresh_deal
from thirteen.engine.errors import RuleError
from thirteen.engine.events import (
    Event,
    HandSettled,
    HandStarted,
    PlayerLeft,
    PlayerSat,
    PlayerToppedUp,
    event_to_json,
    redact,
)
from thirteen.engine.history import (
    HandHistory,
    begin_history,
    history_to_json,
    record,
    result_summary,
    snapshot_from_json,
    snapshot_to_json,
)
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import Rules
from thirteen.engine.state import Phase, TableState, deciders, next_deadline
from thirteen.engine.table import apply
from thirteen.engine.views import TableView, view, view_to_json
from thirteen.server.db.models import (
    GameTable,
    Hand,
    HandSeat,
    JournalEntry,
    Sitting,
    User,
)
from thirteen.server.db.session import Database
from thirteen.server.db.writer import inserted_id
from thirteen.server.metrics import Metrics
from thirteen.server.money import ledger
from thirteen.server.tables.leases import LeaseLostError, fence, fence_sync
from thirteen.server.tables.protocol import (
    CLOSE_GOING_AWAY,
    CLOSE_MOVED,
    CLOSE_POLICY,
    SEAT_ACTIONS,
    ProtocolError,
    encode,
    error_frame,
)

log = logging.getLogger("thirteen.server.tables")

OUTBOX_FRAMES = 256
"""Frames a socket may have waiting; a socket that falls this far behind is dropped."""
RECENT_EVENTS = 512
"""Accepted actions whose events a reconnecting client can be sent again."""
REMEMBERED_ANSWERS = 4096
MOVED_SENTENCE = "This table moved to another server; reconnecting."
CLOSED_SENTENCE = "This table has closed."
PRIVATE_SENTENCE = (
    "This is an event's table: only its players and the event's director may open it while "
    "the event runs; its hands appear in the event's results once all three tables played them."
)
HOOK_RETRY_SECONDS = 1.0
"""How soon a table's hook (a sit & go's director) that failed is called again."""


def now() -> float:
    return time.time()


class Watcher:
    """A socket watching a table: who it is, and the frames waiting to be written to it."""

    def __init__(self, user_id: int | None, name: str | None) -> None:
        self.user_id = user_id
        self.name = name
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX_FRAMES)
        self.dropped = False
        self.finished = asyncio.Event()
        """Set when the socket's writer is done (its close sent)."""
        self.closing: tuple[int, str] | None = None
        """Why the writer closes the socket, when it was asked to (not when it fell behind)."""

    def close(self) -> None:
        """Ask the socket's writer to finish (after what is already queued)."""
        self.close_with(CLOSE_GOING_AWAY, "Goodbye.")

    def close_with(self, code: int, reason: str) -> None:
        """Finish after what is queued, closing the socket with ``code`` and ``reason``."""
        if not self.dropped:
            self.dropped = True
            self.closing = (code, reason)
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)

    def offer(self, frame: dict[str, Any]) -> None:
        """Queue ``frame``; a socket that does not keep up is dropped, never waited for."""
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)


@dataclass
class Seated:
    """Who sits in a seat, and where their chips are."""

    sitting_id: int
    user_id: int
    name: str
    escrow_id: int
    is_bot: bool
    bank: float = -1.0
    """Seconds in the time bank (``-1``: full, not touched yet)."""
    bank_at: float = 0.0
    hands_sat_out: int = 0

    def time_bank(self, full: float, at: float) -> float:
        """Seconds in the bank at ``at``: it refills at ``full`` seconds an hour, up to ``full``."""
        if self.bank < 0:
            return full
        return min(full, self.bank + (at - self.bank_at) * full / 3600.0)


@dataclass
class Request:
    """Something for the owner to do, with a future for its answer."""

    kind: str  # "action", "bot", "attach", "detach", "resync", "close", "hook", "stop"
    watcher: Watcher | None = None
    user_id: int | None = None
    name: str | None = None
    client_id: str | None = None
    state_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    action: Action | None = None
    since: int | None = None
    reply: asyncio.Future[dict[str, Any]] | None = None


@dataclass(frozen=True)
class TableSettings:
    """A table's settings as the lobby and a snapshot show them."""

    id: int
    name: str
    preset: str
    unit: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    bots: int
    bot_level: str
    practice: bool
    status: str
    time_bank_seconds: float = 30.0
    sit_out_hands: int = 3
    tournament_id: int | None = None
    """The sit & go this table plays: its stacks are tournament chips, never money."""
    event_id: int | None = None
    """The duplicate team event this table plays a round of: its stacks are points."""

    @property
    def is_tournament(self) -> bool:
        """A sit & go's or a duplicate event's table: the room seats the players, nobody
        leaves, and its stacks are not money (sitting, hands and leaving move no chips)."""
        return self.tournament_id is not None or self.event_id is not None

    def to_json(self, rules: Rules) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "preset": self.preset,
            "game": rules.game,
            "scoring": rules.scoring,
            "unit": self.unit,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "seats": self.seats,
            "bots": self.bots,
            "bot_level": self.bot_level,
            "practice": self.practice,
            "time_bank_seconds": self.time_bank_seconds,
            "sit_out_hands": self.sit_out_hands,
            "status": self.status,
            "tournament": self.tournament_id,
            "event": self.event_id,
            "rules": rules.to_dict(),
        }


_JOURNAL = cast(Table, JournalEntry.__table__)
_HANDS = cast(Table, Hand.__table__)
_HAND_SEATS = cast(Table, HandSeat.__table__)
_SITTINGS = cast(Table, Sitting.__table__)
_TABLES = cast(Table, GameTable.__table__)
_USERS = cast(Table, User.__table__)
# The group writer's statements, built once (binding values is all each action pays for).
_WRITE_JOURNAL = insert(_JOURNAL)
_OPEN_HAND = insert(_HANDS)
_SEAT_HAND = insert(_HAND_SEATS)
_SETTLE_HAND = (
    update(_HANDS)
    .where(_HANDS.c.id == bindparam("h_id"), _HANDS.c.status == "playing")
    .values(status="settled", finished_at=bindparam("h_at"), history=bindparam("h_history"))
)
_HAND_SEAT_DELTA = (
    update(_HAND_SEATS)
    .where(_HAND_SEATS.c.hand_id == bindparam("h_id"), _HAND_SEATS.c.seat == bindparam("h_seat"))
    .values(delta=bindparam("h_delta"))
)
_SNAPSHOT = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("g_id"))
    .values(snapshot=bindparam("g_snapshot"), snapshot_state_id=bindparam("g_state_id"))
)
_OPEN_SITTING = insert(_SITTINGS)
_CLOSE_SITTING = (
    update(_SITTINGS).where(_SITTINGS.c.id == bindparam("s_id")).values(closed_at=bindparam("s_at"))
)
_ROLE = select(_USERS.c.role).where(_USERS.c.id == bindparam("u_id"))


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
        conn.execute(
            _WRITE_JOURNAL,
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
                pending[event.seat] = self._buy_in(conn, event, self.user_id)
            elif isinstance(event, PlayerToppedUp) and not self.tournament:
                who = self.seated[event.seat]
                ledger.transfer_sync(
                    conn,
                    key=f"top-up:t{self.table_id}:j{self.state_id}",
                    debit_id=ledger.account_id_sync(
                        conn, ledger.wallet_name(who.user_id), "wallet", who.user_id
                    ),
                    credit_id=who.escrow_id,
                    amount=event.amount,
                    reason="top-up",
                    memo=f"{self.table_name}, seat {event.seat}",
                )
            elif isinstance(event, HandStarted):
                made = conn.execute(
                    _OPEN_HAND,
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
                conn.execute(
                    _SEAT_HAND,
                    [
                        {"hand_id": hand_id, "seat": seat, "user_id": self.seated[seat].user_id}
                        for seat in event.seats
                    ],
                )
            elif isinstance(event, HandSettled):
                self._settle(conn, event)
            elif isinstance(event, PlayerLeft):
                who = self.seated.get(event.seat) or pending[event.seat]
                self._cash_out(conn, who, event.reason)
        if self.snapshot is not None:
            conn.execute(
                _SNAPSHOT,
                {"g_id": self.table_id, "g_snapshot": self.snapshot, "g_state_id": self.state_id},
            )
        return _Written(hand_id, pending)

    def _buy_in(self, conn: Connection, event: PlayerSat, user_id: int) -> Seated:
        escrow_id = ledger.account_id_sync(
            conn, f"escrow:t{self.table_id}:s{event.seat}:j{self.state_id}", "escrow", user_id
        )
        if not self.tournament:  # a sit & go's seat stays an empty escrow: its buy-in is paid
            ledger.transfer_sync(
                conn,
                key=f"buy-in:t{self.table_id}:j{self.state_id}",
                debit_id=ledger.account_id_sync(
                    conn, ledger.wallet_name(user_id), "wallet", user_id
                ),
                credit_id=escrow_id,
                amount=event.stack,
                reason="buy-in",
                memo=f"{self.table_name}, seat {event.seat}",
            )
        sitting = conn.execute(
            _OPEN_SITTING,
            {
                "table_id": self.table_id,
                "seat": event.seat,
                "user_id": user_id,
                "escrow_id": escrow_id,
                "opened_at": self.at,
            },
        )
        role = conn.execute(_ROLE, {"u_id": user_id}).scalar()
        sitting_id = inserted_id(sitting)
        return Seated(sitting_id, user_id, event.player, escrow_id, role == "bot")

    def _cash_out(self, conn: Connection, who: Seated, reason: str) -> None:
        held = ledger.cached_balance_sync(conn, who.escrow_id)
        if held > 0:
            ledger.transfer_sync(
                conn,
                key=f"cash-out:t{self.table_id}:j{self.state_id}:s{who.sitting_id}",
                debit_id=who.escrow_id,
                credit_id=ledger.account_id_sync(
                    conn, ledger.wallet_name(who.user_id), "wallet", who.user_id
                ),
                amount=held,
                reason="cash-out",
                memo=f"{self.table_name} ({reason})",
            )
        conn.execute(_CLOSE_SITTING, {"s_id": who.sitting_id, "s_at": self.at})

    def _settle(self, conn: Connection, event: HandSettled) -> None:
        """Move the hand's chips through its pot, once: the hand row flips from playing to
        settled in the same transaction, or the whole transaction fails."""
        hand_id = self.hand_id
        assert hand_id is not None
        assert self.hand_number is not None
        flipped = conn.execute(
            _SETTLE_HAND, {"h_id": hand_id, "h_at": self.at, "h_history": self.history}
        )
        if flipped.rowcount != 1:
            raise RuntimeError(f"hand {hand_id} is not in play; it cannot be settled again")
        conn.execute(  # each seat's result, for its player's hand list
            _HAND_SEAT_DELTA,
            [
                {"h_id": hand_id, "h_seat": seat, "h_delta": delta}
                for seat, delta in zip(event.seats, event.deltas, strict=True)
            ],
        )
        if self.tournament:  # tournament chips: the hand is recorded, no money moves
            return
        # losers pay into the pot, winners are paid from it: one transfer each, keyed by seat
        ledger.settle_pot_sync(
            conn,
            pot=f"pot:t{self.table_id}:h{self.hand_number}",
            moves=[
                (f"hand:{hand_id}:seat:{seat}", self.seated[seat].escrow_id, delta)
                for seat, delta in zip(event.seats, event.deltas, strict=True)
            ],
            reason="hand",
            memo=f"{self.table_name}, hand {self.hand_number}",
        )


BotFactory = Callable[[str, Rules], Bot]


class TableHook(Protocol):
    """What a table's owner asks of whatever runs a tournament at it
    (:mod:`thirteen.server.competitions.tournaments`): called by the owner's own task when it
    starts and after every hand settles."""

    async def after_hand(self, owner: TableOwner) -> None: ...


class DealGate(Protocol):
    """What decides a table's deals and who may watch it (a duplicate event:
    :mod:`thirteen.server.competitions.events`, where three tables are dealt the same cards,
    hand by hand together)."""

    async def next_deal(self, owner: TableOwner) -> Deal | float:
        """The deal for the table's next hand, or when to ask again (the owner also asks
        again at once when :meth:`TableOwner.wake` is called)."""
        ...

    def may_watch(self, user_id: int | None) -> bool:
        """Whether this account may open the table (play or watch)."""
        ...


class TableOwner:
    """The one task that owns a table's state."""

    def __init__(
        self,
        db: Database,
        settings: TableSettings,
        state: TableState,
        seated: dict[int, Seated],
        *,
        metrics: Metrics,
        bot_budget: float,
        bot_delay: float,
        on_change: Callable[[TableOwner], None] | None = None,
        lease_token: int = 0,
        on_lost: Callable[[TableOwner], None] | None = None,
    ) -> None:
        self.db = db
        self.lease_token = lease_token
        """The fencing token of this process's lease on the table (:mod:`..leases`)."""
        self.on_lost = on_lost
        """Called once the table stopped because another process took its lease."""
        self.settings = settings
        self.state = state
        self.seated = seated
        self.metrics = metrics
        self.bot_budget = bot_budget
        self.bot_delay = bot_delay
        self.on_change = on_change
        self.queue: asyncio.Queue[Request] = asyncio.Queue()
        self.watchers: set[Watcher] = set()
        self.recent: deque[tuple[int, tuple[Event, ...]]] = deque(maxlen=RECENT_EVENTS)
        self.answers: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()
        self.decision_since: dict[int, int] = {}
        self.history: HandHistory | None = None
        self.hand_id: int | None = None
        self.bots: dict[int, Bot] = {}
        self.thinking: dict[int, asyncio.Task[None]] = {}
        self.task: asyncio.Task[None] | None = None
        self.hands_done: deque[float] = deque(maxlen=1000)
        self._stalled_until = 0.0
        self._keys = self._decision_keys(state)
        self._pending_hand_id: int | None = None
        self._snapshot_state_id = 0
        self._replaying = False
        self._presence: list[int] = []
        """The connected seats the watchers were last told of."""
        self.abandoned = False
        self._closing_tried = -1
        self.hook: TableHook | None = None
        """A sit & go's director (:mod:`thirteen.server.competitions.tournaments`), set before
        :meth:`start`."""
        self.gate: DealGate | None = None
        """A duplicate event's dealer (:mod:`thirteen.server.competitions.events`), set before
        :meth:`start`."""

    @property
    def id(self) -> int:
        return self.settings.id

    @property
    def rules(self) -> Rules:
        return self.state.rules

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        for seat, who in self.seated.items():
            if who.is_bot:
                self.bots[seat] = make_bot(self.settings.bot_level, self.rules)
        if self.hook is not None:  # before any deal: seats, places and the unit as they must be
            self.queue.put_nowait(Request("hook"))
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self._schedule_bots()

    async def stop(self) -> None:
        """Stop taking requests; what was accepted is already written."""
        for task in self.thinking.values():
            task.cancel()
        if self.task is not None:
            await self.queue.put(Request("stop"))
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def submit(self, request: Request) -> dict[str, Any]:
        """Hand ``request`` to the owner and wait for its answer."""
        if self.task is not None and self.task.done():
            return error_frame("moved", MOVED_SENTENCE, request.client_id)
        loop = asyncio.get_running_loop()
        request.reply = loop.create_future()
        await self.queue.put(request)
        return await request.reply

    async def _run(self) -> None:
        try:
            await self._serve()
        except LeaseLostError:
            log.warning("table lost to another process", extra={"table": self.id})
            self.abandon()

    async def lose(self) -> None:
        """Another process took the table's lease: stop here (any write would be refused)."""
        await self.stop()
        self.abandon()

    def abandon(self) -> None:
        """Another process runs the table now: answer what is waiting, close every socket
        (their clients reconnect and find the table's new process), write nothing."""
        if self.abandoned:
            return
        self.abandoned = True
        for task in self.thinking.values():
            task.cancel()
        while not self.queue.empty():
            self._answer(self.queue.get_nowait(), error_frame("moved", MOVED_SENTENCE))
        for watcher in list(self.watchers):
            watcher.close_with(CLOSE_MOVED, MOVED_SENTENCE)
        self.watchers.clear()
        if self.on_lost is not None:
            asyncio.get_running_loop().call_soon(self.on_lost, self)

    async def _serve(self) -> None:
        while True:
            due = next_deadline(self.state)
            if (
                due is None
                and self.settings.status == "closing"
                and self.state.phase != Phase.PLAYING
                and self._closing_tried != self.state.state_id
            ):
                # a closing table with no deal to wait for (a restart between its closing and
                # its seats emptying, or too few players left to deal): close it now
                self._closing_tried = self.state.state_id
                await self._close_seats()
                continue
            timeout = None
            if due is not None:
                timeout = max(0.0, max(due[0], self._stalled_until) - now())
            try:
                request = await asyncio.wait_for(self.queue.get(), timeout)
            except TimeoutError:
                assert due is not None
                await self._on_due(*due)
                continue
            if request.kind == "stop":
                self._answer(request, {"type": "stopped"})
                return
            try:
                await self._handle(request)
            except LeaseLostError:
                self._answer(request, error_frame("moved", MOVED_SENTENCE, request.client_id))
                raise
            except Exception:  # the table must go on whatever one request did
                log.exception("request failed", extra={"table": self.id, "kind": request.kind})
                self._answer(
                    request,
                    error_frame(
                        "internal",
                        "Something went wrong on our side; nothing was changed.",
                        request.client_id,
                    ),
                )

    def _answer(self, request: Request, frame: dict[str, Any]) -> None:
        if request.reply is not None and not request.reply.done():
            request.reply.set_result(frame)

    async def _on_due(self, when: float, what: str, seat: int | None) -> None:
        at = max(now(), when)  # a timer may wake a hair early; the engine's clock must not
        action: Action
        if what == "deal":
            if self.settings.status != "open":
                await self._close_seats()
                return
            deal = fresh_deal() if self.gate is None else await self.gate.next_deal(self)
            if not isinstance(deal, Deal):  # not yet: ask again then, or when woken
                self._stalled_until = deal
                return
            action = StartHand(deal=deal, at=at)
        else:
            assert seat is not None
            action = Timeout(seat=seat, at=at)
        try:
            await self._accept(action)
        except RuleError as e:  # a deadline the engine does not agree with: try again soon
            log.warning(
                "due action refused", extra={"table": self.id, "what": what, "code": e.code}
            )
            self._stalled_until = at + 1.0

    def wake(self) -> None:
        """Something a held deal waits for may have happened: ask the gate again now."""
        if not self.abandoned and self.task is not None and not self.task.done():
            self.queue.put_nowait(Request("wake"))

    # ------------------------------------------------------------------ requests
    async def _handle(self, request: Request) -> None:
        if request.kind == "wake":
            self._stalled_until = 0.0
            return
        if request.kind == "attach":
            assert request.watcher is not None
            if self.settings.status == "closed":  # it closed while the socket was let in
                request.watcher.offer({"type": "closing", "message": CLOSED_SENTENCE})
                request.watcher.close()
                self._answer(request, {"type": "closing", "message": CLOSED_SENTENCE})
                return
            if self.gate is not None and not self.gate.may_watch(request.watcher.user_id):
                request.watcher.offer(error_frame("private_table", PRIVATE_SENTENCE))
                request.watcher.close_with(CLOSE_POLICY, PRIVATE_SENTENCE)
                self._answer(request, error_frame("private_table", PRIVATE_SENTENCE))
                return
            self.watchers.add(request.watcher)
            self.metrics.ws_watching.inc()
            request.watcher.offer(self._snapshot(request.watcher, request.since))
            self._answer(request, {"type": "attached"})
            self._presence_changed(skip=request.watcher)
        elif request.kind == "detach":
            if request.watcher in self.watchers:
                assert request.watcher is not None
                self.watchers.discard(request.watcher)
                self.metrics.ws_watching.dec()
            self._answer(request, {"type": "detached"})
            self._presence_changed()
        elif request.kind == "resync":
            assert request.watcher is not None
            request.watcher.offer(self._snapshot(request.watcher, request.since))
            self._answer(request, {"type": "resynced"})
        elif request.kind == "action":
            self._answer(request, await self._client_action(request))
        elif request.kind == "bot":
            await self._bot_action(request)
            self._answer(request, {"type": "done"})
        elif request.kind == "close":
            await self.close_after_hand()
            self._answer(request, {"type": "closing"})
        elif request.kind == "hook":
            await self._run_hook()
            self._answer(request, {"type": "done"})
        else:
            self._answer(request, error_frame("bad_request", "Unknown request."))

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat, who in self.seated.items():
            if who.user_id == user_id:
                return seat
        return None

    async def _client_action(self, request: Request) -> dict[str, Any]:
        user_id, client_id = request.user_id, request.client_id
        assert user_id is not None
        assert client_id is not None
        key = (user_id, client_id)
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        # An id this owner has not answered may still have been accepted before a restart: the
        # journal knows. It is asked only when the action is refused — by the engine, or by the
        # journal's unique (table, user, client id) index when the same action is accepted
        # again — so an action taken for the first time costs no read.
        try:
            action = self._action_for(request)
            if isinstance(action, UseTimeBank):  # spent before the frames that show it go out
                who = self.seated[action.seat]
                kept = (who.bank, who.bank_at)
                at = now()
                who.bank = who.time_bank(self.settings.time_bank_seconds, at) - action.seconds
                who.bank_at = at
                try:
                    await self._accept(action, user_id=user_id, client_id=client_id)
                except Exception:
                    who.bank, who.bank_at = kept
                    raise
            else:
                await self._accept(action, user_id=user_id, client_id=client_id, request=request)
            answer = {"type": "ack", "id": client_id, "state_id": self.state.state_id}
        except RuleError as e:
            done = await self._journaled_answer(user_id, client_id)
            if done is not None:
                answer = done
            else:
                answer = error_frame(e.code, e.message, client_id)
                if e.code == "stale" and request.watcher is not None:
                    request.watcher.offer(self._snapshot(request.watcher, None))
        except IntegrityError:
            done = await self._journaled_answer(user_id, client_id)
            if done is None:
                raise
            answer = done
        self.answers[key] = answer
        if len(self.answers) > REMEMBERED_ANSWERS:
            self.answers.popitem(last=False)
        return answer

    async def _journaled_answer(self, user_id: int, client_id: str) -> dict[str, Any] | None:
        """The answer to an action id that was accepted before a restart, if any."""
        async with self.db.begin() as s:
            state_id = await s.scalar(
                select(JournalEntry.state_id).where(
                    JournalEntry.table_id == self.id,
                    JournalEntry.user_id == user_id,
                    JournalEntry.client_id == client_id,
                )
            )
        if state_id is None:
            return None
        return {"type": "ack", "id": client_id, "state_id": state_id}

    def _action_for(self, request: Request) -> Action:
        """The engine action a client asked for, with its seat and the server's time."""
        data = dict(request.payload)
        kind = data.get("type")
        seat = self.seat_of(request.user_id)
        if kind == "time_bank":
            who = self.seated.get(seat) if seat is not None else None
            if who is None:
                raise ProtocolError("not_seated", "Take a seat first.")
            if set(data) != {"type"}:
                raise ProtocolError("bad_action", 'A "time_bank" action has no other fields.')
            seconds = float(int(who.time_bank(self.settings.time_bank_seconds, now())))
            if seconds < 1:
                raise ProtocolError(
                    "no_time_bank",
                    f"Your time bank is empty; it refills with {self.settings.time_bank_seconds:g} "
                    "seconds an hour.",
                )
            self._check_fresh(seat, request.state_id)
            assert seat is not None
            return UseTimeBank(seat=seat, seconds=seconds, at=now())
        if self.settings.is_tournament and kind in ("sit", "leave", "top_up", "sit_out"):
            raise ProtocolError(
                "tournament_table",
                "At a sit & go or an event's table the room seats the players, and nobody adds "
                "chips, sits out or leaves; an absent player is dealt in and played for.",
            )
        if kind == "sit":
            if seat is not None:
                raise ProtocolError("already_seated", "You already have a seat at this table.")
            if set(data) - {"type", "seat", "buy_in"}:
                raise ProtocolError("bad_action", 'A "sit" action has "seat" and "buy_in".')
            data = {"type": "sit", "seat": data.get("seat"), "stack": data.get("buy_in")}
            data["player"] = self._name_of(request)
        else:
            if seat is None:
                raise ProtocolError("not_seated", "Take a seat first.")
            if "seat" in data or "at" in data:
                raise ProtocolError("bad_action", "The room fills in the seat and the time.")
            data["seat"] = seat
        missing = [f for f in ("seat", "stack") if f in data and data[f] is None]
        if missing:
            field = "buy_in" if missing[0] == "stack" else missing[0]
            raise ProtocolError("bad_action", f'A "sit" action needs "{field}".')
        action = action_from_json(data)
        if kind in SEAT_ACTIONS:
            self._check_fresh(seat, request.state_id)
        return replace(action, at=now())

    def _name_of(self, request: Request) -> str:
        if request.name:
            return request.name
        raise ProtocolError("not_logged_in", "Log in to take a seat.")

    def _check_fresh(self, seat: int | None, state_id: int | None) -> None:
        """A decision must be made on the decision now pending (not an earlier one)."""
        if seat is None or state_id is None:
            return
        since = self.decision_since.get(seat)
        if since is None:  # nothing pending: the engine says why in its own words
            return
        if not since <= state_id <= self.state.state_id:
            raise ProtocolError(
                "stale",
                "The table moved on since you decided; here is where it stands now.",
            )

    async def _bot_action(self, request: Request) -> None:
        assert request.action is not None
        seat = request.action.seat if hasattr(request.action, "seat") else None
        try:
            self._check_fresh(seat, request.state_id)
            await self._accept(replace(request.action, at=now()))
        except RuleError as e:  # the code only: a bot's refusal may name its own cards
            log.info("bot move refused", extra={"table": self.id, "seat": seat, "code": e.code})

    # ------------------------------------------------------------------ accepting
    async def _accept(
        self,
        action: Action,
        *,
        user_id: int | None = None,
        client_id: str | None = None,
        request: Request | None = None,
    ) -> None:
        """Apply, journal (moving chips in the same transaction), then tell everyone."""
        started = time.perf_counter()
        before = self.state
        action = replace(
            action, at=max(action.at, before.clock)
        )  # the table's clock never runs back
        new, events = apply(before, action)
        await self._commit(before, new, action, events, user_id, client_id)
        self.state = new
        self._track(before, new, action, events)
        self.recent.append((new.state_id, events))
        self._broadcast(events)
        self.metrics.action_seconds.observe(time.perf_counter() - started)
        self._schedule_bots()
        settled = any(isinstance(e, HandSettled) for e in events)
        if settled:
            show_the_showdown(self.state, self.bots.items())
        if settled and self.bots and not self.settings.is_tournament:
            await self._refill_bots()
        if settled:
            await self._run_hook()
        if any(isinstance(e, HandStarted) for e in events) and not self.settings.is_tournament:
            await self._unseat_long_absent()
        if self.on_change is not None and any(
            isinstance(e, PlayerSat | PlayerLeft | HandStarted | HandSettled) for e in events
        ):
            self.on_change(self)

    async def _commit(
        self,
        before: TableState,
        new: TableState,
        action: Action,
        events: tuple[Event, ...],
        user_id: int | None,
        client_id: str | None,
    ) -> None:
        """Journal ``action`` and move its chips in one transaction — the group writer's next
        batch — and return once it is committed; only then does the table remember it."""
        at = now()
        snapshot: str | None = None
        if any(isinstance(e, HandSettled) for e in events) or (
            new.phase != Phase.PLAYING and new.state_id - self._snapshot_state_id >= 64
        ):
            snapshot = encode(snapshot_to_json(new))
        history = (
            self._history_json(action, new)
            if any(isinstance(e, HandSettled) for e in events)
            else None
        )
        work = _Commit(
            table_id=self.id,
            table_name=self.settings.name,
            state_id=new.state_id,
            action=encode(action_to_json(action)),
            user_id=user_id,
            client_id=client_id,
            at=at,
            events=events,
            seated=dict(self.seated),
            hand_id=self.hand_id,
            hand_number=new.hand.number if new.hand is not None else None,
            history=history,
            snapshot=snapshot,
            lease_token=self.lease_token,
            tournament=self.settings.is_tournament,
        )
        written = await self.db.write(work)
        if written.hand_id is not None:
            self._pending_hand_id = written.hand_id
        if snapshot is not None:
            self._snapshot_state_id = new.state_id
        for seat, who in written.seated.items():
            self.seated[seat] = who

    def _history_json(self, last: Action, final: TableState) -> str:
        """The finished hand's full history with its result (``final``: the state after
        ``last``)."""
        assert self.history is not None
        history = replace(record(self.history, last), result=result_summary(final))
        return encode(history_to_json(history))

    # ------------------------------------------------------------------ bookkeeping
    def _decision_keys(self, state: TableState) -> dict[int, tuple[Any, ...]]:
        hand = state.hand
        if hand is None:
            return {}
        keys: dict[int, tuple[Any, ...]] = {}
        for seat in deciders(state):  # not the deadline: a time bank does not change the decision
            board = hand.board_of(seat)
            assert board is not None
            keys[seat] = (hand.number, board.street, board.pending)
        return keys

    def _track(
        self, before: TableState, new: TableState, action: Action, events: tuple[Event, ...]
    ) -> None:
        """Histories, decision ids, the hand id and the players' seats after an action."""
        if isinstance(action, StartHand):
            self.history = begin_history(before, action)
            self.hand_id = self._pending_hand_id
        elif self.history is not None:
            self.history = record(self.history, action)
        keys = self._decision_keys(new)
        for seat, key in keys.items():
            if self._keys.get(seat) != key:
                self.decision_since[seat] = new.state_id
        for seat in set(self.decision_since) - set(keys):
            del self.decision_since[seat]
        self._keys = keys
        for event in events:
            if isinstance(event, HandSettled):
                self.hands_done.append(now())
                if not self._replaying:
                    self.metrics.hands.labels(self.settings.preset).inc()
                    log.info(
                        "hand settled",
                        extra={"table": self.id, "hand": self.hand_id, "state_id": new.state_id},
                    )
                self.history = None
            elif self._replaying:
                continue  # who sits where comes from the open sittings, not from old events
            elif isinstance(event, HandStarted):
                for seat, who in self.seated.items():
                    seat_state = new.seats[seat]
                    sitting_out = seat_state is not None and seat_state.sitting_out
                    who.hands_sat_out = who.hands_sat_out + 1 if sitting_out else 0
            elif isinstance(event, PlayerLeft):
                self.seated.pop(event.seat, None)
                self.bots.pop(event.seat, None)
            elif isinstance(event, PlayerSat) and self.seated[event.seat].is_bot:
                self.bots[event.seat] = make_bot(self.settings.bot_level, self.rules)

    def _broadcast(self, events: tuple[Event, ...]) -> None:
        frames: dict[int | None, dict[str, Any]] = {}
        for watcher in list(self.watchers):
            seat = self.seat_of(watcher.user_id)
            frame = frames.get(seat)
            if frame is None:
                frame = frames[seat] = self._frame("update", seat, events)
            watcher.offer(frame)
            if watcher.dropped:
                self.watchers.discard(watcher)
                self.metrics.ws_watching.dec()
        self._presence = self.connected()

    def connected(self) -> list[int]:
        """The seats whose player has a socket open at this table (a bot always counts)."""
        online = {w.user_id for w in self.watchers if not w.dropped}
        return sorted(s for s, who in self.seated.items() if who.is_bot or who.user_id in online)

    def _presence_changed(self, skip: Watcher | None = None) -> None:
        """Tell every watcher (but ``skip``, whose snapshot says so) when a seated player's
        first socket opens or last one closes."""
        connected = self.connected()
        if connected == self._presence:
            return
        self._presence = connected
        frame = {"type": "presence", "table": self.id, "connected": connected, "server_time": now()}
        for watcher in list(self.watchers):
            if watcher is not skip:
                watcher.offer(frame)

    def _frame(self, kind: str, seat: int | None, events: tuple[Event, ...]) -> dict[str, Any]:
        shown = [event_to_json(r) for e in events if (r := redact(e, seat)) is not None]
        who = self.seated.get(seat) if seat is not None else None
        bank = who.time_bank(self.settings.time_bank_seconds, now()) if who else None
        return {
            "type": kind,
            "table": self.id,
            "state_id": self.state.state_id,
            "server_time": now(),
            "seat": seat,
            "time_bank": None if bank is None else round(bank, 1),
            "events": shown,
            "view": view_to_json(view(self.state, seat)),
            "connected": self.connected(),
        }

    def _snapshot(self, watcher: Watcher, since: int | None) -> dict[str, Any]:
        """Where the table stands for this watcher; with ``since``, the events it missed."""
        seat = self.seat_of(watcher.user_id)
        missed: tuple[Event, ...] = ()
        if since is not None and self.recent and self.recent[0][0] <= since + 1:
            missed = tuple(e for sid, evs in self.recent if sid > since for e in evs)
        frame = self._frame("snapshot", seat, missed)
        frame["settings"] = self.settings.to_json(self.rules)
        frame["you"] = watcher.name
        return frame

    def _schedule_bots(self) -> None:
        for seat in deciders(self.state):
            bot = self.bots.get(seat)
            if bot is None or seat in self.thinking:
                continue
            self.thinking[seat] = asyncio.create_task(self._think(seat, bot))

    async def _think(self, seat: int, bot: Bot) -> None:
        """A bot decides on its own view, off the event loop, within the table's time."""
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            seen, action = await self.decide(seat, bot)
            await self.queue.put(Request("bot", action=action, state_id=seen.state_id))
        except RuleError as e:
            log.info("bot idle", extra={"table": self.id, "seat": seat, "code": e.code})
        finally:
            self.thinking.pop(seat, None)

    async def decide(self, seat: int, bot: Bot) -> tuple[TableView, Action]:
        """What ``bot`` does from ``seat``'s view now (that view and its action): off the event
        loop, within the table's time. Bots play with it, and a practice hint asks it."""
        seen = view(self.state, seat)
        legal = legal_actions(seen)
        deadline = deciders(self.state).get(seat)
        budget = self.bot_budget
        if deadline is not None:
            budget = max(0.01, min(budget, (deadline - now()) / 2))
        action = await asyncio.to_thread(bot.choose, seen, legal, budget)
        return seen, action

    async def _unseat_long_absent(self) -> None:
        """A player who has sat out the table's number of hands leaves, with their chips."""
        limit = self.settings.sit_out_hands
        for seat, who in sorted(self.seated.items()):
            if who.hands_sat_out >= limit and self.state.seats[seat] is not None:
                try:
                    await self._accept(Leave(seat=seat, at=now()))
                except RuleError as e:
                    log.warning("unseat refused", extra={"table": self.id, "code": e.code})

    async def _refill_bots(self) -> None:
        """Bots top their stacks back up after a hand (from the house, through their wallets),
        so a table of bots keeps playing whatever they lose."""
        for seat in sorted(self.bots):
            seat_state = self.state.seats[seat]
            who = self.seated.get(seat)
            if seat_state is None or who is None:
                continue
            amount = self.settings.max_buy_in - seat_state.stack
            if amount >= max(1, self.settings.max_buy_in // 2):
                async with self.db.begin() as s:
                    key = f"bot-refill:t{self.id}:j{self.state.state_id}:s{seat}"
                    await ledger.fill_wallet(s, who.user_id, amount, key=key, memo="bot refill")
                try:
                    await self._accept(TopUp(seat=seat, amount=amount, at=now()))
                except RuleError as e:
                    log.info("bot top-up refused", extra={"table": self.id, "code": e.code})
            seat_state = self.state.seats[seat]
            if seat_state is not None and seat_state.sitting_out and seat_state.stack > 0:
                with contextlib.suppress(RuleError):
                    await self._accept(SitIn(seat=seat, at=now()))

    async def _run_hook(self) -> None:
        """Call the table's hook; if it fails (the action that called it is written already),
        call it again in a moment rather than answer that action with an error."""
        if self.hook is None:
            return
        try:
            await self.hook.after_hand(self)
        except LeaseLostError:
            raise
        except Exception:
            log.exception("table hook failed; trying again", extra={"table": self.id})
            asyncio.get_running_loop().call_later(HOOK_RETRY_SECONDS, self._queue_hook)

    def _queue_hook(self) -> None:
        if not self.abandoned and self.task is not None and not self.task.done():
            self.queue.put_nowait(Request("hook"))

    async def accept_here(self, action: Action, *, user_id: int | None = None) -> None:
        """Accept an action of the room's own (a tournament's seating, unit, sit-in) — only
        from the owner's task: from a :class:`TableHook`, which it calls."""
        await self._accept(action, user_id=user_id)

    async def close_after_hand(self) -> None:
        """Close the table: now between hands, else once the hand in play has settled."""
        self.settings = replace(self.settings, status="closing")
        await self._set_status("closing")
        if self.state.phase != Phase.PLAYING:
            await self._close_seats()

    async def _set_status(self, status: str) -> None:
        async with self.db.begin() as s:
            await fence(s, self.id, self.lease_token)
            await s.execute(update(GameTable).where(GameTable.id == self.id).values(status=status))

    async def _close_seats(self) -> None:
        """A closing table between hands: everyone leaves with their chips; then it is closed."""
        for seat in sorted(self.seated):
            if self.state.seats[seat] is not None:
                await self._accept(Leave(seat=seat, at=now()))
        if not self.seated:
            self.settings = replace(self.settings, status="closed")
            await self._set_status("closed")
            for watcher in list(self.watchers):
                watcher.offer({"type": "closing", "message": CLOSED_SENTENCE})
                watcher.close()
            self.watchers.clear()
            if self.on_change is not None:
                self.on_change(self)

    def lobby_entry(self) -> dict[str, Any]:
        taken = sum(1 for s in self.state.seats if s is not None)
        cutoff = now() - 3600
        recent = [t for t in self.hands_done if t >= cutoff]
        rules = self.rules
        entry = self.settings.to_json(rules)
        del entry["rules"]
        entry.update(
            {
                "taken": taken,
                "free": self.settings.seats - taken,
                "players": [s.player for s in self.state.seats if s is not None],
                "hands_per_hour": len(recent),
                "timers": {
                    "set_hand": rules.set_hand_seconds,
                    "first_street": rules.first_street_seconds,
                    "street": rules.street_seconds,
                    "fantasyland": rules.fantasyland_seconds,
                    "showdown": rules.showdown_seconds,
                },
            }
        )
        return entry


async def load_owner(
    db: Database,
    row: GameTable,
    *,
    metrics: Metrics,
    bot_budget: float,
    bot_delay: float,
    on_change: Callable[[TableOwner], None] | None = None,
    lease_token: int = 0,
    on_lost: Callable[[TableOwner], None] | None = None,
) -> TableOwner:
    """Rebuild a table from the database alone: snapshot, then every journaled action after it
    (read after taking the table's lease, ``lease_token``, so nothing can be written after)."""
    state = snapshot_from_json(json.loads(row.snapshot))
    async with db.begin() as s:
        entries = (
            await s.scalars(
                select(JournalEntry)
                .where(
                    JournalEntry.table_id == row.id, JournalEntry.state_id > row.snapshot_state_id
                )
                .order_by(JournalEntry.state_id)
            )
        ).all()
        sittings = (
            await s.scalars(
                select(Sitting).where(Sitting.table_id == row.id, Sitting.closed_at.is_(None))
            )
        ).all()
        names = {}
        for sitting in sittings:
            user = await s.get(User, sitting.user_id)
            assert user is not None
            names[sitting.seat] = (user.name, user.role == "bot")
    seated = {
        sitting.seat: Seated(
            sitting.id,
            sitting.user_id,
            names[sitting.seat][0],
            sitting.escrow_id,
            names[sitting.seat][1],
        )
        for sitting in sittings
    }
    settings = TableSettings(
        id=row.id,
        name=row.name,
        preset=row.preset,
        unit=row.unit,
        min_buy_in=row.min_buy_in,
        max_buy_in=row.max_buy_in,
        seats=row.seats,
        bots=row.bots,
        bot_level=row.bot_level,
        practice=row.practice,
        time_bank_seconds=row.time_bank_seconds,
        sit_out_hands=row.sit_out_hands,
        status=row.status,
        tournament_id=row.tournament_id,
        event_id=row.event_id,
    )
    owner = TableOwner(
        db,
        settings,
        state,
        seated,
        metrics=metrics,
        bot_budget=bot_budget,
        bot_delay=bot_delay,
        on_change=on_change,
        lease_token=lease_token,
        on_lost=on_lost,
    )
    owner._snapshot_state_id = row.snapshot_state_id
    owner._replaying = True
    for entry in entries:
        action = action_from_json(json.loads(entry.action))
        before = owner.state
        new, events = apply(before, action)
        if new.state_id != entry.state_id:
            raise RuntimeError(f"table {row.id}: the journal is out of step at {entry.state_id}")
        if isinstance(action, StartHand) and new.hand is not None:
            async with db.begin() as s:
                owner._pending_hand_id = await s.scalar(
                    select(Hand.id).where(Hand.table_id == row.id, Hand.number == new.hand.number)
                )
        owner.state = new
        owner._track(before, new, action, events)
    owner._replaying = False
    await _restore_seat_counts(db, row, owner, {s.seat: s.opened_at for s in sittings})
    return owner


async def _restore_seat_counts(
    db: Database, row: GameTable, owner: TableOwner, opened: dict[int, float]
) -> None:
    """What each seat's memory held before a restart, read back from the database: its time
    bank (every use journaled in the last hour of this sitting, replayed — the bank refills in
    an hour) and, for a seat sitting out, how many hands were dealt without it since it last
    played (or sat down)."""
    full = owner.settings.time_bank_seconds
    async with db.begin() as s:
        for seat, who in owner.seated.items():
            if who.is_bot:
                continue
            since = max(opened[seat], time.time() - 3600.0)
            uses = await s.execute(
                select(JournalEntry.action)
                .where(
                    JournalEntry.table_id == row.id,
                    JournalEntry.user_id == who.user_id,
                    JournalEntry.created_at >= since,
                )
                .order_by(JournalEntry.state_id)
            )
            for (text,) in uses:
                used = json.loads(text)
                if used.get("type") == "use_time_bank":
                    at = float(used.get("at", 0.0))
                    who.bank = who.time_bank(full, at) - float(used["seconds"])
                    who.bank_at = at
            seat_state = owner.state.seats[seat]
            if seat_state is None or not seat_state.sitting_out:
                continue
            last_played = await s.scalar(
                select(func.max(Hand.started_at))
                .join(HandSeat, HandSeat.hand_id == Hand.id)
                .where(Hand.table_id == row.id, HandSeat.user_id == who.user_id)
            )
            after = max(opened[seat], last_played or 0.0)
            who.hands_sat_out = (
                await s.scalar(
                    select(func.count(Hand.id)).where(
                        Hand.table_id == row.id, Hand.started_at > after
                    )
                )
                or 0
            )


__all__ = ["Request", "Seated", "TableOwner", "TableSettings", "Watcher", "load_owner"]
