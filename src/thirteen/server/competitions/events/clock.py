"""The duplicate events' clock: when this process looks at each event again.

An event moves on by itself — it starts at its time, and each round's tables open once the
round before is over (:func:`thirteen.server.competitions.events.advance`) — so someone has to
look at it at the right moments: each process keeps a timer per event it has heard of (from its
own tables' hooks, from the routes, from the database's list of events due), and at each look
runs its share of any tables that opened (the room hands it ``discover``). It keeps the
competitions' time, which has nothing to do with where tables run or what the lobby shows.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from thirteen.server.competitions.events.rounds import advance, due_events
from thirteen.server.db.session import Database

log = logging.getLogger("thirteen.server.room")  # the room's lines, as before this module


class EventClock:
    """The next look at each duplicate event; ``discover()`` runs this process's share of the
    tables an event's move opened, and a failed look is tried again after ``again_seconds``."""

    def __init__(
        self, db: Database, discover: Callable[[], Awaitable[None]], again_seconds: float
    ) -> None:
        self.db = db
        self.discover = discover
        self.again_seconds = again_seconds
        self.looking = True
        """``False`` once the room closes: no more looks."""
        self._looks: dict[int, asyncio.TimerHandle] = {}
        """The next look at each duplicate event (:meth:`look_at_event`)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def look_at_event(self, event_id: int, delay: float = 0.0) -> None:
        """Look at a duplicate event in ``delay`` seconds: open its next round's tables (and
        run this process's share of them) when its round is over; start it at its time."""
        if not self.looking:
            return
        known = self._looks.pop(event_id, None)
        if known is not None:
            known.cancel()
        loop = asyncio.get_running_loop()

        def look() -> None:
            self._looks.pop(event_id, None)
            task = loop.create_task(self.advance_event(event_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._looks[event_id] = loop.call_later(max(0.0, delay), look)

    async def advance_event(self, event_id: int) -> None:
        """Move the event on now if it can (:func:`thirteen.server.competitions.events.advance`)
        and run this process's share of any tables that opened; look again when it says."""
        try:
            again = await advance(self.db, event_id)
            await self.discover()
        except Exception:
            log.exception("advancing an event failed; trying again", extra={"event": event_id})
            again = time.time() + self.again_seconds
        if again is not None:
            self.look_at_event(event_id, again - time.time())

    async def look_at_due(self) -> None:
        """Look now at every event the database says is due (one whose look already waits for
        its time aside)."""
        for event_id in await due_events(self.db):
            if event_id not in self._looks:  # (a look already waits for its time)
                self.look_at_event(event_id)

    def close(self) -> None:
        """The room is closing: cancel every look, and take no more."""
        self.looking = False
        for handle in self._looks.values():
            handle.cancel()


__all__ = ["EventClock"]
