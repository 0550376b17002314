"""Live tables: one owner task per table, the only writer of its state (:class:`TableOwner`).

Everything that touches a table goes through its owner's queue and the engine's ``apply``, one
at a time; an accepted action is journaled (and its chips moved) in a committed database
transaction **before** anyone hears of it, and each watcher then gets a frame built from
``view(state, its seat)`` and the events redacted for that seat, and nothing else. After a crash
the table is rebuilt from the database alone (:mod:`.resume`).

The owner is the face the room, its sockets and its competitions know a table by; the work is
done by the pieces it composes, each holding the table's shared memory (:mod:`.live`):

* the hand loop (:mod:`.hands`): the timers, accepting an action, its line of requests
  (:mod:`.line`), decisions queued together taken together (:mod:`.together`), a written
  action taken into memory and told (:mod:`.told`), bots thinking (:mod:`.thinking`) and a
  player's requests answered once (:mod:`.requests`);
* seating and money (:mod:`.seating`): the seats in memory, the room's own seat actions, and the
  ledger's postings of each action;
* persistence (:mod:`.journal`): the group writer's piece that writes an action, the hand's
  history, snapshots;
* broadcasting (:mod:`.broadcast`): watchers, their frames and presence, the lobby's entry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from thirteen.bots.base import Bot
from thirteen.engine.actions import Action
from thirteen.engine.deck import Deal
from thirteen.engine.rules import Rules
from thirteen.engine.state import TableState
from thirteen.engine.views import TableView
from thirteen.server.db.session import Database
from thirteen.server.metrics import Metrics
from thirteen.server.tables.broadcast import Broadcaster, Watcher
from thirteen.server.tables.hands import MOVED_SENTENCE, HandLoop
from thirteen.server.tables.journal import Journal
from thirteen.server.tables.leases import LeaseLostError
from thirteen.server.tables.live import LiveTable, Seated, TableSettings
from thirteen.server.tables.protocol import error_frame
from thirteen.server.tables.requests import Request
from thirteen.server.tables.seating import Seating

log = logging.getLogger("thirteen.server.tables")

HOOK_RETRY_SECONDS = 1.0
"""How soon a table's hook (a sit & go's director) that failed is called again."""


class TableHook(Protocol):
    """What a table's owner asks of whatever runs a tournament at it
    (:mod:`thirteen.server.competitions.tournaments`): called by the owner's own task when it
    starts and after every hand settles — and, at a table that is not a tournament's (a
    duplicate practice run's), after a seat is left."""

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
        self.table = LiveTable(settings, state, seated)
        self.journal = Journal(db, self.table, lease_token=lease_token)
        self.seating = Seating(self.table, db)
        self.broadcaster = Broadcaster(self.table, metrics)
        self.hands = HandLoop(
            self.table,
            self.journal,
            self.seating,
            self.broadcaster,
            metrics,
            bot_budget=bot_budget,
            bot_delay=bot_delay,
            run_hook=self._run_hook,
            on_change=None if on_change is None else partial(on_change, self),
            on_lost=None if on_lost is None else partial(on_lost, self),
        )
        self.hook: TableHook | None = None
        """A sit & go's director (:mod:`thirteen.server.competitions.tournaments`), set before
        :meth:`start`."""
        self._gate: DealGate | None = None

    # ------------------------------------------------------------------ what it is
    @property
    def id(self) -> int:
        return self.table.settings.id

    @property
    def rules(self) -> Rules:
        return self.table.state.rules

    @property
    def state(self) -> TableState:
        return self.table.state

    @property
    def settings(self) -> TableSettings:
        return self.table.settings

    @settings.setter
    def settings(self, settings: TableSettings) -> None:
        """Only from the owner's task (a practice run's end marks its table closing)."""
        self.table.settings = settings

    @property
    def seated(self) -> dict[int, Seated]:
        return self.table.seated

    @property
    def lease_token(self) -> int:
        """The fencing token of this process's lease on the table (:mod:`.leases`)."""
        return self.journal.lease_token

    @property
    def bot_budget(self) -> float:
        return self.hands.thinking.bot_budget

    @property
    def bots(self) -> dict[int, Bot]:
        return self.seating.bots

    @property
    def watchers(self) -> set[Watcher]:
        return self.broadcaster.watchers

    @property
    def decision_since(self) -> dict[int, int]:
        """The state each seat's pending decision has been pending since."""
        return self.hands.decisions.since

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self.hands.task

    @property
    def abandoned(self) -> bool:
        return self.hands.abandoned

    # ------------------------------------------------------------------ what the room attaches
    @property
    def gate(self) -> DealGate | None:
        """A duplicate event's dealer (:mod:`thirteen.server.competitions.events`), set before
        :meth:`start`."""
        return self._gate

    @gate.setter
    def gate(self, gate: DealGate | None) -> None:
        self._gate = gate
        # the hand loop asks it with this owner, which is what it is handed; bound here, so
        # that a table without a gate deals without one more await
        self.hands.next_deal = None if gate is None else partial(gate.next_deal, self)
        self.hands.may_watch = None if gate is None else gate.may_watch

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self.seating.seat_bots()
        if self.hook is not None:  # before any deal: seats, places and the unit as they must be
            self.hands.queue.put_nowait(Request("hook"))
        self.hands.start()

    async def stop(self) -> None:
        """Stop taking requests; what was accepted is already written."""
        await self.hands.stop()

    async def submit(self, request: Request) -> dict[str, Any]:
        """Hand ``request`` to the owner and wait for its answer."""
        return await self.submit_nowait(request)

    def submit_nowait(self, request: Request) -> asyncio.Future[dict[str, Any]]:
        """Hand ``request`` to the owner (in its queue now, behind whatever was handed before):
        the future of its answer."""
        hands = self.hands
        request.reply = reply = asyncio.get_running_loop().create_future()
        if hands.task is not None and hands.task.done():
            reply.set_result(error_frame("moved", MOVED_SENTENCE, request.client_id))
        else:
            hands.queue.put_nowait(request)
        return reply

    async def lose(self) -> None:
        """Another process took the table's lease: stop here (any write would be refused)."""
        await self.stop()
        self.abandon()

    def abandon(self) -> None:
        """Another process runs the table now: answer what is waiting, close every socket
        (their clients reconnect and find the table's new process), write nothing."""
        self.hands.abandon()

    def wake(self) -> None:
        """Something a held deal waits for may have happened: ask the gate again now."""
        self.hands.nudge("wake")

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
            asyncio.get_running_loop().call_later(HOOK_RETRY_SECONDS, self.hands.nudge, "hook")

    # ------------------------------------------------------------------ asked from outside
    def seat_of(self, user_id: int | None) -> int | None:
        return self.table.seat_of(user_id)

    def connected(self) -> list[int]:
        """The seats whose player has a socket open at this table (a bot always counts)."""
        return self.broadcaster.connected()

    def lobby_entry(self) -> dict[str, Any]:
        return self.broadcaster.lobby_entry()

    async def decide(self, seat: int, bot: Bot) -> tuple[TableView, Action]:
        """What ``bot`` does from ``seat``'s view now (that view and its action): off the event
        loop, within the table's time. Bots play with it, and a practice hint asks it."""
        return await self.hands.thinking.decide(seat, bot)

    async def accept_here(self, action: Action, *, user_id: int | None = None) -> None:
        """Accept an action of the room's own (a tournament's seating, unit, sit-in) — only
        from the owner's task: from a :class:`TableHook`, which it calls."""
        await self.hands.accept(action, user_id=user_id)

    async def close_after_hand(self) -> None:
        """Close the table: now between hands, else once the hand in play has settled."""
        await self.hands.close_after_hand()


__all__ = ["DealGate", "TableHook", "TableOwner"]
