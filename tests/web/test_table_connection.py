"""The table page around the hand: a lost connection (Reconnecting…, same seat, same arrangement,
the hand goes on), a four-seat table on a phone without horizontal scrolling, the turn shown in a
background tab's title, the seat controls (sit out, sit in, top up, leave)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from test_table_support import (
    card_in,
    click_fill,
    hand_cards,
    hand_number,
    last_result,
    place,
    plan,
    play,
    results_of,
    sit,
)

from conftest import PHONE
from thirteen.client import RoomClient


def test_a_lost_connection_keeps_the_seat_and_the_arrangement(
    boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    # offline, the page's requests (tickets to reconnect) fail: that is the test
    page_errors.expect("ERR_INTERNET_DISCONNECTED")
    table = boss.create_table(
        "chinese-1-6", seats=2, bots=1, bot_level="heuristic", rules={"showdown_seconds": 2}
    )
    context = new_context()
    ann = sit(context.new_page(), table["id"], "ann")
    rows = plan(ann, "chinese-1-6", seed=3)
    click_fill(ann, {"back": rows["back"]})
    context.set_offline(True)
    expect(ann.get_by_text("Reconnecting…")).to_be_visible()
    # the arrangement stays while offline, and can still be worked on
    click_fill(ann, {"middle": rows["middle"][:2]})
    context.set_offline(False)
    expect(ann.get_by_text("Reconnecting…")).to_be_hidden(timeout=30_000)
    expect(ann.get_by_role("region", name=re.compile(r"ann \(you\)"))).to_be_visible()
    for card in rows["back"]:
        expect(card_in(ann, "back", card)).to_be_visible()
    for card in rows["middle"][:2]:
        expect(card_in(ann, "middle", card)).to_be_visible()
    click_fill(ann, {"middle": rows["middle"][2:], "front": rows["front"]})
    play(ann)
    shown = results_of(ann, 1)
    assert shown["ann"][1] == last_result(ann)


def test_a_four_seat_table_fits_a_phone(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(
        "chinese-2-4", seats=4, bots=3, bot_level="heuristic", rules={"showdown_seconds": 2}
    )
    ann = sit(new_context(touch=True, viewport=PHONE).new_page(), table["id"], "ann")
    cards = hand_cards(ann)
    assert len(cards) == 13
    number = hand_number(ann)
    expect(ann.locator(".seat")).to_have_count(4)

    def no_sideways_scroll() -> None:
        width = ann.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width

    no_sideways_scroll()
    # the turn in a background tab's title
    ann.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(ann).to_have_title(re.compile(r"^\(Your turn\) "))
    ann.evaluate(
        "Object.defineProperty(document, 'hidden', {value: false, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(ann).not_to_have_title(re.compile(r"\(Your turn\)"))
    rows = plan(ann, "chinese-2-4", seed=4)
    for row in ("back", "middle", "front"):
        for card in rows[row]:
            place(ann, card, row, "tap")
    no_sideways_scroll()
    ann.get_by_role("button", name="Play", exact=True).tap()
    shown = results_of(ann, number)
    assert len(shown) == 4
    assert shown["ann"][1] == last_result(ann)
    no_sideways_scroll()
    # the live region said the result
    expect(ann.locator("#announce")).to_contain_text("Showdown.")


def test_seat_controls(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(
        "ofc", seats=2, bots=1, bot_level="heuristic", min_buy_in=50, max_buy_in=200
    )
    ann = sit(new_context().new_page(), table["id"], "ann")
    hand_cards(ann)
    ann.get_by_role("button", name="Sit out").click()
    seat = ann.get_by_role("region", name=re.compile(r"ann \(you\)"))
    expect(seat.locator(".seat-state")).to_contain_text("Sitting out")
    ann.get_by_role("button", name="Sit in").click()
    expect(seat.locator(".seat-state")).not_to_contain_text("Sitting out")
    ann.get_by_role("button", name="Leave").click()
    ann.get_by_role("dialog", name="Leave during the hand?").get_by_role(
        "button", name="Leave"
    ).click()
    # the table plays her hand at once; after it the seat is free again and the chips are
    # back in the wallet
    expect(ann.get_by_role("button", name="Sit here")).to_be_visible(timeout=30_000)
    assert ann.request.get("/api/me").json()["balance"] == 10_000 + last_result(ann)


def test_presence_and_a_hint_at_a_practice_table(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table("chinese-1-4", seats=2, practice=True, rules={"showdown_seconds": 2})
    ann = sit(new_context().new_page(), table["id"], "ann")
    bob_context = new_context()
    sit(bob_context.new_page(), table["id"], "bob")
    hand_cards(ann)
    # the hint: the strong bot's move, applied on request
    ann.get_by_role("button", name="Hint").click()
    hint = ann.get_by_role("note", name="Hint")
    expect(hint).to_contain_text(re.compile(r"Hint: \w"), timeout=30_000)
    apply = hint.get_by_role("button", name="Apply hint")
    if apply.count():
        apply.click()
        expect(ann.locator(".setter .card.hinted")).to_have_count(13)
        play(ann)
    else:  # a natural or a surrender
        hint.get_by_role("button").click()
    # bob's browser goes away: ann sees him disconnected
    bob_context.close()
    seat = ann.get_by_role("region", name=re.compile("bob"))
    expect(seat.locator(".seat-state")).to_contain_text("Disconnected", timeout=30_000)


def test_an_ofc_hint_shows_each_plays_risks(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(
        "ofc-pineapple", seats=2, bots=1, bot_level="heuristic", practice=True
    )
    ann = sit(new_context().new_page(), table["id"], "ann")
    hand_cards(ann)
    ann.get_by_role("button", name="Hint").click()
    hint = ann.get_by_role("note", name="Hint")
    expect(hint).to_contain_text(re.compile(r"Hint: \w"), timeout=30_000)
    answer = ann.request.get(f"/api/tables/{table['id']}/hint").json()  # the same, kept
    weighed = hint.get_by_role("table", name="Plays the bot weighed")
    assert answer["options"], "a first street is weighed by sampling"
    rows = weighed.locator("tbody tr")
    expect(rows).to_have_count(len(answer["options"]))
    first = answer["options"][0]
    expect(rows.first.get_by_role("rowheader")).to_contain_text("(the hint)")
    expect(rows.first.locator("td").nth(1)).to_have_text(f"{int(first['foul_rate'] * 100 + 0.5)}%")
    expect(rows.first.locator("td").nth(2)).to_have_text(
        f"{int(first['fantasyland_rate'] * 100 + 0.5)}%"
    )
    expect(hint.get_by_text(re.compile(r"^Hint: "))).to_contain_text(
        f"(fouls {int(answer['foul_rate'] * 100 + 0.5)}%, "
    )
    gamble = hint.get_by_role("note", name="Gamble")
    expect(gamble).to_have_count(1 if answer["gamble"] else 0)


def test_the_rooms_state_wins_after_a_reconnection(
    boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    """Offline past the deadline: the room played for the seat; back online, the arrangement in
    progress is dropped and the page shows what the room did."""
    page_errors.expect("ERR_INTERNET_DISCONNECTED")
    table = boss.create_table(
        "chinese-1-6",
        seats=2,
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 30, "set_hand_seconds": 4},
    )
    watch = boss.open_table(table["id"], watch_only=True)
    context = new_context()
    ann = sit(context.new_page(), table["id"], "ann")
    rows = plan(ann, "chinese-1-6", seed=7)
    click_fill(ann, {"back": rows["back"][:3]})
    context.set_offline(True)
    expect(ann.get_by_text("Reconnecting…")).to_be_visible()
    watch.wait(lambda f: f.get("view", {}).get("phase") == "showdown", timeout=30)
    watch.close()
    context.set_offline(False)
    expect(ann.get_by_role("table", name="Hand 1: results")).to_be_visible(timeout=30_000)
    expect(ann.locator(".setter")).to_have_count(0)
    seat = ann.get_by_role("region", name=re.compile(r"ann \(you\)"))
    expect(seat.locator(".seat-state")).to_contain_text("Timed out")
