"""The leaderboards over HTTP (``GET /api/leaderboards``): a board as
:mod:`thirteen.server.competitions.leaderboards` counts it, with the asking account's own line."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, BeforeValidator, Field

from thirteen.server.competitions.leaderboards import (
    ALL_GAMES,
    BIG_HAND_UNITS,
    BoardCache,
    BoardQuery,
    Period,
    Who,
    account_line,
    games,
)
from thirteen.server.http.api import ApiError, db_of, errors, optional_user

router = APIRouter()

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class StandingOut(BaseModel):
    rank: int = Field(description="1 for the best; accounts with equal net units share a rank.")
    name: str = Field(description="The account's name.")
    hands: int = Field(description="Settled hands played in the period (practice tables aside).")
    net_units: float = Field(
        description="Chips won less chips lost, each hand's ÷ its table's unit (two decimals)."
    )
    units_per_hand: float = Field(description="net_units ÷ hands (two decimals).")
    big_hands: int = Field(description="Hands won by at least big_hand_units units.")


class YouOut(BaseModel):
    """The logged-in account's own line on a people's board, ranked or not."""

    name: str
    hands: int = Field(description="Your settled hands in the period (practice tables aside).")
    net_units: float = Field(description="Your net units in the period (two decimals).")
    units_per_hand: float = Field(description="net_units ÷ hands (two decimals; 0 without hands).")
    big_hands: int = Field(description="Your hands won by at least big_hand_units units.")
    rank: int | None = Field(
        description="Your rank when you are among the standings shown; null when you are not "
        "(not enough hands yet, or below the last one shown)."
    )
    hands_to_rank: int = Field(description="Hands you still need to be ranked; 0 when none.")


class LeaderboardOut(BaseModel):
    """One board: a game, a period, people or bots."""

    game: str = Field(description="all, a family (chinese, ofc) or a preset, as asked.")
    period: Period = Field(description="day or week (calendar, UTC), or all time.")
    who: Who = Field(description="people (players and admins) or bots: never on one board.")
    since: float | None = Field(
        description="Start of the period, seconds since the epoch (UTC midnight); null: all time."
    )
    until: float | None = Field(description="End of the period (excluded); null: all time.")
    min_hands: int = Field(description="Hands an account needs in the period to be ranked.")
    counted_at: float = Field(
        description="When the board was counted, seconds since the epoch (a board slow to count "
        "is kept up to a minute)."
    )
    big_hand_units: int = Field(description="A hand won by this many units or more is big.")
    games: list[str] = Field(description="Every value game takes.")
    standings: list[StandingOut] = Field(description="Best first, at most limit of them.")
    you: YouOut | None = Field(
        description="Your own line, when you are logged in and the board is people's."
    )


def _iso_day(value: Any) -> Any:
    """A day is written YYYY-MM-DD (pydantic alone would take ``0.0`` for 1 January 1970)."""
    if isinstance(value, str) and not ISO_DAY.fullmatch(value):
        raise ValueError("must be a day written YYYY-MM-DD")
    return value


@router.get("/api/leaderboards", responses=errors(400, 422))
async def leaderboards(
    request: Request,
    game: Annotated[
        str,
        Query(
            max_length=48,
            description="all, chinese, ofc, or a preset such as chinese-1-6 or ofc-pineapple.",
        ),
    ] = ALL_GAMES,
    period: Annotated[Period, Query(description="day, week (UTC calendar) or all.")] = "week",
    who: Annotated[
        Who, Query(description="people, bots, or teams (duplicate events: see the docstring).")
    ] = "people",
    date: Annotated[
        dt.date | None,
        BeforeValidator(_iso_day),
        Query(description="YYYY-MM-DD: the day or week holding it (UTC); default today."),
    ] = None,
    min_hands: Annotated[
        int | None,
        Query(ge=1, le=1_000_000, description="Hands needed to be ranked; default by period."),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500, description="At most this many standings.")] = 50,
) -> LeaderboardOut:
    """The leaderboard of a game and a period: net units, hands and big hands per account,
    people and bots apart (anyone may look)."""
    if period == "all" and date is not None:
        raise ApiError(
            "bad_period", "All time has no date: leave date out, or ask for a day or week."
        )
    cache: BoardCache = request.app.state.leaderboards
    db = db_of(request)
    board = await cache.board(
        db,
        BoardQuery(game=game, period=period, who=who, day=date, min_hands=min_hands, limit=limit),
    )
    me = await optional_user(request)
    you = None
    if me is not None and who == "people":
        hands, net, big = await account_line(db, board, me.user_id)
        you = YouOut(
            name=me.name,
            hands=hands,
            net_units=net,
            units_per_hand=round(net / hands, 2) if hands else 0.0,
            big_hands=big,
            rank=next((s.rank for s in board.standings if s.name == me.name), None),
            hands_to_rank=max(0, board.min_hands - hands),
        )
    return LeaderboardOut(
        game=board.game,
        period=board.period,
        who=board.who,
        since=board.since,
        until=board.until,
        min_hands=board.min_hands,
        counted_at=board.counted_at,
        big_hand_units=BIG_HAND_UNITS,
        games=games(),
        standings=[
            StandingOut(
                rank=s.rank,
                name=s.name,
                hands=s.hands,
                net_units=s.net_units,
                units_per_hand=round(s.net_units / s.hands, 2) if s.hands else 0.0,
                big_hands=s.big_hands,
            )
            for s in board.standings
        ],
        you=you,
    )


__all__ = ["router"]
