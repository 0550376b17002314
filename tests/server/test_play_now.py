"""GET /api/tables/play-now: the table a newcomer's "Play now" seats them at — the fullest open
table of the game with a free seat they can afford, the one they sit at already first, never a
sit & go's; a sentence when there is none."""

from __future__ import annotations

from thirteen.server.http.lobby import TableOut, play_now_choice


def table(i: int, game: str = "chinese", **fields: object) -> TableOut:
    base: dict[str, object] = {
        "id": i, "name": f"T{i}", "preset": "chinese-1-6" if game == "chinese" else "ofc",
        "game": game, "scoring": "1-6", "unit": 1, "min_buy_in": 100, "max_buy_in": 1000,
        "seats": 4, "taken": 0, "free": 4, "players": [], "bots": 0, "bot_level": "club",
        "practice": False, "time_bank_seconds": 30.0, "sit_out_hands": 3, "status": "open",
        "hands_per_hour": 0, "timers": {},
    }  # fmt: skip
    base.update(fields)
    return TableOut.model_validate(base)


def chosen(tables: list[TableOut], game: str, balance: int) -> tuple[int, bool] | None:
    """The table ann is sent to, and whether she sits there already."""
    choice = play_now_choice(tables, game, "ann", balance)
    return None if choice is None else (choice.table.id, choice.seated)


def test_the_fullest_table_with_a_seat_the_wallet_covers() -> None:
    tables = [
        table(1, taken=1, free=3),
        table(2, taken=4, free=0),  # full
        table(3, taken=3, free=1, min_buy_in=5000),  # too dear
        table(4, taken=2, free=2),
        table(5, taken=2, free=2),  # as full as 4, younger
        table(6, game="ofc", taken=3, free=1),  # another game
        table(7, taken=3, free=1, tournament=2),  # a sit & go's
    ]
    assert chosen(tables, "chinese", 1000) == (4, False)
    assert chosen(tables, "chinese-1-6", 1000) == (4, False)
    assert chosen(tables, "chinese", 10_000) == (3, False)
    assert chosen(tables, "ofc", 1000) == (6, False)
    assert chosen(tables, "ofc", 10) is None
    assert chosen(tables, "poker", 1000) is None


def test_your_own_table_first() -> None:
    tables = [table(1, taken=3, free=1), table(2, taken=1, free=3, players=["ann"])]
    assert chosen(tables, "chinese", 0) == (2, True)
