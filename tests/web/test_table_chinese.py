"""Chinese Poker in the browser: two players (different accounts, one on a touch phone) and a
bot play whole hands through the page — clicks, a double-click, a drag, taps, keys; Play only
once the rows are complete; an invalid natural shows the room's sentence; a surrender is shown
face down; the showdown's totals are the room's settlement; no page ever holds a card its player
may not know."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect
from test_table_support import (
    card_in,
    check_no_leak,
    click_fill,
    confirm_foul,
    drag,
    hand_cards,
    last_result,
    place,
    plan,
    play,
    results_of,
    sit,
    snapshot,
    warned_foul,
)

from conftest import PHONE
from thirteen.client import RoomClient
from thirteen.engine import PRESETS

CHINESE = [name for name, rules in PRESETS.items() if rules.game == "chinese"]


@pytest.mark.parametrize("preset", CHINESE)
def test_chinese_hands_to_the_showdown(preset: str, boss: RoomClient, new_context: Any) -> None:
    touch = CHINESE.index(preset) % 2 == 1
    table = boss.create_table(
        preset, seats=3, bots=1, bot_level="heuristic", rules={"showdown_seconds": 2}
    )
    tid = table["id"]
    ann = sit(new_context().new_page(), tid, "ann")
    bob_context = new_context(touch=True, viewport=PHONE) if touch else new_context()
    bob = sit(bob_context.new_page(), tid, "bob")

    # hand 1: ann and the bot (bob sat down after the deal)
    hand_cards(ann)
    play_button = ann.get_by_role("button", name="Play", exact=True)
    expect(play_button).to_be_disabled()
    natural = ann.get_by_role("combobox", name="Natural")
    held = natural.locator("option", has_text="you hold it").count()
    if not held:  # declaring a natural one does not hold: the room says why, the turn goes on
        natural.select_option("dragon")
        ann.get_by_role("button", name="Declare natural").click()
        expect(ann.locator(".setter-message")).to_contain_text(re.compile(r"\w"))
        expect(ann.get_by_role("region", name="Your cards")).to_be_visible()
    ann.get_by_role("button", name="Surrender").click()
    ann.get_by_role("button", name="Confirm surrender").click()
    ann_seat = bob.get_by_role("region", name=re.compile("ann"))
    expect(ann_seat.get_by_text("Surrendered").first).to_be_visible()
    expect(ann_seat.locator(".card.back")).to_have_count(13)

    # hand 2: everyone
    snapshots: dict[str, list[tuple[int, str]]] = {"ann": [], "bob": []}
    rows = plan(ann, preset, seed=1)
    # middle and back swapped: the page warns of the foul the room's evaluation finds
    swapped = {"back": rows["middle"], "middle": rows["back"], "front": rows["front"]}
    verdict = boss.request(
        "GET",
        f"/api/tables/{tid}/evaluate?" + urlencode({k: " ".join(v) for k, v in swapped.items()}),
    )
    click_fill(ann, swapped)
    expect(play_button).to_be_enabled()
    setter = ann.locator(".setter")
    if verdict["foul"]:
        expect(setter.get_by_text(verdict["warning"])).to_be_visible()
    back_name = ann.get_by_role("region", name="Back").locator(".hand-name")
    expect(back_name).to_contain_text(verdict["rows"][2]["name"])
    ann.get_by_role("button", name="Reset all").click()
    assert len(hand_cards(ann)) == 13
    expect(setter.get_by_text("Warning")).to_have_count(0)
    click_fill(ann, {"back": rows["back"][:4]})
    expect(play_button).to_be_disabled()
    # a double-click sends a card back to the end of the set; a drag puts it back
    first = rows["back"][0]
    card_in(ann, "back", first).dblclick()
    expect(card_in(ann, "set", first)).to_be_visible()
    assert hand_cards(ann)[-1] == first
    free = ann.get_by_role("region", name="Back").locator(".slot:not(:has(.card))")
    drag(ann, card_in(ann, "set", first), free.first)
    expect(card_in(ann, "back", first)).to_be_visible()
    click_fill(ann, {"back": rows["back"][4:], "middle": rows["middle"], "front": rows["front"]})
    snapshots["ann"].append(snapshot(ann))

    bob_rows = plan(bob, preset, seed=2)
    how = "tap" if touch else "key"
    for row in ("front", "middle", "back"):
        for card in bob_rows[row]:
            place(bob, card, row, how)
    snapshots["bob"].append(snapshot(bob))
    play(ann)
    snapshots["ann"].append(snapshot(ann))
    bob_fouls = warned_foul(bob)
    if touch:
        bob.get_by_role("button", name="Play", exact=True).tap()
    else:
        card_in(bob, "front", bob_rows["front"][0]).focus()
        bob.keyboard.press("Enter")
    confirm_foul(bob, bob_fouls, "tap" if touch else "click")

    for page, name in ((ann, "ann"), (bob, "bob")):
        shown = results_of(page, 2)
        assert shown[name][1] == last_result(page), (name, shown)
        assert set(shown) == {"ann", "bob", f"bot-{tid}-0"}
    seats = {"ann": 1, "bob": 2}
    for name, snaps in snapshots.items():
        assert check_no_leak(boss, tid, seats[name], snaps) == len(snaps)


def test_setter_controls(boss: RoomClient, new_context: Any) -> None:
    """Sorting, reordering the set by drag, dragging between outlines and back to the set, a
    row's Reset, Backspace, and the top-up dialog (refused during a hand, with the room's
    sentence)."""
    table = boss.create_table("chinese-1-6", seats=2, bots=1, bot_level="heuristic")
    page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": "a good pw 1"})
    assert answer.ok
    page.goto(f"/#/table/{table['id']}/join")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Your wallet holds 10,000 chips")
    dialog.get_by_role("spinbutton", name="Buy-in").fill("120")
    dialog.get_by_role("button", name="Sit").click()
    expect(page.get_by_role("region", name="Seat 2: ann (you)")).to_contain_text("120 chips")
    cards = hand_cards(page)
    ranks, suits = "23456789TJQKA", "cdhs"

    page.get_by_role("button", name="Sort by rank").click()
    by_rank = sorted(cards, key=lambda c: (-ranks.index(c[0]), suits.index(c[1])))
    assert hand_cards(page) == by_rank
    page.get_by_role("button", name="Sort by suit").click()
    by_suit = sorted(cards, key=lambda c: (suits.index(c[1]), -ranks.index(c[0])))
    assert hand_cards(page) == by_suit
    # drag the last card of the set in front of the first
    drag(page, card_in(page, "set", by_suit[-1]), card_in(page, "set", by_suit[0]))
    expect(page.get_by_role("region", name="Your cards").locator(".card").first).to_have_attribute(
        "data-card", by_suit[-1]
    )

    order = hand_cards(page)
    click_fill(page, {"back": order[:5]})
    middle = page.get_by_role("region", name="Middle")
    drag(page, card_in(page, "back", order[0]), middle.locator(".slot").nth(2))
    expect(card_in(page, "middle", order[0])).to_be_visible()
    drag(page, card_in(page, "middle", order[0]), page.get_by_role("region", name="Your cards"))
    expect(card_in(page, "set", order[0])).to_be_visible()
    card_in(page, "back", order[1]).focus()
    page.keyboard.press("Backspace")
    expect(card_in(page, "set", order[1])).to_be_visible()
    back = page.get_by_role("region", name="Back")
    back.get_by_role("button", name="Reset").click()
    expect(back.locator(".card")).to_have_count(0)
    assert sorted(hand_cards(page)) == sorted(cards)

    page.get_by_role("button", name="Top up").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Add up to 80 chips")
    dialog.get_by_role("spinbutton", name="Amount").fill("50")
    dialog.get_by_role("button", name="Top up").click()
    expect(dialog.get_by_role("alert")).to_contain_text(re.compile(r"\w"))
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
