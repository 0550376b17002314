"""Fault injection for the chaos harness (``thirteen bench chaos``): with the setting
``chaos_kill_after`` = N the room kills itself with SIGKILL at its Nth *write point* once it is
open. Write points are every moment between two writes: right after a statement that writes
(mid-transaction), just before a commit, and just after one (the switch commits, then kills:
written, and nobody has heard of it). Off (0) in every real deployment."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from thirteen.server.db.session import Database

WRITES = ("insert", "update", "delete")


class KillSwitch:
    """Counts write points on engines and SIGKILLs this process at the ``after``-th."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.points = 0
        self._lock = threading.Lock()

    def _reached(self) -> bool:
        with self._lock:
            self.points += 1
            return self.points == self.after

    def arm(self, engine: Engine | AsyncEngine) -> None:
        sync = engine.sync_engine if isinstance(engine, AsyncEngine) else engine

        def after_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.lstrip()[:6].lower() in WRITES and self._reached():
                _die()

        def commit(conn: Connection) -> None:
            if self._reached():  # just before the commit: the transaction is lost
                _die()
            if self._reached():  # just after it: written, and nobody has heard of it
                conn.connection.dbapi_connection.commit()  # type: ignore[union-attr]
                _die()

        event.listen(sync, "after_cursor_execute", after_execute)
        event.listen(sync, "commit", commit)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(database: Database, after: int) -> KillSwitch | None:
    """Arm the kill switch on every engine of ``database`` (the group writer's too) when
    ``after`` > 0."""
    if after <= 0:
        return None
    switch = KillSwitch(after)
    switch.arm(database.engine)
    writer_engine = getattr(database.writer, "_sync_engine", None)
    if isinstance(writer_engine, Engine):
        switch.arm(writer_engine)
    return switch


__all__ = ["KillSwitch", "arm"]
