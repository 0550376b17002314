"""Fault injection for the chaos harness (``thirteen bench chaos``): with the setting
``chaos_kill_after`` = N the room kills itself with SIGKILL at its Nth *write point* once it is
open. Write points are every moment between two writes: right after a statement that writes
(mid-transaction), just before a commit, and just after a commit (when the connection goes back
to the pool, before anyone hears of what was written). Off (0) in every real deployment."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

WRITES = ("insert", "update", "delete")


class KillSwitch:
    """Counts write points on an engine and SIGKILLs this process at the ``after``-th."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.points = 0
        self.committed: set[int] = set()
        self._lock = threading.Lock()

    def point(self) -> None:
        with self._lock:
            self.points += 1
            if self.points >= self.after:
                os.kill(os.getpid(), signal.SIGKILL)

    def arm(self, engine: AsyncEngine) -> None:
        sync = engine.sync_engine

        def after_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.lstrip()[:6].lower() in WRITES:
                self.point()

        def before_commit(conn: Any) -> None:
            self.point()
            self.committed.add(id(conn.connection.dbapi_connection))

        def checkin(dbapi_connection: Any, _record: Any) -> None:
            # the connection comes back to the pool right after its transaction ended
            if id(dbapi_connection) in self.committed:
                self.committed.discard(id(dbapi_connection))
                self.point()

        event.listen(sync, "after_cursor_execute", after_execute)
        event.listen(sync, "commit", before_commit)
        event.listen(sync.pool, "checkin", checkin)


def arm(engine: AsyncEngine, after: int) -> KillSwitch | None:
    """Arm the kill switch on ``engine`` when ``after`` > 0."""
    if after <= 0:
        return None
    switch = KillSwitch(after)
    switch.arm(engine)
    return switch


__all__ = ["KillSwitch", "arm"]
