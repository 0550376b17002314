"""An event's results after the play: one deal side by side as a group's three tables
played it, and every seat's points (then the rulings, those after the finish marked) as CSV,
both read from :mod:`.scoreboard`."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

from thirteen.engine.cards import format_cards
from thirteen.engine.history import history_from_json, replay
from thirteen.server.competitions.duplicate import TABLES
from thirteen.server.competitions.events.common import EventError
from thirteen.server.competitions.events.scoreboard import _groups, _hand_scores, _load, standings
from thirteen.server.db.session import Database


async def side_by_side(
    db: Database, event_id: int, round_: int, group: int, number: int, *, director: bool
) -> dict[str, Any]:
    """One deal as the group's three tables played it, seat by seat (the same cards each):
    each team's rows and points. Once the round is over for everyone (the director: once the
    three tables settled the hand). Discards stay hidden (RULES §4.1)."""
    async with db.begin() as s:
        loaded = await _load(s, event_id)
    row = loaded.row
    tables = _groups(loaded).get((round_, group - 1))
    if tables is None or not 1 <= number <= row.hands_per_round:
        raise EventError("no_deal", "That event has no such round, group or hand.")
    round_over = row.status == "finished" or row.round > round_
    complete, _scores, results = _hand_scores(loaded, tables, number)
    if not complete or not (round_over or director):
        raise EventError(
            "not_yet",
            "A deal is shown side by side once its round is over at every table.",
        )
    teams: list[int] = json.loads(tables[0].teams)
    names = {t.id: t.name for t in loaded.teams}
    by_seat: list[list[dict[str, Any]]] = [[] for _ in range(TABLES)]
    for t, result in zip(tables, results, strict=True):
        hand = loaded.hands[t.table_id][number]
        assert hand.history is not None
        final = replay(history_from_json(json.loads(hand.history)))
        dealt = final.hand
        assert dealt is not None
        assert dealt.result is not None
        fouls = {b.seat: p.foul for b, p in zip(dealt.boards, dealt.result.players, strict=True)}
        for b in dealt.boards:
            seat = result["seats"][b.seat]
            by_seat[b.seat].append(
                {
                    "table_id": t.table_id,
                    "team": names[seat["team"]],
                    "player": seat["player"],
                    "outcome": b.outcome,
                    "front": format_cards(b.front),
                    "middle": format_cards(b.middle),
                    "back": format_cards(b.back),
                    "foul": fouls[b.seat],
                    "points": seat["points"],
                }
            )
    return {
        "event": event_id,
        "round": round_,
        "group": group,
        "hand": number,
        "root": loaded.roots.get((round_, group - 1, number)),
        "teams": [names[t] for t in teams],
        "seats": [{"seat": i, "plays": plays} for i, plays in enumerate(by_seat)],
    }


CSV_COLUMNS = ("event", "round", "group", "hand", "table", "seat", "team", "player", "points")


async def results_csv(db: Database, event_id: int) -> str:
    """Every seat's points in every hand settled at all three tables, then the rulings (a row
    for each team one moved points of, else one for its player's team; a ruling made after the
    finish says so, by whom, when and why)."""
    data = await standings(db, event_id)
    names = {t["id"]: t["name"] for t in data["standings"]}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for rnd in data["round_results"]:
        for grp in rnd["groups"]:
            for hand in grp["hands"]:
                for table in hand["tables"]:
                    for seat in table["seats"]:
                        writer.writerow(
                            (
                                event_id,
                                rnd["round"],
                                grp["group"],
                                hand["hand"],
                                table["table_id"],
                                seat["seat"],
                                names.get(seat["team"], ""),
                                _cell(seat["player"]),
                                seat["points"],
                            )
                        )
    for ruling in data["rulings"]:
        what = f"ruling {ruling['id']}: {ruling['kind']} ({ruling['player']})"
        if ruling["after_finish"]:  # the final standings changed: by whom, when and why
            when = datetime.fromtimestamp(ruling["at"], UTC).strftime("%Y-%m-%d %H:%M UTC")
            what += f", after the finish, by {ruling['by']} on {when}: {ruling['reason']}"
        # (a ruling that moves no points — a warning, a disqualification — is a row too)
        for team, points in (ruling["points"] or {ruling["team"]: 0}).items():
            writer.writerow(
                (
                    event_id,
                    ruling["round"],
                    "",
                    ruling["hand"],
                    ruling["table_id"],
                    "",
                    team,
                    _cell(what),
                    points,
                )
            )
    return out.getvalue()


def _cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
