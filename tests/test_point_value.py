"""Changing what a point is worth between hands (a sit & go's rising unit)."""

from __future__ import annotations

import json

import pytest

from table_helpers import SALTS, deal, table_with
from thirteen.engine.actions import (
    SetPointValue,
    StartHand,
    Timeout,
    action_from_json,
    action_to_json,
)
from thirteen.engine.deck import Deal
from thirteen.engine.errors import IllegalActionError, RuleError
from thirteen.engine.events import HandScored, HandSettled, PointValueSet, event_to_json
from thirteen.engine.history import (
    begin_history,
    history_from_json,
    history_to_json,
    record,
    replay,
    snapshot_from_json,
    snapshot_to_json,
)
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, TableState, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view, view_to_json


def _play_out(state: TableState) -> tuple[TableState, list[object]]:
    """Time out every seat of the hand in play (each gets the table's automatic setting)."""
    events: list[object] = []
    while state.phase == Phase.PLAYING:
        seat, deadline = min(deciders(state).items(), key=lambda d: (d[1] or 0.0, d[0]))
        assert deadline is not None
        state, more = apply(state, Timeout(seat=seat, at=max(deadline, state.clock)))
        events.extend(more)
    return state, events


def test_the_unit_changes_between_hands_and_scales_the_settlement() -> None:
    rules = get_rules("chinese-1-6")
    state = table_with(rules, ["ann", "bob"], stack=10_000)
    assert view(state, 0).point_value == 1
    state, events = apply(state, SetPointValue(value=7))
    assert events == (PointValueSet(7, 1),)
    assert state.config.point_value == 7
    assert view(state, None).point_value == 7
    assert view_to_json(view(state, 1))["point_value"] == 7
    before = state
    start_deal = Deal.from_order(range(52), SALTS)
    state = deal(state, start_deal)
    with pytest.raises(IllegalActionError) as in_hand:
        apply(state, SetPointValue(value=9, at=state.clock))
    assert in_hand.value.code == "in_hand"
    assert "between hands" in in_hand.value.message
    state, seen = _play_out(state)
    scored = next(e for e in seen if isinstance(e, HandScored))
    settled = next(e for e in seen if isinstance(e, HandSettled))
    assert any(scored.totals), "the automatic settings were expected to differ"
    assert list(settled.deltas) == [7 * t for t in scored.totals]
    # during the showdown (between hands) the unit may rise again
    state, events = apply(state, SetPointValue(value=14, at=state.clock))
    assert events == (PointValueSet(14, 7),)
    # the hand's history starts from the table before the deal: it shows the unit it was played at
    history = begin_history(before, StartHand(deal=start_deal))
    assert history.start.config.point_value == 7
    assert history_to_json(history)["start"]["table"]["point_value"] == 7


def test_bad_values_are_refused_with_a_sentence_and_change_nothing() -> None:
    state = table_with(get_rules("ofc"), ["ann", "bob"])
    for bad in (0, -3, True, 10**13):
        with pytest.raises(IllegalActionError) as refused:
            apply(state, SetPointValue(value=bad))
        assert refused.value.code == "bad_point_value"
        assert refused.value.message.endswith(".")
    with pytest.raises(IllegalActionError) as same:
        apply(state, SetPointValue(value=1))
    assert same.value.code == "same_point_value"
    assert state.config.point_value == 1


def test_json_forms_and_snapshots_carry_the_unit() -> None:
    action = SetPointValue(value=25, at=4.5)
    data = action_to_json(action)
    assert data == {"type": "set_point_value", "value": 25, "at": 4.5}
    assert action_from_json(data) == action
    for bad in ({"type": "set_point_value"}, {"type": "set_point_value", "value": "3"}):
        with pytest.raises(RuleError) as refused:
            action_from_json(bad)
        assert refused.value.code == "bad_action"
    assert event_to_json(PointValueSet(4, 2)) == {
        "event": "PointValueSet",
        "value": 4,
        "previous": 2,
    }
    state = table_with(get_rules("chinese-2-4"), ["ann", "bob", "cat"])
    state, _ = apply(state, SetPointValue(value=3))
    again = snapshot_from_json(json.loads(json.dumps(snapshot_to_json(state))))
    assert again == state
    assert again.config.point_value == 3


def test_a_hand_after_a_rise_replays_from_its_history() -> None:
    rules = get_rules("chinese-1-6")
    state = table_with(rules, ["ann", "bob"], stack=500)
    state, _ = apply(state, SetPointValue(value=5))
    start = StartHand(deal=Deal.from_order(range(52), SALTS))
    history = begin_history(state, start)
    played, _ = apply(state, start)
    while played.phase == Phase.PLAYING:
        seat, deadline = min(deciders(played).items(), key=lambda d: (d[1] or 0.0, d[0]))
        assert deadline is not None
        move = Timeout(seat=seat, at=max(deadline, played.clock))
        played, _ = apply(played, move)
        history = record(history, move)
    copy = history_from_json(json.loads(json.dumps(history_to_json(history))))
    assert replay(copy) == played
    assert played.hand is not None
    assert played.hand.settlement is not None
    assert all(d % 5 == 0 for d in played.hand.settlement)
