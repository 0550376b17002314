"""Helpers for the table's browser tests (no tests here): sitting down through the buy-in
dialog, reading the dealt cards off the page, moving cards by click, key, tap and drag, and the
leak check (no page holds a card its player may not know)."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from thirteen.client import RoomClient, legal_move
from thirteen.engine import get_rules
from thirteen.engine.cards import format_cards
from thirteen.engine.history import history_from_json, visible_cards
from thirteen.engine.table import apply

RANKS = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
    "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
KEYS = {"front": "f", "middle": "m", "back": "b", "set": "s", "discard": "d"}
REGIONS = {"front": "Front", "middle": "Middle", "back": "Back", "discard": "Discard"}


def card_name(card: str) -> str:
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


def sit(page: Page, table_id: int, name: str) -> Page:
    """Sign up as ``name`` and sit through ``#/table/ID/join`` (the buy-in dialog at once)."""
    answer = page.request.post("/api/accounts", data={"name": name, "password": "a good password"})
    assert answer.ok, answer.text()
    page.goto(f"/#/table/{table_id}/join")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Your wallet holds")
    dialog.get_by_role("button", name="Sit").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("region", name=re.compile(rf"{name} \(you\)"))).to_be_visible()
    return page


def skip_tour(page: Page) -> None:
    """Skip the first-visit tour of the setting controls if it shows (a test of the table's
    own layout measures the table, not the tour's steps pointing here and there)."""
    tour = page.get_by_role("region", name="Tour of the setting controls")
    if tour.is_visible():
        tour.get_by_role("button", name="Skip the tour").click()
        expect(tour).to_be_hidden()


def hand_cards(page: Page) -> list[str]:
    """The cards of the decision in front of the player (waits for the turn)."""
    cards = page.get_by_role("region", name="Your cards").locator(".card[data-card]")
    expect(cards.first).to_be_visible(timeout=30_000)
    return list(cards.evaluate_all("els => els.map(e => e.dataset.card)"))


def my_me(page: Page) -> dict[str, Any]:
    """What the page's setter shows: cards, room per row (free places), discards wanted."""
    cards = hand_cards(page)
    room = []
    for row in ("front", "middle", "back"):
        region = page.get_by_role("region", name=REGIONS[row])
        room.append(region.locator(".slot:not(.locked)").count())
    discard = page.get_by_role("region", name="Discard")
    discard_now = discard.locator(".slot").count() if discard.count() else 0
    mode = "street" if page.locator(".slot.locked").count() or len(cards) < 13 else "set"
    return {"cards": " ".join(cards), "room": room, "discard_now": discard_now, "mode": mode}


def plan(page: Page, preset: str, seed: int = 0) -> dict[str, list[str]]:
    """A legal decision for the cards on the page: row -> cards (and "discard")."""
    me = my_me(page)
    if me["mode"] == "set" and len(me["cards"].split()) > 13:
        me["mode"] = "set"
    move = legal_move(me, get_rules(preset), random.Random(seed))
    return {k: v.split() for k, v in move.items() if k in KEYS and isinstance(v, str)}


def card_in(page: Page, zone: str, card: str) -> Locator:
    region = "Your cards" if zone == "set" else REGIONS[zone]
    return page.get_by_role("region", name=region).get_by_role("button", name=card_name(card))


def place(page: Page, card: str, zone: str, how: str) -> None:
    """Move one card from the set to a row (or the discard) by ``how``: key, tap, drag."""
    source = card_in(page, "set", card)
    region = page.get_by_role("region", name=REGIONS[zone])
    if how == "key":
        source.focus()
        page.keyboard.press(KEYS[zone])
    elif how == "tap":
        # the tap places the card as a click does, and keeps it chosen for a tap on its row
        source.tap()
        chosen = page.locator(".setter").get_by_role("button", name=card_name(card), pressed=True)
        expect(chosen).to_be_visible()
        region.locator(".row-label").tap()
    elif how == "drag":
        drag(page, source, region.locator(".slot:not(:has(.card))").first)
    else:
        raise ValueError(how)
    expect(card_in(page, zone, card)).to_be_visible()


def drag(page: Page, source: Locator, target: Locator) -> None:
    """A mouse drag in steps (pointer events all the way), the setter in view. The target is
    measured once the drag has begun, as a person aims at where it is then: a frame arriving
    before (another player's move) may have moved the rows."""
    source.scroll_into_view_if_needed()
    target.scroll_into_view_if_needed()
    a = source.bounding_box()
    assert a
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y - 12, steps=2)  # past the drag's threshold: a ghost follows
    b = target.bounding_box()
    assert b
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def click_fill(page: Page, rows: dict[str, list[str]]) -> None:
    """Clicks fill back, then middle, then front: click the cards in that order."""
    for row in ("back", "middle", "front"):
        for card in rows.get(row, []):
            card_in(page, "set", card).click()
            expect(card_in(page, row, card)).to_be_visible()


def confirm_foul(page: Page, fouls: bool, how: str = "click") -> None:
    """After Play: a hand the page warned would foul asks once more; play it anyway."""
    if not fouls:
        return
    confirm = page.get_by_role("button", name="Play the fouled hand")
    expect(page.get_by_role("alert").filter(has_text="pays each opponent")).to_be_visible()
    if how == "tap":
        confirm.tap()
    else:
        confirm.click()


def warned_foul(page: Page) -> bool:
    """Whether the setter warns that the hand fouls (computed in the page as cards move)."""
    return page.locator(".setter .evaluation.foul").count() > 0


def play(page: Page) -> None:
    button = page.get_by_role("button", name="Play", exact=True)
    expect(button).to_be_enabled()
    key = page.locator(".setter").get_attribute("data-key")
    fouls = warned_foul(page)
    button.click()
    confirm_foul(page, fouls)
    expect(page.locator(f'.setter[data-key="{key}"]')).to_have_count(0, timeout=30_000)


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def snapshot(page: Page) -> tuple[int, str]:
    """The page's DOM (with every attribute) and the state id it shows."""
    html = page.content()
    state = page.locator(".table-page").get_attribute("data-state-id")
    return int(state or -1), html


def check_no_leak(
    boss: RoomClient, table_id: int, seat: int, snapshots: list[tuple[int, str]]
) -> int:
    """No snapshot holds a card (by code or by name) that the seat could not know at its state.
    Returns how many snapshots were checked against a finished hand."""
    hands = boss.request("GET", f"/api/admin/tables/{table_id}/hands")
    checked = 0
    for h in hands:
        if h["status"] != "settled":
            continue
        history = history_from_json(boss.request("GET", f"/api/admin/hands/{h['id']}"))
        states = {}
        state = history.start
        for action in history.actions:
            state, _ = apply(state, action)
            states[state.state_id] = state
        every = set(history.deal.order)
        for state_id, html in snapshots:
            if state_id not in states or states[state_id].hand is None:
                continue
            if states[state_id].hand.number != h["number"]:  # type: ignore[union-attr]
                continue
            known = visible_cards(states[state_id], seat)
            for card in every - known:
                code = format_cards([card])
                assert not re.search(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", html), (
                    f"{code} on the page of seat {seat} at state {state_id}"
                )
                assert card_name(code) not in html, f"{card_name(code)} at state {state_id}"
            checked += 1
    return checked


def results_of(page: Page, hand: int) -> dict[str, tuple[int, int]]:
    """The showdown table of a hand: player -> (total points, chips)."""
    table = page.get_by_role("table", name=f"Hand {hand}: results")
    expect(table).to_be_visible(timeout=30_000)
    out = {}
    for row in table.locator("tbody tr").all():
        name = row.locator("th").inner_text()
        out[name] = (
            int(row.locator(".total").inner_text()),
            int(row.locator(".money").inner_text()),
        )
    return out


def hand_number(page: Page) -> int:
    """The number of the hand the page shows."""
    status = page.locator(".table-status")
    expect(status).to_contain_text(re.compile(r"Hand \d+"))
    found = re.search(r"Hand (\d+)", status.inner_text())
    assert found
    return int(found.group(1))


def last_result(page: Page) -> int:
    """The chips the account won or lost in its latest hand, as the room settled it."""
    hands = page.request.get("/api/hands").json()
    return int(hands[0]["result"])
