"""Topping up a stack between hands (the room's "Top up" button)."""

from __future__ import annotations

import pytest

from table_helpers import SALTS, deal, table_with
from thirteen.engine.actions import Sit, TopUp, action_from_json, action_to_json
from thirteen.engine.deck import Deal
from thirteen.engine.errors import IllegalActionError
from thirteen.engine.events import PlayerToppedUp
from thirteen.engine.rules import get_rules
from thirteen.engine.state import new_table
from thirteen.engine.table import apply


def test_top_up_adds_to_the_stack_up_to_the_maximum() -> None:
    state = new_table(get_rules("chinese-1-6"), seats=2, max_buy_in=1500)
    state, _ = apply(state, Sit(seat=0, player="ann", stack=1000))
    before = state.state_id
    after, events = apply(state, TopUp(seat=0, amount=500))
    assert after.seats[0] is not None
    assert after.seats[0].stack == 1500
    assert events == (PlayerToppedUp(0, 500, 1500),)
    assert after.state_id == before + 1
    with pytest.raises(IllegalActionError) as refused:
        apply(after, TopUp(seat=0, amount=1))
    assert refused.value.code == "bad_top_up"
    with pytest.raises(IllegalActionError):
        apply(state, TopUp(seat=0, amount=0))


def test_no_top_up_during_a_hand() -> None:
    state = table_with(get_rules("chinese-1-6"), ["ann", "bob"], stack=100)
    state = deal(state, Deal.from_order(range(52), SALTS))
    with pytest.raises(IllegalActionError) as refused:
        apply(state, TopUp(seat=0, amount=10))
    assert refused.value.code == "in_hand"


def test_top_up_has_a_json_form() -> None:
    action = TopUp(seat=1, amount=250, at=3.0)
    assert action_from_json(action_to_json(action)) == action


def test_every_event_has_a_json_form() -> None:
    """FantasylandEarned's ``cards`` is a count, not cards (it used to crash event_to_json)."""
    from thirteen.engine.events import FantasylandEarned, event_to_json

    assert event_to_json(FantasylandEarned(2, 14)) == {
        "event": "FantasylandEarned",
        "seat": 2,
        "cards": 14,
    }


def test_a_time_bank_moves_the_pending_deadline_and_replays() -> None:
    from thirteen.engine.actions import UseTimeBank
    from thirteen.engine.events import TimeBankUsed
    from thirteen.engine.history import begin_history, history_to_json, record
    from thirteen.engine.history_text import history_to_text
    from thirteen.engine.history_verify import verify_text
    from thirteen.engine.state import deciders

    rules = get_rules("chinese-1-6")
    state = table_with(rules, ["ann", "bob"])
    start_state = state
    from thirteen.engine.actions import StartHand

    start = StartHand(deal=Deal.from_order(range(52), SALTS), at=0.0)
    state, _ = apply(state, start)
    history = begin_history(start_state, start)
    deadline = deciders(state)[0]
    assert deadline is not None
    use = UseTimeBank(seat=0, seconds=30.0, at=1.0)
    state, events = apply(state, use)
    history = record(history, use)
    assert events == (TimeBankUsed(0, 30.0, deadline + 30.0),)
    assert deciders(state)[0] == deadline + 30.0
    with pytest.raises(IllegalActionError) as refused:
        apply(state, UseTimeBank(seat=0, seconds=0.0, at=2.0))
    assert refused.value.code == "bad_time_bank"
    with pytest.raises(IllegalActionError) as late:
        apply(state, UseTimeBank(seat=1, seconds=5.0, at=deadline + 1))
    assert late.value.code == "too_late"
    text = history_to_text(history_to_json(history))
    assert "seat 1 use_time_bank 30.0" in text  # seats from 1, as the table shows them
    assert verify_text(text).status != "unreadable"
