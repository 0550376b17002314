"""The text form of a hand history: readable, one action per line, and it round-trips.

:func:`history_to_text` writes a (full or redacted) JSON history as text, and
:func:`history_from_text` reads it back. The action lines, the ``data:`` line and the room's
``signature:`` line (if signed) are what it says; every other line (rules, seats, results) is
derived from them, and :func:`~thirteen.engine.history_verify.verify_text` re-derives it.

Texts are written for people: seats numbered from 1 as the table shows them, and times as ISO
8601 UTC (``2026-11-27T12:34:56.25Z``) carrying every digit of the number of seconds, so the
time read back is the very float written. The header says so (``…, seats from 1``). Texts
written before (seats from 0, times as seconds since 1970, no such words in the header) are
still read, and :func:`readable_text` tells the two apart so that a text is re-derived in its
own form.
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


READABLE = ", seats from 1"
"""The header's last words in a text written for people (seats from 1, ISO times)."""
_LAST_SECOND = 253402300800.0
"""10000-01-01T00:00:00Z: a later time (or an odd one) is written as a number of seconds."""
_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,30}))?Z")


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a date of the proleptic Gregorian calendar (H. Hinnant's
    algorithm: the engine keeps no clock and imports no ``datetime``)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The date (year, month, day) ``days`` after 1970-01-01: the inverse of the above."""
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    mp = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return year_of_era + era * 400 + (month <= 2), month, day


def _time_text(at: float, readable: bool) -> str:
    """``at`` (seconds since 1970) as ISO 8601 UTC with every digit of its shortest repr (read
    back exactly by :func:`_parse_time`), or as the number itself in the old form."""
    number = repr(at)
    if not readable or not 0 <= at < _LAST_SECOND or not re.fullmatch(r"\d+\.\d+", number):
        return number
    whole, _, fraction = number.partition(".")
    days, second = divmod(int(whole), 86400)
    year, month, day = _civil_from_days(days)
    stamp = (
        f"{year:04d}-{month:02d}-{day:02d}T"
        f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"
    )
    return f"{stamp}Z" if fraction == "0" else f"{stamp}.{fraction}Z"


def _parse_time(text: str) -> float:
    """An action line's time: ISO 8601 UTC as :func:`_time_text` writes it, or a number."""
    m = _ISO.fullmatch(text)
    if m is None:
        return seconds(float(text), "at")
    year, month, day, hour, minute, second = (int(m[i]) for i in range(1, 7))
    days = _days_from_civil(year, month, day)
    if _civil_from_days(days) != (year, month, day) or hour > 23 or minute > 59 or second > 59:
        raise ValueError(f"{text} is no time")
    return float(f"{days * 86400 + hour * 3600 + minute * 60 + second}.{m[7] or '0'}")


def _action_line(raw: dict[str, Any], readable: bool) -> str:
    kind = raw["type"]
    at = _time_text(float(raw["at"]), readable)
    seat = raw.get("seat")
    if readable and isinstance(seat, int):
        seat += 1
    if kind == "start_hand":  # its version of the automatic moves when not the first
        return f"{at} start_hand" + (f" autoplay {raw['autoplay']}" if "autoplay" in raw else "")
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


def history_to_text(data: dict[str, Any], *, readable: bool = True) -> str:
    """A readable text form of a (full or redacted) JSON history; :func:`history_from_text`
    reads it back. ``readable=False`` writes the old form (seats from 0, times in seconds)."""
    first = 1 if readable else 0
    viewer = data["viewer"]
    if isinstance(viewer, int):
        viewer += first
    lines = [
        f"# Thirteen hand history v{data['version']} — hand {data['hand']}, "
        f"viewer {viewer}{READABLE if readable else ''}",
        f"rules: {data['start']['rules']['name']}",
        f"commitment: {data['commitment']}",
    ]
    start = data["start"]
    if start["button"] is not None:
        lines.append(f"button before the deal: seat {start['button'] + first}")
    for i, s in enumerate(start["seats"]):
        if s is not None:
            flags = [k for k in _SEAT_FLAGS if s.get(k)]
            fl = f" fantasyland {s['fantasyland']}" if s.get("fantasyland") else ""
            name = json.dumps(s["player"], ensure_ascii=False)
            lines.append(
                f"seat {i + first}: {name} stack {s['stack']}{fl} {' '.join(flags)}".rstrip()
            )
    lines.append("")
    lines.extend(_action_line(a, readable) for a in data["actions"])
    if data.get("result"):
        r = data["result"]
        lines.append("")
        for i, seat in enumerate(r["seats"]):
            lines.append(f"result seat {seat + first}: {result_points(r, i)}")
    lines.append("")
    payload = {k: data[k] for k in ("start", "deal", "result")}
    lines.append("data: " + canonical_json(payload).decode("utf-8"))
    signature = data.get(SIGNATURE)
    if signature is not None:
        lines.append("signature: " + " ".join(str(signature[k]) for k in SIGNATURE_KEYS))
    return "\n".join(lines) + "\n"


_HEADER = re.compile(
    r"# Thirteen hand history v(\d{1,3}) — hand (\d{1,12}), viewer (all|spectator|\d{1,3})"
    rf"({re.escape(READABLE)})?"
)


def readable_text(text: str) -> bool:
    """Whether a text history is in the form written for people (seats from 1, ISO times; its
    header says so) rather than the old one."""
    head = _HEADER.fullmatch(text.removeprefix("\ufeff").split("\n", 1)[0].rstrip())
    return bool(head and head[4])


_SEAT_ACTION = re.compile(r"seat (\d{1,6}) ([a-z_]+)(?: (.+))?")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def _parse_action_line(line: str, first: int) -> dict[str, Any]:
    unreadable = bad_history(f"Cannot read the action line {line!r}.")
    at_text, _, rest = line.partition(" ")
    try:
        at = _parse_time(at_text)
    except (ValueError, OverflowError, RuleError):
        raise unreadable from None
    if rest == "start_hand":
        return {"type": "start_hand", "at": at}
    if rest.startswith("start_hand autoplay ") and rest[20:].isdigit() and len(rest) < 26:
        return {"type": "start_hand", "at": at, "autoplay": int(rest[20:])}
    m = _SEAT_ACTION.fullmatch(rest)
    if m is None:
        raise unreadable
    kind, tail = m[2], m[3]
    if int(m[1]) < first:
        raise unreadable
    raw: dict[str, Any] = {"type": kind, "seat": int(m[1]) - first, "at": at}
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
    first = 1 if head[4] else 0
    if viewer.isdigit() and int(viewer) < first:
        raise bad_history("Seats are numbered from 1 in this text: there is no viewer 0.")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": int(head[1]),
        "hand": int(head[2]),
        "viewer": int(viewer) - first if viewer.isdigit() else viewer,
        "start": payload["start"],
        "commitment": commitments[0].removeprefix("commitment: "),
        "deal": payload["deal"],
        "actions": [_parse_action_line(line, first) for line in blocks[1]],
        "result": payload["result"],
    }
    if signature is not None:
        data[SIGNATURE] = signature
    return data


__all__ = [
    "MAX_DIGITS",
    "READABLE",
    "history_from_text",
    "history_to_text",
    "readable_text",
    "result_points",
]
