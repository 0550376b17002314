"""Help at the table over HTTP: evaluating an arrangement under a table's rules."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from thirteen.client import RoomClient, RoomError
from thirteen.engine.cards import parse_cards


def _evaluate(client: httpx.Client, table_id: int, **rows: str) -> httpx.Response:
    return client.get(f"/api/tables/{table_id}/evaluate", params=rows)


def test_anyone_may_evaluate_an_arrangement_under_the_tables_rules(
    boss: RoomClient, client: httpx.Client
) -> None:
    ofc = boss.create_table("ofc", bots=1, bot_level="heuristic")["id"]
    chinese = boss.create_table("chinese-1-6")["id"]
    hand = {"front": "Qs Qd 7c", "middle": "9c 9d 5h 5s 2d", "back": "Ah Kh 8h 6h 3h"}
    answer = _evaluate(client, ofc, **hand)  # no session: anyone
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "rows": [
            {"row": "front", "cards": "Qs Qd 7c", "name": "Pair of Queens", "royalty": 7},
            {
                "row": "middle",
                "cards": "9c 9d 5h 5s 2d",
                "name": "Two pair, Nines and Fives",
                "royalty": 0,
            },
            {"row": "back", "cards": "Ah Kh 8h 6h 3h", "name": "Ace-high flush", "royalty": 4},
        ],
        "foul": False,
        "warning": None,
        "royalties": 11,
    }
    # the same cards at a Chinese Poker table: the Eastern table pays none of these
    assert _evaluate(client, chinese, **hand).json()["royalties"] == 0
    # incomplete rows, cards as the room writes them
    partial = _evaluate(client, ofc, front="ks,kd", back="10c").json()
    assert [(r["cards"], r["name"]) for r in partial["rows"]] == [
        ("Ks Kd", "Pair of Kings"),
        ("", None),
        ("Tc", "Ten high"),
    ]
    assert (partial["foul"], partial["royalties"]) == (False, 0)
    doomed = _evaluate(client, ofc, front="Ks Kd", middle="Qc Qh 7c 5h 2s").json()
    assert doomed["foul"] is True
    assert doomed["warning"] == "Front already beats Middle: this hand will foul whatever comes."


def _refusal(answer: httpx.Response) -> tuple[int, str, str]:
    error: dict[str, Any] = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


def test_bad_cards_and_unknown_tables_are_refused_with_a_sentence(
    boss: RoomClient, client: httpx.Client
) -> None:
    table = boss.create_table("ofc")["id"]
    assert _refusal(_evaluate(client, table, front="As Ad Ah Ac")) == (
        422,
        "bad_cards",
        "The front holds at most 3 cards, not 4.",
    )
    assert _refusal(_evaluate(client, table, front="As", back="Kd As")) == (
        422,
        "bad_cards",
        "As is used twice.",
    )
    status, code, message = _refusal(_evaluate(client, table, middle="1x"))
    assert (status, code) == (422, "bad_cards")
    assert message.startswith('Middle: "1x" is not a card')
    status, code, _ = _refusal(_evaluate(client, table, back="x" * 65))
    assert (status, code) == (422, "bad_request")
    assert _refusal(_evaluate(client, table + 1000)) == (
        404,
        "no_table",
        f"There is no open table {table + 1000}.",
    )
    boss.request("DELETE", f"/api/tables/{table}")  # no hand in play: it closes at once
    assert _refusal(_evaluate(client, table))[:2] == (404, "no_table")


# ----------------------------------------------------------------------------- hints
def _hint(client: RoomClient, table_id: int) -> dict[str, Any]:
    answer: dict[str, Any] = client.request("GET", f"/api/tables/{table_id}/hint")
    return answer


def _refused(client: RoomClient, table_id: int) -> tuple[int, str]:
    with pytest.raises(RoomError) as refused:
        _hint(client, table_id)
    return refused.value.status, refused.value.code


def _mine(hint: dict[str, Any], me: dict[str, Any]) -> None:
    """Every card the hint names is the seat's own, to play now."""
    named = [
        c for k in ("front", "middle", "back", "discard") for c in parse_cards(hint.get(k, ""))
    ]
    assert set(named) <= set(parse_cards(me["cards"]))
    assert len(named) == len(set(named))


def test_a_practice_hint_is_the_strong_setters_move_and_the_table_takes_it(
    room: str, boss: RoomClient, client: httpx.Client
) -> None:
    table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic", practice=True)
    tid = table["id"]
    with RoomClient(room) as ann, RoomClient(room) as bob:
        ann.sign_up("ann", "password of A-N-N")
        bob.sign_up("bob", "password of B-O-B")
        conn = ann.open_table(tid)
        assert _refused(ann, tid) == (403, "not_seated")
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        if not conn.my_turn():
            conn.wait(lambda f: f["type"] in ("snapshot", "update") and conn.my_turn())
        hint = _hint(ann, tid)
        # the hint is made on the table's state now, which the socket may not have read yet
        # (the bot sets its hand meanwhile): it is never behind what the socket saw
        assert hint["state_id"] >= conn.state_id
        if conn.state_id < hint["state_id"]:
            conn.wait(lambda f: f.get("state_id", -1) >= hint["state_id"])
        assert conn.my_turn()
        assert hint["action"]["type"] in ("set_hand", "declare_natural", "surrender")
        assert isinstance(hint["ev"], float)
        assert hint["text"].endswith(" points a hand.")
        # a setting has no sampled risks
        assert (hint["foul_rate"], hint["fantasyland_rate"], hint["gamble"]) == (None, None, None)
        assert hint["options"] == []
        if hint["action"]["type"] == "set_hand":
            _mine(hint["action"], conn.me or {})
            assert set(hint["action"]) == {"type", "front", "middle", "back"}
            assert hint["text"].startswith("Back: ")
        assert _hint(ann, tid) == hint  # asked again (even after the bot set): the same answer
        # a spectator (logged in or not) gets no hint; the table takes the seat's
        assert _refused(bob, tid) == (403, "not_seated")
        assert client.get(f"/api/tables/{tid}/hint").json()["error"]["code"] == "not_logged_in"
        assert conn.do(hint["action"], state_id=hint["state_id"])["type"] == "ack"
        assert _refused(ann, tid) == (409, "not_your_turn")
        conn.close()


def test_a_table_that_is_not_for_practice_gives_no_hints(
    room: str, boss: RoomClient, client: httpx.Client
) -> None:
    table = boss.create_table("chinese-1-6", bots=1, bot_level="heuristic")
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(table["id"])
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        if not conn.my_turn():
            conn.wait(lambda f: f["type"] in ("snapshot", "update") and conn.my_turn())
        with pytest.raises(RoomError) as refused:
            _hint(ann, table["id"])
        assert (refused.value.status, refused.value.code) == (403, "not_practice")
        assert str(refused.value) == "Hints are given at practice tables only."
        assert _refused(ann, table["id"] + 1000) == (404, "no_table")
        conn.close()


def test_hints_play_a_whole_pineapple_hand(room: str, boss: RoomClient) -> None:
    table = boss.create_table(
        "ofc-pineapple", bots=1, bot_level="heuristic", practice=True, seats=2
    )
    tid = table["id"]
    with RoomClient(room) as ann:
        ann.sign_up("ann", "password of A-N-N")
        conn = ann.open_table(tid)
        conn.do({"type": "sit", "seat": 1, "buy_in": table["max_buy_in"]})
        for street in range(5):
            if not conn.my_turn():
                conn.wait(lambda f: f["type"] in ("snapshot", "update") and conn.my_turn())
            me = conn.me
            assert me is not None
            hint = _hint(ann, tid)
            action = hint["action"]
            assert action["type"] == "place"
            _mine(action, me)
            assert ("discard" in action) == (street > 0)
            assert hint["text"].endswith(".")
            if hint["ev"] is not None:
                assert "expected" in hint["text"]
            if hint["options"]:  # the bot sampled: each play's risks, the hint's first
                assert 0 <= hint["foul_rate"] <= 1
                assert 0 <= hint["fantasyland_rate"] <= 1
                first = hint["options"][0]
                assert (first["foul_rate"], first["fantasyland_rate"], first["ev"]) == (
                    hint["foul_rate"],
                    hint["fantasyland_rate"],
                    hint["ev"],
                )
                rows = ("front", "middle", "back", "discard")
                assert {r: first[r] for r in rows} == {r: action.get(r, "") for r in rows}
                assert all(0 <= o["foul_rate"] <= 1 and o["deals"] > 0 for o in hint["options"])
                assert hint["gamble"] is None or hint["gamble"] in hint["text"]
            else:
                assert (hint["foul_rate"], hint["fantasyland_rate"]) == (None, None)
            assert conn.do(action, state_id=hint["state_id"])["type"] == "ack"
        conn.wait(lambda f: any(e["event"] == "HandSettled" for e in f.get("events", [])))
        conn.close()
