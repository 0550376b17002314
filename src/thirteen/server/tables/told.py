"""A written action taken into the table's memory and told (:class:`Told`): the table's state
moves on, the hand's history, the pending decisions, the hand in play and the seats follow it,
and every watcher gets its frame — or, for an action read back from the journal, the memory
alone, telling nobody.
"""

from __future__ import annotations

import logging
from typing import Any

from thirteen.engine.actions import Action
from thirteen.engine.events import Event, HandSettled, HandStarted, PlayerLeft, PlayerSat
from thirteen.engine.state import TableState
from thirteen.server.metrics import Metrics
from thirteen.server.tables.broadcast import Broadcaster, Watcher
from thirteen.server.tables.journal import Journal, Step
from thirteen.server.tables.live import LiveTable
from thirteen.server.tables.requests import Decisions
from thirteen.server.tables.seating import Seating

log = logging.getLogger("thirteen.server.tables")


class Told:
    """What follows a table's written action in its memory, and who is told of it."""

    def __init__(
        self,
        table: LiveTable,
        journal: Journal,
        decisions: Decisions,
        seating: Seating,
        broadcaster: Broadcaster,
        metrics: Metrics,
    ) -> None:
        self.table = table
        self.journal = journal
        self.decisions = decisions
        self.seating = seating
        self.broadcaster = broadcaster
        self.metrics = metrics

    def tell(self, step: Step, ack: tuple[Watcher, dict[str, Any]] | None) -> None:
        """A written action: the table moves on, and everyone is told (``ack``: the socket that
        sent it and its answer, which rides with that socket's frame)."""
        self.table.state = step.new
        unseated = self.seating.notices(step.events)
        self._track(step.before, step.new, step.action, step.events)
        for user_id_out, frame in unseated:  # told why before the frame that shows them gone
            self.broadcaster.tell_player(user_id_out, frame)
        self.broadcaster.tell(step.events, ack)

    def replayed(
        self, before: TableState, new: TableState, action: Action, events: tuple[Event, ...]
    ) -> None:
        """An action read back from the journal (:func:`.resume.load_owner`): the table moves
        on as it did then, telling nobody and counting nothing."""
        self.table.state = new
        self._track(before, new, action, events, replaying=True)

    def _track(
        self,
        before: TableState,
        new: TableState,
        action: Action,
        events: tuple[Event, ...],
        replaying: bool = False,
    ) -> None:
        """Histories, decision ids, the hand id and the players' seats after an action."""
        self.journal.record(before, action)
        self.decisions.track(new)
        for event in events:
            if isinstance(event, HandSettled):
                self.broadcaster.hand_played()
                if not replaying:
                    self.metrics.hands.labels(self.table.settings.preset).inc()
                    log.info(
                        "hand settled",
                        extra={
                            "table": self.table.id,
                            "hand": self.journal.hand_id,
                            "state_id": new.state_id,
                        },
                    )
                self.journal.hand_settled()
            elif replaying:
                continue  # who sits where comes from the open sittings, not from old events
            elif isinstance(event, HandStarted):
                self.seating.hand_started(new)
            elif isinstance(event, PlayerLeft):
                self.seating.left(event.seat)
            elif isinstance(event, PlayerSat):
                self.seating.sat(event.seat)


__all__ = ["Told"]
