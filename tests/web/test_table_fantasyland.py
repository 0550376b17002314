"""Fantasyland in the browser: a player who earns it gets all the cards at once (15 here), sets
13 like a Chinese Poker hand and the rest are discarded; seats show who is in fantasyland; a
spectator sees no hidden card. The table deals OFC in one street of 13 and lets any clean front
enter fantasyland, so that the first hand (set by keys, never fouling) always earns it."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from test_table_support import (
    card_in,
    card_name,
    check_no_leak,
    hand_cards,
    last_result,
    place,
    plan,
    results_of,
    sit,
    snapshot,
)

from thirteen.client import RoomClient

PRESET = "ofc-pineapple-progressive"
RULES = {
    "showdown_seconds": 2,
    "streets": [13],
    "discards_per_street": 0,
    "fantasyland_entry": {"high card": 15},
}


def test_fantasyland_sets_fifteen_cards(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(PRESET, seats=2, bots=1, bot_level="heuristic", rules=RULES)
    tid = table["id"]
    ann = sit(new_context().new_page(), tid, "ann")
    watcher = new_context().new_page()
    watcher.goto(f"/#/table/{tid}/watch")
    expect(watcher.get_by_text("watching").first).to_be_visible()

    # hand 1: 13 cards in one street, a setting that never fouls, by keys
    assert len(hand_cards(ann)) == 13
    rows = plan(ann, PRESET, seed=5)
    for row in ("front", "middle", "back"):
        for card in rows[row]:
            place(ann, card, row, "key")
    ann.keyboard.press("Enter")
    shown = results_of(ann, 1)
    assert shown["ann"][1] == last_result(ann)
    expect(ann.get_by_role("table", name="Hand 1: results")).to_contain_text(
        "fantasyland next (15)"
    )

    # hand 2: in fantasyland, 15 cards at once: 13 set, 2 discarded
    snapshots = []
    cards = hand_cards(ann)
    assert len(cards) == 15
    seat = ann.get_by_role("region", name=re.compile(r"ann \(you\)"))
    expect(seat.locator(".seat-state")).to_contain_text("In fantasyland (15 cards)")
    expect(watcher.get_by_text("In fantasyland (15 cards)").first).to_be_visible()
    rows = plan(ann, PRESET, seed=6)
    play = ann.get_by_role("button", name="Play", exact=True)
    for row in ("back", "middle", "front"):
        for card in rows[row]:
            place(ann, card, row, "drag")
    expect(play).to_be_enabled()
    left = [c for c in cards if not any(c in rows[r] for r in ("front", "middle", "back"))]
    assert len(left) == 2
    place(ann, left[0], "discard", "key")
    expect(card_in(ann, "discard", left[0])).to_be_visible()
    snapshots.append(snapshot(ann))
    watcher_snapshots = [snapshot(watcher)]
    play.click()
    shown = results_of(ann, 2)
    assert shown["ann"][1] == last_result(ann)
    board = ann.get_by_role("region", name=re.compile(r"ann \(you\)"))
    for card in rows["front"]:
        expect(board.get_by_role("img", name=card_name(card))).to_be_visible()
    assert check_no_leak(boss, tid, 1, snapshots) == 1
    assert check_no_leak(boss, tid, -1, watcher_snapshots) == 1
