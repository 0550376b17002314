"""A newcomer finds their way (issue 32, item 10): the lobby says in a line what each game is and
"Play now" seats you at the fullest open table of it (or says why not); the first time this
browser sets cards a tour of the setting controls walks through them, can be skipped, and is not
shown again; Events says how a team enters and what to do when none is open; the text history
reads as the table does (ISO times, seats from 1)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect
from test_pages_hands import play_a_hand
from test_table_support import hand_cards

from thirteen.client import RoomClient

PASSWORD = "a good password"
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"


def test_play_now_and_the_first_visit_tour(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    page_errors.expect("404")  # Play now with no open table of the game: the room says why
    quick = {"showdown_seconds": 0.5}
    quiet = boss.create_table(
        "chinese-1-6", name="Quiet", seats=4, bots=1, bot_level="random", rules=quick
    )
    busy = boss.create_table(
        "chinese-1-6", name="Busy", seats=4, bots=2, bot_level="random", rules=quick
    )
    page: Page = new_context().new_page()
    page.goto("/#/lobby")
    games = page.get_by_role("region", name="Pick a game")
    expect(games.get_by_role("heading", level=3)).to_have_text(
        ["Chinese Poker", "Open-Face Chinese"]
    )
    for name, words in (("Chinese Poker", "three rows"), ("Open-Face Chinese", "face up")):
        button = games.get_by_role("button", name=f"Play now: {name}")
        expect(button).to_be_visible()
        expect(button).to_have_accessible_description(re.compile(words))
    # logged out, Play now asks you to log in first
    games.get_by_role("button", name="Play now: Chinese Poker").click()
    expect(page).to_have_url(re.compile("#/login$"))

    answer = page.request.post("/api/accounts", data={"name": "ann", "password": PASSWORD})
    assert answer.ok, answer.text()
    page.goto("/#/lobby")
    page.reload()  # the page learns of the session it did not open itself
    games.get_by_role("button", name="Play now: Open-Face Chinese").click()
    expect(games.get_by_role("alert")).to_have_text(
        re.compile(r"^No open table of Open-Face Chinese has a free seat")
    )
    games.get_by_role("button", name="Play now: Chinese Poker").click()
    expect(page).to_have_url(re.compile(rf"#/table/{busy['id']}/join$"))  # the fullest
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Sit").click()
    expect(page.get_by_role("region", name=re.compile(r"ann \(you\)"))).to_be_visible()

    # the first cards to set: the tour walks through the controls, pointing at each
    hand_cards(page)
    tour = page.get_by_role("region", name="Tour of the setting controls")
    expect(tour).to_be_visible()
    expect(tour).to_contain_text(re.compile(r"step 1 of [45]"))
    expect(tour.get_by_role("heading", level=2)).to_have_text("The cards you set")
    expect(page.locator(".tour-target")).to_have_attribute("aria-label", "Your cards")
    tour.get_by_role("button", name="Next").click()
    expect(tour.get_by_role("heading", level=2)).to_have_text("The three rows")
    expect(page.locator(".tour-target")).to_have_attribute("aria-label", "Back")
    tour.get_by_role("button", name="Previous").click()
    expect(tour.get_by_role("heading", level=2)).to_have_text("The cards you set")
    # a card placed draws the setter anew: the tour still points at your cards
    first = page.get_by_role("region", name="Your cards").get_by_role("button").first
    first.click()
    expect(page.get_by_role("region", name="Back").get_by_role("button")).not_to_have_count(0)
    expect(page.locator(".tour-target")).to_have_attribute("aria-label", "Your cards")
    tour.get_by_role("button", name="Skip the tour").click()
    expect(tour).to_be_hidden()
    expect(page.locator(".tour-target")).to_have_count(0)
    # remembered by this browser: not shown again, even after a reload
    page.reload()
    hand_cards(page)
    expect(page.get_by_role("region", name="Your cards")).to_be_visible()
    expect(page.get_by_role("region", name="Tour of the setting controls")).to_be_hidden()

    # another browser sees it, and may walk it to the end
    other = new_context().new_page()
    other.request.post("/api/accounts", data={"name": "bob", "password": PASSWORD})
    other.goto(f"/#/table/{quiet['id']}/join")
    other.get_by_role("dialog").get_by_role("button", name="Sit").click()
    hand_cards(other)
    tour = other.get_by_role("region", name="Tour of the setting controls")
    expect(tour).to_be_visible()
    steps = int(re.search(r"of (\d)", tour.inner_text()).group(1))  # type: ignore[union-attr]
    for _ in range(steps - 1):
        tour.get_by_role("button", name="Next").click()
    expect(tour.get_by_role("heading", level=2)).to_have_text("Play")
    tour.get_by_role("button", name="Done").click()
    expect(tour).to_be_hidden()
    assert other.evaluate("localStorage.getItem('thirteen.setting-tour')") == "done"


def test_events_say_how_a_team_enters(new_context: Any) -> None:
    page: Page = new_context().new_page()
    page.goto("/#/events")
    how = page.get_by_role("region", name="How a team enters")
    expect(how.get_by_role("listitem")).to_have_count(3)
    expect(how).to_contain_text("press Join beside the team's name")
    expect(page.get_by_text("No team event is registering or running right now.")).to_be_visible()
    expect(page.get_by_role("link", name="duplicate practice")).to_have_attribute(
        "href", "#/practice"
    )
    expect(
        page.get_by_role("main").get_by_role("link", name="lobby", exact=True)
    ).to_have_attribute("href", "#/lobby")


def test_the_text_history_reads_as_the_table_does(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "finn", "password": PASSWORD})
    assert answer.ok, answer.text()
    play_a_hand(room, boss, "finn", PASSWORD)
    page.goto("/#/account")
    link = page.get_by_role("link", name=re.compile(r"^Download hand \d+ as text$")).first
    text = page.request.get(str(link.get_attribute("href"))).text()
    actions = text.split("\n\n")[1].splitlines()
    assert actions
    assert all(re.match(rf"{ISO} ", line) for line in actions), actions
    assert not re.search(r"(?m)^\d{9,}\.\d+ ", text)  # no Unix timestamp
    seats = re.findall(r"(?m)^seat (\d): ", text)
    assert seats
    assert all(1 <= int(s) <= 4 for s in seats), seats
    # finn's seat in the text is the one the replay page shows
    mine = next(line for line in text.splitlines() if line.startswith("seat ") and '"finn"' in line)
    hand_id = re.search(r"hand-(\d+)", str(link.get_attribute("download"))).group(1)  # type: ignore[union-attr]
    page.goto(f"/#/hand/{hand_id}")
    expect(
        page.get_by_text(re.compile(rf"finn.*seat {mine[5]}|Seat {mine[5]}.*finn"))
    ).not_to_have_count(0)
