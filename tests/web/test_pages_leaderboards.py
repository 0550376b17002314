"""The leaderboards page after a hand: reached from the lobby, chosen by game, period and minimum
hands, people and bots on their own tables, readable on a phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect
from test_pages_hands import play_a_hand, sign_up

from thirteen.client import RoomClient

PHONE = {"width": 360, "height": 640}
COLUMNS = ["Rank", "Name", "Net units", "Hands", "Units per hand", "Big hands"]


def signed(n: float) -> str:
    """As the page writes a number with its sign (a real minus sign)."""
    return "0" if n == 0 else f"+{n:g}" if n > 0 else f"−{-n:g}"


def test_the_leaderboards_rank_people_and_bots_apart(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "finn", "password of F-I-N-N")
    table = play_a_hand(room, boss, "finn", "password of F-I-N-N")  # unit 1: chips are units
    with RoomClient(room) as finn:
        finn.log_in("finn", "password of F-I-N-N")
        (hand,) = finn.request("GET", "/api/hands")
    bot = next(p for p in boss.tables() if p["id"] == table["id"])["players"][0]
    result = hand["result"]

    page.goto("/#/lobby")
    page.get_by_role("main").get_by_role("link", name="Leaderboards").click()
    expect(page.get_by_role("heading", name="Leaderboards", level=1)).to_be_visible()
    # by default a week's board ranks after 25 hands: one hand is not enough (nor is it this
    # week's at all a few seconds after Sunday's midnight, UTC: the numbers are checked below)
    people = page.get_by_role("region", name="People")
    expect(people).to_contain_text("Nobody has played 25 hands this week yet to be ranked")
    yours = people.get_by_text(re.compile("^You:"))
    expect(yours).to_have_text(re.compile(r"; \d+ more this week to be ranked\.$"))
    # people first: until someone is ranked, everyone who played a hand, not an empty board
    # above the bots' (they come last, folded away)
    if "; 24 more this week" in yours.inner_text():  # the hand is this week's
        anyone = people.get_by_role("table", name="People: All games, this week (at least 1 hand)")
        expect(anyone.get_by_role("row").filter(has_text="finn")).to_contain_text(signed(result))
    headings = page.get_by_role("heading", level=2).all_inner_texts()
    assert headings == ["People", "Teams", "Bots"], headings
    bots_board = page.get_by_role("region", name="Bots")
    expect(bots_board.get_by_role("table")).to_have_count(0)  # folded
    bots_board.get_by_text("The room's bots, ranked apart from people").click()

    page.get_by_label("Game", exact=True).select_option("chinese-1-6")
    page.get_by_label("Period").select_option(label="All time")
    big = int(result >= 6)
    expect(yours).to_have_text(  # all time ranks after 50 hands
        f"You: 1 hand, {signed(result)} units, {big} big {'hand' if big == 1 else 'hands'}; "
        "49 more to be ranked."
    )
    page.get_by_label("Minimum hands").select_option("1")
    expect(page).to_have_url(re.compile("#/leaderboards/chinese-1-6/all$"))
    ours = people.get_by_role("table", name="People: chinese-1-6, of all time")
    expect(ours.get_by_role("columnheader")).to_have_text(COLUMNS)
    row = ours.get_by_role("rowgroup").nth(1).get_by_role("row")
    expect(row).to_have_count(1)
    expect(yours).to_contain_text("; ranked 1.")
    expect(row.get_by_role("cell")).to_have_text(
        ["1", "finn (you)", signed(result), "1", signed(result), str(int(result >= 6))]
    )
    theirs = page.get_by_role("region", name="Bots").get_by_role(
        "table", name="Bots: chinese-1-6, of all time"
    )
    expect(
        theirs.get_by_role("rowgroup").nth(1).get_by_role("row").get_by_role("cell")
    ).to_have_text(["1", bot, signed(-result), "1", signed(-result), str(int(-result >= 6))])
    expect(page.get_by_text(re.compile("^Every hand ever settled"))).to_contain_text(
        "Ranked after 1 hand"
    )
    # duplicate teams have a board of their own (no event has finished here)
    expect(page.get_by_role("region", name="Teams")).to_contain_text(
        "No team has finished an event of this game in this period."
    )

    # another game has nobody yet; the address opens a board directly, on a phone too
    page.get_by_label("Game", exact=True).select_option(label="Open-Face Chinese (every variant)")
    expect(people).to_contain_text(
        "Nobody has played 1 hand of all time yet in Open-Face Chinese (every variant)."
    )
    phone: Page = new_context(viewport=PHONE).new_page()
    phone.goto("/#/leaderboards/chinese/all")
    expect(phone.get_by_label("Game", exact=True)).to_have_value("chinese")
    expect(phone.get_by_label("Period")).to_have_value("all")
    phone.get_by_label("Minimum hands").select_option("1")
    mobile = phone.get_by_role("table", name="People: Chinese Poker (every scoring), of all time")
    expect(mobile.get_by_role("row").filter(has_text="finn")).to_contain_text(signed(result))
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
