"""A table's line of requests (:class:`Line`): the owner's queue, and what the hand loop took
from it ahead of its turn — the decisions queued behind the one it takes, to be taken together
(:mod:`.together`) — and put back when they were not.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator

from thirteen.server.tables.requests import TOGETHER, Request

TOGETHER_MAX = 16
"""Decisions queued together taken together at most (a table seats a handful of players)."""


async def next_request(queue: asyncio.Queue[Request], timeout: float | None) -> Request | None:
    """The next request, or ``None`` when ``timeout`` passes first (a timer that is due goes
    before what is queued). Without a task or a timer per request where it can: ``wait_for``
    wraps every wait in a task of its own on Python 3.11 (issue 33)."""
    if timeout is not None and timeout <= 0:
        return None
    if not queue.empty():
        return queue.get_nowait()
    if timeout is None:
        return await queue.get()
    try:
        async with asyncio.timeout(timeout):
            return await queue.get()
    except TimeoutError:
        return None


def may_go_together(request: Request) -> bool:
    """Whether ``request`` is a player's decision that may be taken with others queued with
    it (:data:`.requests.TOGETHER`)."""
    kind = request.payload.get("type")
    return request.kind == "action" and not request.alone and kind in TOGETHER


class Line:
    """The owner's queue (``queue``: everyone hands requests to it), and the requests taken
    from it and not handled yet, which come first, in their order."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Request] = asyncio.Queue()
        self._taken: deque[Request] = deque()

    async def next(self, timeout: float | None) -> Request | None:
        """The next request, or ``None`` when ``timeout`` passes first (:func:`next_request`:
        a timer that is due goes first)."""
        if self._taken and (timeout is None or timeout > 0):
            return self._taken.popleft()
        return await next_request(self.queue, timeout)

    def together(self, request: Request) -> list[Request]:
        """``request``, and when it is a player's decision the decisions right behind it in the
        line (:func:`may_go_together`), to be taken together."""
        group = [request]
        if not may_go_together(request):
            return group
        taken, queue = self._taken, self.queue
        while len(group) < TOGETHER_MAX:
            if not taken:
                if queue.empty():
                    break
                taken.append(queue.get_nowait())
            if not may_go_together(taken[0]):
                break
            group.append(taken.popleft())
        return group

    def put_back(self, requests: list[Request]) -> None:
        """Put ``requests`` back at the head of the line, in their order."""
        self._taken.extendleft(reversed(requests))

    def waits(self, request: Request) -> bool:
        """Whether ``request`` is back in the line (not handled yet)."""
        return any(request is later for later in self._taken)

    def drain(self) -> Iterator[Request]:
        """Every request in the line, in order, taken out of it."""
        while self._taken:
            yield self._taken.popleft()
        while not self.queue.empty():
            yield self.queue.get_nowait()


__all__ = ["TOGETHER_MAX", "Line", "may_go_together", "next_request"]
