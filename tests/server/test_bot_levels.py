"""A table's ``bot_level`` takes the levels named for people as well as the bots' own names."""

from __future__ import annotations

import pytest

from thirteen.bots.registry import NAMES
from thirteen.client import RoomClient, RoomError


def test_every_bot_level_opens_a_table_and_others_are_refused(boss: RoomClient) -> None:
    for level in ("beginner", "club", "expert", "random", "heuristic", "strong"):
        table = boss.create_table("chinese-1-6", bots=1, bot_level=level)
        assert table["bot_level"] == level
    with pytest.raises(RoomError) as refused:
        boss.create_table("chinese-1-6", bots=1, bot_level="grandmaster")
    assert refused.value.code == "bad_table"
    assert all(name in str(refused.value) for name in NAMES)
