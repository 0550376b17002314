"""The text form of a hand history: readable, one action per line, and it round-trips.

:func:`history_to_text` writes a (full or redacted) JSON history as text, and
:func:`history_from_text` reads it back. The action lines, the ``data:`` line and the room's
``signature:`` line (if signed) are what it says; every other line (rules, seats, results) is
derived from them, and :func:`~thirteen.engine.history_verify.verify_text` re-derives it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from thirteen.engine.errors import RuleError
from thirteen.engine.history_format import (
    FORMAT,
    SIGNATURE,
    SIGNATURE_KEYS,
    bad_history,
    json_object,
)
from thirteen.engine.snapshot import canonical_json, seconds

MAX_DIGITS = 4300
"""No number in a history is longer (the limit of Python's JSON reader, applied to text too)."""


def _action_line(raw: dict[str, Any]) -> str:
    kind = raw["type"]
    at = repr(float(raw["at"]))
    seat = raw.get("seat")
    if kind == "start_hand":
        return f"{at} start_hand"
    if kind in ("place", "set_hand"):
        text = " | ".join(
            f"{name}: {raw.get(name) or '-'}"
            for name in ("front", "middle", "back", "discard")
            if name != "discard" or kind == "place"
        )
        return f"{at} seat {seat} {kind} {text}"
    if kind == "declare_natural":
        return f"{at} seat {seat} declare_natural {raw['natural']}"
    if kind == "use_time_bank":
        return f"{at} seat {seat} use_time_bank {float(raw['seconds'])!r}"
    if kind == "top_up":
        return f"{at} seat {seat} top_up {raw['amount']}"
    if kind == "sit":
        return (
            f"{at} seat {seat} sit {json.dumps(raw['player'], ensure_ascii=False)} {raw['stack']}"
        )
    return f"{at} seat {seat} {kind}"


def result_points(result: dict[str, Any], i: int) -> str:
    """What the ``i``-th seat of a history's result won: the end of its ``result seat`` line."""
    fouled = " (fouled)" if result["fouls"][i] else ""
    return f"{result['totals'][i]:+d} points, {result['money'][i]:+d} money{fouled}"


_SEAT_FLAGS = ("sitting_out", "leaving", "sit_out_after_hand")


def history_to_text(data: dict[str, Any]) -> str:
    """A readable text form of a (full or redacted) JSON history; :func:`history_from_text`
    reads it back."""
    lines = [
        f"# Thirteen hand history v{data['version']} — hand {data['hand']}, "
        f"viewer {data['viewer']}",
        f"rules: {data['start']['rules']['name']}",
        f"commitment: {data['commitment']}",
    ]
    start = data["start"]
    if start["button"] is not None:
        lines.append(f"button before the deal: seat {start['button']}")
    for i, s in enumerate(start["seats"]):
        if s is not None:
            flags = [k for k in _SEAT_FLAGS if s.get(k)]
            fl = f" fantasyland {s['fantasyland']}" if s.get("fantasyland") else ""
            name = json.dumps(s["player"], ensure_ascii=False)
            lines.append(f"seat {i}: {name} stack {s['stack']}{fl} {' '.join(flags)}".rstrip())
    lines.append("")
    lines.extend(_action_line(a) for a in data["actions"])
    if data.get("result"):
        r = data["result"]
        lines.append("")
        for i, seat in enumerate(r["seats"]):
            lines.append(f"result seat {seat}: {result_points(r, i)}")
    lines.append("")
    payload = {k: data[k] for k in ("start", "deal", "result")}
    lines.append("data: " + canonical_json(payload).decode("utf-8"))
    signature = data.get(SIGNATURE)
    if signature is not None:
        lines.append("signature: " + " ".join(str(signature[k]) for k in SIGNATURE_KEYS))
    return "\n".join(lines) + "\n"


_HEADER = re.compile(
    r"# Thirteen hand history v(\d{1,3}) — hand (\d{1,12}), viewer (all|spectator|\d{1,3})"
)
_SEAT_ACTION = re.compile(r"seat (\d{1,6}) ([a-z_]+)(?: (.+))?")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def _parse_action_line(line: str) -> dict[str, Any]:
    unreadable = bad_history(f"Cannot read the action line {line!r}.")
    at_text, _, rest = line.partition(" ")
    try:
        at = seconds(float(at_text), "at")
    except (ValueError, RuleError):
        raise unreadable from None
    if rest == "start_hand":
        return {"type": "start_hand", "at": at}
    m = _SEAT_ACTION.fullmatch(rest)
    if m is None:
        raise unreadable
    kind, tail = m[2], m[3]
    raw: dict[str, Any] = {"type": kind, "seat": int(m[1]), "at": at}
    if kind in ("place", "set_hand"):
        names = ("front", "middle", "back", "discard")[: 4 if kind == "place" else 3]
        chunks = (tail or "").split(" | ")
        if len(chunks) != len(names):
            raise unreadable
        for name, chunk in zip(names, chunks, strict=True):
            label, sep, cards = chunk.partition(": ")
            if label != name or not sep:
                raise unreadable
            raw[name] = "" if cards == "-" else cards
    elif kind == "declare_natural" and tail:
        raw["natural"] = tail
    elif kind == "use_time_bank" and tail:
        try:
            raw["seconds"] = seconds(float(tail), "seconds")
        except (ValueError, RuleError):
            raise unreadable from None
    elif kind == "top_up" and tail and tail.isdigit() and len(tail) <= MAX_DIGITS:
        raw["amount"] = int(tail)
    elif kind == "sit" and tail:
        try:
            player, end = json.JSONDecoder().raw_decode(tail)
        except ValueError:
            raise unreadable from None
        stack = tail[end:]
        if not re.fullmatch(r" \d{1,30}", stack):
            raise unreadable
        raw["player"] = player
        raw["stack"] = int(stack)
    elif tail is not None or kind in ("place", "set_hand", "declare_natural", "sit"):
        raise unreadable
    return raw


def history_from_text(text: str) -> dict[str, Any]:
    """The JSON history a text history states (its action lines and its ``data:`` line).

    The other lines are derived; :func:`~thirteen.engine.history_verify.verify_text` checks
    them against what this returns.
    """
    text = text.removeprefix("\ufeff")
    long = _LONG_NUMBER.search(text)
    if long is not None:
        raise bad_history(
            f"The text holds a number of {long.end() - long.start()} digits; too long."
        )
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    head = _HEADER.fullmatch(lines[0]) if lines else None
    if head is None:
        raise bad_history(
            "This is not a Thirteen text hand history (its first line says what it is)."
        )
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        else:
            blocks.append([])
    if len(blocks) not in (3, 4) or not all(blocks):
        raise bad_history(
            "A text history has a header, the actions, the results and the data line, with one "
            "blank line between them."
        )
    data_block = blocks[-1]
    if len(data_block) not in (1, 2) or not data_block[0].startswith("data: "):
        raise bad_history("A text history ends with its data line (and the room's signature line).")
    signature: dict[str, str] | None = None
    if len(data_block) == 2:
        fields = data_block[1].split(" ")
        if fields[0] != "signature:" or len(fields) != 1 + len(SIGNATURE_KEYS):
            raise bad_history(
                "The line after the data line is the signature: "
                "'signature: ALGORITHM KEY_ID PUBLIC_KEY VALUE'."
            )
        signature = dict(zip(SIGNATURE_KEYS, fields[1:], strict=True))
    try:
        payload = json.loads(data_block[0].removeprefix("data: "))
    except (ValueError, RecursionError) as e:
        raise bad_history(f"The data line is not readable JSON ({type(e).__name__}).") from None
    json_object(payload, ("start", "deal", "result"), "The data line")
    commitments = [line for line in blocks[0] if line.startswith("commitment: ")]
    if len(commitments) != 1:
        raise bad_history("A text history states its commitment once, in its header.")
    viewer: str = head[3]
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": int(head[1]),
        "hand": int(head[2]),
        "viewer": int(viewer) if viewer.isdigit() else viewer,
        "start": payload["start"],
        "commitment": commitments[0].removeprefix("commitment: "),
        "deal": payload["deal"],
        "actions": [_parse_action_line(line) for line in blocks[1]],
        "result": payload["result"],
    }
    if signature is not None:
        data[SIGNATURE] = signature
    return data


__all__ = ["MAX_DIGITS", "history_from_text", "history_to_text", "result_points"]
