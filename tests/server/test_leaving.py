"""Time-outs and leaving over the wire (issue 32): the time bank is spent before a time-out, a
seat that left is played at once (the others do not wait its timer), a leave is taken back with
``stay``, and a player the room unseats is told why — and the ledger says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from thirteen.client import RoomClient, RoomError, TableConnection

SEAT = 3
"""Ann's seat: the bots take the first ones."""


def events_of(frame: dict[str, Any], kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [
        e
        for e in frame.get("events", [])
        if e["event"] == kind and (seat is None or e.get("seat") == seat)
    ]


def seated(
    room: str, table_id: int, name: str, seat: int, buy_in: int
) -> tuple[RoomClient, TableConnection]:
    player = RoomClient(room)
    player.sign_up(name, "a table password of some length")
    conn = player.open_table(table_id)
    conn.do({"type": "sit", "seat": seat, "buy_in": buy_in})
    return player, conn


def seen_or_wait(
    conn: TableConnection,
    predicate: Callable[[dict[str, Any]], bool],
    timeout: float = 60.0,
    since: int = 0,
) -> dict[str, Any]:
    """The first frame already received (from the ``since``-th) that satisfies ``predicate``,
    or the next one (a frame the room sends before its answer to an action is read while
    waiting for that answer)."""
    for frame in conn.frames[since:]:
        if predicate(frame):
            return frame
    return conn.wait(predicate, timeout)


def my_turn(frame: dict[str, Any]) -> bool:
    hand = frame.get("view", {}).get("hand")
    return bool(hand and hand.get("me") and hand["me"]["must_act"])


def memos(player: RoomClient) -> list[str]:
    return [t["memo"] for t in player.request("GET", "/api/wallet")["transfers"]]


def test_the_time_bank_is_spent_before_the_time_out(room: str, boss: RoomClient) -> None:
    table = boss.create_table(
        "chinese-1-6",
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 60, "set_hand_seconds": 0.5},
        time_bank_seconds=1,
    )
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        conn.wait(lambda f: f["type"] == "update" and bool(conn.my_turn()))
        me = conn.me
        assert me is not None
        deadline = me["deadline"]
        # ann does nothing: her bank's second is added to her time, then the table plays for her
        banked = conn.wait(lambda f: bool(events_of(f, "TimeBankUsed", SEAT)))
        used = events_of(banked, "TimeBankUsed", SEAT)[0]
        assert used["seconds"] == 1
        assert used["deadline"] == pytest.approx(deadline + 1)
        assert banked["time_bank"] == pytest.approx(0, abs=0.2)
        assert not events_of(banked, "TimedOut")
        timed = conn.wait(lambda f: bool(events_of(f, "TimedOut", SEAT)))
        assert timed["server_time"] >= deadline + 1
        conn.close()


def test_an_absent_players_bank_is_kept(room: str, boss: RoomClient) -> None:
    """A player with no socket open is timed out at the deadline: the table does not wait out
    their bank, which is kept for their return."""
    table = boss.create_table(
        "chinese-1-6",
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 60, "set_hand_seconds": 4},
        time_bank_seconds=30,
    )
    watcher = boss.open_table(table["id"], watch_only=True)
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        conn.close()  # gone before her deadline (4 s: the room hears of it well before)
        gone = seen_or_wait(
            watcher, lambda f: f["type"] == "presence" and SEAT not in f["connected"]
        )
        timed = seen_or_wait(watcher, lambda f: bool(events_of(f, "TimedOut", SEAT)))
        assert gone["server_time"] < timed["server_time"]
        assert not any(events_of(f, "TimeBankUsed") for f in watcher.frames)
        assert SEAT not in timed["connected"]
    watcher.close()


def test_leave_plays_the_rest_at_once_and_stay_takes_it_back(room: str, boss: RoomClient) -> None:
    """OFC with a minute a street: a seat that left on the first street is played at once to the
    end (the table never waits its timer), and ``stay`` keeps a seat that changed its mind."""
    table = boss.create_table(
        "ofc",
        bots=1,
        bot_level="club",
        rules={"showdown_seconds": 0.2, "first_street_seconds": 60, "street_seconds": 60},
        time_bank_seconds=0,
    )
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        with pytest.raises(RoomError) as nothing:
            conn.do({"type": "stay"})
        assert nothing.value.code == "not_leaving"
        seen_or_wait(conn, my_turn)
        conn.do({"type": "leave"})
        stayed = conn.do({"type": "stay"})
        assert stayed["type"] == "ack"
        frame = seen_or_wait(conn, lambda f: bool(events_of(f, "PlayerSatIn", SEAT)))
        assert not frame["view"]["seats"][SEAT]["leaving"]
        # leave again, for good: every street of hers is played before its deadline
        since = len(conn.frames)
        conn.do({"type": "leave"})
        deadlines: dict[int, float] = {}
        played: list[tuple[float, float]] = []

        def done(f: dict[str, Any]) -> bool:
            for e in events_of(f, "TurnStarted"):
                if SEAT in e["seats"]:
                    deadlines[e["street"]] = e["deadline"]
            if events_of(f, "TimedOut", SEAT):
                played.append((f["server_time"], max(deadlines.values())))
            return bool(events_of(f, "PlayerLeft", SEAT))

        try:
            left = seen_or_wait(conn, done, timeout=50, since=since)  # a street's timer is 60 s
        except TimeoutError:  # say what the table was waiting for (seen once in a full run)
            last = conn.frames[-1]
            hand = last.get("view", {}).get("hand") or {}
            raise AssertionError(
                f"the hand was not played out: the last frame, {last['type']} of state "
                f"{last.get('state_id')} at {last.get('server_time')}, has to act "
                f"{hand.get('to_act')} on streets {[b['street'] for b in hand.get('boards', [])]}"
            ) from None
        assert events_of(left, "PlayerLeft", SEAT)[0]["reason"] == "asked"
        assert len(played) >= 4
        assert all(at < deadline for at, deadline in played)
        assert any("(asked)" in memo for memo in memos(ann))
        conn.close()


def test_an_unseated_player_is_told_why_and_the_ledger_says_so(room: str, boss: RoomClient) -> None:
    table = boss.create_table(
        "chinese-1-6",
        bots=2,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.1, "set_hand_seconds": 0.5},
        time_bank_seconds=0,
        sit_out_hands=1,
    )
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        conn.do({"type": "sit_out"})
        told = seen_or_wait(conn, lambda f: f["type"] == "unseated")
        assert told["seat"] == SEAT
        assert told["reason"] == "sat_out"
        assert "unseated after sitting out 1 hand" in told["message"].lower()
        assert f"{told['chips']:,} chips went back to your wallet" in told["message"]
        # the frame that shows the seat empty comes after the notice
        gone = seen_or_wait(conn, lambda f: bool(events_of(f, "PlayerLeft", SEAT)))
        assert conn.frames.index(told) < conn.frames.index(gone)
        assert gone["seat"] is None
        wallet = memos(ann)
        assert any("(unseated after sitting out 1 hand)" in m for m in wallet), wallet
        assert not any("(asked)" in m for m in wallet)
        conn.close()


def test_a_closing_table_says_so_in_the_ledger(room: str, boss: RoomClient) -> None:
    table = boss.create_table(
        "chinese-1-6",
        bots=2,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.1, "set_hand_seconds": 0.5},
        time_bank_seconds=0,
    )
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        conn.do({"type": "sit_out"})
        boss.request("DELETE", f"/api/tables/{table['id']}")
        told = seen_or_wait(conn, lambda f: f["type"] == "unseated")
        assert told["reason"] == "table_closed"
        seen_or_wait(conn, lambda f: f["type"] == "closing")
        assert any("(table closed)" in m for m in memos(ann))


def test_sitting_out_past_the_time_limit_is_told_in_minutes(room: str, boss: RoomClient) -> None:
    """The engine's own limit (``sit_out_seconds`` between hands): the notice and the ledger say
    how long, not "(asked)"."""
    table = boss.create_table(
        "chinese-1-6",
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.1, "set_hand_seconds": 0.5, "sit_out_seconds": 1},
        time_bank_seconds=0,
        sit_out_hands=100,
    )
    ann, conn = seated(room, table["id"], "ann", SEAT, table["max_buy_in"])
    with ann:
        conn.do({"type": "sit_out"})
        told = seen_or_wait(conn, lambda f: f["type"] == "unseated")
        assert told["reason"] == "sat_out"
        assert told["message"].startswith("Unseated after sitting out 1 s: your ")
        gone = seen_or_wait(conn, lambda f: bool(events_of(f, "PlayerLeft", SEAT)))
        assert events_of(gone, "PlayerLeft", SEAT)[0]["reason"] == "sat out too long"
        wallet = memos(ann)
        assert any("(unseated after sitting out 1 s)" in m for m in wallet), wallet
        conn.close()
