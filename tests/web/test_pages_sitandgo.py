"""The lobby's sit & go list: Register and Unregister (the wallet moves and comes back), a
refusal in the room's words, and Play once the tournament's table runs."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from thirteen.client import RoomClient


def sngs(page: Page) -> Locator:
    return page.get_by_role("table", name="Sit & go tournaments")


def balance(page: Page) -> int:
    answer = page.request.get("/api/me")
    assert answer.ok, answer.text()
    value: int = answer.json()["balance"]
    return value


def test_a_player_registers_unregisters_and_plays_a_sit_and_go(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    cup = boss.request(
        "POST",
        "/api/tournaments",
        {
            "preset": "ofc",
            "name": "Cup",
            "rules": {"showdown_seconds": 0.05},
            "seats": 2,
            "buy_in": 100,
            "starting_stack": 500,
            "unit": 2,
            "rise_every": 3,
            "bot_level": "heuristic",
        },
    )
    boss.request(
        "POST",
        "/api/tournaments",
        {"preset": "chinese-1-6", "name": "High roller", "buy_in": 10**9},
    )
    page: Page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": "a good one!"})
    assert answer.ok, answer.text()
    start = balance(page)
    page.goto("/#/lobby")
    row = (
        sngs(page)
        .get_by_role("row")
        .filter(has=page.get_by_role("rowheader", name=re.compile("^Cup")))
    )
    expect(row).to_contain_text("0 of 2 registered")
    expect(row).to_contain_text("Pool 0")
    expect(row).to_contain_text("1st 200")  # the whole pool when the seats fill
    expect(row).to_contain_text("Unit 2, +50% every 3 hands")

    row.get_by_role("button", name="Register for Cup (sit & go #1)").click()
    expect(row).to_contain_text("1 of 2 registered")
    expect(row).to_contain_text("ann")
    expect(page.locator("#announce")).to_contain_text("registered for Cup")
    assert balance(page) == start - 100

    row.get_by_role("button", name="Unregister from Cup (sit & go #1)").click()
    expect(row).to_contain_text("0 of 2 registered")
    expect(row.get_by_role("button", name="Register for Cup (sit & go #1)")).to_be_visible()
    assert balance(page) == start

    # a refusal says why, in the room's words
    page_errors.expect("409")
    sngs(page).get_by_role("button", name="Register for High roller (sit & go #2)").click()
    expect(page.get_by_role("alert").filter(has_text="chips")).to_be_visible()
    assert balance(page) == start

    # the last seat starts it: the lobby shows Play for its player
    row.get_by_role("button", name="Register for Cup (sit & go #1)").click()
    expect(row).to_contain_text("1 of 2 registered")
    boss.request("POST", f"/api/tournaments/{cup['id']}/bots", {})
    play = row.get_by_role("link", name="Play Cup (sit & go #1)")
    expect(play).to_be_visible()
    table_id = boss.request("GET", f"/api/tournaments/{cup['id']}")["table_id"]
    expect(play).to_have_attribute("href", f"#/table/{table_id}")

    # the table page works as any table's, and says what its chips are
    play.click()
    expect(page).to_have_url(re.compile(f"#/table/{table_id}$"))
    expect(page.get_by_text(re.compile("sit & go #1, 500 tournament chips each"))).to_be_visible()
    expect(page.get_by_text(re.compile("1 point = 2 chips"))).to_be_visible()
