"""Setting cards at the table (issue 32): the row names, royalties and foul warning are on the
page in the same task as the move that changed them (the browser computes them; nothing asks
the room); Play on a fouling hand asks first, saying why and what a foul costs; the natural
picker keeps its choice after the room refuses it; a double click places the card clicked and
no other; a card dropped on a full place of a row with free places takes a free place; the arrow
keys move between cards; after Play the focus lands on the next deal's first card; on a touch
phone one tap places a card as a click does (back first, right to left), and the tapped card
stays chosen for a tap on a row, with a line saying so; at OFC streets (rows partly filled,
earlier cards locked) the names are there on the move too, and the focus lands on the next
street's first card."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import Page, Request, expect
from test_table_support import (
    REGIONS,
    card_in,
    card_name,
    click_fill,
    confirm_foul,
    drag,
    hand_cards,
    sit,
    warned_foul,
)

from conftest import PHONE
from thirteen.client import RoomClient
from thirteen.engine import get_rules
from thirteen.engine.arrangement import assess
from thirteen.engine.rules import Rules

CLICK_AND_READ = """(el) => {
  el.click();
  // read in the same task as the click: nothing has had a chance to arrive from the room
  const names = document.querySelectorAll(".setter .hand-name[data-row]");
  return [...names].map((e) => e.textContent);
}"""


CHOICES_FIT = """(el) => {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = getComputedStyle(el).font;
  const widest = Math.max(...[...el.options].map((o) => ctx.measureText(o.text).width));
  return widest <= el.clientWidth;
}"""


def _shown(rules: Rules, rows: dict[str, list[str]]) -> list[str]:
    """What the page should show for each row: the engine's name, with the royalty if any."""
    found = assess(rules, *(" ".join(rows.get(r, [])) for r in ("front", "middle", "back")))
    return [
        f"{r.name}{f' · royalty {r.royalty}' if r.royalty else ''}" if r.name else ""
        for r in found.rows
    ]


def _arrangement(rules: Rules, cards: list[str], foul: bool, seed: int) -> dict[str, list[str]]:
    """An arrangement of the 13 cards that fouls (or does not), found by shuffling."""
    rng = random.Random(seed)
    for _ in range(10_000):
        order = rng.sample(cards, 13)
        rows = {"front": order[:3], "middle": order[3:8], "back": order[8:]}
        if assess(rules, *(" ".join(rows[r]) for r in ("front", "middle", "back"))).foul == foul:
            return rows
    raise AssertionError("no such arrangement")


def _natural_kept_after_refusal(page: Page) -> None:
    natural = page.get_by_role("combobox", name="Natural")
    options = natural.locator("option")
    last = options.nth(options.count() - 1)
    # held naturals sort first: the last is one these cards do not make
    assert "you hold it" not in last.inner_text()
    chosen = last.get_attribute("value")
    assert chosen
    natural.select_option(chosen)
    page.get_by_role("button", name="Declare natural").click()
    expect(page.locator(".setter").get_by_role("alert")).to_contain_text(re.compile(r"\w"))
    expect(natural).to_have_value(chosen)
    box, room = natural.bounding_box(), page.viewport_size
    assert box
    assert room
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= room["width"]
    assert natural.evaluate(CHOICES_FIT), "the picker cuts its choices off"


def test_setting_by_mouse_and_keys(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(
        "chinese-1-6", seats=2, bots=1, bot_level="heuristic", rules={"showdown_seconds": 1}
    )
    rules = get_rules("chinese-1-6")
    page = new_context().new_page()
    asked: list[str] = []

    def watch(request: Request) -> None:
        if "/evaluate" in request.url:
            asked.append(request.url)

    page.on("request", watch)
    sit(page, table["id"], "ann")
    cards = hand_cards(page)

    _natural_kept_after_refusal(page)

    # a double click on a card of the hand places that card, not the one that slides under
    first, second = cards[0], cards[1]
    card_in(page, "set", first).dblclick()
    expect(card_in(page, "back", first)).to_be_visible()
    expect(card_in(page, "set", second)).to_be_visible()
    assert hand_cards(page) == cards[1:]  # nothing else moved (not even there and back)
    # dropped on the back's full place while the back has room: both stay in the back
    drag(page, card_in(page, "set", second), card_in(page, "back", first))
    expect(card_in(page, "back", second)).to_be_visible()
    expect(card_in(page, "back", first)).to_be_visible()

    # the arrow keys move between cards: along your cards, and up to the row above
    rest = hand_cards(page)
    card_in(page, "set", rest[0]).focus()
    page.keyboard.press("ArrowRight")
    expect(card_in(page, "set", rest[1])).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(card_in(page, "set", rest[0])).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(card_in(page, "back", second)).to_be_focused()  # the back: second, then first

    # the names are there in the same task as each click, as the engine names them
    placed = {"back": [second, first]}
    for i, card in enumerate(rest):
        row = "back" if i < 3 else "middle" if i < 8 else "front"
        placed.setdefault(row, []).append(card)
        shown = card_in(page, "set", card).evaluate(CLICK_AND_READ)
        expect(card_in(page, row, card)).to_be_visible()
        assert shown == _shown(rules, placed), (card, shown)
    # Reset all: the names go with the cards, at once
    reset = page.get_by_role("button", name="Reset all")
    names = reset.evaluate(CLICK_AND_READ)
    assert names == ["", "", ""]

    # a hand that fouls: the warning at once, and Play asks first
    fouling = _arrangement(rules, cards, foul=True, seed=1)
    click_fill(page, fouling)
    warning = assess(rules, *(" ".join(fouling[r]) for r in ("front", "middle", "back"))).warning
    assert warning
    expect(page.locator(".setter").get_by_text(f"Warning: {warning}")).to_be_visible()
    page.get_by_role("button", name="Play", exact=True).click()
    question = page.locator(".setter").get_by_role("alert").filter(has_text="does not foul")
    expect(question).to_contain_text(warning)
    expect(question).to_contain_text(
        f"pays each opponent who does not foul {rules.foul_cost} points, plus their royalties"
    )
    keep = page.get_by_role("button", name="Keep setting")
    expect(keep).to_be_focused()
    expect(page.get_by_role("button", name="Play the fouled hand")).to_be_visible()
    keep.click()
    play = page.get_by_role("button", name="Play", exact=True)
    expect(play).to_be_focused()
    expect(page.get_by_role("button", name="Play the fouled hand")).to_have_count(0)

    # a clean hand plays at once; the focus lands on the next deal's first card
    page.get_by_role("button", name="Reset all").click()
    click_fill(page, _arrangement(rules, cards, foul=False, seed=2))
    assert asked == [], asked  # nothing waited on the room while setting
    play.click()
    next_cards = page.get_by_role("region", name="Your cards").get_by_role("button")
    expect(next_cards.first).to_be_focused(timeout=30_000)
    assert hand_cards(page) != cards


def test_one_tap_places_a_card(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table("chinese-1-6", seats=2, bots=1, bot_level="heuristic")
    page = sit(new_context(touch=True, viewport=PHONE).new_page(), table["id"], "bob")
    cards = hand_cards(page)
    setter = page.locator(".setter")
    _natural_kept_after_refusal(page)  # and on the phone's screen, whole

    # a tap places the card (back, rightmost place) and keeps it chosen; a line says what next
    card_in(page, "set", cards[0]).tap()
    back = page.get_by_role("region", name="Back")
    expect(back.locator(".slot").nth(4).get_by_role("button")).to_have_accessible_name(
        card_name(cards[0])
    )
    expect(setter.get_by_role("button", name=card_name(cards[0]), pressed=True)).to_be_visible()
    expect(setter.get_by_text(f"{card_name(cards[0])} went to the back")).to_be_visible()
    page.get_by_role("region", name=REGIONS["front"]).locator(".row-label").tap()
    expect(card_in(page, "front", cards[0])).to_be_visible()
    expect(setter.get_by_text("went to the back")).to_have_count(0)

    # a tap on a placed card chooses it; the line says to tap a row
    card_in(page, "front", cards[0]).tap()
    expect(setter.get_by_text("now tap a row")).to_be_visible()
    page.get_by_role("region", name="Middle").locator(".row-label").tap()
    expect(card_in(page, "middle", cards[0])).to_be_visible()

    # the other twelve: one tap each fills the rows (back, then middle, then front)
    for i, card in enumerate(cards[1:]):
        card_in(page, "set", card).tap()
        row = "back" if i < 5 else "middle" if i < 9 else "front"
        expect(card_in(page, row, card)).to_be_visible()
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_enabled()


def _rows_on_page(page: Page) -> dict[str, list[str]]:
    """The cards each row of the setter holds, earlier streets' included."""
    return {
        row: page.get_by_role("region", name=REGIONS[row])
        .locator(".card[data-card]")
        .evaluate_all("els => els.map(e => e.dataset.card)")
        for row in ("front", "middle", "back")
    }


def test_ofc_streets_named_at_once(boss: RoomClient, new_context: Any) -> None:
    """At OFC streets (rows partly filled, earlier cards locked) the names are there on the move;
    after Play the focus lands on the next street's first card."""
    preset = "ofc-pineapple"
    table = boss.create_table(
        preset,
        seats=2,
        bots=1,
        bot_level="heuristic",
        rules={"first_street_seconds": 60, "street_seconds": 60},
    )
    rules = get_rules(preset)
    page = new_context().new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/evaluate" in r.url else None)
    sit(page, table["id"], "ann")
    for street in range(3):
        cards = hand_cards(page)
        if street:
            expect(card_in(page, "set", cards[0])).to_be_focused()
        keep = cards[:5] if street == 0 else cards[:2]
        for card in keep:
            shown = card_in(page, "set", card).evaluate(CLICK_AND_READ)
            expect(card_in(page, "set", card)).to_have_count(0)
            assert shown == _shown(rules, _rows_on_page(page)), (street, card, shown)
        for card in cards[len(keep) :]:
            card_in(page, "set", card).focus()
            page.keyboard.press("d")
            expect(card_in(page, "discard", card)).to_be_visible()
        fouls = warned_foul(page)
        key = page.locator(".setter").get_attribute("data-key")
        page.get_by_role("button", name="Play", exact=True).click()
        confirm_foul(page, fouls)
        expect(page.locator(f'.setter[data-key="{key}"]')).to_have_count(0, timeout=30_000)
    assert asked == [], asked
