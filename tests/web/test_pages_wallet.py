"""The wallet in the header is never stale: it follows every move of chips without a reload —
a sit, a top-up and a leave at a table (made from another tab too), a sit & go registration, a
duplicate practice run's buy-in and its end — and a finished practice table is no dead end: it
says the run is over and offers the run's results, a new run and the lobby (issue 32, items 1
and 6)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect
from test_table_support import click_fill, hand_cards, plan, play

from thirteen.client import RoomClient

PASSWORD = "a good password"


def wallet(page: Page) -> int:
    """What the room holds in the page's account's wallet."""
    answer = page.request.get("/api/me")
    assert answer.ok, answer.text()
    return int(answer.json()["balance"])


def expect_header(page: Page, name: str) -> None:
    """The header shows the wallet the room holds now (waits for the page to catch up)."""
    shown = f"{name} · {wallet(page):,} chips"
    expect(
        page.get_by_role("navigation", name="Room").get_by_text(re.compile(rf"^{name} · "))
    ).to_have_text(shown)


def test_the_header_follows_the_chips_at_a_table_and_a_sit_and_go(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    table = boss.create_table("chinese-1-6", seats=2, bots=0, min_buy_in=100, max_buy_in=1000)
    boss.request(
        "POST",
        "/api/tournaments",
        {"preset": "ofc", "name": "Cup", "seats": 3, "buy_in": 150, "starting_stack": 500},
    )
    page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": PASSWORD})
    assert answer.ok, answer.text()
    page.goto("/#/lobby")
    expect_header(page, "ann")
    page.goto(f"/#/table/{table['id']}/join")
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("spinbutton", name="Buy-in").fill("400")
    dialog.get_by_role("button", name="Sit").click()
    expect(page.get_by_role("region", name=re.compile(r"ann \(you\)"))).to_be_visible()
    assert wallet(page) == 9600
    expect_header(page, "ann")

    # the same account in another tab (a client of its own) tops up, then leaves: this page's
    # header follows both without a reload
    with RoomClient(room) as other:
        other.log_in("ann", PASSWORD)
        connection = other.open_table(table["id"])
        try:
            connection.do({"type": "top_up", "amount": 250})
            assert wallet(page) == 9350
            expect_header(page, "ann")
            connection.do({"type": "leave"})
        finally:
            connection.close()
    expect(page.get_by_role("region", name=re.compile(r"ann \(you\)"))).to_have_count(0)
    assert wallet(page) == 10000
    expect_header(page, "ann")

    # a sit & go's registration, and its unregistration
    page.get_by_role("navigation", name="Room").get_by_role("link", name="Lobby").click()
    cup = (
        page.get_by_role("table", name="Sit & go tournaments")
        .get_by_role("row")
        .filter(has=page.get_by_role("rowheader", name=re.compile("^Cup")))
    )
    cup.get_by_role("button", name=re.compile("^Register")).click()
    expect(cup).to_contain_text("1 of 3 registered")
    assert wallet(page) == 9850
    expect_header(page, "ann")
    cup.get_by_role("button", name=re.compile("^Unregister")).click()
    expect(cup).to_contain_text("0 of 3 registered")
    assert wallet(page) == 10000
    expect_header(page, "ann")

    # chips moved elsewhere (here: the same session, behind the page's back) while the account
    # page was open: back to the tab, the header and the wallet's balance and ledger follow
    page.get_by_role("navigation", name="Room").get_by_role("link", name="Account").click()
    balance = page.get_by_role("region", name="Wallet").get_by_text(re.compile("^Balance: "))
    expect(balance).to_have_text("Balance: 10,000 chips")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    cup_id = boss.request("GET", "/api/tournaments")["tournaments"][0]["id"]
    moved = page.request.post(
        f"/api/tournaments/{cup_id}/registration", headers={"x-csrf-token": csrf}
    )
    assert moved.ok, moved.text()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(balance).to_have_text("Balance: 9,850 chips")
    expect_header(page, "ann")


def test_a_finished_practice_run_says_so_and_shows_the_way_on(
    new_context: Any, page_errors: Any
) -> None:
    page: Page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": PASSWORD})
    assert answer.ok, answer.text()
    page.goto("/#/practice")
    form = page.get_by_role("form", name="Start a run")
    form.get_by_role("combobox", name="Game").select_option("chinese-1-6")
    form.get_by_role("spinbutton", name="Deals").fill("1")
    form.get_by_role("spinbutton", name="Buy-in (chips)").fill("300")
    form.get_by_role("combobox", name="Opponents", exact=True).select_option(label="1 bot")
    form.get_by_role("button", name="Start the run").click()
    expect(page).to_have_url(re.compile(r"#/table/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])
    hand_cards(page)
    assert wallet(page) == 9700
    expect_header(page, "ann")
    click_fill(page, plan(page, "chinese-1-6", seed=2))
    play(page)

    # the run's one deal is played: the table closes by itself, the rest of the buy-in is back
    over = page.get_by_role("region", name="This practice run is over")
    expect(over).to_be_visible(timeout=30_000)
    assert wallet(page) == 10000 + page.request.get("/api/hands").json()[0]["result"]
    expect_header(page, "ann")
    expect(page.get_by_role("button", name="Sit here")).to_have_count(0)
    expect(page.get_by_text(re.compile("Next deal in"))).to_have_count(0)
    expect(page.get_by_role("group", name="Your seat")).to_have_count(0)
    results = page.get_by_role("table", name="Hand 1: results")  # still on show, by name
    expect(results).to_be_visible()
    expect(results.get_by_role("rowheader", name="ann")).to_be_visible()
    expect(page.get_by_text("You are watching this table.")).to_be_hidden()
    expect(over.get_by_role("link", name="Start a new run")).to_have_attribute("href", "#/practice")
    expect(over.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "#/lobby")

    over.get_by_role("link", name="See the run's results").click()
    expect(page).to_have_url(re.compile(rf"#/practice/{table_id}$"))
    run = page.get_by_role("region", name=f"Duplicate practice at table {table_id}")
    expect(run.get_by_role("status")).to_have_text(re.compile(r"^1 of 1 deals played\."))
    expect(run.get_by_role("link", name="Start a new run")).to_be_visible()
    expect(run.get_by_role("link", name="Back to the table")).to_have_count(0)
    assert "null" not in run.inner_text()
