"""Accessibility checked by a real engine (issue 32): axe-core (``axe-playwright-python``) finds
no serious or critical violation on any page — the lobby (with its sit & gos), log in, sign up,
the account, a hand's replay, the leaderboards, the events and an event's page, duplicate
practice and a run's page, a table of each game at the deal and at the showdown, a sit & go's
table — in both themes (the two-colour deck on a light page, the four-colour deck with the
browser asking for dark) and at desktop and phone size. One room, one walk: every page is
checked in the four looks before the walk moves on."""

from __future__ import annotations

import json
import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, ViewportSize, expect
from test_table_ofc import street, turn_or_showdown
from test_table_support import click_fill, hand_cards, plan, play

from conftest import DESKTOP, PHONE
from thirteen.client import RoomClient

PASSWORD = "a good password"
BAD = ("serious", "critical")
SIZES = {
    name: ViewportSize(width=size["width"], height=size["height"])
    for name, size in (("desktop", DESKTOP), ("phone", PHONE))
}
THEMES = ("two-colour, light", "four-colour, dark")
AXE = Axe()
RUN = """async () => JSON.stringify((await axe.run(document, { resultTypes: ["violations"] })).violations)"""
"""axe on the whole page, its violations as JSON text: what ``Axe.run`` answers, without handing
Playwright the whole result to serialize (a third of each check's time) or loading the engine
again into a page that has it."""


def violations(page: Page) -> list[dict[str, Any]]:
    """What axe finds on the page as it is (its engine loaded once per document)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.axe_script)
    found: list[dict[str, Any]] = json.loads(page.evaluate(RUN))
    return found


SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect?.getTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""
"""Waits for the page's animations (the deal, the showdown's flips) to end."""


class Walk:
    """The pages checked so far and what axe found on them."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: list[str] = []
        self.checked = 0

    def theme(self, name: str) -> None:
        four = name.startswith("four")
        self.page.emulate_media(color_scheme="dark" if four else "light")
        button = self.page.get_by_role("navigation", name="Room").get_by_role(
            "button", name="Four-colour deck"
        )
        if (button.get_attribute("aria-pressed") == "true") != four:
            button.click()
        expect(button).to_have_attribute("aria-pressed", "true" if four else "false")

    def check(self, where: str) -> None:
        """Axe on the page as it is, in each theme at each size."""
        for theme in THEMES:
            self.theme(theme)
            for size, viewport in SIZES.items():
                self.page.set_viewport_size(viewport)
                self.page.evaluate(SETTLED)  # a card mid-flip is half transparent: not a finding
                self.checked += 1
                for v in violations(self.page):
                    if v["impact"] in BAD:
                        targets = "; ".join(
                            " ".join(n["target"]) + f" ({n.get('failureSummary', '')})"
                            for n in v["nodes"][:4]
                        )
                        self.found.append(
                            f"{where} ({theme}, {size}): {v['id']} [{v['impact']}] "
                            f"{len(v['nodes'])}× {targets}"
                        )
        self.page.set_viewport_size(SIZES["desktop"])


def test_axe_finds_nothing_serious_on_any_page(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    slow_showdown = {"showdown_seconds": 300}
    chinese = boss.create_table(
        "chinese-1-6", name="Axe Chinese", seats=2, bots=1, bot_level="random", rules=slow_showdown
    )
    ofc = boss.create_table(
        "ofc", name="Axe OFC", seats=2, bots=1, bot_level="random", rules=slow_showdown
    )
    boss.request(
        "POST", "/api/tournaments", {"preset": "ofc", "name": "Axe cup", "seats": 3, "buy_in": 100}
    )
    duel = boss.request(
        "POST",
        "/api/tournaments",
        {"preset": "chinese-2-4", "name": "Axe duel", "seats": 2, "buy_in": 100},
    )
    event = boss.request("POST", "/api/events", {"name": "Axe night", "rounds": 1})

    page: Page = new_context().new_page()
    walk = Walk(page)
    page.goto("/#/login")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    # the engine runs in the room's pages (its CSP allows it) and would see a fault
    page.evaluate(
        "document.querySelector('main').append(Object.assign(document.createElement('button'),"
        " {id: 'nameless'}))"
    )
    walk.check("log in, with a nameless button added")
    assert walk.found, "axe saw no fault in a page holding a button without a name"
    assert all("button-name [critical]" in f and "#nameless" in f for f in walk.found), walk.found
    walk.found.clear()
    page.evaluate("document.getElementById('nameless').remove()")
    walk.check("log in")
    page.goto("/#/signup")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    walk.check("sign up")

    answer = page.request.post("/api/accounts", data={"name": "ann", "password": PASSWORD})
    assert answer.ok, answer.text()
    page.goto("/#/lobby")
    page.reload()
    expect(page.get_by_role("table", name="Sit & go tournaments")).to_be_visible()
    expect(page.get_by_role("cell", name=re.compile("Axe Chinese")).first).to_be_visible()
    walk.check("lobby")

    # a table of each game at the deal (your cards to set, the tour on show) and the showdown
    for table, preset in ((chinese, "chinese-1-6"), (ofc, "ofc")):
        page.goto(f"/#/table/{table['id']}/join")
        page.get_by_role("dialog").get_by_role("button", name="Sit").click()
        hand_cards(page)
        walk.check(f"{preset} table at the deal")
        tour = page.get_by_role("region", name="Tour of the setting controls")
        if tour.is_visible():
            tour.get_by_role("button", name="Skip the tour").click()
        if preset == "ofc":
            seed = 0
            while turn_or_showdown(page, 1):
                street(page, preset, "click", seed)
                seed += 1
        else:
            click_fill(page, plan(page, preset, seed=1))
            play(page)
        expect(page.get_by_role("table", name="Hand 1: results")).to_be_visible(timeout=60_000)
        walk.check(f"{preset} table at the showdown")

    hand_id = page.request.get("/api/hands").json()[0]["id"]
    pages = [
        ("account", "#/account", page.get_by_role("heading", level=1)),
        ("replay", f"#/hand/{hand_id}", page.get_by_role("heading", level=1)),
        ("leaderboards", "#/leaderboards", page.get_by_role("region", name="People")),
        ("events", "#/events", page.get_by_role("region", name="How a team enters")),
        ("an event", f"#/event/{event['id']}", page.get_by_role("heading", level=1)),
        ("practice", "#/practice", page.get_by_role("form", name="Start a run")),
    ]
    for where, address, ready in pages:
        page.goto(f"/{address}")
        expect(ready.first).to_be_visible()
        page.wait_for_load_state("networkidle")
        walk.check(where)
    run = page.request.post(
        "/api/practice/duplicate",
        data={"preset": "chinese-1-6", "deals": 1, "buy_in": 100},
        headers={"x-csrf-token": page.request.get("/api/me").json()["csrf_token"]},
    )
    assert run.ok, run.text()
    page.goto(f"/#/practice/{run.json()['table_id']}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Duplicate practice at table")
    walk.check("a practice run")

    # a sit & go's table once it runs (its seats filled by a bot)
    page.goto("/#/lobby")
    duel_row = page.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name=re.compile("^Axe duel"))
    )
    duel_row.get_by_role("button", name=re.compile("^Register")).click()
    expect(duel_row).to_contain_text("1 of 2 registered")
    boss.request("POST", f"/api/tournaments/{duel['id']}/bots", {})
    duel_row.get_by_role("link", name=re.compile("^Play Axe duel")).click()
    hand_cards(page)
    walk.check("a sit & go's table at the deal")

    print(f"axe: {walk.checked} checks")  # 4 per page: 2 themes × 2 sizes
    assert walk.found == [], "axe found:\n" + "\n".join(walk.found)
