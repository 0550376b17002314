"""Bots thinking: each bot whose decision is pending decides on its own view, off the event
loop and within the table's time, and its move joins the owner's queue like anyone's.

A task per thinking seat, started after every accepted action for the bots it made deciders;
what one chose is played when its turn in the queue comes, if the decision it was made on is
still the one pending (the table may have moved on).
"""

from __future__ import annotations

import asyncio
import logging

from thirteen.bots.base import Bot
from thirteen.engine.actions import Action, stamped
from thirteen.engine.errors import RuleError
from thirteen.engine.legal import legal_actions
from thirteen.engine.state import deciders
from thirteen.engine.views import TableView, view
from thirteen.server.tables.live import Accept, LiveTable, now
from thirteen.server.tables.requests import Decisions, Request

log = logging.getLogger("thirteen.server.tables")


class BotThinking:
    """The bots of a table deciding, one task a seat, and their moves played."""

    def __init__(
        self,
        table: LiveTable,
        bots: dict[int, Bot],
        queue: asyncio.Queue[Request],
        decisions: Decisions,
        accept: Accept,
        *,
        bot_budget: float,
        bot_delay: float,
    ) -> None:
        self.table = table
        self.bots = bots
        """The seating's bots (:attr:`.seating.Seating.bots`), one dict."""
        self.queue = queue
        self.decisions = decisions
        self.accept = accept
        self.bot_budget = bot_budget
        self.bot_delay = bot_delay
        self.thinking: dict[int, asyncio.Task[None]] = {}

    def schedule(self) -> None:
        for seat in deciders(self.table.state):
            bot = self.bots.get(seat)
            if bot is None or seat in self.thinking:
                continue
            self.thinking[seat] = asyncio.create_task(self._think(seat, bot))

    def cancel(self) -> None:
        for task in self.thinking.values():
            task.cancel()

    async def _think(self, seat: int, bot: Bot) -> None:
        """A bot decides on its own view, off the event loop, within the table's time."""
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            seen, action = await self.decide(seat, bot)
            await self.queue.put(Request("bot", action=action, state_id=seen.state_id))
        except RuleError as e:
            log.info("bot idle", extra={"table": self.table.id, "seat": seat, "code": e.code})
        finally:
            self.thinking.pop(seat, None)

    async def play(self, request: Request) -> None:
        """A bot's move, its turn in the queue come: played if its decision is still pending."""
        assert request.action is not None
        seat = request.action.seat if hasattr(request.action, "seat") else None
        try:
            self.decisions.check_fresh(seat, request.state_id)
            await self.accept(stamped(request.action, now()))
        except RuleError as e:  # the code only: a bot's refusal may name its own cards
            log.info(
                "bot move refused", extra={"table": self.table.id, "seat": seat, "code": e.code}
            )

    async def decide(self, seat: int, bot: Bot) -> tuple[TableView, Action]:
        """What ``bot`` does from ``seat``'s view now (that view and its action): off the event
        loop, within the table's time. Bots play with it, and a practice hint asks it."""
        state = self.table.state
        seen = view(state, seat)
        legal = legal_actions(seen)
        deadline = deciders(state).get(seat)
        budget = self.bot_budget
        if deadline is not None:
            budget = max(0.01, min(budget, (deadline - now()) / 2))
        action = await asyncio.to_thread(bot.choose, seen, legal, budget)
        return seen, action


__all__ = ["BotThinking"]
