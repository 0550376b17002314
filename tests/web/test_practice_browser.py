"""Duplicate practice in the browser: start a run from #/practice, play a hand at its table,
see the difference against the strong bot in the table's panel (as the room counts it), then the
bot's rows beside yours on the run's page and the run in your list."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect
from test_table_support import card_name, click_fill, hand_cards, plan, play


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def test_a_run_from_start_to_the_first_difference(new_context: Any, page_errors: Any) -> None:
    page_errors.expect("409")  # the refused buy-in below
    page: Page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": "a good pw 1"})
    assert answer.ok, answer.text()
    page.goto("/#/lobby")
    page.get_by_role("navigation", name="Room").get_by_role("link", name="Practice").click()
    expect(page.get_by_role("heading", name="Duplicate practice", level=1)).to_be_visible()
    expect(page.get_by_text("No run yet.")).to_be_visible()

    # a refusal in the room's words, nothing taken
    form = page.get_by_role("form", name="Start a run")
    form.get_by_role("combobox", name="Game").select_option("chinese-1-6")
    form.get_by_role("spinbutton", name="Deals").fill("2")
    form.get_by_role("spinbutton", name="Buy-in (chips)").fill("20000")
    form.get_by_role("button", name="Start the run").click()
    expect(form.get_by_role("alert")).to_have_text(
        "Your wallet holds 10000 chips; this run's buy-in is 20000."
    )

    form.get_by_role("spinbutton", name="Buy-in (chips)").fill("300")
    form.get_by_role("combobox", name="Opponents", exact=True).select_option(label="1 bot")
    form.get_by_role("combobox", name="Opponents' level").select_option("club")
    form.get_by_role("button", name="Start the run").click()
    expect(page).to_have_url(re.compile(r"#/table/\d+$"))
    table_id = int(page.url.rsplit("/", 1)[1])
    expect(page.get_by_role("region", name=re.compile(r"ann \(you\)"))).to_be_visible()

    panel = page.get_by_role("region", name="Duplicate practice: you against the strong bot")
    expect(panel.get_by_role("status")).to_have_text(
        "0 of 2 deals played. Total against the bot: 0 over 0 hands."
    )
    cards = hand_cards(page)
    expect(page.get_by_role("button", name="Hint")).to_have_count(0)  # no hints in a run
    click_fill(page, plan(page, "chinese-1-6", seed=2))
    play(page)

    # the panel after the hand: the room's numbers, the difference you minus the bot
    row = panel.get_by_role("row", name=re.compile(r"^Hand 1 "))
    expect(row).to_be_visible(timeout=30_000)
    expect(row).not_to_contain_text("playing this deal", timeout=30_000)
    run = page.request.get(f"/api/practice/duplicate/{table_id}").json()
    hand = run["hands"][0]
    assert hand["difference"] == hand["your_points"] - hand["bot_points"]
    cells = [signed(hand[k]) for k in ("your_points", "bot_points", "difference", "running_total")]
    expect(row.get_by_role("cell")).to_have_text(cells)
    expect(panel.get_by_role("status")).to_contain_text(
        f"Total against the bot: {signed(hand['difference'])} over 1 hand."
    )

    # the run's page: the bot's rows beside yours, the same thirteen cards
    panel.get_by_role("link", name="Every hand with the bot's rows").click()
    expect(page).to_have_url(re.compile(rf"#/practice/{table_id}$"))
    boards = page.get_by_role("table", name="Hand 1: your rows and the bot's")
    expect(boards).to_be_visible()
    bot_names: list[str] = []
    for row_name in ("Front", "Middle", "Back"):
        line = boards.get_by_role("row", name=re.compile(rf"^{row_name} "))
        bot_cells = line.get_by_role("cell").nth(1)
        wanted = [card_name(c) for c in hand["bot_board"][row_name.lower()].split()]
        expect(bot_cells.get_by_role("img")).to_have_count(len(wanted))
        for name in wanted:
            expect(bot_cells.get_by_role("img", name=name)).to_be_visible()
        bot_names += wanted
    # the bot's rows hold the same thirteen cards; a natural it declared (the deal is random:
    # now and then it holds one) shows them in its rows or none at all, as a surrender does
    yours = [card_name(c) for c in cards]
    if bot_names or not (hand["bot_board"]["natural"] or hand["bot_board"]["surrendered"]):
        assert sorted(bot_names) == sorted(yours)
    expect(boards.get_by_role("img")).to_have_count(len(yours) + len(bot_names))  # both drawn
    names = boards.get_by_role("img").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert sorted(names) == sorted(yours + bot_names)  # yours and the bot's
    expect(page.get_by_text(f"difference {signed(hand['difference'])}")).to_be_visible()

    page.get_by_role("link", name="All your runs").click()
    runs = page.get_by_role("table", name="Your runs")
    expect(runs.get_by_role("row")).to_have_count(2)
    expect(runs.get_by_role("link", name=f"Play the run at table {table_id}")).to_be_visible()
