"""A Hypothesis state machine over every preset: legal and illegal actions, timeouts, seating.

Invariants after every step: money is zero-sum, no card is dealt twice, every finished player
set 13 cards, an illegal action changes nothing, no view holds a card its viewer may not know,
replaying a finished hand's history rebuilds the exact state, and a view's wire form is every
field of the view (cards as text) however the server's fast path makes it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from table_helpers import SALTS
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import (
    Action,
    DeclareNatural,
    Leave,
    Place,
    SetHand,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    Stay,
    Surrender,
    Timeout,
)
from thirteen.engine.autoplay import auto_action
from thirteen.engine.cards import format_cards, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.events import Event, PlayerLeft
from thirteen.engine.history import HandHistory, begin_history, record, replay
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.engine.state import (
    Phase,
    TableState,
    dealt_in_next,
    deciders,
    new_table,
    played_at_once,
)
from thirteen.engine.table import apply
from thirteen.engine.views import ViewsJson, view, view_to_json

CARD_LIST = re.compile(r"^[2-9TJQKA][cdhs](?: [2-9TJQKA][cdhs])*$")
STACK = 1_000_000


CARD_FIELDS = {"front", "middle", "back", "cards", "discards"}


def plain(value: Any, name: str = "") -> Any:
    """Any view as JSON data the slow, obvious way: every dataclass field in order, tuples as
    lists, the card fields as text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name), f.name) for f in dataclasses.fields(value)}
    if name in CARD_FIELDS:
        return format_cards(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def cards_in(value: Any) -> set[int]:
    """Every card named anywhere in a JSON value."""
    found: set[int] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    elif isinstance(value, str) and CARD_LIST.match(value):
        found |= set(parse_cards(value, allow_duplicates=True))
    return found


def may_know(state: TableState, viewer: int | None) -> set[int]:
    """What the rules let ``viewer`` know (RULES §2–§5), written independently of views.py."""
    hand = state.hand
    if hand is None:
        return set()
    known: set[int] = set()
    for b in hand.boards:
        if b.seat == viewer:
            known |= set(b.dealt)
        elif b.outcome == "surrendered":
            continue
        elif (
            b.outcome == "natural"
            or state.phase == Phase.SHOWDOWN
            or (state.rules.is_ofc and b.fantasyland is None)
        ):
            known |= set(b.front + b.middle + b.back)
    return known


class TableMachine(RuleBasedStateMachine):
    state: TableState
    history: HandHistory | None
    views: ViewsJson | None = None

    @initialize(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
    def setup(self, preset: str, data: st.DataObject) -> None:
        rules = get_rules(preset)
        players = data.draw(st.integers(2, rules.max_players), label="players")
        self.state = new_table(rules, seats=players, max_buy_in=STACK)
        for seat in range(players):
            self.state, _ = apply(self.state, Sit(seat=seat, player=f"p{seat}", stack=STACK))
        self.money_in = STACK * players
        self.money_out = 0
        self.now = 0.0
        self.history = None
        self.rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
        self.start_hand(data)  # most runs should spend their steps inside hands

    # --- helpers ------------------------------------------------------------------------
    def do(self, action: Action) -> tuple[Event, ...]:
        before = self.state
        self.state, events = apply(self.state, action)
        assert self.state.state_id == before.state_id + 1
        for e in events:
            if isinstance(e, PlayerLeft):
                self.money_out += e.stack
        if self.history is not None:
            self.history = record(self.history, action)
            if self.state.phase == Phase.SHOWDOWN:
                assert replay(self.history) == self.state
                self.history = None
                event("a hand reached the showdown")
        return events

    def refuse(self, action: Action) -> None:
        before = self.state
        with pytest.raises(RuleError) as info:
            apply(self.state, action)
        assert info.value.code
        assert str(info.value)
        assert self.state == before

    # --- rules ----------------------------------------------------------------------------
    @precondition(lambda self: self.state.phase != Phase.PLAYING)
    @rule(data=st.data())
    def start_hand(self, data: st.DataObject) -> None:
        order = data.draw(st.permutations(range(52)), label="deck")
        self.now = max(self.now, self.state.next_deal_at or 0.0)
        action = StartHand(deal=Deal.from_order(order, SALTS), at=self.now)
        if len(dealt_in_next(self.state)) < 2:
            self.refuse(action)
            return
        start = self.state
        self.history = None
        self.do(action)
        self.history = begin_history(start, action)
        event(f"dealt {self.state.rules.name}")

    @precondition(lambda self: self.state.phase == Phase.PLAYING)
    @rule(data=st.data())
    def legal_moves(self, data: st.DataObject) -> None:
        """A burst of legal moves (so that long OFC hands reach their showdown)."""
        for _ in range(data.draw(st.integers(1, 12), label="moves")):
            if self.state.phase != Phase.PLAYING:
                return
            self.legal_move(data)

    def legal_move(self, data: st.DataObject) -> None:
        seat = data.draw(st.sampled_from(sorted(deciders(self.state))), label="seat")
        seat_view = view(self.state, seat)
        legal = legal_actions(seat_view)
        kinds = ["random", "random", "auto", "auto", "natural", "surrender"]
        kind = data.draw(st.sampled_from(kinds), label="kind")
        action: Action
        if kind == "natural" and legal.naturals:
            action = DeclareNatural(seat=seat, natural=legal.naturals[0])
        elif kind == "surrender" and legal.can_surrender:
            action = Surrender(seat=seat)
        elif kind == "auto":
            action = auto_action(self.state, seat)
        else:
            action = RandomBot(self.rng).choose(seat_view, legal, 1.0)
        deadline = deciders(self.state)[seat]
        if deadline is not None and self.now > deadline:
            # Another seat's timeout moved the clock past this seat's deadline: too late to
            # decide; only the timeout is accepted now.
            self.refuse(dataclasses.replace(action, at=self.now))
            self.do(Timeout(seat=seat, at=self.now))
            return
        self.now = self.now + 1.0 if deadline is None else min(self.now + 1.0, deadline)
        self.do(dataclasses.replace(action, at=self.now))

    @precondition(lambda self: self.state.phase == Phase.PLAYING)
    @rule(data=st.data())
    def time_out(self, data: st.DataObject) -> None:
        due = deciders(self.state)
        seat = data.draw(st.sampled_from(sorted(due)), label="seat")
        deadline = due[seat]
        assert deadline is not None
        if played_at_once(self.state, seat):  # leaving, or timed out before: no waiting
            self.do(Timeout(seat=seat, at=self.now))
            return
        if self.now < deadline:
            self.refuse(Timeout(seat=seat, at=self.now))
        self.now = max(self.now, deadline)
        self.do(Timeout(seat=seat, at=self.now))

    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        state = self.state
        n = len(state.seats)
        choice = data.draw(st.integers(0, 5), label="illegal")
        if choice == 0:
            self.refuse(Sit(seat=n, player="x", stack=10))  # no such seat
        elif choice == 1 and state.phase == Phase.PLAYING:
            self.refuse(StartHand(deal=Deal.from_order(range(52), SALTS), at=self.now))
        elif choice == 2 and state.phase == Phase.PLAYING:
            waiting = [b.seat for b in state.hand.boards if b.seat not in deciders(state)]  # type: ignore[union-attr]
            if waiting:
                self.refuse(Place(seat=waiting[0], back=(0,)))
        elif choice == 3 and state.phase == Phase.PLAYING:
            seat = min(deciders(state))
            board = state.hand.board_of(seat)  # type: ignore[union-attr]
            assert board is not None
            foreign = next(c for c in range(52) if c not in board.dealt)
            self.refuse(SetHand(seat=seat, front=(foreign,) * 3, middle=(), back=()))
            self.refuse(Place(seat=seat, front=(foreign,)))
        elif choice == 4:
            free = [i for i, s in enumerate(state.seats) if s is None]
            if not free:
                self.refuse(Sit(seat=0, player="late", stack=10))
        elif choice == 5 and state.phase != Phase.PLAYING:
            nobody = [i for i, s in enumerate(state.seats) if s is None or not s.sitting_out]
            if nobody:
                self.refuse(Timeout(seat=nobody[0], at=self.now))

    @rule(data=st.data())
    def seating(self, data: st.DataObject) -> None:
        seat = data.draw(st.integers(0, len(self.state.seats) - 1), label="seat")
        s = self.state.seats[seat]
        if s is None:
            self.do(Sit(seat=seat, player=f"new{self.state.state_id}", stack=STACK, at=self.now))
            self.money_in += STACK
            return
        kind = data.draw(st.sampled_from(["out", "in", "leave", "stay"]), label="kind")
        if kind == "out" and not s.sitting_out:
            self.do(SitOut(seat=seat, at=self.now))
        elif kind == "in" and (s.sitting_out or s.sit_out_after_hand) and s.stack > 0:
            self.do(SitIn(seat=seat, at=self.now))
        elif kind == "leave" and not s.leaving:
            self.do(Leave(seat=seat, at=self.now))
        elif kind == "stay" and s.leaving:
            self.do(Stay(seat=seat, at=self.now))

    # --- invariants -------------------------------------------------------------------------
    @invariant()
    def money_is_zero_sum(self) -> None:
        seated = sum(s.stack for s in self.state.seats if s is not None)
        assert seated + self.money_out == self.money_in

    @invariant()
    def no_card_twice_and_thirteen_set(self) -> None:
        hand = self.state.hand
        if hand is None:
            return
        dealt = [c for b in hand.boards for c in b.dealt]
        assert len(dealt) == len(set(dealt))
        for b in hand.boards:
            if b.outcome in ("set", "natural"):
                assert (len(b.front), len(b.middle), len(b.back)) == (3, 5, 5)
                assert set(b.front + b.middle + b.back) <= set(b.dealt)

    @invariant()
    def views_hold_no_hidden_card(self) -> None:
        viewers: list[int | None] = [None, *range(len(self.state.seats))]
        shared = ViewsJson(self.state)  # every viewer's from one, as a table tells its seats
        made = {viewer: json.dumps(shared(viewer)) for viewer in reversed(viewers)}
        # and from the last step's, as a table tells every action: what the action left alone
        # is taken from there, and what it changed is not
        chained = self.views = ViewsJson(self.state, self.views)
        assert {viewer: json.dumps(chained(viewer)) for viewer in viewers} == made
        for viewer in viewers:
            seen = view(self.state, viewer)
            wire = view_to_json(seen)
            assert json.dumps(wire) == json.dumps(plain(seen))  # key order too, at every level
            assert made[viewer] == json.dumps(wire)
            shown = cards_in(wire)
            assert shown <= may_know(self.state, viewer), (
                viewer,
                shown - may_know(self.state, viewer),
            )


TableMachine.TestCase.settings = settings(max_examples=80, stateful_step_count=60, deadline=None)
test_table_machine = TableMachine.TestCase
