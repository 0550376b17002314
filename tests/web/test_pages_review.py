"""Hand reviews in the browser (issue 34): from the account's hand list, "Review" opens a hand's
review, which shows its progress while the room's worker computes it and then each decision —
the player's play beside the best, cards named as a screen reader says them, rows as regions —
and "Review my session" sums up the last hands with a chart of the EV lost (an inline SVG named
for screen readers, its numbers in a table too). No console error on the way (the fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from reviewed_hands import play, seed_hands
from thirteen.engine.cards import RANK_NAMES, RANKS
from thirteen.server.settings import Settings

SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
WAIT_MS = 90_000


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # an OFC review that takes a few seconds (its progress is seen), Chinese Poker in an instant
    return settings.model_copy(update={"review_budget": 0.15, "discover_seconds": 0.2})


def card_name(card: str) -> str:
    """How the page names a card ("Queen of hearts")."""
    return f"{RANK_NAMES[RANKS.index(card[0])]} of {SUITS[card[1]]}"


def test_a_hand_is_reviewed_from_the_hand_list_and_the_session_is_charted(
    new_context: Callable[..., Any], settings: Settings
) -> None:
    page: Page = new_context().new_page()
    answer = page.request.post("/api/accounts", data={"name": "ann", "password": "a good password"})
    assert answer.ok, answer.text()
    chinese = seed_hands(settings.database_url, "ann", [play("chinese-1-6", s) for s in (1, 2)])
    [ofc] = seed_hands(settings.database_url, "ann", [play("ofc-pineapple", 4)])

    page.goto("/#/account")
    page.get_by_role("link", name=f"Review hand {ofc}").click()
    expect(page.get_by_role("heading", name=f"Review of hand #{ofc}")).to_be_visible()
    expect(page.get_by_role("progressbar", name="Review progress")).to_be_visible()
    first = page.get_by_role("region", name="Decision 1: Street 1")
    expect(first).to_be_visible(timeout=WAIT_MS)
    expect(page.get_by_role("progressbar", name="Review progress")).to_have_count(0)

    # what the page shows is the stored review: the cards, the rows, the figures
    review = page.request.get(f"/api/hands/{ofc}/review").json()["review"]
    decisions = review["decisions"]
    expect(page.locator("section.review-decision")).to_have_count(len(decisions))
    for n, d in enumerate(decisions, start=1):
        region = page.get_by_role("region", name=f"Decision {n}: Street {d['street']}")
        mine = region.get_by_role("region", name="Your play")
        for card in d["cards"].split():
            expect(
                region.locator(".review-cards").get_by_role("img", name=card_name(card))
            ).to_be_visible()
        placed = d["choice"]["front"].split()
        front = mine.get_by_role("region", name="Front")
        for card in [*d["board"]["front"].split(), *placed]:
            expect(front.get_by_role("img", name=card_name(card))).to_be_visible()
        best = region.get_by_role("region", name="Best play")
        if d["is_best"]:
            expect(region).to_contain_text("The best play.")
            expect(best).to_have_count(0)
        else:
            expect(best.get_by_role("region", name="Back")).to_be_visible()
            expect(region).to_contain_text(f"Lost {d['loss']:.2f}")
    expect(page.get_by_text(f"EV lost: {review['loss']:.2f}")).to_be_visible()

    # the session: the last 3 hands, queued from the page, summed up and charted
    page.get_by_role("link", name="Review my session").click()
    expect(page.get_by_role("heading", name="Review my session", level=1)).to_be_visible()
    page.get_by_role("spinbutton", name="Hands").fill("3")
    page.get_by_role("button", name="Review my session").click()
    chart = page.get_by_role("img", name="EV lost hand by hand over 3 reviewed hands")
    expect(chart).to_be_visible(timeout=WAIT_MS)
    assert chart.evaluate("e => e.tagName.toLowerCase()") == "svg"
    assert chart.locator("rect.chart-bar").count() == 3
    table = page.get_by_role("table", name="EV lost by hand, oldest first")
    expect(table.get_by_role("row")).to_have_count(4)  # the header and a hand a row
    for hand in [*chinese, ofc]:
        expect(table.get_by_role("link", name=f"#{hand}")).to_be_visible()
    session = page.request.get("/api/reviews/session?hands=3").json()
    expect(
        page.get_by_text(f"{session['summary']['loss_per_hand']:.2f} points (95 % interval")
    ).to_be_visible()
    worst = page.locator(".review-worst a")
    expect(worst).to_have_count(len(session["worst"]))
    if session["worst"]:
        worst.first.click()
        expect(
            page.get_by_role("heading", name=f"Review of hand #{session['worst'][0]['hand']}")
        ).to_be_visible()
        expect(page.get_by_role("region", name="Decision 1", exact=False).first).to_be_visible(
            timeout=WAIT_MS
        )

    # the replay and the review link to each other
    page.goto(f"/#/review/{ofc}")
    page.get_by_role("link", name="Replay the hand").click()
    expect(page.get_by_role("heading", name=f"Hand #{ofc}")).to_be_visible()
    page.get_by_role("link", name="Review this hand").click()
    expect(page.get_by_role("region", name="Decision 1: Street 1")).to_be_visible()

    # bad input: a sentence on the page, nothing asked
    page.goto("/#/reviews")
    page.get_by_role("spinbutton", name="Hands").fill("101")
    page.get_by_role("button", name="Review my session").click()
    expect(page.get_by_role("alert").filter(has_text="Hands")).to_be_visible()
