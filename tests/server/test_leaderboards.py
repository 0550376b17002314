"""Leaderboards: boards that add up to the ledger's hand results, period edges in UTC, people and
bots apart, and every bad request answered with a code and a sentence.

Real hands played through the room check the sums; hands written straight into the database (at
chosen moments, which play cannot choose) check the periods' edges and what does not count."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from play import play
from services import run_with_db
from sqlalchemy import select

from thirteen.client import RoomClient
from thirteen.engine.rules import PRESETS, get_rules
from thirteen.server.competitions.leaderboards import (
    BIG_HAND_UNITS,
    PERIODS,
    Board,
    BoardCache,
    BoardQuery,
    Period,
    Who,
    account_line,
    game_presets,
    leaderboard,
    period_bounds,
)
from thirteen.server.db.models import (
    GameTable,
    Hand,
    HandSeat,
    LedgerAccount,
    Sitting,
    Transfer,
    User,
)
from thirteen.server.db.session import Database
from thirteen.server.settings import Settings

UTC = dt.UTC
TODAY = dt.date(2026, 11, 25)  # a Wednesday: its ISO week runs from Monday 23 to Monday 30
WEEK_START = dt.datetime(2026, 11, 23, tzinfo=UTC).timestamp()
DAY_START = dt.datetime(2026, 11, 25, tzinfo=UTC).timestamp()
DAY_END = DAY_START + 86_400


# ----------------------------------------------------------------------------- periods
def test_periods_are_utc_calendar_days_and_iso_weeks() -> None:
    assert period_bounds("day", TODAY) == (DAY_START, DAY_END)
    assert period_bounds("week", TODAY) == (WEEK_START, WEEK_START + 7 * 86_400)
    # Monday starts its own week; Sunday ends it
    assert period_bounds("week", dt.date(2026, 11, 23))[0] == WEEK_START
    assert period_bounds("week", dt.date(2026, 11, 29))[0] == WEEK_START
    assert period_bounds("week", dt.date(2026, 11, 30))[0] == WEEK_START + 7 * 86_400
    assert period_bounds("all", TODAY) == (None, None)


def test_games_are_families_presets_and_aliases() -> None:
    assert game_presets("all") is None
    assert game_presets("Chinese") == ("chinese-1-6", "chinese-2-4", "chinese-1-4", "chinese-1-3")
    assert set(game_presets("ofc") or ()) == {p for p in PRESETS if p.startswith(("ofc", "open"))}
    assert game_presets("pineapple") == ("ofc-pineapple",)
    assert game_presets("chinese-2-4") == ("chinese-2-4",)


# ----------------------------------------------------------------------------- written hands
@dataclass(frozen=True)
class Dealt:
    """A hand as the test writes it: where, when it settled, how, and each account's result."""

    table: str
    at: float
    results: dict[str, int | None]
    status: str = "settled"


ACCOUNTS = {"ann": "player", "bob": "player", "cat": "admin", "dan": "player", "Bot-1": "bot"}
TABLES = {  # name: (preset, unit, practice)
    "small": ("chinese-1-6", 2, False),
    "big": ("ofc-pineapple", 10, False),
    "school": ("chinese-2-4", 1, True),
    "odd": ("chinese-1-3", 3, False),
}
HANDS = [
    # this day (Wednesday), at its very start and just before its end
    Dealt("small", DAY_START, {"ann": 12, "Bot-1": -12}),
    Dealt("small", DAY_END - 0.001, {"ann": -4, "bob": 6, "Bot-1": -2}),
    Dealt("big", DAY_START + 3600, {"ann": 60, "cat": -60}),
    Dealt("big", DAY_START + 7200, {"bob": 30, "cat": -30}),
    Dealt("odd", DAY_START + 60, {"dan": 4, "Bot-1": -4}),  # 4/3 units: not whole
    # the next day (Thursday, same week): not today
    Dealt("small", DAY_END, {"bob": 14, "ann": -14}),
    # Monday 00:00 exactly: this week; a millisecond before: last week
    Dealt("big", WEEK_START, {"cat": 100, "ann": -100}),
    Dealt("small", WEEK_START - 0.001, {"ann": 20, "bob": -20}),
    # long ago
    Dealt("big", WEEK_START - 400 * 86_400, {"dan": 70, "Bot-1": -70}),
    # never counted: a practice table, a voided hand, a hand still being settled
    Dealt("school", DAY_START + 10, {"ann": 50, "bob": -50}),
    Dealt("small", DAY_START + 20, {"ann": None, "bob": None}, status="voided"),
    Dealt("small", DAY_START + 30, {"ann": None, "bob": None}, status="playing"),
]


async def write_hands(db: Database) -> None:
    async with db.begin() as s:
        users = {
            n: User(name=n, name_key=n.lower(), role=r, created_at=0.0) for n, r in ACCOUNTS.items()
        }
        tables = {
            n: GameTable(
                name=n,
                preset=preset,
                rules="{}",
                seats=4,
                unit=unit,
                min_buy_in=unit,
                max_buy_in=1000 * unit,
                practice=practice,
                created_at=0.0,
                snapshot="{}",
            )
            for n, (preset, unit, practice) in TABLES.items()
        }
        s.add_all([*users.values(), *tables.values()])
        await s.flush()
        for number, dealt in enumerate(HANDS, 1):
            hand = Hand(
                table_id=tables[dealt.table].id,
                number=number,
                status=dealt.status,
                commitment="c",
                start_state_id=0,
                started_at=dealt.at - 30,
                finished_at=None if dealt.status == "playing" else dealt.at,
            )
            s.add(hand)
            await s.flush()
            for seat, (name, delta) in enumerate(dealt.results.items()):
                s.add(HandSeat(hand_id=hand.id, seat=seat, user_id=users[name].id, delta=delta))


def expected(
    game: str, period: Period, who: Who, min_hands: int
) -> list[tuple[str, int, Fraction, int]]:
    """The board worked out here, hand by hand, exactly: (name, hands, net units, big hands)."""
    presets = game_presets(game)
    since, until = period_bounds(period, TODAY)
    rows: dict[str, list[Any]] = defaultdict(lambda: [0, Fraction(0), 0])
    for dealt in HANDS:
        preset, unit, practice = TABLES[dealt.table]
        if dealt.status != "settled" or practice or (presets and preset not in presets):
            continue
        if since is not None and until is not None and not since <= dealt.at < until:
            continue
        for name, delta in dealt.results.items():
            assert delta is not None
            if (ACCOUNTS[name] == "bot") != (who == "bots"):
                continue
            row = rows[name]
            row[0] += 1
            row[1] += Fraction(delta, unit)
            row[2] += delta >= BIG_HAND_UNITS * unit
    ranked = [(n, h, net, big) for n, (h, net, big) in rows.items() if h >= min_hands]
    return sorted(ranked, key=lambda r: (-r[2], -r[1], r[0]))


def as_rows(board: Board) -> list[tuple[str, int, float, int]]:
    return [(s.name, s.hands, s.net_units, s.big_hands) for s in board.standings]


@pytest.fixture(params=["sqlite", "postgresql"])
def written(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database holding :data:`HANDS`; its URL."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    else:
        url = request.getfixturevalue("postgres").new_database()
    run_with_db(url, write_hands)
    return url


def boards(url: str, queries: list[BoardQuery]) -> list[Board]:
    async def body(db: Database) -> list[Board]:
        return [await leaderboard(db, q, today=TODAY) for q in queries]

    return run_with_db(url, body)


def test_every_board_adds_up_hand_by_hand(written: str) -> None:
    games = ["all", "chinese", "ofc", "chinese-1-6", "ofc-pineapple", "chinese-2-4", "ofc"]
    queries = [
        BoardQuery(game=g, period=p, who=w, min_hands=m)
        for g in games
        for p in PERIODS
        for w in ("people", "bots")
        for m in (1, 2)
    ]
    for query, board in zip(queries, boards(written, queries), strict=True):
        want = expected(query.game, query.period, query.who, query.min_hands or 1)
        assert as_rows(board) == [(n, h, round(float(net), 2), b) for n, h, net, b in want], query
        assert board.min_hands == query.min_hands


def test_an_accounts_own_line_counts_it_ranked_or_not(written: str) -> None:
    """Each account's own line (``you`` in the answer) is its row of the board with no minimum,
    on every board, and zeros where it has not played."""
    queries = [
        BoardQuery(game=g, period=p, who=w, min_hands=1)
        for g in ("all", "chinese", "ofc-pineapple")
        for p in PERIODS
        for w in ("people", "bots")
    ]

    async def body(db: Database) -> list[tuple[BoardQuery, str, tuple[int, float, int]]]:
        async with db.begin() as s:
            ids = dict((await s.execute(select(User.name, User.id))).all())
        out = []
        for query in queries:
            board = await leaderboard(db, query, today=TODAY)
            for name in ACCOUNTS:
                out.append((query, name, await account_line(db, board, ids[name])))
        return out

    for query, name, line in run_with_db(written, body):
        want = {
            n: (h, round(float(net), 2), b)
            for n, h, net, b in expected(query.game, query.period, query.who, 1)
        }
        assert line == want.get(name, (0, 0.0, 0)), (query, name)


def test_the_edges_of_a_day_and_a_week(written: str) -> None:
    day, week, everything = boards(
        written,
        [BoardQuery(period=p, min_hands=1) for p in ("day", "week", "all")],
    )
    assert (day.since, day.until) == (DAY_START, DAY_END)
    # today: the hand at 00:00 counts, the one at 24:00 is tomorrow's; ann won 12/2 - 4/2 + 60/10
    assert as_rows(day) == [
        ("ann", 3, 10.0, 2),
        ("bob", 2, 6.0, 0),
        ("dan", 1, 1.33, 0),
        ("cat", 2, -9.0, 0),
    ]
    # the week starts at Monday 00:00 exactly: cat's 100 counts, ann's 20 a millisecond before not
    assert as_rows(week) == [
        ("bob", 3, 13.0, 1),
        ("dan", 1, 1.33, 0),
        ("cat", 3, 1.0, 1),
        ("ann", 5, -7.0, 2),
    ]
    # ann and bob end level at +3: more hands first
    assert [s.name for s in everything.standings] == ["dan", "ann", "bob", "cat"]
    assert everything.standings[0].net_units == 8.33  # 4/3 + 70/10
    # the bots' board holds the bot, and no board of people does
    (bots,) = boards(written, [BoardQuery(who="bots", period="all", min_hands=1)])
    assert as_rows(bots) == [("Bot-1", 4, -15.33, 0)]  # -6 -1 -4/3 -7 (-15.333…)


def test_minimum_hands_limit_and_shared_ranks(written: str) -> None:
    ranked, top, defaults, last_week, long_ago = boards(
        written,
        [
            BoardQuery(period="week", min_hands=3),
            BoardQuery(period="week", min_hands=1, limit=2),
            BoardQuery(period="week"),
            BoardQuery(period="week", day=TODAY - dt.timedelta(days=7), min_hands=1),
            BoardQuery(period="day", day=dt.date(2001, 1, 1), min_hands=1),
        ],
    )
    assert [s.name for s in ranked.standings] == ["bob", "cat", "ann"]  # dan has 1 hand
    assert [s.name for s in top.standings] == ["bob", "dan"]
    assert defaults.min_hands == 25
    assert defaults.standings == []
    assert as_rows(last_week) == [("ann", 1, 10.0, 1), ("bob", 1, -10.0, 0)]
    assert long_ago.standings == []


async def eve_wins_a_unit(db: Database) -> None:
    """eve, new, wins 2 chips (a unit) at the small table today: level with cat for the week."""
    async with db.begin() as s:
        eve = User(name="eve", name_key="eve", role="player", created_at=0.0)
        s.add(eve)
        await s.flush()
        hand = Hand(
            table_id=1,
            number=99,
            status="settled",
            commitment="c",
            start_state_id=0,
            started_at=DAY_START,
            finished_at=DAY_START + 5,
        )
        s.add(hand)
        await s.flush()
        s.add(HandSeat(hand_id=hand.id, seat=0, user_id=eve.id, delta=2))


def test_equal_net_units_share_a_rank(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    run_with_db(url, write_hands)
    run_with_db(url, eve_wins_a_unit)
    (week,) = boards(url, [BoardQuery(period="week", min_hands=1)])
    ranks = [(s.rank, s.name) for s in week.standings]
    # cat (3 hands) before eve (1 hand) at +1 each, both third; ann fifth
    assert ranks == [(1, "bob"), (2, "dan"), (3, "cat"), (3, "eve"), (5, "ann")]


def test_a_slow_board_is_kept_a_while_and_counted_once(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    run_with_db(url, write_hands)
    now = [0.0]  # the cache's clock: time passes when the test says so
    query = BoardQuery(period="all", min_hands=1)

    def names(board: Board) -> set[str]:
        return {s.name for s in board.standings}

    async def body(db: Database) -> None:
        kept = BoardCache(slow=0, keep=60, clock=lambda: now[0])  # every board counts as slow
        exact = BoardCache(slow=float("inf"))  # never kept, however loaded the machine
        first = await kept.board(db, query, today=TODAY)
        assert await exact.board(db, query, today=TODAY) is not first
        await eve_wins_a_unit(db)
        now[0] = 59.9
        assert await kept.board(db, query, today=TODAY) is first
        assert "eve" in names(await exact.board(db, query, today=TODAY))
        now[0] = 60.0
        later = await kept.board(db, query, today=TODAY)
        assert "eve" not in names(first)
        assert "eve" in names(later)
        assert later.counted_at >= first.counted_at
        # the same board asked twice at once is counted once; another day is another board
        now[0] = 200.0
        one, two = await asyncio.gather(
            kept.board(db, query, today=TODAY), kept.board(db, query, today=TODAY)
        )
        assert one is two
        assert one is not later
        day = BoardQuery(period="day", min_hands=1)
        assert await kept.board(db, day, today=TODAY) is not await kept.board(
            db, day, today=TODAY + dt.timedelta(days=1)
        )

    run_with_db(url, body)


# ----------------------------------------------------------------------------- played hands
def ledger_results(url: str) -> dict[tuple[str, int], int]:
    """Chips each account won or lost in hands, per table, as the ledger's transfers say
    (a hand moves chips between a seat's escrow and the hand's pot, and nothing else)."""

    async def body(db: Database) -> dict[tuple[str, int], int]:
        async with db.snapshot() as s:
            escrows = {
                a.id: a.user_id
                for a in await s.scalars(
                    select(LedgerAccount).where(LedgerAccount.kind == "escrow")
                )
            }
            tables = dict((await s.execute(select(Sitting.escrow_id, Sitting.table_id))).all())
            names = dict((await s.execute(select(User.id, User.name))).all())
            out: dict[tuple[str, int], int] = defaultdict(int)
            for t in await s.scalars(select(Transfer).where(Transfer.reason == "hand")):
                for escrow, sign in ((t.credit_id, 1), (t.debit_id, -1)):
                    if escrow in escrows:
                        out[(names[escrows[escrow]], tables[escrow])] += sign * t.amount
            return dict(out)

    return run_with_db(url, body)


def board(client: RoomClient, **query: Any) -> list[dict[str, Any]]:
    query = {"min_hands": 1, **query}
    answer = client.request("GET", f"/api/leaderboards?{urlencode(query)}")
    return [
        {k: s[k] for k in ("name", "hands", "net_units", "big_hands")} for s in answer["standings"]
    ]


def test_played_hands_add_up_to_the_ledger(room: str, boss: RoomClient, settings: Settings) -> None:
    units = {"chinese-1-6": 2, "chinese-2-4": 5}
    tables = {
        preset: boss.create_table(
            preset, unit=unit, bots=1, bot_level="heuristic", rules={"showdown_seconds": 0.1}
        )
        for preset, unit in units.items()
    }
    won: dict[str, int] = {}
    finished: dict[str, list[float]] = {}
    for name, preset, hands in (("ann", "chinese-1-6", 3), ("bob", "chinese-2-4", 2)):
        with RoomClient(room) as player:
            player.sign_up(name, f"password of {'-'.join(name.upper())}")
            table = tables[preset]
            conn = player.open_table(table["id"])
            seat = next(i for i, s in enumerate(conn.view["seats"]) if s is None)
            conn.do({"type": "sit", "seat": seat, "buy_in": table["max_buy_in"]})
            won[name] = play(conn, get_rules(preset), hands=hands)
            conn.close()
            played = [h for h in player.request("GET", "/api/hands") if h["status"] == "settled"]
            assert len(played) == hands
            assert sum(h["result"] for h in played) == won[name]
            finished[name] = [h["finished_at"] for h in played]

    by_ledger = ledger_results(settings.database_url)
    table_of = {t["id"]: p for p, t in tables.items()}
    expected_net: dict[str, Fraction] = defaultdict(Fraction)
    for (name, table_id), chips in by_ledger.items():
        expected_net[name] += Fraction(chips, units[table_of[table_id]])
    assert expected_net["ann"] == Fraction(won["ann"], 2)
    assert expected_net["bob"] == Fraction(won["bob"], 5)

    people = board(boss, period="all", game="chinese")
    assert {p["name"]: p["hands"] for p in people} == {"ann": 3, "bob": 2}
    # a player sees their own line, ranked or not; a visitor, or on the bots' board, none
    with RoomClient(room) as ann:
        ann.log_in("ann", "password of A-N-N")
        mine = ann.request("GET", "/api/leaderboards?game=chinese&period=all")["you"]
        assert mine["hands"] == 3
        assert mine["net_units"] == round(won["ann"] / 2, 2)
        assert (mine["rank"], mine["hands_to_rank"]) == (None, 47)  # 50 hands for all time
        ranked = ann.request("GET", "/api/leaderboards?game=chinese&period=all&min_hands=3")
        assert ranked["you"]["rank"] == 1 + [s["name"] for s in ranked["standings"]].index("ann")
        assert ranked["you"]["hands_to_rank"] == 0
        assert ann.request("GET", "/api/leaderboards?game=ofc&period=all")["you"]["hands"] == 0
        assert ann.request("GET", "/api/leaderboards?who=bots")["you"] is None
    assert boss.request("GET", "/api/leaderboards?game=chinese")["you"]["hands"] == 0
    with RoomClient(room) as visitor:
        assert visitor.request("GET", "/api/leaderboards")["you"] is None
    for row in people:
        assert row["net_units"] == round(float(expected_net[row["name"]]), 2)
    assert [p["net_units"] for p in people] == sorted(
        (p["net_units"] for p in people), reverse=True
    )
    # the bots, each heads-up with one person, lost what the person won: on their own board only
    bots = board(boss, period="all", who="bots")
    seated = {name for t in boss.tables() for name in t["players"]}  # the people have left
    assert {b["name"] for b in bots} == seated
    assert len(seated) == 2
    assert sum(Fraction(r["net_units"]).limit_denominator(100) for r in people + bots) == 0
    assert board(boss, period="all", game="chinese-1-6") == [
        r for r in people if r["name"] == "ann"
    ]
    assert board(boss, period="all", game="ofc") == []
    # every hand settled today or (past midnight UTC) yesterday: the days add up to all time
    days = {dt.datetime.fromtimestamp(t, UTC).date() for ts in finished.values() for t in ts}
    by_day: dict[str, int] = defaultdict(int)
    for day in days:
        for row in board(boss, period="day", date=day.isoformat()):
            by_day[row["name"]] += row["hands"]
    assert dict(by_day) == {"ann": 3, "bob": 2}
    assert board(boss, period="day", date="2001-01-01") == []
    # big hands: the hands won by 6 units or more, as the hand list shows them
    with RoomClient(room) as ann:
        ann.log_in("ann", "password of A-N-N")
        big = sum(h["result"] >= 6 * 2 for h in ann.request("GET", "/api/hands"))
    assert next(r for r in people if r["name"] == "ann")["big_hands"] == big


@pytest.mark.parametrize(
    ("query", "status", "code", "words"),
    [
        ("game=poker", 400, "bad_game", "There is no game 'poker'. Games: all, chinese, ofc"),
        (f"game={'x' * 49}", 422, "bad_request", "game"),
        ("period=month", 422, "bad_request", "period"),
        ("who=aliens", 422, "bad_request", "who"),
        ("limit=0", 422, "bad_request", "limit"),
        ("limit=501", 422, "bad_request", "limit"),
        ("limit=ten", 422, "bad_request", "limit"),
        ("min_hands=0", 422, "bad_request", "min_hands"),
        ("date=2026-02-30", 422, "bad_request", "date"),
        ("date=yesterday", 422, "bad_request", "date"),
        ("date=0.0", 422, "bad_request", "date: must be a day written YYYY-MM-DD"),
        ("period=all&date=2026-01-01", 400, "bad_period", "All time has no date"),
    ],
)
def test_bad_requests_are_refused_with_a_sentence(
    client: httpx.Client, query: str, status: int, code: str, words: str
) -> None:
    answer = client.get(f"/api/leaderboards?{query}")
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    assert words in error["message"]
    assert error["message"].endswith(".")


def test_the_calendar_ends_are_answered(client: httpx.Client) -> None:
    for query in ("period=week&date=0001-01-01", "period=day&date=9999-12-31", "game=PINEAPPLE"):
        answer = client.get(f"/api/leaderboards?{query}")
        assert answer.status_code == 200, answer.text
        assert answer.json()["standings"] == []
    body = client.get("/api/leaderboards").json()
    assert (body["game"], body["period"], body["who"], body["min_hands"]) == (
        "all",
        "week",
        "people",
        25,
    )
    assert body["until"] - body["since"] == 7 * 86_400
    assert client.get("/api/leaderboards?game=pineapple").json()["game"] == "ofc-pineapple"
