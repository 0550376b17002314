"""Broadcasting: who watches a table and what each socket is sent (:class:`Broadcaster`).

Each watcher gets frames built from ``view(state, its seat)`` and the events redacted for that
seat, and nothing else: one frame per seat for each accepted action, offered to every socket of
that seat; a snapshot when it attaches or asks again (with the events it missed, when the table
still remembers them); a word when a seated player's first socket opens or last one closes; and
the table's entry in the lobby. A socket that falls behind is dropped, never waited for
(:class:`Watcher`). A frame offered to a socket with nothing waiting to be written goes out at
once, without waking the socket's writer (its ``send_now``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from thirteen.engine.events import Event, event_to_json, redact
from thirteen.engine.views import ViewsJson
from thirteen.server.metrics import Metrics
from thirteen.server.tables.live import LiveTable, now
from thirteen.server.tables.protocol import (
    CLOSE_GOING_AWAY,
    CLOSE_POLICY,
    encode_utf8,
    error_frame,
)

SendNow = Callable[..., bool]
"""Writes the frames' texts it is given on a socket at once, in one write, if it can (open, and
not holding back for a slow reader); ``False`` when it cannot, and the frames wait in the
socket's outbox."""
OUTBOX_FRAMES = 256
"""Frames a socket may have waiting; a socket that falls this far behind is dropped."""
RECENT_EVENTS = 64
"""Accepted actions whose events a reconnecting client can be sent again: a few hands' worth
(a client away longer gets the whole view without them). Each costs about 4.6 KB of memory —
512 of them were 2.3 MB a table, half a room's memory at 1,000 tables an hour in (issue 33)."""
HOUR = 3600.0
CLOSED_SENTENCE = "This table has closed."
PRIVATE_SENTENCE = (
    "This is an event's table: only its players and the event's director may open it while "
    "the event runs; its hands appear in the event's results once all three tables played them."
)


class Watcher:
    """A socket watching a table: who it is, and the frames waiting to be written to it.

    With ``send_now`` (the room's own socket protocol gives one: ``serve.SocketProtocol``), a
    frame offered while none waits and the writer has none in hand is written then and there:
    most frames never wait, and a busy room saves a task switch and a queue a frame (issue 33).
    Otherwise — or once one frame waits, so that frames keep their order — frames queue for the
    socket's writer."""

    def __init__(
        self, user_id: int | None, name: str | None, send_now: SendNow | None = None
    ) -> None:
        self.user_id = user_id
        self.name = name
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX_FRAMES)
        self.send_now = send_now
        self.writing = False
        """The writer has a frame in hand (taken from the outbox, not yet written)."""
        self.sent_at_once = 0
        """Frames written by :meth:`offer` itself."""
        self.taken_at_once = 0
        """Messages the socket's protocol handed over as they arrived (``http.sockets``)."""
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

    def offer(self, *frames: dict[str, Any]) -> None:
        """Write ``frames`` now, in one write, if nothing waits, else queue them; a socket that
        does not keep up is dropped, never waited for. (Several: frames that follow one
        another at once — an action's ``ack`` after its ``update``, the frames of actions taken
        together.)"""
        if self.dropped:
            return
        send_now = self.send_now
        if (
            send_now is not None
            and not self.writing
            and self.outbox.empty()
            and send_now(*map(encode_utf8, frames))
        ):
            self.sent_at_once += len(frames)
            return
        for one in frames:
            self._queue(one)

    def _queue(self, frame: dict[str, Any]) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)


class Broadcaster:
    """A table's watchers, and the frames each is sent (called from the owner's task only)."""

    def __init__(self, table: LiveTable, metrics: Metrics) -> None:
        self.table = table
        self.metrics = metrics
        self.watchers: set[Watcher] = set()
        self.recent: deque[tuple[int, tuple[Event, ...]]] = deque(maxlen=RECENT_EVENTS)
        self.hands_done: deque[float] = deque(maxlen=1000)
        """When the table's hands of the last hour settled, the last 1,000 at most (the lobby
        shows hands an hour)."""
        self._presence: list[int] = []
        """The connected seats the watchers were last told of."""
        self._views: ViewsJson | None = None
        """The views of the last action told: what the next one leaves alone is taken from
        them as it is."""
        self._held: dict[Watcher, list[dict[str, Any]]] | None = None
        """The frames told while held (:meth:`held`), by socket."""

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Frames told meanwhile go out at the end, each socket's in one write (the actions a
        table took together: one system call a socket, not one an action; issue 33)."""
        held: dict[Watcher, list[dict[str, Any]]] = {}
        self._held = held
        try:
            yield
        finally:
            self._held = None
            for watcher, frames in held.items():
                watcher.offer(*frames)
            dropped = [w for w in held if w.dropped and w in self.watchers]
            for watcher in dropped:
                self._forget(watcher)
            if dropped:
                self._presence_changed()

    def _offer(self, watcher: Watcher, *frames: dict[str, Any]) -> None:
        held = self._held
        if held is None:
            watcher.offer(*frames)
        else:
            held.setdefault(watcher, []).extend(frames)

    # ------------------------------------------------------------------ sockets
    def attach(
        self, watcher: Watcher, since: int | None, may_watch: Callable[[int | None], bool] | None
    ) -> dict[str, Any]:
        """Let ``watcher`` in (``may_watch``: whom a private table lets in) with a snapshot, or
        close it with a word why; the owner's answer."""
        if self.table.settings.status == "closed":  # it closed while the socket was let in
            watcher.offer({"type": "closing", "message": CLOSED_SENTENCE})
            watcher.close()
            return {"type": "closing", "message": CLOSED_SENTENCE}
        if may_watch is not None and not may_watch(watcher.user_id):
            watcher.offer(error_frame("private_table", PRIVATE_SENTENCE))
            watcher.close_with(CLOSE_POLICY, PRIVATE_SENTENCE)
            return error_frame("private_table", PRIVATE_SENTENCE)
        self.watchers.add(watcher)
        self.metrics.ws_watching.inc()
        watcher.offer(self.snapshot(watcher, since))
        self._presence_changed(skip=watcher)
        return {"type": "attached"}

    def detach(self, watcher: Watcher | None) -> None:
        if watcher in self.watchers:
            assert watcher is not None
            self._forget(watcher)
        self._presence_changed()

    def _forget(self, watcher: Watcher) -> None:
        """A watcher gone (detached, or dropped for not keeping up)."""
        self.watchers.discard(watcher)
        self.metrics.ws_watching.dec()

    def close_all(self, code: int, reason: str) -> None:
        """Close every socket with ``code`` (the table moved to another process)."""
        for watcher in list(self.watchers):
            watcher.close_with(code, reason)
        self.watchers.clear()

    def closed(self) -> None:
        """The table has closed: tell every socket so, and close it."""
        for watcher in list(self.watchers):
            watcher.offer({"type": "closing", "message": CLOSED_SENTENCE})
            watcher.close()
        self.watchers.clear()

    # ------------------------------------------------------------------ frames
    def tell(
        self, events: tuple[Event, ...], ack: tuple[Watcher, dict[str, Any]] | None = None
    ) -> None:
        """Every watcher's frame for the action just accepted (the table's state is the one
        after it), remembered for the sockets that reconnect. ``ack``: the socket that sent the
        action and its answer, which follows that socket's frame in the same write (one system
        call a socket, not two: issue 33)."""
        table = self.table
        self.recent.append((table.state.state_id, events))
        frames: dict[int | None, dict[str, Any]] = {}
        connected = self.connected()  # once for every frame of the action
        shown: dict[int, dict[str, Any]] = {}  # an event every seat sees alike, once
        views = self._views = ViewsJson(table.state, self._views)  # what seats see alike, once
        for watcher in list(self.watchers):
            seat = table.seat_of(watcher.user_id)
            frame = frames.get(seat)
            if frame is None:
                frame = frames[seat] = self._frame("update", seat, events, connected, shown, views)
            if ack is not None and watcher is ack[0]:
                self._offer(watcher, frame, ack[1])
                ack = None
            else:
                self._offer(watcher, frame)
            if watcher.dropped:
                self._forget(watcher)
                connected = self.connected()
        self._presence = connected
        if ack is not None:  # not watching (any more): the answer all the same
            self._offer(*ack)

    def tell_player(self, user_id: int, frame: dict[str, Any]) -> None:
        """A frame for one player's sockets alone (``unseated``)."""
        for watcher in list(self.watchers):
            if watcher.user_id == user_id:
                self._offer(watcher, frame)

    def connected(self) -> list[int]:
        """The seats whose player has a socket open at this table (a bot always counts)."""
        online = {w.user_id for w in self.watchers if not w.dropped}
        seated = self.table.seated
        return sorted(s for s, who in seated.items() if who.is_bot or who.user_id in online)

    def _presence_changed(self, skip: Watcher | None = None) -> None:
        """Tell every watcher (but ``skip``, whose snapshot says so) when a seated player's
        first socket opens or last one closes."""
        connected = self.connected()
        if connected == self._presence:
            return
        self._presence = connected
        frame = {
            "type": "presence",
            "table": self.table.id,
            "connected": connected,
            "server_time": now(),
        }
        for watcher in list(self.watchers):
            if watcher is not skip:
                watcher.offer(frame)

    def _frame(
        self,
        kind: str,
        seat: int | None,
        events: tuple[Event, ...],
        connected: list[int] | None = None,
        shown: dict[int, dict[str, Any]] | None = None,
        views: ViewsJson | None = None,
    ) -> dict[str, Any]:
        """A watcher's frame (``connected``: the seats :meth:`connected` gives, when the
        caller has them already; ``shown``: the JSON of the events already written for
        another seat of the same action, by the event's identity — what redacting leaves
        alone, or hides, is the same for every seat it is told to, and frames are read-only;
        ``views``: the state's views for the action's other seats)."""
        table = self.table
        state = table.state
        written = {} if shown is None else shown
        out: list[dict[str, Any]] = []
        for e in events:
            r = redact(e, seat)
            if r is None:
                continue
            # the event as it is, or its copy with another player's cards hidden, which is the
            # same for every seat but that player's (kept under the negative of its key)
            key = id(e) if r is e else -1 - id(e)
            text = written.get(key)
            if text is None:
                text = written[key] = event_to_json(r)
            out.append(text)
        who = table.seated.get(seat) if seat is not None else None
        bank = who.time_bank(table.settings.time_bank_seconds, now()) if who else None
        return {
            "type": kind,
            "table": table.id,
            "state_id": state.state_id,
            "server_time": now(),
            "seat": seat,
            "time_bank": None if bank is None else round(bank, 1),
            "events": out,
            "view": (ViewsJson(state) if views is None else views)(seat),
            "connected": self.connected() if connected is None else connected,
        }

    def snapshot(self, watcher: Watcher, since: int | None) -> dict[str, Any]:
        """Where the table stands for this watcher; with ``since``, the events it missed."""
        seat = self.table.seat_of(watcher.user_id)
        missed: tuple[Event, ...] = ()
        if since is not None and self.recent and self.recent[0][0] <= since + 1:
            missed = tuple(e for sid, evs in self.recent if sid > since for e in evs)
        frame = self._frame("snapshot", seat, missed)
        frame["settings"] = self.table.settings.to_json(self.table.state.rules)
        frame["you"] = watcher.name
        return frame

    # ------------------------------------------------------------------ the lobby
    def hand_played(self) -> None:
        at = now()
        done = self.hands_done
        while done and done[0] < at - HOUR:  # only the last hour's are kept
            done.popleft()
        done.append(at)

    def lobby_entry(self) -> dict[str, Any]:
        state, settings = self.table.state, self.table.settings
        taken = sum(1 for s in state.seats if s is not None)
        cutoff = now() - HOUR
        recent = [t for t in self.hands_done if t >= cutoff]
        rules = state.rules
        entry = settings.to_json(rules)
        del entry["rules"]
        entry.update(
            {
                "taken": taken,
                "free": settings.seats - taken,
                "players": [s.player for s in state.seats if s is not None],
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


__all__ = ["OUTBOX_FRAMES", "RECENT_EVENTS", "Broadcaster", "SendNow", "Watcher"]
