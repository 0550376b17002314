"""The account page after playing (ledger, hands, downloads) and the replay of a hand."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Locator, Page, expect

from thirteen.client import RoomClient, legal_move
from thirteen.engine.history import history_from_json, redact_history
from thirteen.engine.rules import get_rules

PHONE = {"width": 360, "height": 640}
RANKS = {
    "2": "Two",
    "3": "Three",
    "4": "Four",
    "5": "Five",
    "6": "Six",
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "T": "Ten",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def card_names(text: str) -> list[str]:
    """ "As Kd" as a screen reader hears the cards: ["Ace of spades", "King of diamonds"]."""
    return [f"{RANKS[c[0]]} of {SUITS[c[1]]}" for c in text.split()]


def sign_up(page: Page, name: str, password: str) -> None:
    answer = page.request.post("/api/accounts", data={"name": name, "password": password})
    assert answer.ok, answer.text()


Decide = Callable[[dict[str, Any], random.Random], "dict[str, Any] | None"]


def play_a_hand(
    room: str,
    boss: RoomClient,
    name: str,
    password: str,
    *,
    preset: str = "chinese-1-6",
    rules: dict[str, Any] | None = None,
    bot_level: str = "heuristic",
    decide: Decide | None = None,
    time_bank_seconds: float | None = None,
) -> dict[str, Any]:
    """``name`` (logged in with the Python client) plays one hand against a bot, then leaves;
    the table. ``decide`` chooses each action (``None``: wait for the room); by default a
    legal move. ``time_bank_seconds``: the table's time bank (``None``: the room's default)."""
    bank = {} if time_bank_seconds is None else {"time_bank_seconds": time_bank_seconds}
    table = boss.create_table(
        preset,
        name="Practice Den",
        seats=2,
        bots=1,
        bot_level=bot_level,
        rules={"showdown_seconds": 5, **(rules or {})},
        **bank,
    )
    engine_rules = get_rules(preset, rules)
    rng = random.Random(1)
    with RoomClient(room) as me:
        me.log_in(name, password)
        conn = me.open_table(table["id"])
        seat = next(i for i, s in enumerate(conn.view["seats"]) if s is None)
        conn.do({"type": "sit", "seat": seat, "buy_in": 200})

        def settled() -> bool:
            return any(
                e["event"] == "HandSettled" for f in conn.frames for e in f.get("events", [])
            )

        acted_on = -1
        while not settled():
            me_view = conn.me
            action = None
            if me_view and me_view["must_act"] and conn.state_id != acted_on:
                acted_on = conn.state_id
                if decide is None:
                    action = legal_move(me_view, engine_rules, rng)
                else:
                    action = decide(me_view, rng)
            if action is not None:
                answer = conn.answer(conn.act(action))
                assert answer["type"] == "ack" or answer["code"] in ("stale", "too_late"), answer
            else:
                assert conn.receive(timeout=60) is not None, conn.closed
        conn.do({"type": "leave"})
        conn.close()
    return table


def cards_in(region: Locator) -> Locator:
    return region.get_by_role("img")


def test_the_account_shows_the_ledger_and_the_hands(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "finn", "password of F-I-N-N")
    play_a_hand(room, boss, "finn", "password of F-I-N-N")
    with RoomClient(room) as finn:
        finn.log_in("finn", "password of F-I-N-N")
        hands = finn.request("GET", "/api/hands")
        wallet = finn.request("GET", "/api/wallet")
    assert len(hands) == 1
    hand = hands[0]

    page.goto("/#/account")
    expect(page.get_by_role("heading", name="Account")).to_be_visible()
    expect(page.get_by_text("Balance:")).to_have_text(f"Balance: {wallet['balance']:,} chips")
    ledger = page.get_by_role("table", name=re.compile("^Ledger"))
    expect(ledger.get_by_role("columnheader")).to_have_text(["Time", "Reason", "Memo", "Amount"])
    lines = ledger.get_by_role("rowgroup").nth(1).get_by_role("row")
    expect(lines).to_have_count(3)  # newest first: cash-out, buy-in, the grant
    expect(lines.nth(2).get_by_role("cell").nth(1)).to_have_text("Grant")
    expect(lines.nth(2).get_by_role("cell").nth(2)).to_have_text("welcome chips")
    expect(lines.nth(2).get_by_role("cell").nth(3)).to_have_text("+10,000")
    expect(lines.nth(1)).to_contain_text("Buy-in")
    expect(lines.nth(1)).to_contain_text("Practice Den, seat")
    expect(lines.nth(1).get_by_role("cell").nth(3)).to_have_text("−200")
    expect(lines.nth(0)).to_contain_text("Cash-out")

    played = page.get_by_role("table", name=re.compile("^Your hands"))
    expect(played.get_by_role("columnheader")).to_have_text(
        ["Hand", "Table", "Game", "Date", "Result", "History"]
    )
    line = played.get_by_role("rowgroup").nth(1).get_by_role("row")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Practice Den")
    expect(line).to_contain_text("chinese-1-6")
    result = hand["result"]
    shown = "0" if result == 0 else f"+{result}" if result > 0 else f"−{-result}"
    expect(line.get_by_role("cell").nth(4)).to_have_text(shown)
    expect(page.get_by_text(re.compile("^Net over the"))).to_have_text(
        f"Net over the 1 finished hand shown: {shown} chips"
    )
    replay = line.get_by_role("link", name=f"Replay hand {hand['id']}")
    expect(replay).to_have_attribute("href", f"#/hand/{hand['id']}")

    # the downloads answer, as files
    as_json = line.get_by_role("link", name=f"Download hand {hand['id']} as JSON")
    as_text = line.get_by_role("link", name=f"Download hand {hand['id']} as text")
    expect(as_json).to_have_attribute("download", f"thirteen-hand-{hand['id']}.json")
    expect(as_text).to_have_attribute("download", f"thirteen-hand-{hand['id']}.txt")
    for link, kind in ((as_json, "application/json"), (as_text, "text/plain")):
        href = link.get_attribute("href")
        assert href is not None
        answer = page.request.get(href)
        assert answer.status == 200
        assert answer.headers["content-type"].startswith(kind)
    assert page.request.get(str(as_json.get_attribute("href"))).json()["viewer"] == hand["seat"]

    replay.click()
    expect(page).to_have_url(re.compile(rf"#/hand/{hand['id']}$"))
    expect(page.get_by_role("heading", name=f"Hand #{hand['id']}")).to_be_visible()


def test_the_replay_steps_through_the_hand_as_the_player_saw_it(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "gail", "password of G-A-I-L")
    play_a_hand(room, boss, "gail", "password of G-A-I-L")
    with RoomClient(room) as gail:
        gail.log_in("gail", "password of G-A-I-L")
        hand = gail.request("GET", "/api/hands")[0]
        copy = gail.request("GET", f"/api/hands/{hand['id']}")
    mine = next(a for a in copy["actions"] if a.get("seat") == hand["seat"])
    bots = [a for a in copy["actions"] if a["type"] == "set_hand" and a["seat"] != hand["seat"]]
    assert mine["type"] == "set_hand"
    assert len(bots) == 1
    bot = bots[0]
    bot_name = copy["start"]["seats"][bot["seat"]]["player"]
    my_cards = [*card_names(mine["front"]), *card_names(mine["middle"]), *card_names(mine["back"])]

    page.goto(f"/#/hand/{hand['id']}")
    steps = page.get_by_role("group", name="Steps")
    first = steps.get_by_role("button", name="First", exact=True)
    previous = steps.get_by_role("button", name="Previous", exact=True)
    next_ = steps.get_by_role("button", name="Next", exact=True)
    last = steps.get_by_role("button", name="Last", exact=True)
    count = page.get_by_text(re.compile(r"^Step \d+ of \d+"))
    me = page.get_by_role("region", name=f"Seat {hand['seat'] + 1}: gail (you)")
    them = page.get_by_role("region", name=f"Seat {bot['seat'] + 1}: {bot_name}")

    # the deal: her thirteen cards, nothing of the bot's
    expect(count).to_have_text("Step 1 of 4: Deal")
    expect(first).to_be_disabled()
    expect(previous).to_be_disabled()
    dealt = me.get_by_role("region", name="Your cards to play")
    expect(dealt.get_by_role("img")).to_have_count(13)
    assert sorted(dealt.get_by_role("img").evaluate_all("els => els.map(e => e.ariaLabel)")) == (
        sorted(my_cards)
    )
    expect(cards_in(them)).to_have_count(0)
    expect(them).to_contain_text("13 cards to play")
    # the button is dealt last
    with_button, without = (me, them) if copy["result"]["seats"][-1] == hand["seat"] else (them, me)
    expect(with_button.get_by_role("paragraph").first).to_contain_text("Button")
    expect(without).not_to_contain_text("Button")

    # step by step: whoever set first; the bot's hand stays face down until the showdown
    for step in (2, 3):
        next_.click()
        expect(count).to_have_text(re.compile(f"^Step {step} of 4"))
        expect(cards_in(them)).to_have_count(
            13 if step == 3 or copy["actions"][1]["seat"] == bot["seat"] else 0
        )
        for name in cards_in(them).evaluate_all("els => els.map(e => e.ariaLabel)"):
            assert name == "Face-down card"
    for row, text in (("Front", mine["front"]), ("Middle", mine["middle"]), ("Back", mine["back"])):
        names = me.get_by_role("region", name=row).get_by_role("img")
        expect(names).to_have_count(len(text.split()))
        assert names.evaluate_all("els => els.map(e => e.ariaLabel)") == card_names(text)

    # the arrow keys: to the showdown, where the bot's hand is turned over
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text("Step 4 of 4: Showdown")
    expect(next_).to_be_disabled()
    expect(last).to_be_disabled()
    front = them.get_by_role("region", name="Front").get_by_role("img")
    expect(front).to_have_count(3)
    assert front.evaluate_all("els => els.map(e => e.ariaLabel)") == card_names(bot["front"])
    result = page.get_by_role("table", name="Result")
    expect(result.get_by_role("row")).to_have_count(3)
    expect(result).to_contain_text("gail (you)")
    page.keyboard.press("ArrowLeft")
    expect(count).to_have_text(re.compile("^Step 3 of 4"))
    page.keyboard.press("Home")
    expect(count).to_have_text("Step 1 of 4: Deal")
    last.click()
    expect(count).to_have_text("Step 4 of 4: Showdown")
    first.click()
    expect(count).to_have_text("Step 1 of 4: Deal")
    # Play steps on by itself to the end; Pause stops it
    play = steps.get_by_role("button", name="Play", exact=True)
    play.click()
    pause = steps.get_by_role("button", name="Pause", exact=True)
    expect(count).to_have_text(re.compile("^Step 2 of 4"))
    pause.click()
    expect(play).to_be_visible()
    play.click()
    expect(count).to_have_text("Step 4 of 4: Showdown", timeout=10_000)
    expect(play).to_be_visible()
    expect(pause).to_have_count(0)

    # the downloads are here too
    link = page.get_by_role("link", name=f"Download hand {hand['id']} as text")
    answer = page.request.get(str(link.get_attribute("href")))
    assert answer.status == 200
    assert "# Thirteen hand history" in answer.text()


def test_a_hand_that_is_not_yours_says_so(
    room: str, boss: RoomClient, new_context: Any, page_errors: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "hugo", "password of H-U-G-O")
    page_errors.expect(r"404")
    page.goto("/#/hand/99")
    expect(page.get_by_role("alert").filter(has_text="99")).to_have_text(
        "There is no finished hand 99."
    )
    expect(page.get_by_role("link", name="Back to your hands")).to_be_visible()


def test_the_account_fits_a_phone(room: str, boss: RoomClient, new_context: Any) -> None:
    page: Page = new_context(viewport=PHONE, touch=True).new_page()
    sign_up(page, "ivy", "password of I-V-Y")
    play_a_hand(room, boss, "ivy", "password of I-V-Y")
    page.goto("/#/account")
    expect(page.get_by_role("link", name=re.compile("^Replay hand"))).to_be_visible()
    expect(page.get_by_role("table", name=re.compile("^Ledger")).get_by_role("row")).to_have_count(
        4
    )
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.get_by_role("link", name=re.compile("^Replay hand")).click()
    expect(page.get_by_text(re.compile(r"^Step 1 of"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def names_of(cards: Locator) -> list[str]:
    return [str(n) for n in cards.evaluate_all("els => els.map(e => e.ariaLabel)")]


def my_copy(room: str, name: str, password: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The player's latest hand (as listed) and their copy of it."""
    with RoomClient(room) as player:
        player.log_in(name, password)
        hand = player.request("GET", "/api/hands")[-1]
        copy = player.request("GET", f"/api/hands/{hand['id']}")
    return hand, copy


def test_an_open_face_replay_shows_streets_as_placed_and_hides_the_bots_discards(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "jill", "password of J-I-L-L")
    play_a_hand(
        room, boss, "jill", "password of J-I-L-L", preset="ofc-pineapple", bot_level="random"
    )
    hand, copy = my_copy(room, "jill", "password of J-I-L-L")
    seat = hand["seat"]
    moves = copy["actions"][1:]
    assert all(m["type"] == "place" for m in moves), moves
    mine = [m for m in moves if m["seat"] == seat]
    theirs = [m for m in moves if m["seat"] != seat]
    bot_name = copy["start"]["seats"][theirs[0]["seat"]]["player"]
    page.goto(f"/#/hand/{hand['id']}")
    me = page.get_by_role("region", name=f"Seat {seat + 1}: jill (you)")
    them = page.get_by_role("region", name=f"Seat {theirs[0]['seat'] + 1}: {bot_name}")
    count = page.get_by_text(re.compile(r"^Step \d+ of \d+"))
    steps = len(moves) + 2
    expect(count).to_have_text(f"Step 1 of {steps}: Deal")
    first_street = " ".join(mine[0][row] for row in ("front", "middle", "back") if mine[0][row])
    expect(me.get_by_role("region", name="Your cards to play").get_by_role("img")).to_have_count(5)
    assert sorted(
        names_of(me.get_by_role("region", name="Your cards to play").get_by_role("img"))
    ) == sorted(card_names(first_street))

    # each step adds what was placed, face up, row by row
    placed: dict[int, dict[str, str]] = {}
    for number, move in enumerate(moves, start=2):
        page.keyboard.press("ArrowRight")
        expect(count).to_have_text(re.compile(f"^Step {number} of {steps}"))
        rows = placed.setdefault(move["seat"], {"front": "", "middle": "", "back": ""})
        for row in rows:
            rows[row] = f"{rows[row]} {move[row]}".strip()
        board = me if move["seat"] == seat else them
        for row, text in rows.items():
            cards = board.get_by_role("region", name=row.capitalize()).get_by_role("img")
            expect(cards).to_have_count(len(text.split()))
            assert names_of(cards) == card_names(text)
    # her own discards are hers to see; the bot's never show
    my_discards = " ".join(m["discard"] for m in mine if m["discard"])
    assert names_of(me.get_by_role("region", name="Your discards").get_by_role("img")) == (
        card_names(my_discards)
    )
    hidden = sum(len(m["discard"].split()) for m in theirs)
    assert hidden == 4
    expect(them).to_contain_text("4 discarded face down")
    expect(them.get_by_role("region", name="Your discards")).to_have_count(0)
    page.keyboard.press("End")
    expect(count).to_have_text(f"Step {steps} of {steps}: Showdown")
    expect(page.get_by_role("table", name="Result")).to_contain_text("jill (you)")


def test_a_surrendered_hand_replays_with_her_cards_and_nothing_more(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "kim", "password of K-I-M")
    play_a_hand(
        room, boss, "kim", "password of K-I-M", decide=lambda me, rng: {"type": "surrender"}
    )
    hand, copy = my_copy(room, "kim", "password of K-I-M")
    assert any(a["type"] == "surrender" for a in copy["actions"])
    page.goto(f"/#/hand/{hand['id']}")
    me = page.get_by_role("region", name=f"Seat {hand['seat'] + 1}: kim (you)")
    to_play = me.get_by_role("region", name="Your cards to play").get_by_role("img")
    expect(to_play).to_have_count(13)
    dealt = names_of(to_play)
    page.get_by_role("button", name="Last", exact=True).click()
    expect(me).to_contain_text("Surrendered: this hand is never shown.")
    expect(me.get_by_role("region", name="Your cards").get_by_role("img")).to_have_count(13)
    assert names_of(me.get_by_role("region", name="Your cards").get_by_role("img")) == dealt
    # every step is listed; picking one goes there
    page.get_by_text("Every step").click()
    listed = page.get_by_role("list").get_by_role("button")
    expect(listed).to_have_count(len(copy["actions"]) + 1)
    expect(listed.last).to_have_attribute("aria-current", "step")
    listed.first.click()
    expect(page.get_by_text(re.compile(r"^Step 1 of"))).to_contain_text("Deal")
    page.get_by_role("list").get_by_role("button", name=re.compile("^You surrendered")).click()
    expect(page.get_by_role("region", name="Replay")).to_contain_text(
        "You surrendered; that hand is never shown."
    )


def test_a_timed_out_hand_replays_with_the_cards_the_room_set(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "lou", "password of L-O-U")
    play_a_hand(
        room,
        boss,
        "lou",
        "password of L-O-U",
        rules={"set_hand_seconds": 1},
        decide=lambda me, rng: None,
        time_bank_seconds=0,  # (else the bank's seconds are spent before the room plays)
    )
    hand, copy = my_copy(room, "lou", "password of L-O-U")
    assert any(a["type"] == "time_out" for a in copy["actions"])
    page.goto(f"/#/hand/{hand['id']}")
    me = page.get_by_role("region", name=f"Seat {hand['seat'] + 1}: lou (you)")
    to_play = me.get_by_role("region", name="Your cards to play").get_by_role("img")
    expect(to_play).to_have_count(13)
    dealt = sorted(names_of(to_play))
    page.get_by_role("button", name="Last", exact=True).click()
    expect(me).to_contain_text("Timed out")
    by_room = me.get_by_role("region", name="Set by the room").get_by_role("img")
    expect(by_room).to_have_count(13)
    assert sorted(names_of(by_room)) == dealt
    page.get_by_role("button", name="Previous", exact=True).click()
    replay = page.get_by_role("region", name="Replay")
    expect(replay.get_by_text("You ran out of time; the room played for you.")).to_be_visible()


def test_the_ledger_shows_more_on_asking(room: str, boss: RoomClient, new_context: Any) -> None:
    page: Page = new_context().new_page()
    sign_up(page, "moe", "password of M-O-E")
    table = boss.create_table("chinese-1-6", name="Revolving Door", seats=2)
    with RoomClient(room) as moe:
        moe.log_in("moe", "password of M-O-E")
        for _ in range(11):  # a socket takes 20 messages a second: a new one every 10
            conn = moe.open_table(table["id"])
            for _ in range(5):  # a buy-in and a cash-out each: 110 transfers and the grant
                conn.do({"type": "sit", "seat": 0, "buy_in": 50})
                conn.do({"type": "leave"})
            conn.close()
    page.goto("/#/account")
    ledger = page.get_by_role("table", name=re.compile("^Ledger"))
    lines = ledger.get_by_role("rowgroup").nth(1).get_by_role("row")
    expect(lines).to_have_count(100)
    expect(page.get_by_role("button", name="Show more hands")).to_have_count(0)
    page.get_by_role("button", name="Show more transfers").click()
    expect(lines).to_have_count(111)
    expect(lines.last).to_contain_text("welcome chips")
    expect(page.get_by_role("button", name="Show more transfers")).to_have_count(0)


CHECK_STEPS = """async (copies) => {
  const { buildReplay } = await import("/static/js/pages/handsteps.js");
  const problems = [];
  let fantasyland = 0;
  for (const copy of copies) {
    const replay = buildReplay(copy);
    const opened = new Set(copy.deal.openings.map((o) => o[1]));
    const before = replay.steps[replay.steps.length - 2];
    const mine = before.boards.find((b) => b.mine);
    if (mine.fantasyland) fantasyland += 1;
    const cards = [...mine.front, ...mine.middle, ...mine.back, ...mine.discards, ...mine.loose,
      ...mine.toPlay];
    const dealt = mine.fantasyland ?? copy.start.rules.streets.reduce((a, b) => a + b, 0);
    if (cards.length !== dealt) problems.push(`hand ${copy.hand}: ${cards.length} of ${dealt}`);
    if (cards.some((c) => !opened.has(c))) problems.push(`hand ${copy.hand}: a card not opened`);
    for (const step of replay.steps.slice(0, -1)) {
      for (const b of step.boards) {
        if (!b.mine && b.faceDown && b.front.length + b.middle.length + b.back.length) {
          problems.push(`hand ${copy.hand}: a face-down hand shows its cards`);
        }
      }
    }
  }
  return { problems, fantasyland };
}"""


def test_the_replay_steps_hold_for_every_seat_of_real_hands(
    room: str, boss: RoomClient, new_context: Any
) -> None:
    """Three bots play Open-Face in one street of 13 where any clean front earns fantasyland
    (15 cards): every seat's copy of every hand replays to exactly its own cards, all opened,
    and no hand set face down shows before the showdown."""
    table = boss.create_table(
        "ofc-pineapple-progressive",
        seats=3,
        bots=3,
        bot_level="heuristic",
        rules={
            "showdown_seconds": 0.05,
            "streets": [13],
            "discards_per_street": 0,
            "fantasyland_entry": {"high card": 15},
        },
    )
    watch = boss.open_table(table["id"], watch_only=True)
    settled = 0

    def fourth_settled(frame: dict[str, Any]) -> bool:
        nonlocal settled
        settled += sum(e["event"] == "HandSettled" for e in frame.get("events", []))
        return settled >= 4

    watch.wait(fourth_settled)
    watch.close()
    copies = []
    for line in boss.request("GET", f"/api/admin/tables/{table['id']}/hands"):
        if line["status"] == "settled":
            full = boss.request("GET", f"/api/admin/hands/{line['id']}")
            history = history_from_json(full)
            copies += [redact_history(history, seat) for seat in full["result"]["seats"]]
    assert len(copies) >= 8
    page: Page = new_context().new_page()
    page.goto("/")
    found = page.evaluate(CHECK_STEPS, copies)
    assert found["problems"] == []
    assert found["fantasyland"] >= 2
