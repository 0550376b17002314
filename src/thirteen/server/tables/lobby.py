"""The lobby's feed: the sockets watching the lobby, and what they are sent.

Every open table's lobby entry — those this process runs, read from their owners, and those
other processes run, as those processes announced them over the bus (:mod:`.bus`) — goes into
one frame. Tables change twice a hand, so changes are gathered for :data:`LOBBY_SECONDS` and
pushed in one frame, and each change of a table this process runs is announced to the other
processes' lobbies once per push.

Which tables the lobby lists is the competitions' say (a duplicate practice run's table is its
player's alone); the room passes that in as ``listed``, so this module does not import them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any

from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.bus import Bus, Message
from thirteen.server.tables.owner import TableOwner

LOBBY_SECONDS = 0.25
"""A table's change reaches the lobbies within this (changes meanwhile go in one frame)."""

Entry = dict[str, Any]
"""A table's lobby entry (:meth:`TableOwner.lobby_entry`)."""


class LobbyFeed:
    """The lobby's watchers and the frames they are sent (see the module's docstring).

    ``owners`` are the tables this process runs (the room's, read here, never changed);
    ``listed(owner)`` says whether the lobby lists a table."""

    def __init__(
        self, owners: Mapping[int, TableOwner], listed: Callable[[TableOwner], bool]
    ) -> None:
        self.owners = owners
        self.listed = listed
        self.watchers: set[Watcher] = set()
        """The sockets watching the lobby."""
        self.bus: Bus | None = None
        """The room's bus (with Redis), set when the room joins it."""
        self.remote: dict[int, tuple[str, Entry]] = {}
        """The lobby entries of tables other processes run, with the process."""
        self._changes: dict[int, TableOwner] = {}
        """Tables whose lobby entry changed since the lobby was last pushed."""
        self._due: asyncio.TimerHandle | None = None

    def add(self, watcher: Watcher) -> None:
        """A socket watches the lobby (it is sent every frame pushed from now on)."""
        self.watchers.add(watcher)

    def discard(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def frame(self) -> dict[str, Any]:
        tables = [
            o.lobby_entry()
            for o in self.owners.values()
            if o.settings.status != "closed" and o.settings.event_id is None and self.listed(o)
        ]  # an event's tables and a practice run's are private (not in anyone's lobby)
        tables += [e for _process, e in self.remote.values() if e.get("event") is None]
        tables.sort(key=lambda entry: int(entry["id"]))
        return {"type": "lobby", "server_time": time.time(), "tables": tables}

    def changed(self, owner: TableOwner) -> None:
        """A table's lobby entry changed (a seat taken or left, a hand begun or ended)."""
        self._changes[owner.id] = owner
        self.soon()

    def opened(self, owner: TableOwner) -> None:
        """A table started here: the lobby hears of it at once (another process's word of it
        is out of date)."""
        self.changed(owner)
        self.flush()
        self.remote.pop(owner.id, None)

    def soon(self) -> None:
        """Push the lobby within :data:`LOBBY_SECONDS`: every table changes twice a hand, and a
        lobby frame lists every table, so a busy room sends one frame for many changes (the
        other processes likewise hear one message a table)."""
        if self._due is None:
            loop = asyncio.get_running_loop()
            self._due = loop.call_later(LOBBY_SECONDS, self.flush)

    def flush(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None
        changes, self._changes = self._changes, {}
        for table_id, owner in changes.items():
            # one this process lost since is another's to announce (its word would come later)
            if self.owners.get(table_id) is owner or owner.settings.status == "closed":
                self._publish(owner)
        self._push()

    def _push(self) -> None:
        if not self.watchers:
            return
        frame = self.frame()
        for watcher in list(self.watchers):
            watcher.offer(frame)
            if watcher.dropped:
                self.watchers.discard(watcher)

    def close(self) -> None:
        """The room is closing: push nothing more."""
        if self._due is not None:
            self._due.cancel()

    # ------------------------------------------------------------------ the other processes
    def _publish(self, owner: TableOwner) -> None:
        """Tell the other processes' lobbies of a table this one runs."""
        if self.bus is None:
            return
        closed = owner.settings.status == "closed" or self.owners.get(owner.id) is not owner
        closed = closed or not self.listed(owner)
        entry = None if closed else owner.lobby_entry()
        self.bus.broadcast({"k": "lobby", "table": owner.id, "entry": entry})

    def heard(self, message: Message) -> None:
        """Another process's message on the bus (not the relay's): it asks for every lobby
        entry (it just joined), or announces one of its tables' entry (``None``: closed)."""
        kind, sender = message.get("k"), message.get("from")
        if kind == "hello":
            for owner in self.owners.values():
                self._publish(owner)
        elif kind == "lobby":
            table_id = int(message["table"])
            if table_id in self.owners:
                return
            entry = message.get("entry")
            if isinstance(entry, dict):
                self.remote[table_id] = (str(sender), entry)
            else:
                self.remote.pop(table_id, None)
            self.soon()

    def forget_moved(self, where: Mapping[int, str | None]) -> None:
        """Drop the entries of tables that have moved from the process that announced them
        (by ``where``: each open table's process at the last look, ``None`` between two)."""
        for table_id, (process, _entry) in list(self.remote.items()):
            if where.get(table_id) not in (process, None):
                del self.remote[table_id]


__all__ = ["LOBBY_SECONDS", "LobbyFeed"]
