"""OFC, pineapple and Open Face Cards in the browser: the first five cards, then the streets
(one card, or three with a discard), placed by click, key, tap and drag; cards of earlier streets
cannot be moved; "Reset the card"; two accounts and a bot to the showdown, the totals shown
equal to the room's settlement, no page holding a card its player may not know (discards
included)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_table_support import (
    card_in,
    check_no_leak,
    confirm_foul,
    hand_cards,
    last_result,
    my_me,
    place,
    plan,
    results_of,
    sit,
    snapshot,
    warned_foul,
)

from conftest import PHONE
from thirteen.client import RoomClient
from thirteen.engine import PRESETS

OFC = [name for name, rules in PRESETS.items() if rules.game == "ofc"]


def turn_or_showdown(page: Page, hand: int) -> bool:
    """Wait until the page shows a decision (True) or the hand's results (False)."""
    either = page.locator(f'.setter, table.results:has(caption:text-is("Hand {hand}: results"))')
    expect(either.first).to_be_visible(timeout=60_000)
    return page.locator(".setter").count() > 0


def street(page: Page, preset: str, how: str, seed: int) -> None:
    """Play the decision in front of the page by ``how`` (click, key, tap or drag)."""
    me = my_me(page)
    cards = me["cards"].split()
    play = page.get_by_role("button", name="Play", exact=True)
    expect(play).to_be_disabled()
    if how == "click" and me["mode"] == "street":
        # a click fills back, then middle, then front; the discard by key
        keep = len(cards) - me["discard_now"]
        for card in cards[:keep]:
            card_in(page, "set", card).click()
            expect(card_in(page, "set", card)).to_have_count(0)
        discarded = cards[keep:]
        for card in discarded:
            card_in(page, "set", card).focus()
            page.keyboard.press("d")
            expect(card_in(page, "discard", card)).to_be_visible()
    else:
        rows = plan(page, preset, seed)
        discarded = rows.get("discard", [])
        for zone in ("front", "middle", "back", "discard"):
            for card in rows.get(zone, []):
                place(page, card, zone, "key" if how == "click" else how)
    expect(play).to_be_enabled()
    key = page.locator(".setter").get_attribute("data-key")
    fouls = warned_foul(page)
    if how == "tap":
        play.tap()
    elif how == "key":
        page.keyboard.press("Enter")
    else:
        play.click()
    confirm_foul(page, fouls, how)
    # the decision is gone (the next street may follow at once)
    expect(page.locator(f'.setter[data-key="{key}"]')).to_have_count(0, timeout=30_000)
    # what the player discarded stays in sight for them (and only them: the leak check)
    for card in discarded:
        expect(page.locator(f'.my-discards [data-card="{card}"]')).to_have_count(1)


@pytest.mark.parametrize("preset", OFC)
def test_ofc_hands_to_the_showdown(preset: str, boss: RoomClient, new_context: Any) -> None:
    touch = OFC.index(preset) % 2 == 0
    table = boss.create_table(
        preset,
        seats=3,
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 2, "first_street_seconds": 60, "street_seconds": 60},
    )
    tid = table["id"]
    ann = sit(new_context().new_page(), tid, "ann")
    bob_context = new_context(touch=True, viewport=PHONE) if touch else new_context()
    bob = sit(bob_context.new_page(), tid, "bob")

    # hand 1: ann and the bot; ann surrenders where the game allows, else plays it out by clicks
    hand_cards(ann)
    if PRESETS[preset].surrender:
        ann.get_by_role("button", name="Surrender").click()
        ann.get_by_role("button", name="Confirm surrender").click()
        seat = bob.get_by_role("region", name=re.compile("ann"))
        expect(seat.get_by_text("Surrendered").first).to_be_visible()
    else:
        n = 0
        while turn_or_showdown(ann, 1):
            street(ann, preset, "click", n)
            n += 1
        assert n == len(PRESETS[preset].streets)

    # hand 2: everyone, in dealing order
    pages = {"ann": ann, "bob": bob}
    hows = {"ann": "drag", "bob": "tap" if touch else "key"}
    expect(ann.locator(".seat[data-position]")).to_have_count(3, timeout=30_000)
    order = sorted(
        pages,
        key=lambda n: int(
            ann.locator(".seat[data-position]", has_text=n).get_attribute("data-position") or 0
        ),
    )
    snapshots: dict[str, list[tuple[int, str]]] = {"ann": [], "bob": []}
    done: set[str] = set()
    streets = 0
    while len(done) < 2:
        for name in order:
            if name in done:
                continue
            page = pages[name]
            if not turn_or_showdown(page, 2):
                done.add(name)
                continue
            if streets == 2 and name == "ann" and len(hand_cards(page)) == 1:
                # one card a street: place it, "Reset the card", place it again
                card = hand_cards(page)[0]
                card_in(page, "set", card).click()
                expect(card_in(page, "set", card)).to_have_count(0)
                page.get_by_role("button", name="Reset the card").click()
                expect(card_in(page, "set", card)).to_be_visible()
            if streets >= 1:  # earlier streets' cards are shown, not movable
                assert page.locator(".setter .card.locked").count() > 0
                assert page.locator(".setter button.card.locked").count() == 0
            snapshots[name].append(snapshot(page))
            street(page, preset, hows[name], streets)
            snapshots[name].append(snapshot(page))
        streets += 1
    assert streets >= len(PRESETS[preset].streets)

    for page, name in ((ann, "ann"), (bob, "bob")):
        shown = results_of(page, 2)
        assert set(shown) == {"ann", "bob", f"bot-{tid}-0"}
        assert shown[name][1] == last_result(page), (name, shown)
    seats = {"ann": 1, "bob": 2}
    for name, snaps in snapshots.items():
        assert check_no_leak(boss, tid, seats[name], snaps) >= len(snaps) - 1
