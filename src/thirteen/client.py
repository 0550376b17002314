"""A Python client of the card room: its HTTP API and the table protocol over WebSocket.

Tests, bots playing over the wire and the load benchmark use it. Blocking (one thread per
connection is plenty for those); every wait has a timeout and never sleeps.

>>> room = RoomClient("http://127.0.0.1:8000")        # doctest: +SKIP
>>> room.sign_up("ann", "correct horse")               # doctest: +SKIP
>>> table = room.open_table(1)                         # doctest: +SKIP
>>> table.act({"type": "sit", "seat": 0, "buy_in": 500})  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import orjson
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from thirteen.engine.autoplay import safe_setting
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.legal import placements
from thirteen.engine.rules import Rules

Frame = dict[str, Any]

KEEPALIVE_EXPIRY = 2.0
"""Seconds an idle pooled HTTP connection is kept for reuse: well under the room's keep-alive
(``thirteen.server.serve.KEEP_ALIVE_SECONDS``, 5 s), so a request never goes out on a
connection the room is closing that instant (httpx's default, 5 s, is the room's own: a
request sent as the room closed its connection was reset — seen in a long fuzz run)."""


class RoomError(Exception):
    """The room refused something: its ``code`` and sentence."""

    def __init__(self, code: str, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class RoomClient:
    """One account's HTTP session with the room (cookie, CSRF token)."""

    def __init__(self, base_url: str, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = httpx.Client(
            base_url=self.base_url,
            timeout=timeout,
            limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY),
        )
        self.csrf = ""
        self.name = ""

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> RoomClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """Send a request; the JSON answer, or :class:`RoomError` with the room's sentence."""
        headers = {"x-csrf-token": self.csrf} if self.csrf else {}
        r = self.http.request(method, path, json=body, headers=headers)
        if r.status_code >= 400:
            try:
                error = r.json()["error"]
            except (ValueError, KeyError, TypeError):
                raise RoomError("http_error", r.text[:200], r.status_code) from None
            raise RoomError(error["code"], error["message"], r.status_code)
        if r.status_code == 204 or not r.content:
            return None
        if r.headers.get("content-type", "").startswith("application/json"):
            return r.json()
        return r.text

    def _logged_in(self, account: dict[str, Any]) -> dict[str, Any]:
        self.csrf = account["csrf_token"]
        self.name = account["name"]
        return account

    def sign_up(self, name: str, password: str) -> dict[str, Any]:
        return self._logged_in(
            self.request("POST", "/api/accounts", {"name": name, "password": password})
        )

    def log_in(self, name: str, password: str) -> dict[str, Any]:
        return self._logged_in(
            self.request("POST", "/api/session", {"name": name, "password": password})
        )

    def log_out(self) -> None:
        """End this session (its sockets close, its unused tickets stop working)."""
        self.request("DELETE", "/api/session")
        self.csrf = ""

    def change_password(self, old: str, new: str) -> None:
        """Change the password; the account's other sessions end."""
        self.request("POST", "/api/password", {"old_password": old, "new_password": new})

    def me(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("GET", "/api/me")
        return answer

    def tables(self, **filters: Any) -> list[dict[str, Any]]:
        query = "&".join(f"{k}={v}" for k, v in filters.items())
        answer: dict[str, Any] = self.request("GET", "/api/tables" + (f"?{query}" if query else ""))
        tables: list[dict[str, Any]] = answer["tables"]
        return tables

    def create_table(self, preset: str, **options: Any) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("POST", "/api/tables", {"preset": preset, **options})
        return answer

    def ticket(self) -> str:
        ticket: str = self.request("POST", "/api/tickets")["ticket"]
        return ticket

    def ws_url(self, path: str) -> str:
        return "ws" + self.base_url.removeprefix("http") + path

    def open_table(self, table_id: int, *, watch_only: bool = False) -> TableConnection:
        """Connect to a table's socket (as this account, or as a spectator)."""
        return TableConnection(self, table_id, watch_only=watch_only)


class TableConnection:
    """A table's socket: frames in order, the latest view, actions with ids and answers."""

    def __init__(self, room: RoomClient, table_id: int, *, watch_only: bool = False) -> None:
        self.room = room
        self.table_id = table_id
        self.watch_only = watch_only
        self.frames: list[Frame] = []
        """Every frame received, in order (tests run their oracles over these)."""
        self.view: dict[str, Any] = {}
        self.state_id = -1
        self.seat: int | None = None
        self.settings: dict[str, Any] = {}
        self.closed: tuple[int, str] | None = None
        self._ids = itertools.count(1)
        self._answers: dict[str, Frame] = {}
        self.ws: ClientConnection | None = None
        self.connect()

    def connect(self, since: int | None = None) -> None:
        """(Re)connect; with ``since`` the room sends what was missed after that state id."""
        query = [] if self.watch_only else [f"ticket={self.room.ticket()}"]
        if since is not None:
            query.append(f"since={since}")
        url = self.room.ws_url(f"/ws/tables/{self.table_id}") + (
            "?" + "&".join(query) if query else ""
        )
        self._stack = contextlib.ExitStack()
        # max_queue=None: frames wait in memory until read, so a connection nobody reads for a
        # while (a spectator during a test) still answers the room's pings and stays open
        self.ws = self._stack.enter_context(
            connect(url, max_size=2**22, max_queue=None, open_timeout=30)
        )
        self.closed = None
        self.wait(lambda f: f["type"] == "snapshot")

    def reconnect(self) -> None:
        self.drop()
        self.connect(since=self.state_id)

    def drop(self) -> None:
        """Close the socket abruptly (as a lost connection would)."""
        if self.ws is not None:
            self._stack.close()

    def close(self) -> None:
        self.drop()

    def send(self, message: Any) -> None:
        assert self.ws is not None
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def _take(self, frame: Frame) -> None:
        self.frames.append(frame)
        kind = frame.get("type")
        if kind in ("snapshot", "update"):
            self.view = frame["view"]
            self.state_id = frame["state_id"]
            self.seat = frame["seat"]
            if kind == "snapshot":
                self.settings = frame.get("settings", self.settings)
        if kind in ("ack", "error") and "id" in frame:
            self._answers[frame["id"]] = frame

    def receive(self, timeout: float = 30.0) -> Frame | None:
        """The next frame, or ``None`` once the socket is closed (``closed`` says why)."""
        assert self.ws is not None
        try:
            raw = self.ws.recv(timeout=timeout)
        except ConnectionClosed as e:
            rcvd = e.rcvd
            self.closed = (rcvd.code, rcvd.reason) if rcvd is not None else (1006, "")
            return None
        frame: Frame = orjson.loads(raw)
        self._take(frame)
        return frame

    def wait(self, predicate: Callable[[Frame], bool], timeout: float = 60.0) -> Frame:
        """Read frames until one satisfies ``predicate``; :class:`TimeoutError` past ``timeout``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such frame within {timeout} s")
            frame = self.receive(timeout=left)
            if frame is None:
                raise RoomError("closed", f"The socket closed: {self.closed}")
            if predicate(frame):
                return frame

    def act(self, action: dict[str, Any], *, state_id: int | None = None, ident: str = "") -> str:
        """Send an action (with the current state id unless told); returns its id."""
        ident = ident or f"a{next(self._ids)}-{time.monotonic_ns()}"
        self.send(
            {
                "type": "action",
                "id": ident,
                "state_id": self.state_id if state_id is None else state_id,
                "action": action,
            }
        )
        return ident

    def answer(self, ident: str, timeout: float = 60.0) -> Frame:
        """The room's answer (``ack`` or ``error``) to action ``ident``."""
        if ident in self._answers:
            return self._answers[ident]
        return self.wait(lambda f: f.get("id") == ident and f["type"] in ("ack", "error"), timeout)

    def forget_answer(self, ident: str) -> None:
        """Forget the answer to ``ident`` already received, so that :meth:`answer` waits for
        the room's next one (to an action sent again with the same id)."""
        self._answers.pop(ident, None)

    def do(self, action: dict[str, Any], **kwargs: Any) -> Frame:
        """Act and wait for the answer; :class:`RoomError` when it is refused."""
        answer = self.answer(self.act(action, **kwargs))
        if answer["type"] == "error":
            raise RoomError(answer["code"], answer["message"])
        return answer

    @property
    def me(self) -> dict[str, Any] | None:
        hand = self.view.get("hand")
        me: dict[str, Any] | None = hand.get("me") if hand else None
        return me

    def my_turn(self) -> bool:
        me = self.me
        return bool(me and me["must_act"])

    def frames_of(self, kind: str) -> Iterator[Frame]:
        return (f for f in self.frames if f.get("type") == kind)


def legal_move(me: dict[str, Any], rules: Rules, rng: random.Random) -> dict[str, Any]:
    """A legal decision for the seat whose cards a view shows (``view["hand"]["me"]``): a
    setting that never fouls, or a random placement of the street's cards. Tests and the load
    benchmark play with it."""
    cards = parse_cards(me["cards"])
    if me["mode"] == "set":
        front, middle, back = safe_setting(rules, cards)
        return {
            "type": "set_hand",
            "front": format_cards(front),
            "middle": format_cards(middle),
            "back": format_cards(back),
        }
    front, middle, back, discard = rng.choice(placements(cards, me["room"], me["discard_now"]))
    return {
        "type": "place",
        "front": format_cards(front),
        "middle": format_cards(middle),
        "back": format_cards(back),
        "discard": format_cards(discard),
    }


__all__ = ["Frame", "RoomClient", "RoomError", "TableConnection", "legal_move"]
