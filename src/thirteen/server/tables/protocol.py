"""The table protocol: JSON messages over a WebSocket, in one place (see docs/protocol.md).

A client sends ``action`` (with its own ``id`` and the ``state_id`` it decided on), ``resync``
(``since`` a state id) or ``ping``. The room sends ``snapshot``, ``update``, ``ack``, ``error``,
``pong`` and ``closing``. ``snapshot``, ``update`` and ``ack`` carry the table's ``state_id``;
every error carries a ``code`` (the engine's, where it refused) and a sentence.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import orjson

from thirteen.engine.errors import RuleError

VERSION = 1
MAX_FRAME_BYTES = 8 * 1024
"""A larger frame gets an error and the socket is closed."""
BURST = 20
"""Messages a socket may send at once; it earns this many back each second."""
ID_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{1,64}")

SEAT_ACTIONS = {"set_hand", "place", "declare_natural", "surrender", "time_bank"}
"""Decisions in a hand: they must be decided on the current decision (``state_id``)."""
TABLE_ACTIONS = {"sit", "leave", "stay", "sit_out", "sit_in", "top_up"}
"""Seat management: the seat comes from who is asking (``sit`` names the seat it wants)."""
CLIENT_ACTIONS = SEAT_ACTIONS | TABLE_ACTIONS

CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_GOING_AWAY = 1001
CLOSE_SESSION_ENDED = 4001
"""The session whose ticket opened the socket ended (log-out, a password change, expiry): log
in again before reconnecting."""
CLOSE_SLOW = 4008
"""The socket did not read its frames fast enough; reconnect and resync."""
CLOSE_MOVED = 1012
"""The table moved to another of the room's processes (or one's link to it broke): reconnect
with ``since`` and resend what was not acknowledged."""
CLOSE_TRY_AGAIN = 1013
"""The table is between processes (its old one died, no other has taken it yet): try again in a
moment."""


FIELDS: dict[str, frozenset[str]] = {
    "action": frozenset({"type", "id", "state_id", "action"}),
    "resync": frozenset({"type", "since"}),
    "ping": frozenset({"type"}),
}
"""Each message's fields: any other is refused (``bad_message``), not ignored, so a client's
typo — ``"stateid"`` — is found at once rather than acting on what it did not mean."""


class ProtocolError(RuleError):
    """A message the room cannot take, with a code and a sentence."""


@dataclass(frozen=True)
class ActionMessage:
    id: str
    state_id: int | None
    action: dict[str, Any]


@dataclass(frozen=True)
class ResyncMessage:
    since: int | None
    """The last state id the client saw (``None``: a snapshot without the events missed)."""


@dataclass(frozen=True)
class PingMessage:
    pass


Message = ActionMessage | ResyncMessage | PingMessage


def encode(frame: dict[str, Any]) -> str:
    """A frame's text, compact (orjson: a table sends one per seat after every action, and the
    standard encoder took a tenth of a busy room's time); tables journal their actions,
    snapshots and finished hands with it too. A key that is not text (an integer) is written
    as text, as the standard encoder writes it; anything orjson refuses — an integer past 64
    bits — falls back to the standard encoder, which writes the same JSON."""
    return encode_utf8(frame).decode()


def encode_utf8(frame: dict[str, Any]) -> bytes:
    """:func:`encode`'s text as UTF-8, as a socket sends it. Frames' keys are text: orjson
    writes them half again as fast when not asked to look for others (a hand's frames 71 µs
    against 48; issue 33), and is asked only when it finds one."""
    try:
        return orjson.dumps(frame)
    except TypeError:  # (orjson.JSONEncodeError is one) a key that is not text, or a huge int
        pass
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(frame, separators=(",", ":")).encode()


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError("bad_message", f"{what} must be a whole number from 0 up.")
    return value


def parse_message(text: str | bytes) -> Message:
    """A client message from its frame; :class:`ProtocolError` says what is wrong."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_message", "Messages must be UTF-8 JSON text.") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError("too_big", f"A message may hold at most {MAX_FRAME_BYTES} bytes.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "A message must be one JSON object.") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "A message must be one JSON object.")
    kind = data.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError("bad_message", 'A message\'s "type" is "action", "resync" or "ping".')
    unknown = sorted(set(data) - fields)
    if unknown:
        raise ProtocolError(
            "bad_message",
            f"A {kind} message has no field {unknown[0]!r}; its fields: "
            f"{', '.join(sorted(fields))}.",
        )
    if kind == "ping":
        return PingMessage()
    if kind == "resync":
        since = data.get("since")
        return ResyncMessage(None if since is None else _whole(since, "since"))
    ident = data.get("id")
    if not isinstance(ident, str) or not ID_PATTERN.fullmatch(ident):
        raise ProtocolError(
            "bad_message", 'An action needs an "id" of 1 to 64 letters, digits or "_.:-".'
        )
    state_id = data.get("state_id")
    if state_id is not None:
        state_id = _whole(state_id, "state_id")
    action = data.get("action")
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(action, dict) or not isinstance(kind, str) or kind not in CLIENT_ACTIONS:
        raise ProtocolError(
            "bad_action",
            'An action\'s "action" is an object whose type is one of '
            f"{', '.join(sorted(CLIENT_ACTIONS))}.",
        )
    if kind in SEAT_ACTIONS and state_id is None:
        raise ProtocolError("bad_message", 'A decision needs the "state_id" it was decided on.')
    return ActionMessage(ident, state_id, action)


def ack_frame(ident: str, state_id: int) -> dict[str, Any]:
    """The answer to an accepted action: its ``id`` and the state it made."""
    return {"type": "ack", "id": ident, "state_id": state_id}


def error_frame(code: str, message: str, ident: str | None = None) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ident is not None:
        frame["id"] = ident
    return frame


__all__ = [
    "BURST",
    "CLIENT_ACTIONS",
    "CLOSE_GOING_AWAY",
    "CLOSE_MOVED",
    "CLOSE_POLICY",
    "CLOSE_SLOW",
    "CLOSE_TOO_BIG",
    "CLOSE_TRY_AGAIN",
    "FIELDS",
    "MAX_FRAME_BYTES",
    "SEAT_ACTIONS",
    "TABLE_ACTIONS",
    "VERSION",
    "ActionMessage",
    "Message",
    "PingMessage",
    "ProtocolError",
    "ResyncMessage",
    "ack_frame",
    "error_frame",
    "parse_message",
]
