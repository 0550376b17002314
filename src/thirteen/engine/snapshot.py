"""The table between hands as data, and the commitment that binds a hand's header to its deck.

A hand's **header** is its number, the time of the deal, and the table just before the deal (the
*snapshot*): the rules, the table's settings, every seat with its player, stack and flags, the
button, the clock.
The commitment the table publishes before the first card binds the header to the deck
(:mod:`thirteen.engine.deck`)::

    commitment = SHA-256("thirteen-commitment-v1" ‖ rules digest ‖ table digest ‖ deck root)
    rules digest = SHA-256(canonical JSON of the rules' settings)
    table digest = SHA-256(canonical JSON of
                           {"hand": N, "at": deal time, "start": the snapshot without "rules"})

so nobody can change who sat where with what stack, under which rules, in which hand dealt when,
without changing the commitment — and the per-card openings of the deck still work as before.
(The rules have their own digest because they rarely change: it is computed once per rule set.)

:func:`canonical_json` is the one serialization anything is hashed or signed over: keys sorted,
no spaces, UTF-8, whole numbers as digits (``90.0`` as ``90``, so a number's Python type never
changes a digest), other numbers in Python's shortest round-trip form, no NaN or infinity.

>>> from thirteen.engine.rules import get_rules
>>> from thirteen.engine.state import new_table
>>> t = new_table(get_rules("ofc"), seats=2)
>>> snapshot_from_json(snapshot_to_json(t)) == t
True
>>> canonical_json({"b": 1.0, "a": [1.5, "é"]})
b'{"a":[1.5,"\\xc3\\xa9"],"b":1}'
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import fields
from typing import Any

from thirteen.engine.errors import RuleError
from thirteen.engine.rules import Rules, rules_from_dict
from thirteen.engine.state import Phase, Seat, TableConfig, TableState

COMMITMENT_TAG = b"thirteen-commitment-v1"


def canonical_json(data: Any) -> bytes:
    """The canonical bytes of JSON-ready ``data``: what digests and signatures are taken over.

    A number is written the same whatever its Python type: ``90`` and ``90.0`` both as ``90``.
    """
    return _dumps(_normal(data))


_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def _dumps(data: Any) -> bytes:
    """:func:`canonical_json` of data whose numbers are already :func:`_num`-normal."""
    return _ENCODER.encode(data).encode("utf-8")


_EXACT = 2**53
"""Floats below this with whole values are exact integers, written as such."""


def _num(value: float) -> float:
    """A number as canonical JSON writes it: whole values as ints."""
    if type(value) is float and value.is_integer() and -_EXACT < value < _EXACT:
        return int(value)
    return value


def _normal(value: Any) -> Any:
    if isinstance(value, float):
        return _num(value)
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    return value


def _bad(message: str) -> RuleError:
    return RuleError("bad_history", message)


# --------------------------------------------------------------------------------- snapshots
def _seat_json(s: Seat) -> dict[str, Any]:
    return {
        "player": s.player,
        "stack": s.stack,
        "sitting_out": s.sitting_out,
        "sat_out_at": None if s.sat_out_at is None else _num(s.sat_out_at),
        "leaving": s.leaving,
        "fantasyland": s.fantasyland,
        "sit_out_after_hand": s.sit_out_after_hand,
    }


def _table_json(state: TableState) -> dict[str, Any]:
    """The snapshot without its rules, its numbers already canonical (:func:`_num`)."""
    cfg = state.config
    return {
        "table": {
            "seats": cfg.seats,
            "min_buy_in": cfg.min_buy_in,
            "max_buy_in": cfg.max_buy_in,
            "point_value": cfg.point_value,
        },
        "seats": [None if s is None else _seat_json(s) for s in state.seats],
        "button": state.button,
        "hands_played": state.hands_played,
        "phase": state.phase.value,
        "next_deal_at": None if state.next_deal_at is None else _num(state.next_deal_at),
        "clock": _num(state.clock),
        "state_id": state.state_id,
    }


def snapshot_to_json(state: TableState, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table between hands (the hand itself is not kept: a deal replaces it). ``rules``:
    ``state.rules.to_dict()`` when the caller has it already (a table's journal writes its rules
    twice a hand, and they do not change: issue 33) — shared with the result, so read-only."""
    return {"rules": state.rules.to_dict() if rules is None else rules, **_table_json(state)}


def _keys(data: Any, keys: set[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _bad(f"{what} must be an object.")
    missing = keys - set(data)
    if missing:
        raise _bad(f"{what} has no {sorted(missing)[0]!r}.")
    unknown = set(data) - keys
    if unknown:
        raise _bad(f"{what} has an unknown field {sorted(unknown)[0]!r}.")
    return data


def whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number within ``[low, high]``; else a :class:`RuleError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be a whole number.")
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "" if low is None else f" from {low}"
        hi = "" if high is None else f" to {high}"
        raise _bad(f"{what} must run{lo}{hi}.")
    return value


def seconds(value: Any, what: str) -> float:
    """``value`` as a time in seconds, if it is a finite number; else a :class:`RuleError`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _bad(f"{what} must be a number of seconds.")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise _bad(f"{what} must be a finite number of seconds.")
    return number


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(f"{what} must be true or false.")
    return value


def _seat(data: Any, what: str) -> Seat:
    s = _keys(data, {f.name for f in fields(Seat)}, what)
    if not isinstance(s["player"], str) or not s["player"].strip():
        raise _bad(f"{what}: the player needs a name.")
    return Seat(
        player=s["player"],
        stack=whole(s["stack"], f"{what}: the stack"),
        sitting_out=_flag(s["sitting_out"], f"{what}: sitting_out"),
        sat_out_at=None if s["sat_out_at"] is None else seconds(s["sat_out_at"], what),
        leaving=_flag(s["leaving"], f"{what}: leaving"),
        fantasyland=None
        if s["fantasyland"] is None
        else whole(s["fantasyland"], f"{what}: fantasyland", 13, 17),
        sit_out_after_hand=_flag(s["sit_out_after_hand"], f"{what}: sit_out_after_hand"),
    )


def snapshot_from_json(data: Any) -> TableState:
    """A table from :func:`snapshot_to_json` output, written in full and with the right types;
    :class:`RuleError` says what is wrong otherwise."""
    what = "The table snapshot"
    d = _keys(
        data,
        {"rules", "table", "seats", "button", "hands_played", "phase", "next_deal_at", "clock"}
        | {"state_id"},
        what,
    )
    if not isinstance(d["rules"], dict):
        raise _bad("The rules must be an object of settings.")
    rules = rules_from_dict(d["rules"])
    try:
        canonical_json(d["rules"])
    except ValueError:
        raise _bad("The rules hold a number that is not finite.") from None
    if rules.to_dict() != d["rules"]:
        raise _bad("The rules must list every setting as a history writes them.")
    t = _keys(d["table"], {"seats", "min_buy_in", "max_buy_in", "point_value"}, "The table")
    config = TableConfig(
        rules=rules,
        seats=whole(t["seats"], "The number of seats"),
        min_buy_in=whole(t["min_buy_in"], "The minimum buy-in"),
        max_buy_in=whole(t["max_buy_in"], "The maximum buy-in"),
        point_value=whole(t["point_value"], "The point value"),
    )
    if not isinstance(d["seats"], list) or len(d["seats"]) != config.seats:
        raise _bad(f"The snapshot must list the table's {config.seats} seats.")
    seats = tuple(None if s is None else _seat(s, f"Seat {i}") for i, s in enumerate(d["seats"]))
    if not isinstance(d["phase"], str) or d["phase"] not in set(Phase):
        raise _bad(f"The phase must be one of {', '.join(Phase)}.")
    return TableState(
        config=config,
        seats=seats,
        button=None
        if d["button"] is None
        else whole(d["button"], "The button", 0, config.seats - 1),
        hands_played=whole(d["hands_played"], "hands_played", 0),
        phase=Phase(d["phase"]),
        next_deal_at=None
        if d["next_deal_at"] is None
        else seconds(d["next_deal_at"], "next_deal_at"),
        clock=seconds(d["clock"], "The clock"),
        state_id=whole(d["state_id"], "state_id", 0),
    )


# --------------------------------------------------------------------------------- commitment
_RULES_DIGESTS: dict[int, tuple[Rules, bytes]] = {}
_RULES_DIGESTS_KEPT = 4096
"""Rule sets whose digest is kept: every table of a room has its own (read back from the
database), and a process runs up to a few thousand tables."""


def rules_digest(rules: Rules) -> bytes:
    """SHA-256 of the rules' canonical JSON (computed once per rule set)."""
    known = _RULES_DIGESTS.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    digest = hashlib.sha256(canonical_json(rules.to_dict())).digest()
    if len(_RULES_DIGESTS) >= _RULES_DIGESTS_KEPT:
        _RULES_DIGESTS.clear()
    _RULES_DIGESTS[id(rules)] = (rules, digest)
    return digest


def header_commitment(hand: int, start: TableState, at: float, root: str) -> str:
    """The commitment of hand number ``hand`` dealt on table ``start`` at time ``at`` from a
    deck with ``root``."""
    header = {"hand": hand, "at": _num(at), "start": _table_json(start)}
    table = hashlib.sha256(_dumps(header)).digest()
    joined = COMMITMENT_TAG + rules_digest(start.rules) + table + bytes.fromhex(root)
    return hashlib.sha256(joined).hexdigest()


def hand_commitment(state: TableState, at: float, root: str) -> str:
    """What the table publishes when it deals the next hand on ``state`` at time ``at`` from a
    deck with ``root``: :func:`header_commitment` of that hand."""
    return header_commitment(state.hands_played + 1, state, at, root)


__all__ = [
    "COMMITMENT_TAG",
    "canonical_json",
    "hand_commitment",
    "header_commitment",
    "rules_digest",
    "seconds",
    "snapshot_from_json",
    "snapshot_to_json",
    "whole",
]
