"""Playing over the wire in tests: a simple legal player, and the leak oracle.

The oracle replays each hand's full history (fetched by an admin once the hand is over) to the
state of every frame a viewer received, and checks that every card in that frame is one the
viewer may know at that moment (``history.visible_cards``). It is independent of ``view``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from thirteen.client import RoomClient, TableConnection, legal_move
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.history import history_from_json, history_to_json, visible_cards
from thirteen.engine.rules import Rules
from thirteen.engine.state import TableState
from thirteen.engine.table import apply

CARDS_TEXT = re.compile(r"(?:[2-9TJQKA][cdhs]|\?\?)(?: (?:[2-9TJQKA][cdhs]|\?\?))*")
"""A string of cards as the room writes them (``??`` for a hidden one)."""
CARD_KEYS = {"cards", "front", "middle", "back", "discards", "dealt", "discard"}


def decide(conn: TableConnection, rules: Rules, rng: random.Random) -> dict[str, Any]:
    """A legal move for the connection's seat: a setting that never fouls, or a random street."""
    me = conn.me
    assert me is not None
    return legal_move(me, rules, rng)


def play(
    conn: TableConnection, rules: Rules, hands: int, seed: int = 0, timeout: float = 120
) -> int:
    """Play ``hands`` hands from this seat, then leave (finishing a hand already dealt);
    returns the chips won, counted from the settlements the socket was shown."""
    rng = random.Random(seed)
    settled = won = 0
    seat = conn.seat
    seen = len(conn.frames)
    leaving = False
    acted_on = -1
    while True:
        for earlier in conn.frames[seen:]:  # answer() below reads frames too: count them all
            for event in earlier.get("events", []):
                if event["event"] == "HandSettled" and seat in event["seats"]:
                    settled += 1
                    won += event["deltas"][event["seats"].index(seat)]
                elif event["event"] == "PlayerLeft" and event["seat"] == seat:
                    return won
        seen = len(conn.frames)
        if settled >= hands and not leaving:
            leaving = True
            conn.do({"type": "leave"})
            continue
        # act once on each state that asks for a decision, whatever frame came last (an ack,
        # a presence frame: waiting for another update there would wait for the timeout)
        if conn.my_turn() and conn.state_id != acted_on:
            acted_on = conn.state_id
            answer = conn.answer(conn.act(decide(conn, rules, rng)))
            assert answer["type"] == "ack" or answer["code"] == "stale", answer
            continue
        frame = conn.receive(timeout=timeout)
        assert frame is not None, conn.closed


def cards_in(value: Any, key: str = "") -> Iterator[Card]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from cards_in(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v, key)
    elif isinstance(value, str) and key in CARD_KEYS and CARDS_TEXT.fullmatch(value):
        yield from parse_cards(" ".join(t for t in value.split() if t != "??"))


def states_by_id(history: dict[str, Any]) -> dict[int, TableState]:
    h = history_from_json(history)
    # what the room wrote — the commitment its table published at the deal, each action as
    # its table journaled it — is the history's own, field for field
    rebuilt = history_to_json(h)
    assert history["commitment"] == rebuilt["commitment"]
    assert {k: v for k, v in history.items() if k != "signature"} == rebuilt
    state = h.start
    out = {}
    for action in h.actions:
        state, _ = apply(state, action)
        out[state.state_id] = state
    return out


def check_no_leak(admin: RoomClient, table_id: int, frames: list[dict[str, Any]]) -> int:
    """Fail if any frame shows a card its viewer may not know then; returns frames checked.

    A frame's events may span hands (a snapshot with the events missed since a state id): those
    before a ``HandStarted`` belong to the hand before it, and are checked against that hand."""
    hands = {  # a hand still playing has no history yet: its frames are not checked
        h["number"]: h["id"]
        for h in admin.request("GET", f"/api/admin/tables/{table_id}/hands")
        if h["status"] == "settled"
    }
    replays: dict[int, dict[int, TableState]] = {}

    def check(number: int | None, frame: dict[str, Any], value: Any) -> bool:
        if number is None:
            assert not list(cards_in(value)), frame
            return True
        if number not in hands:
            return False  # a hand still playing when the test ended: nothing to replay it with
        if number not in replays:
            replays[number] = states_by_id(
                admin.request("GET", f"/api/admin/hands/{hands[number]}")
            )
        states = replays[number]
        at = max((sid for sid in states if sid <= frame["state_id"]), default=None)
        assert at is not None, (number, frame["state_id"])
        leaked = set(cards_in(value)) - visible_cards(states[at], frame["seat"])
        assert not leaked, (
            f"seat {frame['seat']} saw {format_cards(sorted(leaked))} of hand {number} "
            f"at state {frame['state_id']}"
        )
        return True

    checked = 0
    for frame in frames:
        if frame.get("type") not in ("snapshot", "update"):
            continue
        hand = frame["view"].get("hand")
        number = hand["number"] if hand else None
        events = frame.get("events", [])
        starts = [e["number"] for e in events if e["event"] == "HandStarted"]
        current = starts[0] - 1 if starts else number
        segment: list[dict[str, Any]] = []
        for event in [*events, None]:
            if event is None or event["event"] == "HandStarted":
                check(current or None, frame, segment)
                segment = []
                current = event["number"] if event else current
            if event is not None:
                segment.append(event)
        if check(number, frame, frame["view"]):
            checked += 1
    return checked
