"""The room's bots learn from the showdowns of their table: each sees every hand settled once,
as its seat saw it (the strong OFC player reads its opponents' fouls there; what it counts is
tested in tests/test_ofc_bots.py)."""

from __future__ import annotations

from typing import Any

from services import serve_in_thread

from thirteen.bots.ofc_mc import MonteCarloOFCBot
from thirteen.client import RoomClient
from thirteen.server.http.app import create_app
from thirteen.server.settings import Settings


def _showdown_boards(frame: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The boards of the hand on show in a frame (an update or a snapshot), else ``None``."""
    shown = frame.get("view") or {}
    if shown.get("phase") != "showdown" or not shown.get("hand"):
        return None
    return list(shown["hand"]["boards"])


def test_every_bot_sees_every_showdown_of_its_table(settings: Settings) -> None:
    app = create_app(settings)
    with serve_in_thread(app) as url, RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        # a long showdown: the first hand's is on show while the test looks (also when the
        # watcher's snapshot comes after it began)
        table = boss.create_table(
            "ofc-pineapple", bots=2, bot_level="strong", rules={"showdown_seconds": 120}
        )
        watch = boss.open_table(table["id"], watch_only=True)
        on_show = next((f for f in watch.frames if _showdown_boards(f) is not None), None)
        on_show = on_show or watch.wait(lambda f: _showdown_boards(f) is not None)
        shown = _showdown_boards(on_show) or []
        bots = app.state.room.owners[table["id"]].bots
        assert sorted(bots) == [0, 1]
        for seat, bot in bots.items():
            assert isinstance(bot, MonteCarloOFCBot)
            (other,) = (b for b in shown if b["seat"] != seat)
            assert other["fantasyland"] is None  # the first hand: nobody is in fantasyland
            assert sum(len(other[row].split()) for row in ("front", "middle", "back")) == 13
            assert bot.read.boards == 1  # the opponent's finished board, counted once
        watch.close()
