"""Hand histories: every hand is its table, its deal and its actions — and replays exactly.

A :class:`HandHistory` holds the table as it was just before the deal (``start``), the
:class:`~thirteen.engine.deck.Deal`, and every action from the deal to the showdown. Replaying
(:func:`replay`) rebuilds the exact final state.

Forms:

- JSON (:func:`history_to_json` / :func:`history_from_json`), full or redacted for one viewer
  (:func:`redact_history`): a redacted history (a player's copy) holds the deck's 52 leaves and
  the openings of just the cards that viewer saw, with other players' discards written ``??``.
- Text (:func:`history_to_text` / :func:`history_from_text`): readable, one action per line,
  and it round-trips. The action lines, the ``data:`` line and the room's ``signature:`` line
  (if signed) are what it says; every other line (rules, seats, results) is derived from them,
  and :func:`verify_text` re-derives it.

A history the room hands out carries its ``signature`` (Ed25519, over :func:`signed_bytes`: the
canonical JSON of the history without its signature; the text form ends with it). The engine
reads, writes and type-checks it but does no cryptography: ``thirteen verify --key`` checks it
and then calls :meth:`Verification.signature_checked`.

Everything a history states is checked by :func:`verify_history` / :func:`verify_text`: the
header (hand number and the table before the deal) and the deck against the commitment (see
:mod:`thirteen.engine.snapshot`), and for a full history the replay — every action in time
order, each decision within its deadline, to the recorded result. A player's copy cannot be
replayed: only its opened cards (and header) are proven, and :class:`Verification` says so.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import json
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, Literal

from thirteen.engine.actions import (
    Action,
    Place,
    StartHand,
    action_from_json,
    action_name,
    action_to_json,
)
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.deck import SALT_BYTES, Deal, Opening, leaf_digest, root_digest
from thirteen.engine.errors import RuleError
from thirteen.engine.snapshot import (
    canonical_json,
    header_commitment,
    seconds,
    snapshot_from_json,
    snapshot_to_json,
    whole,
)
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply

FORMAT = "thirteen-hand-history"
VERSION = 2
HIDDEN = "??"
"""How a redacted history writes each card it hides (other players' discards)."""
MAX_DIGITS = 4300
"""No number in a history is longer (the limit of Python's JSON reader, applied to text too)."""
_KEYS = ("format", "version", "hand", "viewer", "start", "commitment", "deal", "actions", "result")
_RESULT_KEYS = ("seats", "totals", "money", "fouls")
SIGNATURE = "signature"
"""The optional field of a history the room signed (not covered by its own signature)."""
SIGNATURE_ALGORITHM = "Ed25519"
_SIGNATURE_KEYS = ("algorithm", "key_id", "public_key", "value")


def _bad(message: str) -> RuleError:
    return RuleError("bad_history", message)


# --------------------------------------------------------------------------------- histories
@dataclass(frozen=True)
class HandHistory:
    """A hand: the table before the deal, the deal, and every action (the deal first)."""

    start: TableState
    actions: tuple[Action, ...]
    result: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def deal(self) -> Deal:
        first = self.actions[0]
        assert isinstance(first, StartHand)
        return first.deal


def begin_history(state: TableState, start: StartHand) -> HandHistory:
    """A new history for the hand ``start`` deals on ``state``."""
    base = replace(state, hand=None)
    return HandHistory(start=base, actions=(start,))


def record(history: HandHistory, action: Action) -> HandHistory:
    """The history with one more accepted action."""
    return replace(history, actions=(*history.actions, action))


def replay(history: HandHistory) -> TableState:
    """The state after every action of the history (raises if any action is refused)."""
    state = history.start
    for action in history.actions:
        state, _ = apply(state, action)
    return state


def result_summary(state: TableState) -> dict[str, Any] | None:
    """Totals, money and fouls by seat once the hand is scored."""
    hand = state.hand
    if hand is None or hand.result is None or hand.settlement is None:
        return None
    return {
        "seats": [b.seat for b in hand.boards],
        "totals": list(hand.result.totals),
        "money": list(hand.settlement),
        "fouls": [p.foul for p in hand.result.players],
    }


def finish(history: HandHistory) -> HandHistory:
    """The history with its result recorded (replays it to be sure)."""
    return replace(history, result=result_summary(replay(history)))


def history_to_json(history: HandHistory) -> dict[str, Any]:
    """The full history as JSON (the deck and salts included: keep it private until the hand
    is over; give players :func:`redact_history` forms)."""
    deal = history.deal
    hand = history.start.hands_played + 1
    return {
        "format": FORMAT,
        "version": VERSION,
        "hand": hand,
        "viewer": "all",
        "start": snapshot_to_json(history.start),
        "commitment": header_commitment(hand, history.start, history.actions[0].at, deal.root),
        "deal": {"deck": format_cards(deal.order), "salts": [s.hex() for s in deal.salts]},
        "actions": [_action_json(a) for a in history.actions],
        "result": copy.deepcopy(history.result),
    }


def _action_json(action: Action) -> dict[str, Any]:
    data = action_to_json(action)
    data.pop("deck", None)
    data.pop("salts", None)
    return data


# --------------------------------------------------------------------------------- signatures
def signed_bytes(data: dict[str, Any]) -> bytes:
    """What the room's signature covers: the canonical JSON of the history without its
    ``signature`` field (so a signature binds every other field, the viewer included)."""
    return canonical_json({k: v for k, v in data.items() if k != SIGNATURE})


def signing_key_id(public_key: bytes) -> str:
    """A public key's short name: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(public_key).hexdigest()[:16]


def decode_base64(value: str, size: int) -> bytes | None:
    """``value`` as standard base64 (padded, canonical) of exactly ``size`` bytes, or ``None``."""
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) != size or base64.b64encode(raw).decode("ascii") != value:
        return None
    return raw


def _read_signature(raw: Any) -> dict[str, str]:
    s = _object(raw, _SIGNATURE_KEYS, "The signature")
    if not all(isinstance(s[k], str) for k in _SIGNATURE_KEYS):
        raise _bad("The signature's algorithm, key_id, public_key and value are strings.")
    if s["algorithm"] != SIGNATURE_ALGORITHM:
        raise _bad(f"The signature's algorithm must be {SIGNATURE_ALGORITHM}.")
    return {k: s[k] for k in _SIGNATURE_KEYS}


def _signature_problem(signature: dict[str, str]) -> str | None:
    public_key = decode_base64(signature["public_key"], 32)
    if public_key is None:
        return "the signature's public key is not the base64 of 32 bytes"
    if decode_base64(signature["value"], 64) is None:
        return "the signature's value is not the base64 of 64 bytes"
    if signature["key_id"] != signing_key_id(public_key):
        return "the signature's key_id is not the id of its public key"
    return None


# --------------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class _Read:
    """A history's JSON, read and type-checked (nothing verified yet)."""

    hand: int
    viewer: int | str
    start: TableState
    commitment: str
    start_at: float
    moves: tuple[Action, ...]
    """The actions after the deal; in a redacted copy, hidden discards are left out of them."""
    hidden: dict[int, int]
    """Redacted copies: the number of hidden discards of each move (by index in ``moves``)."""
    result: dict[str, Any] | None
    deal: Deal | None
    """The full deck and salts; ``None`` in a redacted copy."""
    leaves: tuple[bytes, ...]
    openings: tuple[Opening, ...]
    signature: dict[str, str] | None = None

    @property
    def full(self) -> bool:
        return self.deal is not None

    @property
    def actions(self) -> tuple[Action, ...]:
        assert self.deal is not None
        return (StartHand(deal=self.deal, at=self.start_at), *self.moves)

    def written(self) -> dict[str, Any]:
        """The JSON a history writer gives for what was read."""
        if self.deal is not None:
            deal: dict[str, Any] = {
                "deck": format_cards(self.deal.order),
                "salts": [s.hex() for s in self.deal.salts],
            }
        else:
            deal = {
                "leaves": [leaf.hex() for leaf in self.leaves],
                "openings": [
                    [o.position, format_cards([o.card]), o.salt.hex()] for o in self.openings
                ],
            }
        moves = []
        for i, move in enumerate(self.moves):
            raw = _action_json(move)
            if i in self.hidden:
                raw["discard"] = " ".join(HIDDEN for _ in range(self.hidden[i]))
            moves.append(raw)
        out = {
            "format": FORMAT,
            "version": VERSION,
            "hand": self.hand,
            "viewer": self.viewer,
            "start": snapshot_to_json(self.start),
            "commitment": self.commitment,
            "deal": deal,
            "actions": [{"type": "start_hand", "at": self.start_at}, *moves],
            "result": self.result,
        }
        if self.signature is not None:
            out[SIGNATURE] = dict(self.signature)
        return out


def _is_hex(value: Any, size: int) -> bool:
    return (
        isinstance(value, str)
        and len(value) == 2 * size
        and all(ch in string.hexdigits[:16] for ch in value)
    )


def _object(
    data: Any, keys: Sequence[str], what: str, optional: Sequence[str] = ()
) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _bad(f"{what} must be an object.")
    missing = [k for k in keys if k not in data]
    if missing:
        raise _bad(f"{what} has no {missing[0]!r}.")
    unknown = sorted(set(data) - set(keys) - set(optional))
    if unknown:
        raise _bad(f"{what} has an unknown field {unknown[0]!r}.")
    return data


def _read_deal(raw: Any) -> tuple[Deal | None, tuple[bytes, ...], tuple[Opening, ...]]:
    if isinstance(raw, dict) and "deck" in raw:
        d = _object(raw, ("deck", "salts"), "The deal")
        if not isinstance(d["deck"], str):
            raise _bad("The deck must be text such as 'As Kd …'.")
        salts = d["salts"]
        if not isinstance(salts, list) or not all(_is_hex(s, SALT_BYTES) for s in salts):
            raise _bad(f"The deal's salts must be a list of {SALT_BYTES}-byte hex strings.")
        deal = Deal.from_order(parse_cards(d["deck"]), [bytes.fromhex(s) for s in salts])
        return deal, deal.leaves(), ()
    d = _object(raw, ("leaves", "openings"), "The deal")
    leaves = d["leaves"]
    if not isinstance(leaves, list) or len(leaves) != 52 or not all(_is_hex(x, 32) for x in leaves):
        raise _bad("A player's copy lists the deck's 52 leaves, each a 32-byte hex digest.")
    if not isinstance(d["openings"], list):
        raise _bad("The openings must be a list of [position, card, salt].")
    openings: list[Opening] = []
    for n, item in enumerate(d["openings"], 1):
        if not isinstance(item, list) or len(item) != 3:
            raise _bad(f"Opening {n} must be [position, card, salt].")
        position, card, salt = item
        what = f"Opening {n}'s deck position"
        whole(position, what, 0, 51)
        if openings and position <= openings[-1].position:
            raise _bad(f"Opening {n}: the openings must be in deck order, each position once.")
        if not isinstance(card, str) or len(parse_cards(card)) != 1:
            raise _bad(f"Opening {n} must name one card.")
        if not _is_hex(salt, SALT_BYTES):
            raise _bad(f"Opening {n}'s salt must be {SALT_BYTES} bytes in hex.")
        openings.append(Opening(position, parse_cards(card)[0], bytes.fromhex(salt)))
    return None, tuple(bytes.fromhex(x) for x in leaves), tuple(openings)


def _read_result(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    r = _object(raw, _RESULT_KEYS, "The result")
    if not all(isinstance(r[k], list) for k in _RESULT_KEYS):
        raise _bad("The result lists seats, totals, money and fouls.")
    if len({len(r[k]) for k in _RESULT_KEYS}) != 1:
        raise _bad("The result's seats, totals, money and fouls must be as long as each other.")
    for k in ("seats", "totals", "money"):
        for value in r[k]:
            whole(value, f"The result's {k}")
    if not all(isinstance(f, bool) for f in r["fouls"]):
        raise _bad("The result's fouls must be true or false.")
    return r


def _read(data: Any) -> _Read:
    """Read a history's JSON (full or redacted); :class:`RuleError` says what is malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"This is not a Thirteen hand history (format {FORMAT!r} expected).")
    if data.get("version") != VERSION:
        raise _bad(f"Unsupported history version {data.get('version')!r}; expected {VERSION}.")
    _object(data, _KEYS, "A hand history", optional=(SIGNATURE,))
    signature = _read_signature(data[SIGNATURE]) if SIGNATURE in data else None
    try:
        start = snapshot_from_json(data["start"])
        deal, leaves, openings = _read_deal(data["deal"])
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        if isinstance(e, RuleError):
            raise _bad(str(e)) from None
        raise _bad(f"The history is malformed ({type(e).__name__}: {e}).") from None
    hand = whole(data["hand"], "The hand number", 1)
    viewer = data["viewer"]
    if viewer not in ("all", "spectator"):
        whole(viewer, 'The viewer ("all", "spectator" or a seat)', 0, len(start.seats) - 1)
    if not _is_hex(data["commitment"], 32) or data["commitment"] != data["commitment"].lower():
        raise _bad("The commitment must be a SHA-256 digest in lowercase hex.")
    raw_actions = data["actions"]
    if not isinstance(raw_actions, list) or not raw_actions:
        raise _bad("A history needs its actions, the deal first.")
    first = raw_actions[0]
    if not isinstance(first, dict) or first.get("type") != "start_hand":
        raise _bad("The first action of a history is the deal (start_hand).")
    _object(first, ("type", "at"), "The deal (action 1)")
    start_at = seconds(first["at"], "Action 1's at")
    moves: list[Action] = []
    hidden: dict[int, int] = {}
    for i, raw in enumerate(raw_actions[1:]):
        if isinstance(raw, dict) and raw.get("type") == "start_hand":
            raise _bad(f"Action {i + 2}: a history holds one deal, the first action.")
        discard = raw.get("discard") if isinstance(raw, dict) else None
        if (
            deal is None
            and isinstance(discard, str)
            and discard
            and set(discard.split()) == {HIDDEN}
        ):
            hidden[i] = len(discard.split())
            raw = {**raw, "discard": ""}
        try:
            moves.append(action_from_json(raw))
        except RuleError as e:
            raise _bad(f"Action {i + 2}: {e}") from None
    return _Read(
        hand=hand,
        viewer=viewer,
        start=start,
        commitment=data["commitment"],
        start_at=start_at,
        moves=tuple(moves),
        hidden=hidden,
        result=_read_result(data["result"]),
        deal=deal,
        leaves=leaves,
        openings=openings,
        signature=signature,
    )


def history_from_json(data: Any) -> HandHistory:
    """A full history from JSON; :class:`RuleError` for anything malformed or redacted."""
    read = _read(data)
    if read.deal is None:
        raise _bad("This history is redacted (a player's copy): it has no full deck to replay.")
    return HandHistory(start=read.start, actions=read.actions, result=read.result)


# --------------------------------------------------------------------------------- redaction
def visible_cards(state: TableState, viewer: int | None) -> set[Card]:
    """Every card ``viewer`` may know once the hand is over (their own, and what was shown)."""
    hand = state.hand
    if hand is None:
        return set()
    seen: set[Card] = set()
    showdown = state.phase == Phase.SHOWDOWN
    for b in hand.boards:
        if b.seat == viewer:
            seen.update(b.dealt)
        elif b.outcome == "natural":
            seen.update(b.placed)
        elif b.outcome == "surrendered":
            continue
        elif (state.rules.is_ofc and not b.in_fantasyland) or showdown:
            seen.update(b.placed)
    return seen


def redact_history(history: HandHistory, viewer: int | None) -> dict[str, Any]:
    """The history as ``viewer`` may have it: openings of just the cards they saw.

    Other players' discards are written as ``"??"``; the deck is replaced by the commitment's
    52 leaves and the openings (position, card, salt) of the visible cards.
    """
    final = replay(history)
    deal = history.deal
    seen = visible_cards(final, viewer)
    positions = [i for i, c in enumerate(deal.order) if c in seen]
    full = history_to_json(history)
    actions = []
    for action, raw in zip(history.actions, full["actions"], strict=True):
        seat = getattr(action, "seat", None)
        if isinstance(action, Place) and seat != viewer and action.discard:
            raw = {**raw, "discard": " ".join(HIDDEN for _ in action.discard)}
        actions.append(raw)
    full.update(
        viewer="spectator" if viewer is None else viewer,
        deal={
            "leaves": [leaf.hex() for leaf in deal.leaves()],
            "openings": [
                [o.position, format_cards([o.card]), o.salt.hex()] for o in deal.openings(positions)
            ],
        },
        actions=actions,
    )
    return full


# --------------------------------------------------------------------------------- verify
Status = Literal["verified", "partial", "failed", "unreadable"]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify_history` found.

    ``status``: ``verified`` (everything the history states was checked), ``partial`` (what
    was checked holds, but some of it cannot be: ``unchecked`` says what), ``failed`` (something
    it states is false: ``problems``), ``unreadable`` (not a well-formed history).

    ``signature`` is the room's signature the file carries (well-formed, not yet checked: the
    engine does no cryptography), over ``signed``; once a caller has checked it with the room's
    public key, :meth:`signature_checked` gives the report with what the signature proves.
    """

    status: Status
    checks: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()
    commitment: str | None = None
    signature: dict[str, str] | None = None
    signed: bytes = b""
    """:func:`signed_bytes` of the history, when it carries a signature."""
    signed_only: str = ""
    """What only the room's signature can prove (a player's copy: its actions and result)."""
    signature_ok: bool = False
    """The caller checked the signature against the room's key (:meth:`signature_checked`)."""

    @property
    def ok(self) -> bool:
        return self.status == "verified"

    def signature_checked(self) -> Verification:
        """This report once the caller has checked the file's signature with the room's key:
        the signature proves every field as the room wrote it, so what could not be replayed
        (a player's copy's actions and result) is proven too."""
        assert self.signature is not None
        assert self.status in ("verified", "partial")
        checks = [
            *self.checks,
            f"the room's {self.signature['algorithm']} signature (key "
            f"{self.signature['key_id']}) holds over every field of the file",
        ]
        unchecked = list(self.unchecked)
        if self.signed_only:
            checks.append(
                f"{self.signed_only}: proven by the room's signature (a player's copy cannot be "
                "replayed, since the cards it does not open stay hidden)"
            )
            unchecked = [u for u in unchecked if not u.startswith(self.signed_only)]
        return replace(
            self,
            status="partial" if unchecked else "verified",
            checks=tuple(checks),
            unchecked=tuple(unchecked),
            signature_ok=True,
        )


def _describe(action: Action) -> str:
    seat = getattr(action, "seat", None)
    who = "" if seat is None else f"seat {seat} "
    return f"{who}{action_name(action)} at {action.at!r}"


def _points(result: dict[str, Any], i: int) -> str:
    fouled = " (fouled)" if result["fouls"][i] else ""
    return f"{result['totals'][i]:+d} points, {result['money'][i]:+d} money{fouled}"


def _result_difference(stated: dict[str, Any], replayed: dict[str, Any]) -> str:
    if stated["seats"] != replayed["seats"]:
        return f"the file lists seats {stated['seats']}, the replay {replayed['seats']}"
    for i, seat in enumerate(stated["seats"]):
        if _points(stated, i) != _points(replayed, i):
            said, replayed_text = _points(stated, i), _points(replayed, i)
            return f"seat {seat}: the file says {said}, the replay {replayed_text}"
    return "they differ"  # pragma: no cover - equal lines mean equal results


def _first_difference(stated: Any, written: Any, path: str = "") -> str:
    """Where ``stated`` first differs from ``written`` (a JSON path)."""
    if isinstance(stated, dict) and isinstance(written, dict):
        for key in sorted(set(stated) | set(written), key=str):
            if stated.get(key, ...) != written.get(key, ...):
                return _first_difference(stated.get(key), written.get(key), f"{path}.{key}")
    if isinstance(stated, list) and isinstance(written, list) and len(stated) == len(written):
        for i, (a, b) in enumerate(zip(stated, written, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return path.lstrip(".") or "the whole file"


def _check(read: _Read, data: Any) -> Verification:
    checks: list[str] = []
    problems: list[str] = []
    unchecked: list[str] = []
    start = read.start
    players = sum(s is not None for s in start.seats)
    root = root_digest(read.leaves)
    what = "deck with its salts" if read.full else "52 leaves of the deck"
    if header_commitment(read.hand, start, read.start_at, root) == read.commitment:
        checks.append(
            f"the header (hand {read.hand}, {start.rules.name} rules, {players} seated players "
            f"with their stacks, the button, the deal at {read.start_at!r}) and the {what} make "
            "the commitment"
        )
    else:
        problems.append(
            f"the header (hand number, rules, seats, stacks, button, time of the deal) and the "
            f"{what} do not make the published commitment"
        )
    if read.hand != start.hands_played + 1:
        problems.append(
            f"the file calls this hand {read.hand}, but the table had played "
            f"{start.hands_played} hands before it"
        )
    if read.full:
        if read.viewer != "all":
            problems.append(
                f"a history with the full deck is everyone's (viewer all), not {read.viewer!r}"
            )
        _check_replay(read, checks, problems)
    signed_only = _check_copy(read, checks, problems, unchecked) if not read.full else ""
    if read.signature is not None:
        problem = _signature_problem(read.signature)
        if problem is not None:
            problems.append(problem)
    if not problems and read.written() != data:
        place = _first_difference(data, read.written())
        problems.append(f"the file writes {place} differently from the history it holds")
    status: Status = "failed" if problems else "partial" if unchecked else "verified"
    return Verification(
        status,
        tuple(checks),
        tuple(problems),
        tuple(unchecked),
        read.commitment,
        signature=read.signature,
        signed=signed_bytes(data) if read.signature is not None else b"",
        signed_only=signed_only,
    )


def _check_replay(read: _Read, checks: list[str], problems: list[str]) -> None:
    state = read.start
    actions = read.actions
    for i, action in enumerate(actions, 1):
        try:
            state, _ = apply(state, action)
        except RuleError as e:
            problems.append(f"action {i} ({_describe(action)}) is refused: {e}")
            return
    if state.phase != Phase.SHOWDOWN:
        waiting = ", ".join(str(s) for s in sorted(deciders(state))) or "nobody"
        problems.append(
            f"the {len(actions)} actions stop before the showdown (seats still to act: "
            f"{waiting}): an action is missing"
        )
        return
    checks.append(
        f"all {len(actions)} actions replay in time order, each decision within its deadline"
    )
    replayed = result_summary(state)
    assert replayed is not None
    if read.result is None:
        problems.append("the history records no result")
    elif read.result != replayed:
        problems.append(
            "the recorded result differs from the replay: "
            + _result_difference(read.result, replayed)
        )
    else:
        checks.append("the replayed result equals the recorded result")


def _check_copy(read: _Read, checks: list[str], problems: list[str], unchecked: list[str]) -> str:
    """Check what a player's copy can prove; returns what only a signature can (its actions
    and result)."""
    if read.viewer == "all":
        problems.append("a player's copy names its viewer (a seat or spectator), not all")
    elif read.viewer != "spectator" and read.start.seats[int(read.viewer)] is None:
        problems.append(f"the copy is for seat {read.viewer}, but nobody sat there")
    bad = [
        o
        for o in read.openings
        if leaf_digest(o.position, o.card, o.salt) != read.leaves[o.position]
    ]
    if bad:
        problems.append(
            f"{len(bad)} opened card(s) do not match the commitment (the first at deck "
            f"position {bad[0].position})"
        )
    else:
        checks.append(
            f"the {len(read.openings)} opened cards match their places in the committed deck"
        )
    times = [read.start.clock, read.start_at, *(m.at for m in read.moves)]
    if any(later < earlier for earlier, later in pairwise(times)):
        problems.append("the actions are not in time order")
    else:
        checks.append("the actions are in time order")
    signed_only = f"the {1 + len(read.moves)} actions and the result"
    unchecked.append(
        f"{signed_only}: a player's copy cannot be replayed (the cards it does not open stay "
        "hidden), so only the room's signature can prove them"
    )
    return signed_only


def verify_history(data: Any) -> Verification:
    """Check everything a history's JSON states (see :class:`Verification`)."""
    try:
        read = _read(data)
    except RuleError as e:
        return Verification("unreadable", problems=(str(e),))
    return _check(read, data)


# --------------------------------------------------------------------------------- text
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
            lines.append(f"result seat {seat}: {_points(r, i)}")
    lines.append("")
    payload = {k: data[k] for k in ("start", "deal", "result")}
    lines.append("data: " + canonical_json(payload).decode("utf-8"))
    signature = data.get(SIGNATURE)
    if signature is not None:
        lines.append("signature: " + " ".join(str(signature[k]) for k in _SIGNATURE_KEYS))
    return "\n".join(lines) + "\n"


_HEADER = re.compile(
    r"# Thirteen hand history v(\d{1,3}) — hand (\d{1,12}), viewer (all|spectator|\d{1,3})"
)
_SEAT_ACTION = re.compile(r"seat (\d{1,6}) ([a-z_]+)(?: (.+))?")
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def _parse_action_line(line: str) -> dict[str, Any]:
    unreadable = _bad(f"Cannot read the action line {line!r}.")
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

    The other lines are derived; :func:`verify_text` checks them against what this returns.
    """
    text = text.removeprefix("\ufeff")
    long = _LONG_NUMBER.search(text)
    if long is not None:
        raise _bad(f"The text holds a number of {long.end() - long.start()} digits; too long.")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    head = _HEADER.fullmatch(lines[0]) if lines else None
    if head is None:
        raise _bad("This is not a Thirteen text hand history (its first line says what it is).")
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        else:
            blocks.append([])
    if len(blocks) not in (3, 4) or not all(blocks):
        raise _bad(
            "A text history has a header, the actions, the results and the data line, with one "
            "blank line between them."
        )
    data_block = blocks[-1]
    if len(data_block) not in (1, 2) or not data_block[0].startswith("data: "):
        raise _bad("A text history ends with its data line (and the room's signature line).")
    signature: dict[str, str] | None = None
    if len(data_block) == 2:
        fields = data_block[1].split(" ")
        if fields[0] != "signature:" or len(fields) != 1 + len(_SIGNATURE_KEYS):
            raise _bad(
                "The line after the data line is the signature: "
                "'signature: ALGORITHM KEY_ID PUBLIC_KEY VALUE'."
            )
        signature = dict(zip(_SIGNATURE_KEYS, fields[1:], strict=True))
    try:
        payload = json.loads(data_block[0].removeprefix("data: "))
    except (ValueError, RecursionError) as e:
        raise _bad(f"The data line is not readable JSON ({type(e).__name__}).") from None
    _object(payload, ("start", "deal", "result"), "The data line")
    commitments = [line for line in blocks[0] if line.startswith("commitment: ")]
    if len(commitments) != 1:
        raise _bad("A text history states its commitment once, in its header.")
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


def verify_text(text: str) -> Verification:
    """Check a text history: read what it states (:func:`history_from_text`), check that every
    other line is what the history gives (modulo trailing spaces), and verify it like JSON."""
    try:
        data = history_from_text(text)
        read = _read(data)
    except RuleError as e:
        return Verification("unreadable", problems=(str(e),))
    given = [line.rstrip() for line in text.removeprefix("\ufeff").split("\n")]
    wanted = history_to_text(data).split("\n")
    while given and not given[-1]:
        given.pop()
    while wanted and not wanted[-1]:
        wanted.pop()
    for n, (line, want) in enumerate(zip(given, wanted, strict=False), 1):
        if line != want:
            return Verification(
                "failed",
                problems=(
                    f"line {n} says {_short(line)!r}, but its history gives {_short(want)!r}",
                ),
                commitment=read.commitment,
            )
    if len(given) != len(wanted):
        return Verification(
            "failed",
            problems=(f"the text has {len(given)} lines; its history gives {len(wanted)}",),
            commitment=read.commitment,
        )
    return _check(read, data)


def _short(line: str) -> str:
    return line if len(line) <= 100 else line[:99] + "…"


__all__ = [
    "FORMAT",
    "HIDDEN",
    "SIGNATURE",
    "SIGNATURE_ALGORITHM",
    "VERSION",
    "HandHistory",
    "Verification",
    "begin_history",
    "decode_base64",
    "finish",
    "history_from_json",
    "history_from_text",
    "history_to_json",
    "history_to_text",
    "record",
    "redact_history",
    "replay",
    "result_summary",
    "signed_bytes",
    "signing_key_id",
    "snapshot_from_json",
    "snapshot_to_json",
    "verify_history",
    "verify_text",
    "visible_cards",
]
