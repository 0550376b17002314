"""A seat that leaves during a hand, or times out, is played by the table at once (RULES §5):
the engine takes its :class:`Timeout` as soon as a decision opens instead of after the time
limit, and a leave can be taken back (``stay``) until the hand ends."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from table_helpers import SALTS, deal, run, table_with
from thirteen.engine.actions import Action, Leave, SitIn, StartHand, Stay, Timeout
from thirteen.engine.cards import DECK
from thirteen.engine.deck import Deal
from thirteen.engine.errors import RuleError
from thirteen.engine.events import PlayerLeft, PlayerSatIn, PlayerSatOut, TimedOut
from thirteen.engine.history import (
    begin_history,
    finish,
    history_to_json,
    record,
    redact_history,
    replay,
)
from thirteen.engine.history_text import history_to_text
from thirteen.engine.history_verify import verify_history, verify_text
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, TableState, deciders, next_deadline, played_at_once
from thirteen.review.rebuild import read_history, rebuild


def dealt(preset: str = "ofc", seed: int = 3) -> tuple[TableState, int]:
    """A two-seat OFC table just dealt, and the seat acting first (seats play in turn)."""
    order = list(DECK)
    random.Random(seed).shuffle(order)
    table = deal(table_with(get_rules(preset), ["ann", "bob"]), Deal.from_order(order, SALTS))
    (first,) = deciders(table)
    return table, first


def play_out(table: TableState, me: int) -> tuple[TableState, list[object], int]:
    """Play the hand to its end, every seat timing out when due: ``me`` at the table's clock
    (at once), the other at its time limit; the last events and how often ``me`` was played."""
    events: list[object] = []
    mine = 0
    while table.phase == Phase.PLAYING:
        due = deciders(table)
        if me in due:
            at = table.clock
            assert next_deadline(table) == (at, "decision", me)
            table, events = run(table, Timeout(seat=me, at=at))
            assert TimedOut(me) in events
            mine += 1
        else:
            (other,) = due
            table, events = run(table, Timeout(seat=other, at=due[other] or 0.0))
    return table, events, mine


def test_a_seat_that_leaves_on_the_first_street_is_played_at_once_to_the_end() -> None:
    table, me = dealt()
    table, events = run(table, Leave(seat=me, at=1.0))
    assert PlayerSatOut(me, "leaving after the hand") in events
    assert played_at_once(table, me)
    assert next_deadline(table) == (1.0, "decision", me)  # due now, not in 30 seconds
    table, events, streets = play_out(table, me)
    assert streets == len(get_rules("ofc").streets)
    assert table.seats[me] is None  # gone at the showdown, with its chips
    assert any(isinstance(e, PlayerLeft) and e.reason == "asked" for e in events)


def test_a_present_seat_still_has_its_whole_time() -> None:
    table, me = dealt()
    assert not played_at_once(table, me)
    with pytest.raises(RuleError) as refused:
        run(table, Timeout(seat=me, at=1.0))
    assert refused.value.code == "not_due"


def test_stay_takes_a_leave_back_and_the_seat_plays_its_own_streets_again() -> None:
    table, me = dealt()
    table, _ = run(table, Leave(seat=me, at=1.0), Timeout(seat=me, at=1.0))
    table, events = run(table, Stay(seat=me, at=2.0))
    assert events == [PlayerSatIn(me)]
    seat = table.seats[me]
    assert seat is not None
    assert not seat.leaving
    assert not seat.sit_out_after_hand  # the table's moves while leaving do not sit it out
    assert not played_at_once(table, me)
    with pytest.raises(RuleError) as twice:
        run(table, Stay(seat=me, at=3.0))
    assert twice.value.code == "not_leaving"
    other = 1 - me
    table, _ = run(table, Timeout(seat=other, at=deciders(table)[other] or 0.0))
    with pytest.raises(RuleError) as waits:  # its next street has its whole time again
        run(table, Timeout(seat=me, at=table.clock))
    assert waits.value.code == "not_due"
    table, _, _ = play_out(table, other)
    assert table.seats[me] is not None  # still seated after the hand


def test_a_timed_out_seat_is_played_at_once_until_it_sits_in() -> None:
    table, me = dealt()
    limit = deciders(table)[me]
    assert limit is not None
    table, _ = run(table, Timeout(seat=me, at=limit))
    assert played_at_once(table, me)
    other = 1 - me
    table, _ = run(table, Timeout(seat=other, at=deciders(table)[other] or 0.0))
    table, events = run(table, Timeout(seat=me, at=table.clock))  # at once: its street opened
    assert TimedOut(me) in events
    other_due = deciders(table)[other]
    table, _ = run(table, SitIn(seat=me, at=table.clock))  # back: its own decisions again
    table, _ = run(table, Timeout(seat=other, at=other_due or 0.0))
    assert not played_at_once(table, me)
    with pytest.raises(RuleError) as refused:
        run(table, Timeout(seat=me, at=table.clock))
    assert refused.value.code == "not_due"


def test_stay_between_hands_or_for_someone_else_is_refused() -> None:
    table = table_with(get_rules("ofc"), ["ann", "bob"])
    with pytest.raises(RuleError) as refused:
        run(table, Stay(seat=0, at=1.0))
    assert refused.value.code == "not_leaving"


def test_a_hand_left_and_taken_back_replays_verifies_and_reviews() -> None:
    """The history of a hand where a seat left, stayed and left again — its streets played at
    once — replays, verifies (JSON and text) and is rebuilt for the seat's own review (classic
    OFC: no hidden discard stops the rebuild at the other seat's timed-out streets)."""
    rules = get_rules("ofc")
    order = list(DECK)
    random.Random(5).shuffle(order)
    table = table_with(rules, ["ann", "bob"])
    start = StartHand(deal=Deal.from_order(order, SALTS), at=0.0)
    history = begin_history(table, start)
    table, _ = run(table, start)
    (me,) = deciders(table)

    def act(action: Action) -> None:
        nonlocal table, history
        table, _ = run(table, action)
        history = record(history, table_action(action, table))

    act(Leave(seat=me, at=1.0))
    act(Timeout(seat=me, at=1.0))
    act(Stay(seat=me, at=2.0))
    act(Leave(seat=me, at=3.0))
    while table.phase == Phase.PLAYING:
        due = deciders(table)
        (who,) = due
        act(Timeout(seat=who, at=table.clock if who == me else due[who] or 0.0))
    history = finish(history)
    assert replay(history) == table
    data = history_to_json(history)
    assert verify_history(data).status == "verified"
    assert verify_text(history_to_text(data)).status == "verified"
    own = rebuild(read_history(redact_history(history, me)))
    assert own.cut is None
    assert sum(d.timed_out for d in own.decisions) == len(rules.streets)


def table_action(action: Action, table: TableState) -> Action:
    """``action`` as the table took it (stamped no earlier than its clock, as ``run`` does)."""
    return action if action.at >= table.clock else replace(action, at=table.clock)
