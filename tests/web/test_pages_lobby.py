"""The lobby: the live table list, its filters, Join and Watch, and admins' Create and Close."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from thirteen.client import RoomClient

PHONE = {"width": 360, "height": 640}


def sign_up(page: Page, name: str, password: str = "a good password") -> None:
    answer = page.request.post("/api/accounts", data={"name": name, "password": password})
    assert answer.ok, answer.text()


def log_in(page: Page, name: str, password: str) -> None:
    answer = page.request.post("/api/session", data={"name": name, "password": password})
    assert answer.ok, answer.text()


def tables(page: Page) -> Locator:
    return page.get_by_role("table", name="Open tables")


def row(page: Page, name: str) -> Locator:
    """The row of the table called ``name`` (its row header)."""
    return (
        tables(page)
        .get_by_role("row")
        .filter(has=page.get_by_role("rowheader").filter(has_text=name))
    )


def test_the_lobby_lists_tables_and_follows_them_live(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    first = boss.create_table("chinese-1-6", name="Dragon Den", seats=4, bots=1)
    page: Page = new_context().new_page()
    page.goto("/#/lobby")
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    headers = tables(page).get_by_role("columnheader")
    expect(headers).to_have_text(
        [
            "Table",
            "Game",
            "Scoring",
            "Unit",
            "Buy-in",
            "Seats",
            "Timers",
            "Hands/hour",
            "Practice",
            "Actions",
        ]
    )
    den = row(page, "Dragon Den")
    expect(den).to_contain_text("Chinese Poker")
    expect(den.get_by_role("cell").nth(4)).to_have_text(re.compile("1 of 4 taken, 3 free"))
    expect(den).to_contain_text("50–200")
    expect(den).to_contain_text("Setting 90 s")

    # a new table appears, without reloading
    second = boss.create_table("ofc-pineapple", name="Pineapple Patch", unit=2, practice=True)
    patch = row(page, "Pineapple Patch")
    expect(patch).to_contain_text("Open-Face Chinese")
    expect(patch.get_by_role("cell").nth(2)).to_have_text("2")
    expect(patch.get_by_role("cell").nth(7)).to_have_text("Yes")
    expect(page.get_by_role("status").filter(has_text="tables")).to_have_text("2 tables")

    # a seat taken shows at once, and the focus stays where it was
    watch = den.get_by_role("link", name=re.compile("^Watch "))
    watch.focus()
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(first["id"])
        seat = next(i for i, s in enumerate(conn.view["seats"]) if s is None)
        conn.do({"type": "sit", "seat": seat, "buy_in": 100})
        expect(den.get_by_role("cell").nth(4)).to_have_text(re.compile("2 of 4 taken, 2 free"))
        expect(den).to_contain_text("ann")
        expect(watch).to_be_focused()
        conn.close()

    # a closed table goes
    boss.request("DELETE", f"/api/tables/{second['id']}")
    expect(patch).to_have_count(0)
    expect(den).to_have_count(1)


def test_filters_hide_and_show_rows_live(room: str, boss: RoomClient, new_context: Any) -> None:
    boss.create_table("chinese-1-6", name="Low Chinese", unit=1)
    boss.create_table("chinese-2-4", name="High Chinese", unit=10)
    boss.create_table("ofc", name="Full OFC", seats=2, bots=2, unit=5)
    page: Page = new_context().new_page()
    page.goto("/#/lobby")
    filters = page.get_by_role("search", name="Filter tables")
    names = tables(page).get_by_role("rowheader")
    expect(names).to_have_count(3)

    filters.get_by_label("Game").select_option(label="Open-Face Chinese")
    expect(names).to_have_count(1)
    expect(names).to_contain_text(["Full OFC"])
    filters.get_by_label("Seats free").select_option(label="At least 1")
    expect(names).to_have_count(0)
    expect(page.get_by_text("No table matches these filters.")).to_be_visible()

    filters.get_by_label("Game").select_option(label="Chinese Poker")
    expect(names).to_have_count(2)
    filters.get_by_label("From").fill("5")
    expect(names).to_have_count(1)
    expect(names).to_contain_text(["High Chinese"])
    expect(page.get_by_role("status").filter(has_text="Showing")).to_have_text(
        "Showing 1 of 3 tables"
    )
    filters.get_by_label("To").fill("9")
    expect(names).to_have_count(0)

    # a table made while filtered shows only if it matches
    boss.create_table("chinese-1-4", name="Mid Chinese", unit=7)
    expect(names).to_have_count(1)
    expect(names).to_contain_text(["Mid Chinese"])

    filters.get_by_role("button", name="Clear filters").click()
    expect(names).to_have_count(4)


def test_join_and_watch(room: str, boss: RoomClient, new_context: Any) -> None:
    open_table = boss.create_table("chinese-1-6", name="Open Table", seats=2)
    full = boss.create_table("chinese-1-6", name="Full Table", seats=2, bots=2)
    page: Page = new_context().new_page()
    page.goto("/#/lobby")
    # logged out: Join is disabled, and says why; Watch works for anyone
    join = page.get_by_role("button", name=f"Join Open Table (#{open_table['id']})")
    expect(join).to_be_disabled()
    expect(join).to_have_accessible_description("Log in to join")
    watch = page.get_by_role("link", name=f"Watch Open Table (#{open_table['id']})")
    expect(watch).to_have_attribute("href", f"#/table/{open_table['id']}/watch")

    sign_up(page, "ann")
    page.reload()
    join_link = page.get_by_role("link", name=f"Join Open Table (#{open_table['id']})")
    expect(join_link).to_have_attribute("href", f"#/table/{open_table['id']}/join")
    full_join = page.get_by_role("button", name=f"Join Full Table (#{full['id']})")
    expect(full_join).to_be_disabled()
    expect(full_join).to_have_accessible_description("Table full")
    # a player sees no admin controls
    expect(page.get_by_role("button", name="Create table")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Close "))).to_have_count(0)

    # seated at a table, she goes back to it
    with RoomClient(room) as ann:
        ann.log_in("ann", "a good password")
        conn = ann.open_table(open_table["id"])
        conn.do({"type": "sit", "seat": 0, "buy_in": 100})
        back = page.get_by_role("link", name=f"Return to Open Table (#{open_table['id']})")
        expect(back).to_have_attribute("href", f"#/table/{open_table['id']}")
        expect(join_link).to_have_count(0)
        conn.close()


def test_log_in_to_join_comes_back_to_the_table(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    table = boss.create_table("chinese-1-6", name="Open Table", seats=2)
    page: Page = new_context().new_page()
    sign_up(page, "bea", "password of B-E-A")
    page.context.clear_cookies()
    page.goto("/#/lobby")
    row(page, "Open Table").get_by_role("link", name="Log in").click()
    page.get_by_label("Name").fill("bea")
    page.get_by_label("Password", exact=True).fill("password of B-E-A")
    # the table page is another module (js/table/), not part of these tests
    page_errors.expect(r"table/table\.js|dynamically imported module")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(rf"#/table/{table['id']}/join$"))


def test_an_admin_creates_a_table_through_the_dialog(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    page: Page = new_context().new_page()
    log_in(page, "boss", "the chief's password")
    page.goto("/#/lobby")
    expect(page.get_by_text("No table is open right now.")).to_be_visible()
    page.get_by_role("button", name="Create table").click()
    dialog = page.get_by_role("dialog", name="Create table")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Name", exact=True).fill("Friday Game")
    dialog.get_by_label("Preset").select_option("chinese-2-4")
    dialog.get_by_label("Unit (chips per point)").fill("5")
    dialog.get_by_label("Seats").select_option("3")
    dialog.get_by_label("Bots", exact=True).fill("1")
    dialog.get_by_label("Bot level").select_option("heuristic")
    # the room refuses an impossible buy-in range with its own sentence
    dialog.get_by_label("Minimum buy-in").fill("500")
    dialog.get_by_label("Maximum buy-in").fill("100")
    page_errors.expect(r"400")
    dialog.get_by_role("button", name="Create").click()
    expect(dialog.get_by_role("alert")).to_have_text(
        "The buy-in range must run from at least 1 upwards."
    )
    dialog.get_by_label("Maximum buy-in").fill("2000")
    dialog.get_by_label("Practice table").check()
    dialog.get_by_label("Setting a hand").fill("60")
    dialog.get_by_label("Showdown on show").fill("3")
    dialog.get_by_role("button", name="Create").click()
    expect(dialog).to_be_hidden()

    friday = row(page, "Friday Game")
    expect(friday).to_contain_text("500–2,000")
    expect(friday).to_contain_text("1 of 3 taken, 2 free")
    expect(friday).to_contain_text("Setting 60 s")
    expect(friday).to_contain_text("Showdown 3 s")
    made = next(t for t in boss.tables() if t["name"] == "Friday Game")
    assert made["preset"] == "chinese-2-4"
    assert (made["unit"], made["seats"], made["bots"], made["practice"]) == (5, 3, 1, True)
    assert made["bot_level"] == "heuristic"
    assert made["timers"]["set_hand"] == 60


def test_an_admin_closes_a_table_after_confirming(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    table = boss.create_table("chinese-1-6", name="Short Lived")
    boss.create_table("chinese-1-6", name="Staying")
    page: Page = new_context().new_page()
    log_in(page, "boss", "the chief's password")
    page.goto("/#/lobby")
    close = page.get_by_role("button", name=f"Close Short Lived (#{table['id']})")
    close.click()
    confirm = page.get_by_role("dialog", name=f"Close Short Lived (#{table['id']})?")
    confirm.get_by_role("button", name="Keep it open").click()
    expect(confirm).to_have_count(0)
    expect(row(page, "Short Lived")).to_have_count(1)

    close.click()
    confirm.get_by_role("button", name="Close table").click()
    expect(row(page, "Short Lived")).to_have_count(0)
    expect(row(page, "Staying")).to_have_count(1)
    assert [t["name"] for t in boss.tables()] == ["Staying"]


def test_the_lobby_fits_a_phone(room: str, boss: RoomClient, new_context: Any) -> None:
    for n in range(3):
        boss.create_table("ofc-pineapple-progressive", name=f"A long table name {n}", bots=1)
    page: Page = new_context(viewport=PHONE, touch=True).new_page()
    log_in(page, "boss", "the chief's password")
    page.goto("/#/lobby")
    expect(tables(page).get_by_role("rowheader")).to_have_count(3)
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # the filters fold away on a phone
    search = page.get_by_role("search", name="Filter tables")
    expect(search).to_be_hidden()
    page.get_by_text("Filters", exact=True).click()
    expect(search.get_by_label("Game")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # the stacked rows still name every value
    first = row(page, "A long table name 0")
    expect(first.get_by_role("link", name=re.compile("^Watch "))).to_be_visible()
    page.get_by_role("button", name="Create table").click()
    expect(page.get_by_role("dialog", name="Create table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_the_lobby_reconnects_after_losing_its_socket(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    boss.create_table("chinese-1-6", name="Before")
    page: Page = new_context().new_page()
    sockets: list[WebSocketRoute] = []
    forward = [True]

    def lobby_socket(ws: WebSocketRoute) -> None:
        sockets.append(ws)
        server = ws.connect_to_server()
        if len(sockets) == 1:  # the first socket can go quiet, as a dying link does
            server.on_message(lambda message: ws.send(message) if forward[0] else None)

    page.route_web_socket(re.compile(r"/ws/lobby$"), lobby_socket)
    page.goto("/#/lobby")
    status = page.get_by_role("status").filter(has_text=re.compile("^Live$"))
    expect(status).to_be_visible()
    expect(row(page, "Before")).to_have_count(1)
    page.evaluate(
        """() => {
        const status = [...document.querySelectorAll("[role=status]")]
            .find((e) => e.textContent === "Live");
        window.statesSeen = [];
        new MutationObserver(() => window.statesSeen.push(status.textContent))
            .observe(status, {childList: true, characterData: true, subtree: true});
    }"""
    )

    forward[0] = False
    boss.create_table("chinese-1-6", name="While away")
    sockets[0].close(code=1001, reason="The room is restarting; reconnect in a moment.")
    # a new socket, and with it the list as it is now
    expect(row(page, "While away")).to_have_count(1)
    expect(row(page, "Before")).to_have_count(1)
    expect(status).to_be_visible()
    assert len(sockets) == 2
    assert page.evaluate("window.statesSeen") == ["Connection lost; reconnecting…", "Live"]


def test_columns_sort_the_list(room: str, boss: RoomClient, new_context: Any) -> None:
    boss.create_table("chinese-1-6", name="Ten", unit=10)
    boss.create_table("chinese-1-6", name="One", unit=1)
    boss.create_table("chinese-1-6", name="Five", unit=5)
    page: Page = new_context().new_page()
    page.goto("/#/lobby")
    names = tables(page).get_by_role("rowheader")
    expect(names).to_have_text([re.compile("^Ten"), re.compile("^One"), re.compile("^Five")])
    unit = tables(page).get_by_role("columnheader", name="Unit")
    unit.get_by_role("button", name="Unit").click()
    expect(unit).to_have_attribute("aria-sort", "ascending")
    expect(names).to_have_text([re.compile("^One"), re.compile("^Five"), re.compile("^Ten")])
    # a new table takes its place in the order
    boss.create_table("chinese-1-6", name="Seven", unit=7)
    expect(names).to_have_text(
        [re.compile("^One"), re.compile("^Five"), re.compile("^Seven"), re.compile("^Ten")]
    )
    unit.get_by_role("button", name="Unit").click()
    expect(unit).to_have_attribute("aria-sort", "descending")
    expect(names).to_have_text(
        [re.compile("^Ten"), re.compile("^Seven"), re.compile("^Five"), re.compile("^One")]
    )
    table = tables(page).get_by_role("columnheader", name="Table")
    table.get_by_role("button", name="Table").click()
    expect(unit).not_to_have_attribute("aria-sort", re.compile("."))
    expect(names).to_have_text(
        [re.compile("^Five"), re.compile("^One"), re.compile("^Seven"), re.compile("^Ten")]
    )
