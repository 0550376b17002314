"""Sockets belong to the session whose ticket opened them (``Accounts.redeem_ticket``).

Each process keeps the table sockets it holds by their session (:class:`SessionSockets`). When
sessions end — a log-out, a password change ending the account's other sessions — the process
that ended them closes their sockets here and asks every other live process of the room, over
the bus, to close theirs, and waits (at most :data:`END_SECONDS`) until each has answered: so
once a log-out has answered, no socket of its session anywhere takes another message (each
closes with :data:`~thirteen.server.tables.protocol.CLOSE_SESSION_ENDED` and
:data:`SESSION_ENDED`). Whatever a closed socket sends afterwards is dropped unread.

A socket is held — and closed — by the process that holds the client's connection, its table's
own or another (a relayed socket's edge, :mod:`.relay`): closing it there forwards nothing more
and detaches it from the table's process, as any close does.

A socket also closes when its session expires, wherever it is held: a timer at the session's
``expires_at``, read with the ticket (sessions never slide, so nothing else can move it).

Two races are closed by a look at the database. A ticket redeemed just before its session ended
gives a socket that registers only after this process heard of the end: every end heard (and
every reset of the bus) moves a counter, and a socket whose registration saw it move since its
ticket was redeemed asks the database whether its session still lives. And a message the bus may
have lost (``Bus.on_reset``) is made up for by asking the database about every session this
process holds sockets of.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from redis.exceptions import RedisError

from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.bus import Bus, Message
from thirteen.server.tables.protocol import CLOSE_SESSION_ENDED

log = logging.getLogger("thirteen.server.sessions")

SESSION_ENDED = "Your session ended (log-out, new password or expiry); log in again."
"""The close reason of a socket whose session ended (at most 123 bytes, as a close's is)."""
END_SECONDS = 3.0
"""How long ending a session waits for the room's other processes to close its sockets."""

Live = Callable[[list[str]], Awaitable[set[str]]]
"""Which of these sessions (``token_hash``es) still live, by the database."""


class SessionSockets:
    """The sockets this process holds, by session; closing a session's sockets everywhere."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self.bus: Bus | None = None
        """The room's bus, once it is joined (``None``: one process)."""
        self.held: dict[str, set[Watcher]] = {}
        self.heard = 0
        """Ends heard and bus resets so far (see the module's second race)."""
        self._timers: dict[Watcher, asyncio.TimerHandle] = {}
        self._asked: dict[str, tuple[asyncio.Future[None], set[str]]] = {}
        """Each end this process asked the others for: its answer, the processes yet to answer."""
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ one socket
    @contextlib.asynccontextmanager
    async def holding(
        self, session: str, expires_at: float, watcher: Watcher, heard: int
    ) -> AsyncIterator[None]:
        """Hold ``watcher``'s socket for ``session`` (ending at ``expires_at``) while the block
        runs; ``heard``: :attr:`heard` read before its ticket was redeemed."""
        self.held.setdefault(session, set()).add(watcher)
        loop = asyncio.get_running_loop()
        self._timers[watcher] = loop.call_later(
            max(0.0, expires_at - time.time()), self._at_expiry, watcher, expires_at
        )
        try:
            if self.heard != heard and not await self._lives(session):
                _close(watcher)
            yield
        finally:
            self._timers.pop(watcher).cancel()
            left = self.held.get(session)
            if left is not None:
                left.discard(watcher)
                if not left:
                    del self.held[session]

    def _at_expiry(self, watcher: Watcher, expires_at: float) -> None:
        """Close ``watcher``'s socket once its session has ended by the wall clock: the loop's
        timers run on another clock and may fire a hair early (59 µs, seen), then wait the rest."""
        left = expires_at - time.time()
        if left > 0 and watcher in self._timers:
            loop = asyncio.get_running_loop()
            self._timers[watcher] = loop.call_later(left, self._at_expiry, watcher, expires_at)
            return
        _close(watcher)

    async def _lives(self, session: str) -> bool:
        """Whether ``session`` lives, by the database (``False`` when it cannot say: a socket
        is closed rather than kept on a guess)."""
        try:
            return session in await self.live([session])
        except Exception:
            log.exception("looking up a socket's session failed; closing the socket")
            return False

    # ------------------------------------------------------------------ ending sessions
    async def end(self, sessions: list[str]) -> None:
        """Close the sockets of ``sessions`` on every process of the room: here at once, and
        elsewhere before returning (or after :data:`END_SECONDS`, logged)."""
        if not sessions:
            return
        self._close_here(sessions)
        if self.bus is None:
            return
        try:
            others = await self.bus.processes() - {self.bus.me}
        except (RedisError, OSError) as error:  # the others' buses broke too: they look
            log.warning("sessions ended while the bus is away", extra={"error": str(error)})
            return
        if not others:
            return
        rid = secrets.token_hex(12)
        answered = asyncio.get_running_loop().create_future()
        self._asked[rid] = (answered, set(others))
        for process in others:
            self.bus.send(
                process, {"k": "end_sessions", "rid": rid, "from": self.bus.me, "s": sessions}
            )
        try:
            await asyncio.wait_for(answered, END_SECONDS)
        except TimeoutError:
            log.warning(
                "sessions ended; some processes did not answer",
                extra={"processes": sorted(self._asked[rid][1])},
            )
        finally:
            self._asked.pop(rid, None)

    def _close_here(self, sessions: list[str]) -> None:
        self.heard += 1
        for session in sessions:
            for watcher in list(self.held.get(session, ())):
                _close(watcher)

    def take(self, message: Message) -> bool:
        """Handle a message of the bus about sessions; ``False`` if it is not one."""
        kind = message.get("k")
        if kind == "end_sessions":
            self._close_here([str(s) for s in message.get("s") or ()])
            if self.bus is not None:
                self.bus.send(
                    str(message["from"]),
                    {"k": "sessions_ended", "rid": message["rid"], "from": self.bus.me},
                )
        elif kind == "sessions_ended":
            asked = self._asked.get(str(message.get("rid")))
            if asked is not None:
                answered, waiting = asked
                waiting.discard(str(message.get("from", "")))
                if not waiting and not answered.done():
                    answered.set_result(None)
        else:
            return False
        return True

    def reset(self) -> None:
        """Messages of the bus may have been lost: ask the database about every session held."""
        self.heard += 1
        task = asyncio.get_running_loop().create_task(self._look_again(list(self.held)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _look_again(self, sessions: list[str]) -> None:
        try:
            live = await self.live(sessions)
        except Exception:
            log.exception("looking up the sessions of this process's sockets failed")
            return
        self._close_here([s for s in sessions if s not in live])


def _close(watcher: Watcher) -> None:
    watcher.close_with(CLOSE_SESSION_ENDED, SESSION_ENDED)


__all__ = ["END_SECONDS", "SESSION_ENDED", "SessionSockets"]
