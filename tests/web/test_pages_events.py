"""Duplicate team events in the browser (seed 004): the director creates an event, fills it with
bot teams, starts it and watches it to its final standings, downloads the results and opens a
deal side by side; a player registers a team, two teammates join, and the player follows "Your
table", confirms a hand's result at the table (the next hand waits for it) and the round's
totals on the event's page (the event finishes once they are confirmed)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from conftest import sign_up
from thirteen.client import RoomClient

FAST = {"showdown_seconds": 0.05, "first_street_seconds": 1, "street_seconds": 1}


def log_in(page: Page, name: str, password: str) -> None:
    answer = page.request.post("/api/session", data={"name": name, "password": password})
    assert answer.ok, answer.text()


def row_of(table: Locator, name: str) -> Locator:
    return table.get_by_role("row").filter(
        has=table.page.get_by_role("rowheader", name=re.compile(f"^{re.escape(name)}"))
    )


def card_names(region: Locator) -> list[str]:
    return [img.get_attribute("aria-label") or "" for img in region.get_by_role("img").all()]


RANKS = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
NUMBERS = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"]
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def signed(n: int) -> str:
    """Points as the page writes them: +3, −3 (a real minus sign), 0."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def spoken(cards: str) -> list[str]:
    """ "Qh 9c" as a screen reader says them."""
    out = []
    for c in cards.split():
        rank = RANKS.get(c[0]) or NUMBERS[int(c[0]) - 2]
        out.append(f"{rank} of {SUITS[c[1]]}")
    return out


def test_the_director_runs_an_event_of_bot_teams_from_the_browser(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    page: Page = new_context().new_page()
    log_in(page, "boss", "the chief's password")
    page.goto("/#/lobby")
    page.get_by_role("navigation", name="Room").get_by_role("link", name="Events").click()
    expect(page).to_have_url(re.compile("#/events$"))
    expect(page.get_by_text("No team event is registering or running right now.")).to_be_visible()

    form = page.get_by_role("form", name="Create event")
    expect(form.get_by_label("Preset")).to_have_value("open-face-cards")
    form.get_by_label("Name", exact=True).fill("Bots' cup")
    form.get_by_label("Rounds").fill("1")
    form.get_by_label("Hands per round").fill("2")
    form.get_by_label("Seconds to confirm").fill("0")
    form.get_by_label("Bot teams play").select_option("heuristic")
    form.get_by_label("Showdown on show").fill("0.05")
    form.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"#/event/\d+$"))
    event_id = int(page.url.rsplit("/", 1)[1])
    expect(page.get_by_role("heading", name="Bots' cup", level=1)).to_be_visible()
    created = boss.request("GET", f"/api/events/{event_id}")
    assert (created["preset"], created["rounds"], created["hands_per_round"]) == (
        "open-face-cards",
        1,
        2,
    )
    assert created["confirm_seconds"] == 0
    assert created["status"] == "registering"

    # a start with no teams is refused in the room's words
    page_errors.expect("409")
    page.get_by_role("button", name="Start event").click()
    expect(page.get_by_role("alert").filter(has_text="multiple of three")).to_be_visible()

    page.get_by_label("Bot teams", exact=True).fill("3")
    page.get_by_role("button", name="Add bot teams").click()
    teams = page.get_by_role("table", name="Registered teams")
    for name in ("Bots 1", "Bots 2", "Bots 3"):
        expect(row_of(teams, name)).to_contain_text("Full")
    page.get_by_role("button", name="Start event").click()
    expect(page.get_by_role("alert").filter(has_text="multiple of three")).to_have_count(0)

    # the standings appear, then the final standings once both hands were played everywhere
    expect(page.get_by_role("table", name="Standings").get_by_role("row")).to_have_count(4)
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible(timeout=90_000)
    final = boss.request("GET", f"/api/events/{event_id}")
    assert final["status"] == "finished"
    standings = page.get_by_role("table", name="Standings")
    for team in final["standings"]:
        row = row_of(standings, team["name"])
        expect(row.get_by_role("cell").first).to_have_text(str(team["rank"]))
        expect(row.get_by_role("cell").last).to_have_text(signed(team["total"]))
    hands = page.get_by_role("table", name=re.compile("^Round 1, group 1: "))
    expect(hands.get_by_role("row")).to_have_count(3)
    expect(hands).not_to_contain_text("in play")
    group = final["round_results"][0]["groups"][0]
    first = group["hands"][0]
    names = {t["id"]: t["name"] for t in final["standings"]}
    hand_row = row_of(hands, "Hand 1")
    for team_id, score in first["scores"].items():
        column = group["teams"].index(int(team_id))
        expect(hand_row.get_by_role("cell").nth(column)).to_have_text(signed(score))

    # the results to download: every seat of every hand
    link = page.get_by_role("link", name="Download results (CSV)")
    href = link.get_attribute("href")
    assert href == f"/api/events/{event_id}/results.csv"
    answer = page.request.get(href)
    assert answer.ok
    assert answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text())))
    assert len(rows) == 2 * 3 * 3
    by_team: dict[str, int] = {}
    for r in rows:
        by_team[r["team"]] = by_team.get(r["team"], 0) + int(r["points"])
    assert by_team == {t["name"]: t["total"] for t in final["standings"]}
    json_link = page.get_by_role("link", name="Download results (JSON)")
    expect(json_link).to_have_attribute("href", f"/api/events/{event_id}/results.json")

    # the director rules a foul: the player's hand is scored again, the standings move
    bot_player = final["standings"][0]["members"][0]["name"]
    rule = page.get_by_role("form", name="Rule")
    rule.get_by_label("Player").fill("nobody")
    rule.get_by_label("Reason").fill("Changed a card after placing it")
    page_errors.expect("404")
    rule.get_by_role("button", name="Rule").click()
    expect(rule.get_by_role("alert")).to_contain_text("plays in no team")
    rule.get_by_label("Player").fill(bot_player)
    rule.get_by_label("Round").fill("1")
    rule.get_by_label("Hand").fill("1")
    rule.get_by_role("button", name="Rule").click()
    rulings = page.get_by_role("table", name="Rulings")
    ruled = row_of(rulings, "Foul")
    expect(ruled).to_contain_text(bot_player)
    expect(ruled).to_contain_text("Changed a card after placing it")
    after = boss.request("GET", f"/api/events/{event_id}")
    (ruling,) = after["rulings"]
    assert ruling["kind"] == "foul"
    # a foul moves points unless the hand was fouled already
    assert sum(t["rulings"] for t in after["standings"]) == sum(ruling["points"].values())
    for team in after["standings"]:
        row = row_of(standings, team["name"])
        expect(row.get_by_role("cell").nth(-2)).to_have_text(signed(team["rulings"]))
        expect(row.get_by_role("cell").last).to_have_text(signed(team["total"]))

    # ruled after the finish: the standings say they changed, by whom, when and why — to anyone
    assert after["changed_after_finish"][0]["by"] == "boss"
    expect(ruled).to_contain_text("(after the finish)")
    expect(ruled.get_by_role("cell").nth(-2)).to_have_text("boss")
    guest: Page = new_context().new_page()
    guest.goto(f"/#/event/{event_id}")
    for looker in (page, guest):
        heading = looker.get_by_role("heading", name="Final standings, changed after the finish")
        expect(heading).to_be_visible()
        note = looker.get_by_role("note", name="Changed after the finish")
        expect(note).to_contain_text(f"Foul ({bot_player}), ruled by boss", use_inner_text=True)
        expect(note).to_contain_text("Changed a card after placing it")
        expect(note.locator("time")).to_have_count(1)
    # another admin does not direct this event: no form to rule, and the room refuses too
    ref: Page = new_context().new_page()
    sign_up(ref, "ref")
    ref.goto(f"/#/event/{event_id}")
    expect(ref.get_by_role("note", name="Changed after the finish")).to_be_visible()
    expect(ref.get_by_role("form", name="Rule")).to_be_hidden()
    refused = ref.request.post(
        f"/api/events/{event_id}/rulings",
        data={"kind": "warning", "player": bot_player, "reason": "Not mine to rule."},
        headers={"x-csrf-token": ref.request.get("/api/me").json()["csrf_token"]},
    )
    assert refused.status == 403
    assert refused.json()["error"]["code"] == "not_director"

    # a deal side by side: seat by seat, the three teams' rows of the same cards
    page.get_by_role("link", name="Side by side: round 1, group 1, hand 1").click()
    expect(page).to_have_url(re.compile(f"#/event/{event_id}/deal/1/1/1$"))
    side = boss.request("GET", f"/api/events/{event_id}/deals/1/1/1")
    for seat in side["seats"]:
        region = page.get_by_role("region", name=f"Seat {seat['seat'] + 1}")
        assert len({p["team"] for p in seat["plays"]}) == 3
        for play in seat["plays"]:
            board = region.get_by_role("region", name=f"{play['team']}: {play['player']}")
            expect(board).to_be_visible()
            for row, size in (("front", 3), ("middle", 5), ("back", 5)):
                cards = board.get_by_role("region", name=row.capitalize()).get_by_role("img")
                expect(cards).to_have_count(size)
                assert card_names(board.get_by_role("region", name=row.capitalize())) == spoken(
                    play[row]
                )
    assert set(names.values()) == set(side["teams"])
    page.get_by_role("link", name="Next hand").click()
    expect(page).to_have_url(re.compile(f"#/event/{event_id}/deal/1/1/2$"))
    expect(
        page.get_by_role("region", name="Seat 3")
        .get_by_role("region", name="Back")
        .first.get_by_role("img")
    ).to_have_count(5)


def test_a_player_registers_plays_at_their_table_and_confirms(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    event = boss.request(
        "POST",
        "/api/events",
        {
            "preset": "open-face-cards",
            "name": "Owls' open",
            "rounds": 1,
            "hands_per_round": 2,
            "confirm_seconds": 90,  # longer than any wait below: only confirming moves it on
            "rules": FAST,
            "bot_level": "heuristic",
        },
    )
    eid = event["id"]
    page: Page = new_context().new_page()
    sign_up(page, "ann")
    page.goto("/#/events")
    page.get_by_role("link", name="Owls' open").click()
    expect(page).to_have_url(re.compile(f"#/event/{eid}$"))

    page.get_by_label("Team name").fill("Night Owls")
    page.get_by_role("button", name="Register a team").click()
    expect(page.get_by_text("You play for Night Owls as its player 1.")).to_be_visible()
    teams = page.get_by_role("table", name="Registered teams")
    owls = row_of(teams, "Night Owls")
    expect(owls).to_contain_text("1. ann")
    expect(owls).to_contain_text("2 free")
    expect(page.get_by_role("form", name="Register a team")).to_be_hidden()
    expect(owls.get_by_role("button", name="Join Night Owls")).to_have_count(0)  # in it already

    team_id = boss.request("GET", f"/api/events/{eid}")["standings"][0]["id"]
    mates = [RoomClient(room), RoomClient(room)]
    try:
        for client, name in zip(mates, ("bea", "cal"), strict=True):
            client.sign_up(name, "a good password")
            client.request("POST", f"/api/events/{eid}/teams/{team_id}/members")
        expect(owls).to_contain_text("3. cal")
        expect(owls).to_contain_text("Full")

        boss.request("POST", f"/api/events/{eid}/bot-teams", {"count": 2})
        boss.request("POST", f"/api/events/{eid}/start")

        # the event page sends the player to their table
        yours = page.get_by_role("link", name="Your table")
        expect(yours).to_be_visible()
        mine = page.request.get(f"/api/events/{eid}").json()["you"]
        assert mine["number"] == 1
        expect(yours).to_have_attribute("href", f"#/table/{mine['table_id']}")
        yours.click()
        expect(page).to_have_url(re.compile(f"#/table/{mine['table_id']}$"))
        expect(page.get_by_role("link", name="Event standings")).to_have_attribute(
            "href", f"#/event/{eid}"
        )

        # the timer plays for everyone; at the showdown the next deal waits for the players
        confirm = page.get_by_role("button", name="Confirm the result of hand 1")
        expect(confirm).to_be_visible(timeout=60_000)
        expect(page.get_by_role("status").filter(has_text="Hand 1: showdown")).to_be_visible()
        for client in mates:
            client.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 1})
        confirm.click()
        # (the next deal may come at once and end the showdown: no sentence to wait for)
        expect(confirm).to_have_count(0)
        # the three confirmed: hand 2 is dealt long before the 90 seconds would have let it
        expect(page.get_by_role("status").filter(has_text=re.compile("^Hand 2"))).to_be_visible(
            timeout=30_000
        )

        page.get_by_role("link", name="Event standings").click()
        expect(page).to_have_url(re.compile(f"#/event/{eid}$"))
        hands = page.get_by_role("table", name=re.compile("^Round 1, group 1: "))
        expect(row_of(hands, "Hand 1")).to_contain_text("confirmed by 3 players (you too)")
        expect(row_of(hands, "Hand 1").get_by_role("button")).to_have_count(0)
        totals = page.get_by_role("button", name="Confirm round 1 team totals")
        expect(totals).to_be_visible(timeout=60_000)
        expect(row_of(hands, "Hand 2")).not_to_contain_text("in play")
        for client in mates:
            client.request("POST", f"/api/events/{eid}/confirmations", {"round": 1, "hand": 0})
        totals.click()
        expect(page.get_by_role("heading", name="Final standings")).to_be_visible(timeout=30_000)
        final = boss.request("GET", f"/api/events/{eid}")
        assert final["status"] == "finished"
        assert final["round_results"][0]["confirmed"] == 3
        standings = page.get_by_role("table", name="Standings")
        expect(standings.get_by_role("row")).to_have_count(4)
        ours = row_of(standings, "Night Owls")
        expect(ours).to_contain_text("ann, bea, cal")
        expect(ours).to_contain_text("(your team)")
        owls_final = next(t for t in final["standings"] if t["name"] == "Night Owls")
        expect(ours.get_by_role("cell").first).to_have_text(str(owls_final["rank"]))
        expect(page.get_by_role("link", name="Your table")).to_have_count(0)
    finally:
        for client in mates:
            client.close()


def test_teams_register_join_and_leave_and_the_director_cancels(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    event = boss.request("POST", "/api/events", {"name": "Club night", "rounds": 2})
    eid = event["id"]
    # nobody logged in: the teams, and how to take part
    guest: Page = new_context().new_page()
    page_errors.expect("404")
    guest.goto("/#/event/999")
    expect(guest.get_by_role("alert").filter(has_text="There is no event 999.")).to_be_visible()
    guest.goto(f"/#/event/{eid}")
    expect(guest.get_by_text("No team has registered yet.")).to_be_visible()
    expect(guest.get_by_role("link", name="Log in")).to_have_count(2)  # the bar's and the page's
    expect(guest.get_by_role("form", name="Register a team")).to_be_hidden()
    expect(guest.get_by_role("button", name="Start event")).to_have_count(0)

    ann: Page = new_context().new_page()
    sign_up(ann, "ann")
    ann.goto(f"/#/event/{eid}")
    ann.get_by_label("Team name").fill("Night Owls")
    ann.get_by_role("button", name="Register a team").click()
    expect(ann.get_by_text("You play for Night Owls as its player 1.")).to_be_visible()

    bea: Page = new_context().new_page()
    sign_up(bea, "bea")
    bea.goto(f"/#/event/{eid}")
    # a name taken is refused in the room's words
    page_errors.expect("409")
    bea.get_by_label("Team name").fill("night owls")
    bea.get_by_role("button", name="Register a team").click()
    expect(bea.get_by_role("alert").filter(has_text="already registered")).to_be_visible()
    owls = row_of(bea.get_by_role("table", name="Registered teams"), "Night Owls")
    owls.get_by_role("button", name="Join Night Owls").click()
    expect(bea.get_by_text("You play for Night Owls as its player 2.")).to_be_visible()
    expect(owls).to_contain_text("1. ann, 2. bea")
    expect(owls).to_contain_text("1 free")
    # the captain's page follows by itself
    ann_owls = row_of(ann.get_by_role("table", name="Registered teams"), "Night Owls")
    expect(ann_owls).to_contain_text("2. bea")

    bea.get_by_role("button", name="Leave my team").click()
    expect(owls).to_contain_text("2 free")
    expect(owls.get_by_role("button", name="Join Night Owls")).to_be_visible()
    expect(ann_owls).not_to_contain_text("bea")
    assert [
        m["name"] for m in boss.request("GET", f"/api/events/{eid}")["standings"][0]["members"]
    ] == ["ann"]

    director: Page = new_context().new_page()
    log_in(director, "boss", "the chief's password")
    director.goto(f"/#/event/{eid}")
    director.get_by_role("button", name="Cancel event").click()
    director.get_by_role("button", name="No, keep it").click()
    expect(director.get_by_role("button", name="Yes, cancel the event")).to_be_hidden()
    assert boss.request("GET", f"/api/events/{eid}")["status"] == "registering"
    director.get_by_role("button", name="Cancel event").click()
    director.get_by_role("button", name="Yes, cancel the event").click()
    expect(director.get_by_text(re.compile("· Cancelled ·"))).to_be_visible()
    assert boss.request("GET", f"/api/events/{eid}")["status"] == "cancelled"
    expect(ann.get_by_text(re.compile("· Cancelled ·"))).to_be_visible()
    expect(ann.get_by_role("button", name="Leave my team")).to_have_count(0)
