"""The table's automatic moves are versioned: a hand replays by the version it was dealt with,
so no history recorded before a change of the move stops verifying (docs/decisions.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from thirteen.engine.actions import AUTOPLAY, StartHand, Timeout, action_from_json, action_to_json
from thirteen.engine.errors import RuleError
from thirteen.engine.history import (
    finish,
    history_from_json,
    history_to_json,
    read_history,
    redact_history,
    replay,
)
from thirteen.engine.history_text import history_from_text, history_to_text
from thirteen.engine.history_verify import verify_history, verify_text
from thirteen.engine.table import apply
from thirteen.review.rebuild import rebuild

RECORDED = sorted((Path(__file__).parent / "data" / "autoplay_v1").glob("*.json"))
"""Hands of ofc and ofc-pineapple with OFC time-outs, recorded by the move before versions."""


def recorded(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_recorded_hands_are_of_the_first_version() -> None:
    assert len(RECORDED) == 6
    for path in RECORDED:
        data = recorded(path)
        assert "autoplay" not in data["actions"][0], path.name  # written before versions
        history = history_from_json(data)
        deal = history.actions[0]
        assert isinstance(deal, StartHand)
        assert deal.autoplay == 1
        assert any(isinstance(a, Timeout) for a in history.actions)


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_a_hand_of_the_first_version_verifies_as_ever(path: Path) -> None:
    data = recorded(path)
    assert verify_history(data).status == "verified"  # every action replays to its result
    assert history_to_json(history_from_json(data)) == data  # read and written back the same
    text = history_to_text(data)
    assert "autoplay" not in text
    assert history_from_text(text) == data
    assert verify_text(text).status == "verified"
    for seat in (0, 1, 2):  # every player's copy verifies and rebuilds in the review
        copy = redact_history(history_from_json(data), seat)
        checked = verify_history(copy)
        assert checked.status in ("verified", "partial"), checked.problems
        assert not checked.problems
        assert read_history(copy).autoplay == 1
        rebuilt = rebuild(read_history(copy))
        assert rebuilt.decisions


def test_the_new_move_plays_those_time_outs_otherwise() -> None:
    """Why the version matters: dealt with today's move, the same actions no longer replay to
    what the table did (a later street refused, or another result) in most of these hands."""
    differ = 0
    for path in RECORDED:
        history = history_from_json(recorded(path))
        deal = history.actions[0]
        assert isinstance(deal, StartHand)
        today = replace(history, actions=(replace(deal, autoplay=AUTOPLAY), *history.actions[1:]))
        try:
            differ += finish(today).result != history.result
        except RuleError:
            differ += 1
    assert differ >= 4


def test_a_new_hand_names_its_version_everywhere(tmp_path: Path) -> None:
    history = history_from_json(recorded(RECORDED[0]))
    deal = history.actions[0]
    assert isinstance(deal, StartHand)
    start = replace(deal, autoplay=AUTOPLAY)
    state, _ = apply(history.start, start)
    assert state.hand is not None
    assert state.hand.autoplay == AUTOPLAY
    # the journal's form of the action, and the history's, carry it and read it back
    raw = action_to_json(start)
    assert raw["autoplay"] == AUTOPLAY
    assert action_from_json(raw) == start
    new = finish(replace(history, actions=(start,)))
    data = history_to_json(new)
    assert data["actions"][0] == {"type": "start_hand", "at": start.at, "autoplay": AUTOPLAY}
    text = history_to_text(data)
    assert f"start_hand autoplay {AUTOPLAY}" in text
    assert history_from_text(text) == data
    assert replay(history_from_json(data)).hand == state.hand


@pytest.mark.parametrize("value", [0, AUTOPLAY + 1, "2", True, 2.0, None])
def test_an_unknown_version_is_refused_with_a_sentence(value: object) -> None:
    raw = {**action_to_json(history_from_json(recorded(RECORDED[0])).actions[0]), "autoplay": value}
    with pytest.raises(RuleError, match="autoplay must be a version of the automatic moves"):
        action_from_json(raw)
    data = recorded(RECORDED[0])
    data["actions"][0]["autoplay"] = value
    with pytest.raises(RuleError, match="autoplay is a version of the automatic moves"):
        read_history(data)
