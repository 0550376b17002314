"""Players' decisions queued together, taken together (:class:`Together`; issue 33).

After a deal the seats' hands set arrive at once, and the hand loop finds them queued behind
the one it takes (:meth:`.line.Line.together`). Each is made the engine's action and checked as
it would be alone — against the decisions pending on the state the one before it made, not yet
the table's — and applied on that state, until one must be taken alone: refused (its answer
says why, in its place), or one after which the room acts on its own (:data:`ALONE_AFTER`: a
hand settled, a seat left), which is the last of the group. Then all of them are journaled in
**one** piece of the group writer's, all or none; if it fails (a resent id the journal holds),
each is taken again alone and answered as if it had come so. The hand loop then tells them — a
frame an action, as always, a socket's frames in one write — and answers each.
"""

from __future__ import annotations

import logging

from thirteen.engine.actions import Action, stamped
from thirteen.engine.events import HandSettled, HandStarted, PlayerLeft, PlayerSat
from thirteen.engine.state import TableState
from thirteen.engine.table import apply
from thirteen.server.tables.journal import Journal, Step
from thirteen.server.tables.leases import LeaseLostError
from thirteen.server.tables.line import Line
from thirteen.server.tables.live import LiveTable
from thirteen.server.tables.requests import ClientActions, Decisions, Request

log = logging.getLogger("thirteen.server.tables")

ALONE_AFTER = (HandSettled, HandStarted, PlayerLeft, PlayerSat)
"""Events after which the room acts on its own (a hook, a bot's refill, the lobby): the action
that makes one is the last taken with the decisions before it."""


def at_table_clock(action: Action, before: TableState) -> Action:
    """``action`` at the table's clock at least (the table's clock never runs back)."""
    return action if action.at >= before.clock else stamped(action, before.clock)


class Together:
    """A table's decisions taken together: made, applied and journaled (the hand loop tells
    them)."""

    def __init__(
        self,
        table: LiveTable,
        decisions: Decisions,
        clients: ClientActions,
        journal: Journal,
        line: Line,
    ) -> None:
        self.table = table
        self.decisions = decisions
        self.clients = clients
        self.journal = journal
        self.line = line

    async def write(self, requests: list[Request]) -> list[Step]:
        """Apply and journal ``requests`` (two or more decisions, in the line's order) as far
        as they go together: the steps written, one a request from the first — none if fewer
        than two went together or they could not be written together. The rest go back to
        the head of the line (:meth:`.line.Line.put_back`), each to be taken alone."""
        ahead = self.decisions.ahead()
        state = self.table.state
        steps: list[Step] = []
        for request in requests:
            action = self.clients.together(request, ahead)
            if action is None:
                break
            action = at_table_clock(action, state)
            try:
                new, events = apply(state, action)
            except Exception:  # taken alone, refused (or failing) as it would be alone
                break
            steps.append(Step(state, new, action, events, request.user_id, request.client_id))
            ahead.track(new)
            state = new
            if any(isinstance(e, ALONE_AFTER) for e in events):
                break
        if len(steps) > 1:
            try:
                await self.journal.commit_together(steps)
            except LeaseLostError:
                raise
            except Exception as e:  # each on its own now, answered as if alone
                log.info(
                    "decisions taken one at a time",
                    extra={"table": self.table.id, "error": type(e).__name__},
                )
                steps = []
        else:
            steps = []
        rest = requests[len(steps) :]
        for request in rest:  # what did not go with the others is taken alone
            request.alone = True
        self.line.put_back(rest)
        return steps


__all__ = ["ALONE_AFTER", "Together", "at_table_clock"]
