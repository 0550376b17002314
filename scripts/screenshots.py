"""Screenshots of the table page for every preset, at desktop and phone size, into
docs/screenshots/: a hand being set, and its showdown; and the review of the pineapple hand the
browser played (``review-desktop.png``, issue 34). The phone's setting is the screen as the
player sees it (360×640, touch, not scrolled: the deal fits it), its showdown the whole page; a
desktop's both the whole page. Motion is reduced (a picture, not a frame of a flip). Run by hand
(not part of the suite):

    PYTHONPATH=src python scripts/screenshots.py [--chromium /usr/bin/chromium] [--only PRESET]

It starts a room in-process (SQLite in a temporary directory), makes one table per preset with
heuristic bots in every other seat, sits a browser player down and plays a hand through the page
(clicks; legal moves from ``thirteen.client.legal_move``).
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect, sync_playwright

from thirteen.client import RoomClient, legal_move
from thirteen.engine import PRESETS, get_rules
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import load_settings

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 360, "height": 640},
}
RESET = re.compile("^Reset (all|the card)$")
KEYS = {"front": "f", "middle": "m", "back": "b", "discard": "d"}


def seats_for(preset: str) -> int:
    return min(PRESETS[preset].max_players, 4 if PRESETS[preset].game == "chinese" else 3)


def decision(page: Page) -> dict[str, Any]:
    """The page's decision as ``legal_move`` wants it."""
    cards = page.locator('[aria-label="Your cards"] .card[data-card]')
    expect(cards.first).to_be_visible(timeout=60_000)
    names = cards.evaluate_all("els => els.map(e => e.dataset.card)")
    room = [
        page.locator(f'[data-zone="{row}"] .slot:not(.locked)').count()
        for row in ("front", "middle", "back")
    ]
    discard = page.locator('[data-zone="discard"] .slot').count()
    street = page.locator(".slot.locked").count() > 0 or len(names) < 13
    return {
        "cards": " ".join(names),
        "room": room,
        "discard_now": discard,
        "mode": "street" if street else "set",
    }


def place(page: Page, preset: str, seed: int, stop_after: int | None = None) -> None:
    """Put the decision's cards where a legal move says (by keys), then Play."""
    move = legal_move(decision(page), get_rules(preset), random.Random(seed))
    done = 0
    for zone in ("back", "middle", "front", "discard"):
        for card in str(move.get(zone, "")).split():
            if stop_after is not None and done >= stop_after:
                return
            page.locator(f'[aria-label="Your cards"] .card[data-card="{card}"]').focus()
            page.keyboard.press(KEYS[zone])
            expect(page.locator(f'[data-zone="{zone}"] .card[data-card="{card}"]')).to_be_visible()
            done += 1
    if stop_after is not None:
        return
    key = page.locator(".setter").get_attribute("data-key")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator(f'.setter[data-key="{key}"]')).to_have_count(0, timeout=30_000)


def shoot(page: Page, name: str, whole: bool) -> None:
    """The whole page, or one screen as it is (``whole=False``: what a phone player sees)."""
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.wait_for_timeout(300)  # let the evaluation arrive: a picture, not a test
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=whole)
    print("wrote", OUT / f"{name}.png")


def review(page: Page) -> None:
    """The review of the hand just played (the newest finished one), once computed."""
    hands = page.request.get("/api/hands").json()
    hand = next(h["id"] for h in hands if h["status"] == "settled")
    page.goto(f"/#/review/{hand}")
    expect(page.get_by_role("region", name="Decision 1: Street 1")).to_be_visible(timeout=120_000)
    shoot(page, "review-desktop", False, ".review")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--only", default="", help="presets, comma-separated")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="thirteen-shots-"))
    settings = load_settings(
        database_url=f"sqlite+aiosqlite:///{tmp / 'room.db'}",
        data_dir=tmp,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        admins="boss",
        limit_signup_address="100/minute",  # a player a preset and size, all from here
    )
    with serve_in_thread(create_app(settings)) as url, sync_playwright() as playwright:
        boss = RoomClient(url)
        boss.sign_up("boss", "the chief's password")
        browser = playwright.chromium.launch(
            executable_path=args.chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        n = 0
        for preset in PRESETS:
            if args.only and preset not in args.only.split(","):
                continue
            for size, viewport in SIZES.items():
                n += 1
                seats = seats_for(preset)
                table = boss.create_table(
                    preset,
                    name=f"{preset} table",
                    seats=seats,
                    bots=seats - 1,
                    bot_level="heuristic",
                    rules={"showdown_seconds": 5},
                )
                phone = size == "phone"
                context = browser.new_context(
                    base_url=url,
                    viewport=viewport,
                    is_mobile=phone,
                    has_touch=phone,
                    reduced_motion="reduce",
                )
                page = context.new_page()
                answer = page.request.post(
                    "/api/accounts", data={"name": f"player{n}", "password": "a good password"}
                )
                assert answer.ok, answer.text()
                page.goto(f"/#/table/{table['id']}/join")
                page.get_by_role("dialog").get_by_role("button", name="Sit").click()
                # wait for a hand of our own (the bots may be mid-hand when we sit)
                decision(page)
                number = page.locator(".table-status").inner_text()
                game = PRESETS[preset].game
                if game == "chinese":
                    place(page, preset, n, stop_after=8)
                    shoot(page, f"{preset}-{size}-setting", not phone)
                    page.get_by_role("button", name=RESET).click()
                    place(page, preset, n)
                else:
                    streets = 0
                    while True:
                        showdown = page.locator("table.results")
                        turn = page.locator(".setter")
                        expect(showdown.or_(turn).first).to_be_visible(timeout=60_000)
                        if showdown.count() and number.split(",")[0] in (
                            showdown.locator("caption").inner_text()
                        ):
                            break
                        if turn.count():
                            if streets == 2:
                                place(page, preset, n + streets, stop_after=1)
                                shoot(page, f"{preset}-{size}-setting", not phone)
                                page.get_by_role("button", name=RESET).click()
                            place(page, preset, n + streets)
                            streets += 1
                expect(page.locator("table.results")).to_be_visible(timeout=60_000)
                shoot(page, f"{preset}-{size}-showdown", True)
                if preset == "ofc-pineapple" and size == "desktop":
                    review(page)
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
