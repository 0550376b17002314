"""Leaderboards: per game and per period, each account's net units, hands and big hands, people
and bots on separate boards. Read-only: everything comes from settled hands (``hand_seats``).

What the boards count, where the issue left it open:

- **Game**: a preset (``chinese-1-6``, ``ofc-pineapple``, …, or one of its aliases), a family
  (``chinese``: every Chinese Poker preset; ``ofc``: every open-face one), or ``all``. A table
  counts under the preset it was opened with, whatever rules it overrode.
- **Period**: calendar periods in **UTC**. ``day`` is 00:00 to 24:00 UTC; ``week`` is an ISO
  week, Monday 00:00 UTC to the next Monday; ``all`` is all time. A hand belongs to the period in
  which it *settled* (``hands.finished_at``). ``date`` picks a past day or week (default: today).
- **Net units**: chips won or lost ÷ the table's ``unit`` (chips one point is worth), summed over
  the hands, so that tables of different stakes compare.
- **Big hand**: a hand won by at least :data:`BIG_HAND_UNITS` units (6: a heads-up scoop's worth
  at 1-6 scoring; in OFC, royalties or a fantasyland usually). The same units in every game, so
  that the count compares like net units do.
- **Hands**: settled hands the account was dealt into; a voided hand (nothing moved) does not
  count, nor does any hand at a ``practice`` table (the strong bot gives hints there), nor at a
  sit & go's table (tournament chips, at a unit that rises, are not money).
- **Ranked**: an account needs :data:`MIN_HANDS` hands in the period (``min_hands`` overrides
  it), so a single lucky hand does not top the all-time board. Rank ties share a rank (1, 2, 2,
  4), ordered by net units, then by more hands, then by name.
- **Who**: ``people`` (players and admins) and ``bots`` are ranked apart, never on one board.

- **Teams** (``who=teams``): duplicate team rankings across events (:mod:`.events`). A team is
  known by its name (case aside) from one event to the next; a row sums the finished events of
  the game that ended in the period: ``hands`` counts the events it played, ``net_units`` its
  points in them (rulings included), ``big_hands`` the events it won. Bot teams and disqualified
  teams are not ranked; one event is enough to be ranked (``min_hands`` overrides it). Hands at
  an event's table count on no one's personal board (points, not money, as at a sit & go).

Efficiency: the database aggregates (one ``GROUP BY`` over the period's hands; the
``hands_finished`` index, migration 0004, finds a day's or a week's hands without reading the
rest, and ``hand_seats``' primary key joins their seats): a day or a week takes milliseconds
however old the room. All time reads every settled seat once (0.3 to 0.7 s on PostgreSQL or
SQLite for 900,000 seat rows on 2 shared cores; ``benchmarks/leaderboards.py``), so a
board that took :data:`SLOW_SECONDS` or more to count is kept :data:`KEEP_SECONDS` by
:class:`BoardCache` (its answer says when it was counted), and requests for a board being counted
wait for that count instead of starting their own. Past that size, the next step is a table of
per-day totals for days gone by (a closed UTC day never changes), summed with today's live count.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from sqlalchemy import Float, Subquery, and_, case, cast, func, literal_column, select

from thirteen.engine.errors import RuleError
from thirteen.engine.rules import ALIASES, PRESETS
from thirteen.server.competitions import events
from thirteen.server.db.models import DuplicateEvent, GameTable, Hand, HandSeat, User
from thirteen.server.db.session import Database

Period = Literal["day", "week", "all"]
Who = Literal["people", "bots", "teams"]
PERIODS: tuple[Period, ...] = ("day", "week", "all")
BIG_HAND_UNITS = 6
"""A hand won by this many units or more is a big hand."""
MIN_HANDS: dict[Period, int] = {"day": 10, "week": 25, "all": 50}
"""Hands an account needs in the period to be ranked (unless the request says otherwise)."""
ROLES: dict[Who, tuple[str, ...]] = {
    "people": ("player", "admin"),
    "bots": ("bot",),
    "teams": (),
}
FAMILIES = {"chinese": "Chinese Poker", "ofc": "Open-face Chinese Poker"}
ALL_GAMES = "all"
DAY = 86_400.0
SLOW_SECONDS = 0.2
"""A board that took this long to count is kept (:class:`BoardCache`)..."""
KEEP_SECONDS = 60.0
"""...this long: on a large room, all time's boards are at most a minute old."""
KEPT_BOARDS = 256


# ----------------------------------------------------------------------------- what is asked
def games() -> list[str]:
    """Every value ``game`` takes: ``all``, the families, then the presets."""
    return [ALL_GAMES, *FAMILIES, *PRESETS]


def game_presets(game: str) -> tuple[str, ...] | None:
    """The presets a board covers (``None``: every table), or :class:`RuleError` ``bad_game``.

    Families win over aliases: ``chinese`` is every Chinese Poker preset here (as in the lobby's
    filter), though ``get_rules("chinese")`` means ``chinese-1-6``."""
    key = game.strip().lower()
    if key == ALL_GAMES:
        return None
    if key in FAMILIES:
        return tuple(name for name, rules in PRESETS.items() if rules.game == key)
    key = ALIASES.get(key, key)
    if key in PRESETS:
        return (key,)
    shown = game if len(game) <= 48 else game[:45] + "…"
    raise RuleError("bad_game", f"There is no game {shown!r}. Games: {', '.join(games())}.")


def canonical_game(game: str) -> str:
    """``game`` as the board names it: ``all``, a family or a preset (aliases resolved)."""
    key = game.strip().lower()
    return key if key == ALL_GAMES or key in FAMILIES else ALIASES.get(key, key)


def period_bounds(period: Period, day: dt.date) -> tuple[float | None, float | None]:
    """The period holding ``day``, as [since, until) in seconds since the epoch (UTC);
    ``(None, None)`` for all time."""
    if period == "all":
        return None, None
    start = day if period == "day" else day - dt.timedelta(days=day.weekday())
    since = dt.datetime(start.year, start.month, start.day, tzinfo=dt.UTC).timestamp()
    return since, since + (DAY if period == "day" else 7 * DAY)


@dataclass(frozen=True)
class BoardQuery:
    game: str = ALL_GAMES
    period: Period = "week"
    who: Who = "people"
    day: dt.date | None = None
    """A day in the period (UTC); ``None``: today."""
    min_hands: int | None = None
    """``None``: :data:`MIN_HANDS` for the period."""
    limit: int = 50


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    hands: int
    net_units: float
    big_hands: int


@dataclass(frozen=True)
class Board:
    game: str
    period: Period
    who: Who
    since: float | None
    until: float | None
    min_hands: int
    standings: list[Standing]
    counted_at: float
    """When it was counted (seconds since the epoch)."""


# ----------------------------------------------------------------------------- the query
def _aggregate(
    presets: tuple[str, ...] | None,
    who: Who,
    since: float | None,
    until: float | None,
    user_id: int | None = None,
) -> Subquery:
    """Per account (or only ``user_id``'s): hands, net units, big hands; every filter pushed
    into the database."""
    unit = GameTable.unit
    net = func.sum(cast(HandSeat.delta, Float) / unit)
    big = func.sum(case((HandSeat.delta >= BIG_HAND_UNITS * unit, 1), else_=0))
    hands = func.count()
    where = [
        # a literal, so the planner sees a constant (the column is tiny and mostly 'settled')
        Hand.status == literal_column("'settled'"),
        HandSeat.delta.is_not(None),
        GameTable.practice.is_(False),
        GameTable.tournament_id.is_(None),  # tournament chips, at a unit that rises: not money
        GameTable.event_id.is_(None),  # a duplicate event's points: its teams' board
        User.role.in_(ROLES[who]),
    ]
    if presets is not None:
        where.append(GameTable.preset.in_(presets))
    if since is not None and until is not None:
        where += [Hand.finished_at >= since, Hand.finished_at < until]
    if user_id is not None:
        where.append(HandSeat.user_id == user_id)
    return (
        select(
            HandSeat.user_id,
            User.name,
            hands.label("hands"),
            net.label("net"),
            big.label("big"),
        )
        .select_from(Hand)
        .join(GameTable, GameTable.id == Hand.table_id)
        .join(HandSeat, HandSeat.hand_id == Hand.id)
        .join(User, User.id == HandSeat.user_id)
        .where(and_(*where))
        .group_by(HandSeat.user_id, User.name)
        .subquery()
    )


async def leaderboard(db: Database, query: BoardQuery, *, today: dt.date | None = None) -> Board:
    """The board ``query`` asks for (``today``: the current UTC date, for tests)."""
    presets = game_presets(query.game)
    day = query.day or today or dt.datetime.now(dt.UTC).date()
    since, until = period_bounds(query.period, day)
    if query.who == "teams":
        min_events = query.min_hands or 1
        return Board(
            game=canonical_game(query.game),
            period=query.period,
            who="teams",
            since=since,
            until=until,
            min_hands=min_events,
            standings=await _team_standings(db, presets, since, until, min_events, query.limit),
            counted_at=time.time(),
        )
    min_hands = query.min_hands if query.min_hands is not None else MIN_HANDS[query.period]
    inner = _aggregate(presets, query.who, since, until)
    ranked = (
        select(inner.c.name, inner.c.hands, inner.c.net, inner.c.big)
        .where(inner.c.hands >= min_hands)
        .order_by(inner.c.net.desc(), inner.c.hands.desc(), inner.c.name)
        .limit(query.limit)
    )
    async with db.snapshot() as s:
        rows = (await s.execute(ranked)).all()
    standings: list[Standing] = []
    for i, (name, hands, net, big) in enumerate(rows):
        tied = standings and standings[-1].net_units == round(float(net), 2)
        rank = standings[-1].rank if tied else i + 1
        standings.append(Standing(rank, name, int(hands), round(float(net), 2), int(big)))
    return Board(
        game=canonical_game(query.game),
        period=query.period,
        who=query.who,
        since=since,
        until=until,
        min_hands=min_hands,
        standings=standings,
        counted_at=time.time(),
    )


async def _team_standings(
    db: Database,
    presets: tuple[str, ...] | None,
    since: float | None,
    until: float | None,
    min_events: int,
    limit: int,
) -> list[Standing]:
    """Teams ranked across the finished events of the game and period (see the docstring)."""
    where = [DuplicateEvent.status == "finished"]
    if presets is not None:
        where.append(DuplicateEvent.preset.in_(presets))
    if since is not None and until is not None:
        where += [DuplicateEvent.finished_at >= since, DuplicateEvent.finished_at < until]
    async with db.snapshot() as s:
        ids = (await s.scalars(select(DuplicateEvent.id).where(*where))).all()
    rows: dict[str, list[Any]] = {}
    for event_id in ids:
        for team in (await events.standings(db, event_id))["standings"]:
            if team["bot"] or team["disqualified"]:
                continue
            row = rows.setdefault(team["name"].lower(), [team["name"], 0, 0, 0])
            row[1] += 1
            row[2] += team["total"]
            row[3] += team["rank"] == 1
    ranked = sorted(
        (r for r in rows.values() if r[1] >= min_events), key=lambda r: (-r[2], -r[1], r[0])
    )[:limit]
    standings: list[Standing] = []
    for i, (name, played, total, won) in enumerate(ranked):
        tied = standings and standings[-1].net_units == float(total)
        rank = standings[-1].rank if tied else i + 1
        standings.append(Standing(rank, name, played, float(total), won))
    return standings


async def account_line(db: Database, board: Board, user_id: int) -> tuple[int, float, int]:
    """One account's hands, net units and big hands in ``board``'s game and period, ranked or
    not (always counted now: it reads only that account's seats, through their index)."""
    inner = _aggregate(game_presets(board.game), board.who, board.since, board.until, user_id)
    async with db.snapshot() as s:
        row = (await s.execute(select(inner.c.hands, inner.c.net, inner.c.big))).first()
    if row is None:
        return 0, 0.0, 0
    hands, net, big = row
    return int(hands), round(float(net), 2), int(big)


class BoardCache:
    """Boards that were slow to count, kept :data:`KEEP_SECONDS`; one count at a time per board.

    A fast board (a day's, a week's, a small room's) is counted afresh on every request, so it is
    always exact; only a board that took ``slow`` seconds or more is served again while young.
    """

    def __init__(
        self,
        *,
        slow: float = SLOW_SECONDS,
        keep: float = KEEP_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.slow, self.keep, self.clock = slow, keep, clock
        self._kept: dict[BoardQuery, tuple[float, Board]] = {}
        self._counting: dict[BoardQuery, asyncio.Task[Board]] = {}

    async def board(
        self, db: Database, query: BoardQuery, *, today: dt.date | None = None
    ) -> Board:
        """The board ``query`` asks for: kept, being counted, or counted now."""
        game_presets(query.game)  # refuse a bad game before anything is kept under it
        key = replace(
            query,
            game=canonical_game(query.game),
            day=query.day or today or dt.datetime.now(dt.UTC).date(),
        )
        kept = self._kept.get(key)
        if kept is not None and self.clock() - kept[0] < self.keep:
            return kept[1]
        task = self._counting.get(key)
        if task is None:
            task = asyncio.ensure_future(self._count(db, key))
            self._counting[key] = task
            task.add_done_callback(lambda _: self._counting.pop(key, None))
        # shielded: a request that goes away does not cancel the count the others wait for
        return await asyncio.shield(task)

    async def _count(self, db: Database, key: BoardQuery) -> Board:
        began = self.clock()
        board = await leaderboard(db, key)
        if self.clock() - began >= self.slow:
            self._kept[key] = (self.clock(), board)
            while len(self._kept) > KEPT_BOARDS:
                del self._kept[next(iter(self._kept))]  # the oldest first
        else:
            self._kept.pop(key, None)
        return board


__all__ = [
    "ALL_GAMES",
    "BIG_HAND_UNITS",
    "MIN_HANDS",
    "PERIODS",
    "Board",
    "BoardCache",
    "BoardQuery",
    "Period",
    "Standing",
    "Who",
    "account_line",
    "game_presets",
    "games",
    "leaderboard",
    "period_bounds",
]
