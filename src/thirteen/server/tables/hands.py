"""The hand loop: the owner's one task, which takes a table's requests and due actions one at a
time and accepts each action through the engine's ``apply`` (:class:`HandLoop`).

Everything that touches a table — a player's decision, a timeout, a bot's move, a buy-in, a
top-up, leaving, the next deal — goes through the queue and the engine's ``apply``, one at a
time. An accepted action is journaled (and its chips moved) in a committed database transaction
**before** anyone hears of it (:mod:`.journal`); then the table's state moves on and each watcher
is sent its frame (:mod:`.broadcast`). Between requests the loop waits for the next deadline —
a deal, a seat's timeout — and acts on it when it comes.

Players' decisions found queued together (the seats' hands set after a deal arrive at once) are
taken together: applied one after another, journaled in one piece, all or none, and told in
one write a socket — each still its own frame (:meth:`HandLoop._decide_together`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from thirteen.bots.base import show_the_showdown
from thirteen.engine.actions import Action, StartHand, Timeout
from thirteen.engine.deck import Deal, fresh_deal
from thirteen.engine.errors import RuleError
from thirteen.engine.events import Event, HandSettled, HandStarted, PlayerLeft, PlayerSat
from thirteen.engine.state import Phase, TableState, next_deadline
from thirteen.engine.table import apply
from thirteen.server.metrics import Metrics
from thirteen.server.tables.broadcast import Broadcaster
from thirteen.server.tables.journal import Journal, Step
from thirteen.server.tables.leases import LeaseLostError
from thirteen.server.tables.line import Line
from thirteen.server.tables.live import LiveTable, now
from thirteen.server.tables.protocol import CLOSE_MOVED, error_frame
from thirteen.server.tables.requests import ClientActions, Decisions, Request, ack_with_frame
from thirteen.server.tables.seating import Seating
from thirteen.server.tables.thinking import BotThinking
from thirteen.server.tables.together import Together, at_table_clock
from thirteen.server.tables.told import Told

log = logging.getLogger("thirteen.server.tables")

MOVED_SENTENCE = "This table moved to another server; reconnecting."
INTERNAL_SENTENCE = "Something went wrong on our side; nothing was changed."


def next_due(table: LiveTable, closing_tried: int) -> tuple[float, str, int | None] | None:
    """What is due next at ``table``: the engine's next deadline (a deal, a seat's time) — and
    at a closing table between hands, its closing (``"close"``), once the last showdown has been
    on show, whether or not a deal could come (too few players left to deal, the others sitting
    out, a restart between its closing and its seats emptying): nobody has to act for a table to
    close and pay its seats back. Not again in the state ``closing_tried`` (a table that could
    not close is not tried in a loop)."""
    state = table.state
    due = next_deadline(state)
    if (
        table.settings.status != "closing"
        or state.phase == Phase.PLAYING
        or closing_tried == state.state_id
    ):
        return due
    closing = (state.next_deal_at or 0.0, "close", None)
    return closing if due is None or closing[0] <= due[0] else due


class HandLoop:
    """The one task that owns a table's state: its queue, its timers, and accepting actions."""

    def __init__(
        self,
        table: LiveTable,
        journal: Journal,
        seating: Seating,
        broadcaster: Broadcaster,
        metrics: Metrics,
        *,
        bot_budget: float,
        bot_delay: float,
        run_hook: Callable[[], Awaitable[None]],
        on_change: Callable[[], None] | None,
        on_lost: Callable[[], None] | None,
    ) -> None:
        self.table = table
        self.journal = journal
        self.seating = seating
        self.broadcaster = broadcaster
        self.metrics = metrics
        self.run_hook = run_hook
        """The owner's call of the table's hook (a sit & go's director), after every hand, after
        a seat is left at a table that is not a tournament's (a duplicate practice run's), and
        when the hook asks to be called again."""
        self.on_change = on_change
        """Called when the table's lobby entry changes (a seat taken or left, a hand begun or
        ended, the table closed)."""
        self.on_lost = on_lost
        """Called once the table stopped because another process took its lease."""
        self.line = Line()
        self.queue = self.line.queue
        """Where requests are handed to the table (:class:`.line.Line`)."""
        self.decisions = Decisions(table)
        self.clients = ClientActions(table, self.decisions, journal, broadcaster, self.accept)
        self.together = Together(table, self.decisions, self.clients, journal, self.line)
        self.told = Told(table, journal, self.decisions, seating, broadcaster, metrics)
        self.thinking = BotThinking(
            table,
            seating.bots,
            self.queue,
            self.decisions,
            self.accept,
            bot_budget=bot_budget,
            bot_delay=bot_delay,
        )
        self.task: asyncio.Task[None] | None = None
        self.abandoned = False
        self._stalled_until = 0.0
        self._answering: Request | None = None
        """The client's action request being answered (its ``ack`` goes with its frame)."""
        self._closing_tried = -1
        # What a duplicate event's gate asks (bound to the owner, which it is handed), if any
        self.next_deal: Callable[[], Awaitable[Deal | float]] | None = None
        self.may_watch: Callable[[int | None], bool] | None = None

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.table.id}")
        self.thinking.schedule()

    async def stop(self) -> None:
        """Stop taking requests; what was accepted is already written."""
        self.thinking.cancel()
        if self.task is not None:
            await self.queue.put(Request("stop"))
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _run(self) -> None:
        try:
            await self._serve()
        except LeaseLostError:
            log.warning("table lost to another process", extra={"table": self.table.id})
            self.abandon()

    def abandon(self) -> None:
        """Another process runs the table now: answer what is waiting, close every socket
        (their clients reconnect and find the table's new process), write nothing."""
        if self.abandoned:
            return
        self.abandoned = True
        self.thinking.cancel()
        for request in self.line.drain():
            self._answer(request, error_frame("moved", MOVED_SENTENCE))
        self.broadcaster.close_all(CLOSE_MOVED, MOVED_SENTENCE)
        if self.on_lost is not None:
            asyncio.get_running_loop().call_soon(self.on_lost)

    def nudge(self, kind: str) -> None:
        """Queue a request of the table's own (``wake``, ``hook``) while the loop runs."""
        if not self.abandoned and self.task is not None and not self.task.done():
            self.queue.put_nowait(Request(kind))

    async def _serve(self) -> None:
        table = self.table
        while True:
            due = next_due(table, self._closing_tried)
            timeout = None
            if due is not None:
                timeout = max(0.0, max(due[0], self._stalled_until) - now())
            request = await self.line.next(timeout)
            if request is None:
                assert due is not None
                await self._on_due(*due)
                continue
            if request.kind == "stop":
                self._answer(request, {"type": "stopped"})
                return
            group = self.line.together(request)
            try:
                if len(group) > 1:
                    await self._decide_together(group)
                else:
                    await self._handle(request)
            except LeaseLostError:
                for one in group:
                    self._answer(one, error_frame("moved", MOVED_SENTENCE, one.client_id))
                raise
            except Exception:  # the table must go on whatever one request did
                log.exception("request failed", extra={"table": table.id, "kind": request.kind})
                for one in group:
                    if not self.line.waits(one):  # (to be taken again)
                        self._answer(one, error_frame("internal", INTERNAL_SENTENCE, one.client_id))

    def _answer(self, request: Request, frame: dict[str, Any]) -> None:
        if request.reply is not None and not request.reply.done():
            request.reply.set_result(frame)

    async def _on_due(self, when: float, what: str, seat: int | None) -> None:
        at = max(now(), when)  # a timer may wake a hair early; the engine's clock must not
        action: Action
        if what == "close":
            self._closing_tried = self.table.state.state_id
            await self._close_seats()
            return
        if what == "deal":
            if self.table.settings.status != "open":
                await self._close_seats()
                return
            deal = fresh_deal() if self.next_deal is None else await self.next_deal()
            if not isinstance(deal, Deal):  # not yet: ask again then, or when woken
                self._stalled_until = deal
                return
            action = StartHand(deal=deal, at=at)
        elif what == "sit-out":
            assert seat is not None
            if not await self.seating.sat_out_too_long(self.accept, seat, at):
                self._stalled_until = at + 1.0  # refused: try again soon, not in a loop
            return
        else:
            assert seat is not None
            present = seat in self.broadcaster.connected()  # an absent player's bank waits
            if present and await self.seating.spend_time_bank(self.accept, seat, when):
                return
            action = Timeout(seat=seat, at=at)
        try:
            await self.accept(action)
        except RuleError as e:  # a deadline the engine does not agree with: try again soon
            log.warning(
                "due action refused", extra={"table": self.table.id, "what": what, "code": e.code}
            )
            self._stalled_until = at + 1.0

    # ------------------------------------------------------------------ requests
    async def _handle(self, request: Request) -> None:
        kind = request.kind
        if kind == "wake":
            self._stalled_until = 0.0
            return
        if kind == "attach":
            assert request.watcher is not None
            answer = self.broadcaster.attach(request.watcher, request.since, self.may_watch)
            self._answer(request, answer)
        elif kind == "detach":
            self.broadcaster.detach(request.watcher)
            self._answer(request, {"type": "detached"})
        elif kind == "resync":
            assert request.watcher is not None
            request.watcher.offer(self.broadcaster.snapshot(request.watcher, request.since))
            self._answer(request, {"type": "resynced"})
        elif kind == "action":
            self._answering = request
            try:
                self._answer(request, await self.clients.answer(request))
            finally:
                self._answering = None
        elif kind == "bot":
            await self.thinking.play(request)
            self._answer(request, {"type": "done"})
        elif kind == "close":
            await self.close_after_hand()
            self._answer(request, {"type": "closing"})
        elif kind == "hook":
            await self.run_hook()
            self._answer(request, {"type": "done"})
        else:
            self._answer(request, error_frame("bad_request", "Unknown request."))

    # ------------------------------------------------------------------ accepting
    async def accept(
        self, action: Action, *, user_id: int | None = None, client_id: str | None = None
    ) -> int:
        """Apply, journal (moving chips in the same transaction), then tell everyone; the state
        id the action made (the table may be further on when this returns: the room's own
        actions after it — a bot's refill, a sit & go's rising unit — follow at once)."""
        started = time.perf_counter()
        before = self.table.state
        action = at_table_clock(action, before)
        new, events = apply(before, action)
        await self.journal.commit(new, action, events, user_id, client_id)
        self.told.tell(
            Step(before, new, action, events, user_id, client_id),
            ack_with_frame(self._answering, client_id, new.state_id),
        )
        self.metrics.action_seconds.observe(time.perf_counter() - started)
        await self._after(events)
        return new.state_id

    async def _decide_together(self, requests: list[Request]) -> None:
        """Players' decisions queued together (:mod:`.together`): applied and journaled as far
        as they go together, then each told — its own frame, a socket's frames in one write —
        and answered; the rest are back at the head of the line."""
        started = time.perf_counter()
        steps = await self.together.write(requests)
        if not steps:
            return
        with self.broadcaster.held():
            for request, step in zip(requests, steps, strict=False):
                self.told.tell(step, ack_with_frame(request, step.client_id, step.new.state_id))
                self.metrics.action_seconds.observe(time.perf_counter() - started)
        for request, step in zip(requests, steps, strict=False):
            self._answer(request, self.clients.answered(request, step.new.state_id))
        await self._after(tuple(e for step in steps for e in step.events))

    async def _after(self, events: tuple[Event, ...]) -> None:
        """What the room does on its own after actions were told: bots think, and after a
        hand, a leave or a deal, the hook, the bots' refill, the long absent, the lobby."""
        table = self.table
        self.thinking.schedule()
        bots = self.seating.bots
        settled = any(isinstance(e, HandSettled) for e in events)
        if settled:
            show_the_showdown(table.state, bots.items())
        if settled and bots and not table.settings.is_tournament:
            await self.seating.refill_bots(self.accept)
        if settled or (
            not table.settings.is_tournament and any(isinstance(e, PlayerLeft) for e in events)
        ):
            await self.run_hook()  # (a practice run ends when its player has left)
        if any(isinstance(e, HandStarted) for e in events) and not table.settings.is_tournament:
            await self.seating.unseat_long_absent(self.accept)
        if self.on_change is not None and any(
            isinstance(e, PlayerSat | PlayerLeft | HandStarted | HandSettled) for e in events
        ):
            self.on_change()

    def replayed(
        self, before: TableState, new: TableState, action: Action, events: tuple[Event, ...]
    ) -> None:
        """An action read back from the journal (:func:`.resume.load_owner`)."""
        self.told.replayed(before, new, action, events)

    # ------------------------------------------------------------------ closing
    async def close_after_hand(self) -> None:
        """Close the table: now between hands, else once the hand in play has settled."""
        table = self.table
        table.settings = replace(table.settings, status="closing")
        await self.journal.set_status("closing")
        if table.state.phase != Phase.PLAYING:
            await self._close_seats()

    async def _close_seats(self) -> None:
        """A closing table between hands: everyone leaves with their chips; then it is closed."""
        table = self.table
        await self.seating.leave_all(self.accept)
        if not table.seated:
            table.settings = replace(table.settings, status="closed")
            await self.journal.set_status("closed")
            self.broadcaster.closed()
            if self.on_change is not None:
                self.on_change()


__all__ = ["MOVED_SENTENCE", "HandLoop", "next_due"]
