"""Log in, sign up, log out and changing the password, in the browser against a real room."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect


def sign_up(page: Page, name: str, password: str) -> None:
    """Open an account through the API, in the page's context (its cookie is the page's)."""
    answer = page.request.post("/api/accounts", data={"name": name, "password": password})
    assert answer.ok, answer.text()


def fill_sign_up(page: Page, name: str, password: str, repeat: str | None = None) -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Repeat password").fill(password if repeat is None else repeat)
    page.get_by_role("button", name="Sign up").click()


def log_in(page: Page, name: str, password: str) -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()


def test_sign_up_log_out_and_log_in_again(room: str, new_context: Any, page_errors: Any) -> None:
    page: Page = new_context().new_page()
    page.goto("/#/signup")
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    fill_sign_up(page, "ann", "password of A-N-N")
    # signed up and logged in: the lobby, the nav bar with her wallet and Log out
    expect(page).to_have_url(re.compile(r"#/lobby$"))
    nav = page.get_by_role("navigation", name="Room")
    expect(nav).to_contain_text("ann · 10,000 chips")
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav).not_to_contain_text("ann")

    nav.get_by_role("link", name="Log in").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page_errors.expect(r"401")
    log_in(page, "ann", "not her password")
    expect(page.get_by_role("alert").filter(has_text="do not match")).to_have_text(
        "That name and password do not match an account."
    )
    expect(page).to_have_url(re.compile(r"#/login$"))
    expect(page.get_by_label("Password", exact=True)).to_have_value("")

    log_in(page, "ann", "password of A-N-N")
    expect(page).to_have_url(re.compile(r"#/lobby$"))
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()


def test_sign_up_refusals_show_a_sentence(room: str, new_context: Any, page_errors: Any) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "bob", "password of B-O-B")
    page.context.clear_cookies()
    page.goto("/#/signup")
    alert = page.locator("form [role=alert]")
    # checked here, before asking the room
    fill_sign_up(page, "b!", "long enough password")
    expect(alert).to_contain_text("A name has 3 to 20 letters")
    expect(page.get_by_label("Name")).to_have_attribute("aria-invalid", "true")
    fill_sign_up(page, "carol", "short")
    expect(alert).to_have_text("The password needs at least 8 characters.")
    fill_sign_up(page, "carol", "long enough password", "another password")
    expect(alert).to_have_text("The two passwords differ.")
    # the room's own sentence: the name is taken (names are case-blind)
    page_errors.expect(r"409")
    fill_sign_up(page, "BOB", "long enough password")
    expect(alert).to_have_text("The name 'BOB' is taken.")
    expect(page).to_have_url(re.compile(r"#/signup$"))
    # and its password policy: a common password, one holding the name
    page_errors.expect(r"400")
    fill_sign_up(page, "carol", "iloveyou")
    expect(alert).to_have_text(
        "That is one of the most common passwords, which guessers try first; choose another."
    )
    fill_sign_up(page, "carol", "Carol's password")
    expect(alert).to_have_text("A password must not contain the account's name.")
    expect(page).to_have_url(re.compile(r"#/signup$"))


def test_change_password_then_log_in_with_it(room: str, new_context: Any, page_errors: Any) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "dora", "the old password")
    page.goto("/#/account")
    section = page.get_by_role("region", name="Change password")
    page_errors.expect(r"401")
    # a wrong current password: the room's sentence, and still logged in
    section.get_by_label("Current password").fill("not the password")
    section.get_by_label("New password", exact=True).fill("the new password")
    section.get_by_label("Repeat new password").fill("the new password")
    section.get_by_role("button", name="Change password").click()
    expect(section.get_by_role("alert")).to_have_text("The current password is not right.")
    nav = page.get_by_role("navigation", name="Room")
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()

    # a new password the room refuses: its sentence
    page_errors.expect(r"400")
    section.get_by_label("Current password").fill("the old password")
    section.get_by_label("New password", exact=True).fill("Dora the explorer")
    section.get_by_label("Repeat new password").fill("Dora the explorer")
    section.get_by_role("button", name="Change password").click()
    expect(section.get_by_role("alert")).to_have_text(
        "A password must not contain the account's name."
    )

    section.get_by_label("Current password").fill("the old password")
    section.get_by_label("New password", exact=True).fill("the new password")
    section.get_by_label("Repeat new password").fill("the new password")
    section.get_by_role("button", name="Change password").click()
    expect(section.get_by_role("status")).to_have_text(
        "Password changed. Your other sessions were logged out."
    )
    nav.get_by_role("button", name="Log out").click()
    nav.get_by_role("link", name="Log in").click()
    log_in(page, "dora", "the old password")
    expect(page.locator("form [role=alert]")).to_have_text(
        "That name and password do not match an account."
    )
    log_in(page, "dora", "the new password")
    expect(page).to_have_url(re.compile(r"#/lobby$"))
    expect(nav).to_contain_text("dora")


def test_logging_in_goes_back_where_the_player_was_going(room: str, new_context: Any) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "eve", "password of E-V-E")
    page.context.clear_cookies()
    page.goto("/#/account")
    main = page.get_by_role("main")
    expect(main).to_contain_text("to see your wallet and your hands")
    main.get_by_role("link", name="Log in").click()
    log_in(page, "eve", "password of E-V-E")
    expect(page).to_have_url(re.compile(r"#/account$"))
    expect(page.get_by_role("heading", name="Wallet")).to_be_visible()


def test_the_nav_bars_log_in_comes_back_to_the_page_it_left(room: str, new_context: Any) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "fay", "password of F-A-Y")
    page.context.clear_cookies()
    page.goto("/#/account")
    expect(page.get_by_role("main")).to_contain_text("to see your wallet and your hands")
    page.get_by_role("navigation", name="Room").get_by_role("link", name="Log in").click()
    log_in(page, "fay", "password of F-A-Y")
    expect(page).to_have_url(re.compile(r"#/account$"))
    expect(page.get_by_role("heading", name="Wallet")).to_be_visible()


def test_an_answer_asked_before_logging_out_does_not_log_the_tab_back_in(
    room: str, new_context: Any
) -> None:
    """The wallet is asked again after many requests (a password changed, a page opened). Should
    the room answer that question only after the player logged out — the two requests are on
    separate connections — the tab must stay logged out, not show the account it asked about."""
    page: Page = new_context().new_page()
    sign_up(page, "gil", "password of G-I-L")
    page.goto("/#/account")
    nav = page.get_by_role("navigation", name="Room")
    expect(nav).to_contain_text("gil · 10,000 chips")
    held: list[Any] = []

    def hold_the_answer(route: Any) -> None:
        if route.request.method == "GET" and not held:
            held.append((route, route.fetch()))  # answered by the room now, delivered later
        else:
            route.fallback()

    page.route("**/api/session", hold_the_answer)
    with page.expect_request(lambda r: r.url.endswith("/api/session") and r.method == "GET"):
        page.goto("/#/lobby")  # another page: the wallet is asked again
    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    route, answer = held[0]
    assert answer.json()["account"]["name"] == "gil"  # the room's answer says logged in
    with page.expect_event("requestfinished", lambda r: r.url.endswith("/api/session")):
        route.fulfill(response=answer)
    # the page has read that answer once a later request of its own has come and gone
    page.evaluate("() => fetch('/api/session').then((r) => r.json())")
    expect(nav.get_by_role("button", name="Log out")).to_have_count(0)
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
