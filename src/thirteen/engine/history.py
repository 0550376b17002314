"""Hand histories: every hand is its table, its deal and its actions — and replays exactly.

A :class:`HandHistory` holds the table as it was just before the deal (``start``), the
:class:`~thirteen.engine.deck.Deal`, and every action from the deal to the showdown. Replaying
(:func:`replay`) rebuilds the exact final state.

Forms:

- JSON (:func:`history_to_json` / :func:`history_from_json`), full or redacted for one viewer
  (:func:`redact_history`): a redacted history holds the commitment's leaves and the openings of
  just the cards that viewer saw, with other players' discards and surrendered hands left out.
- Text (:func:`history_to_text` / :func:`history_from_text`): readable, one action per line,
  and it round-trips.

:func:`verify_history` checks a history: the deal against its commitment and, when the history
is full, the replay against the recorded result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from thirteen.engine.actions import (
    Action,
    Place,
    StartHand,
    action_from_json,
    action_to_json,
)
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.deck import Deal, Opening, leaf_digest, root_digest, verify_openings
from thirteen.engine.errors import RuleError
from thirteen.engine.rules import rules_from_dict
from thirteen.engine.state import Phase, Seat, TableConfig, TableState
from thirteen.engine.table import apply

FORMAT = "thirteen-hand-history"
VERSION = 1


def _bad(message: str) -> RuleError:
    return RuleError("bad_history", message)


# --------------------------------------------------------------------------------- snapshots
def snapshot_to_json(state: TableState) -> dict[str, Any]:
    """The table between hands (the hand itself is not kept: a deal replaces it)."""
    cfg = state.config
    return {
        "rules": cfg.rules.to_dict(),
        "table": {
            "seats": cfg.seats,
            "min_buy_in": cfg.min_buy_in,
            "max_buy_in": cfg.max_buy_in,
            "point_value": cfg.point_value,
        },
        "seats": [
            None if s is None else {f.name: getattr(s, f.name) for f in fields(s)}
            for s in state.seats
        ],
        "button": state.button,
        "hands_played": state.hands_played,
        "phase": state.phase.value,
        "next_deal_at": state.next_deal_at,
        "clock": state.clock,
        "state_id": state.state_id,
    }


def snapshot_from_json(data: Any) -> TableState:
    """A table from :func:`snapshot_to_json` output; :class:`RuleError` if it is malformed."""
    if not isinstance(data, dict):
        raise _bad("The table snapshot must be an object.")
    try:
        rules = rules_from_dict(data["rules"])
        t = data["table"]
        config = TableConfig(
            rules=rules,
            seats=int(t["seats"]),
            min_buy_in=int(t["min_buy_in"]),
            max_buy_in=int(t["max_buy_in"]),
            point_value=int(t["point_value"]),
        )
        seats = tuple(None if s is None else Seat(**s) for s in data["seats"])
        if len(seats) != config.seats:
            raise _bad("The snapshot lists a different number of seats than the table has.")
        return TableState(
            config=config,
            seats=seats,
            button=data["button"],
            hands_played=int(data["hands_played"]),
            phase=Phase(data["phase"]),
            next_deal_at=data["next_deal_at"],
            clock=float(data["clock"]),
            state_id=int(data["state_id"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise _bad(f"The table snapshot is malformed ({type(e).__name__}: {e}).") from None


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
    return {
        "format": FORMAT,
        "version": VERSION,
        "hand": history.start.hands_played + 1,
        "viewer": "all",
        "start": snapshot_to_json(history.start),
        "commitment": deal.commitment,
        "deal": {"deck": format_cards(deal.order), "salts": [s.hex() for s in deal.salts]},
        "actions": [_action_json(a) for a in history.actions],
        "result": history.result,
    }


def _action_json(action: Action) -> dict[str, Any]:
    data = action_to_json(action)
    data.pop("deck", None)
    data.pop("salts", None)
    return data


def history_from_json(data: Any) -> HandHistory:
    """A full history from JSON; :class:`RuleError` for anything malformed or redacted."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"This is not a Thirteen hand history (format {FORMAT!r} expected).")
    if data.get("version") != VERSION:
        raise _bad(f"Unsupported history version {data.get('version')!r}; expected {VERSION}.")
    deal_data = data.get("deal")
    if not isinstance(deal_data, dict) or "deck" not in deal_data:
        raise _bad("This history is redacted: it has no full deck to replay.")
    deck = parse_cards(deal_data["deck"]) if isinstance(deal_data["deck"], str) else []
    salts_raw = deal_data.get("salts")
    if not isinstance(salts_raw, list):
        raise _bad("The deal's salts are missing.")
    try:
        salts = [bytes.fromhex(s) for s in salts_raw]
    except (ValueError, TypeError):
        raise _bad("The deal's salts must be hex strings.") from None
    deal = Deal.from_order(deck, salts)
    actions_raw = data.get("actions")
    if not isinstance(actions_raw, list) or not actions_raw:
        raise _bad("A history needs its actions, the deal first.")
    actions: list[Action] = []
    for i, raw in enumerate(actions_raw, 1):
        if i == 1:
            if not isinstance(raw, dict) or raw.get("type") != "start_hand":
                raise _bad("The first action of a history is the deal (start_hand).")
            at = raw.get("at", 0.0)
            actions.append(StartHand(deal=deal, at=float(at)))
            continue
        try:
            actions.append(action_from_json(raw))
        except RuleError as e:
            raise _bad(f"Action {i}: {e}") from None
    start = snapshot_from_json(data.get("start"))
    return HandHistory(start=start, actions=tuple(actions), result=data.get("result"))


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
            raw = {**raw, "discard": " ".join("??" for _ in action.discard)}
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
@dataclass(frozen=True)
class Verification:
    """What :func:`verify_history` found; ``ok`` only when every check passed."""

    ok: bool
    checks: tuple[str, ...]
    problems: tuple[str, ...]


def verify_history(data: Any) -> Verification:
    """Check a history's deal against its commitment and, for a full history, the replay."""
    checks: list[str] = []
    problems: list[str] = []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return Verification(False, (), (f"This is not a Thirteen hand history ({FORMAT}).",))
    commitment = data.get("commitment")
    deal = data.get("deal")
    if not isinstance(commitment, str) or not isinstance(deal, dict):
        return Verification(False, (), ("The history has no commitment or deal.",))
    if "deck" in deal:
        try:
            history = history_from_json(data)
        except RuleError as e:
            return Verification(False, (), (str(e),))
        if history.deal.commitment == commitment:
            checks.append("the deck and salts match the published commitment")
        else:
            problems.append("the deck and salts do not match the published commitment")
        try:
            final = replay(history)
        except RuleError as e:
            problems.append(f"the actions do not replay: {e}")
        else:
            checks.append(f"all {len(history.actions)} actions replay")
            summary = result_summary(final)
            if data.get("result") is None:
                problems.append("the history records no result to compare")
            elif summary != data.get("result"):
                problems.append("the replayed result differs from the recorded result")
            else:
                checks.append("the replayed result equals the recorded result")
        return Verification(not problems, tuple(checks), tuple(problems))
    try:
        leaves = [bytes.fromhex(x) for x in deal["leaves"]]
        openings = [
            Opening(int(p), parse_cards(card)[0], bytes.fromhex(salt))
            for p, card, salt in deal["openings"]
        ]
    except (KeyError, TypeError, ValueError, RuleError):
        return Verification(False, (), ("The redacted deal is malformed.",))
    if len(leaves) != 52 or root_digest(leaves) != commitment:
        problems.append("the leaves do not make the published commitment")
    elif not verify_openings(commitment, leaves, openings):
        bad = [o for o in openings if leaf_digest(o.position, o.card, o.salt) != leaves[o.position]]
        problems.append(f"{len(bad)} opened card(s) do not match the commitment")
    else:
        checks.append(f"{len(openings)} opened cards match the published commitment")
        checks.append("a redacted history cannot be replayed; ask for the full history to replay")
    return Verification(not problems, tuple(checks), tuple(problems))


# --------------------------------------------------------------------------------- text
def _rows_text(front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card]) -> str:
    return " | ".join(
        f"{name}: {format_cards(cards) or '-'}"
        for name, cards in (("front", front), ("middle", middle), ("back", back))
    )


def _action_line(raw: dict[str, Any]) -> str:
    kind = raw["type"]
    at = f"{float(raw.get('at', 0.0)):.3f}"
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
    if kind == "sit":
        return f"{at} seat {seat} sit {json.dumps(raw['player'])} {raw['stack']}"
    return f"{at} seat {seat} {kind}"


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
    for i, s in enumerate(start["seats"]):
        if s is not None:
            flags = [k for k in ("sitting_out", "leaving") if s.get(k)]
            fl = f" fantasyland {s['fantasyland']}" if s.get("fantasyland") else ""
            who = f"seat {i}: {json.dumps(s['player'])} stack {s['stack']}{fl}"
            lines.append(f"{who} {' '.join(flags)}".rstrip())
    lines.append("")
    lines.extend(_action_line(a) for a in data["actions"])
    if data.get("result"):
        r = data["result"]
        lines.append("")
        for seat, total, money, foul in zip(
            r["seats"], r["totals"], r["money"], r["fouls"], strict=True
        ):
            fouled = " (fouled)" if foul else ""
            lines.append(f"result seat {seat}: {total:+d} points, {money:+d} money{fouled}")
    lines.append("")
    payload = {k: data[k] for k in ("start", "deal", "result")}
    lines.append("data: " + json.dumps(payload, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def _parse_action_line(line: str) -> dict[str, Any]:
    parts = line.split(" ", 3)
    try:
        at = float(parts[0])
    except ValueError:
        raise _bad(f"Cannot read the action line {line!r}.") from None
    if parts[1] == "start_hand":
        return {"type": "start_hand", "at": at}
    if len(parts) < 4 or parts[1] != "seat" or not parts[2].isdigit():
        raise _bad(f"Cannot read the action line {line!r}.")
    seat = int(parts[2])
    rest = parts[3]
    kind, _, tail = rest.partition(" ")
    raw: dict[str, Any] = {"type": kind, "seat": seat, "at": at}
    if kind in ("place", "set_hand"):
        for chunk in tail.split(" | "):
            name, _, cards = chunk.partition(": ")
            raw[name.strip()] = "" if cards.strip() == "-" else cards.strip()
    elif kind == "declare_natural":
        raw["natural"] = tail.strip()
    elif kind == "sit":
        player, _, stack = tail.rpartition(" ")
        raw["player"] = json.loads(player)
        raw["stack"] = int(stack)
    return raw


def history_from_text(text: str) -> dict[str, Any]:
    """The JSON history written by :func:`history_to_text`."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# Thirteen hand history v"):
        raise _bad("This is not a Thirteen text hand history.")
    head = lines[0].split()
    version = int(head[4][1:])
    hand = int(head[7].rstrip(","))
    viewer_raw = head[-1]
    viewer: Any = int(viewer_raw) if viewer_raw.lstrip("-").isdigit() else viewer_raw
    commitment = ""
    actions: list[dict[str, Any]] = []
    payload: dict[str, Any] = {}
    for line in lines[1:]:
        if line.startswith("commitment: "):
            commitment = line.split(": ", 1)[1]
        elif line.startswith("data: "):
            payload = json.loads(line[6:])
        elif line and line[0].isdigit():
            actions.append(_parse_action_line(line))
    if not payload:
        raise _bad("The text history has no data line.")
    return {
        "format": FORMAT,
        "version": version,
        "hand": hand,
        "viewer": viewer,
        "start": payload["start"],
        "commitment": commitment,
        "deal": payload["deal"],
        "actions": actions,
        "result": payload["result"],
    }


__all__ = [
    "HandHistory",
    "Verification",
    "begin_history",
    "finish",
    "history_from_json",
    "history_from_text",
    "history_to_json",
    "history_to_text",
    "record",
    "redact_history",
    "replay",
    "result_summary",
    "snapshot_from_json",
    "snapshot_to_json",
    "verify_history",
    "visible_cards",
]
