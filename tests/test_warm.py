"""Warming the bots: one hand of every kind of game, so no table waits on a compilation."""

from __future__ import annotations

from thirteen.bots.warm import HANDS, warm_bots


def test_warming_plays_one_hand_of_every_kind_of_game() -> None:
    played = warm_bots()
    assert [preset for preset, _ in played] == [preset for preset, _ in HANDS]
    assert all(hands == 1 for _, hands in played)
