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
