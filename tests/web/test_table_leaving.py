"""Leaving in the browser (issue 32): Leave during an OFC hand says what happens to the hand in
play and asks first; the table then plays the seat at once (the others never wait its timer);
Stay takes it back until the hand ends; and a player the room unseats is told why, with the
chips that went back to the wallet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_table_support import hand_cards, sit

from thirteen.client import RoomClient
from thirteen.server.settings import Settings

BOT_DELAY = 1.5
"""Seconds the bot waits before each move here: the hand does not end (the table plays the
leaving seat at once and the bot at once) before Stay can be clicked — its four streets left
take 6 s, Stay is clicked within a second — and the hand played out after leaving for good
takes 12 s, not 32 as at 4 s a move."""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bot_delay": BOT_DELAY})


LEAVING = re.compile(r"Your hand will be played for you by the table at once \(it does not foul")


def leave_in_hand(page: Page) -> None:
    """Leave during a hand: the dialog says what will happen; go ahead."""
    page.get_by_role("group", name="Your seat").get_by_role("button", name="Leave").click()
    dialog = page.get_by_role("dialog", name="Leave during the hand?")
    expect(dialog).to_contain_text(LEAVING)
    expect(dialog).to_contain_text("your chips return to your wallet after the showdown")
    dialog.get_by_role("button", name="Leave").click()
    expect(dialog).to_be_hidden()


def test_leave_during_an_ofc_hand_stay_and_leave_for_good(
    boss: RoomClient, new_context: Any
) -> None:
    table = boss.create_table(
        "ofc",
        seats=2,
        bots=1,
        bot_level="club",
        rules={"showdown_seconds": 30, "first_street_seconds": 120, "street_seconds": 120},
        time_bank_seconds=0,
    )
    ann = sit(new_context().new_page(), table["id"], "ann")
    seat = ann.get_by_role("group", name="Your seat")
    hand_cards(ann)  # her first street, two minutes on the clock

    # Leave, and think better of it: the dialog can be cancelled
    seat.get_by_role("button", name="Leave").click()
    dialog = ann.get_by_role("dialog", name="Leave during the hand?")
    dialog.get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()
    expect(seat.get_by_role("button", name="Stay")).to_have_count(0)

    # Leave on the first street: the table plays it at once, and Stay is offered
    leave_in_hand(ann)
    stay = seat.get_by_role("button", name="Stay")
    expect(stay).to_be_visible()
    expect(ann.locator("#main").get_by_text(LEAVING)).to_be_visible()
    expect(ann.get_by_role("region", name="Your cards")).to_have_count(0, timeout=30_000)
    stay.click()
    expect(stay).to_have_count(0)
    expect(seat.get_by_role("button", name="Leave")).to_be_visible()

    # her own streets again (the table played the first): then she leaves for good and the hand
    # ends long before one street's two minutes — nobody waits for her timer
    hand_cards(ann)
    leave_in_hand(ann)
    results = ann.locator('table.results:has(caption:text-is("Hand 1: results"))')
    expect(results).to_be_visible(timeout=100_000)  # the bot's streets: 1.5 s each
    expect(ann.get_by_text("You are watching this table.")).to_be_visible()


def test_an_unseated_player_is_told_why(boss: RoomClient, new_context: Any) -> None:
    table = boss.create_table(
        "chinese-1-6",
        seats=3,
        bots=2,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.5, "set_hand_seconds": 1},
        time_bank_seconds=0,
        sit_out_hands=1,
    )
    ann = sit(new_context().new_page(), table["id"], "ann")
    ann.get_by_role("group", name="Your seat").get_by_role("button", name="Sit out").click()
    notice = ann.get_by_role("note")
    expect(notice).to_have_text(
        re.compile(
            r"Unseated after sitting out 1 hand: your [\d,]+ chips went back to your wallet\."
        ),
        timeout=60_000,
    )
    expect(ann.get_by_text("You are watching this table.")).to_be_visible()
