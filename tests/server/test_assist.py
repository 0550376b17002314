"""Help at the table over HTTP: evaluating an arrangement under a table's rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from thirteen.client import RoomClient


@pytest.fixture
def boss(room: str) -> Iterator[RoomClient]:
    with RoomClient(room) as client:
        client.sign_up("boss", "the boss password")
        yield client


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
