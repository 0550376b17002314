"""Players' decisions queued together at a table (the seats' hands set after a deal, arriving at
once) are taken together (``tables.together``): applied one after another,
journaled in one piece of the group writer's, and told as always — a frame for each action, in
order, every socket's frames in one write. Whatever could not go together is answered exactly
as if it had come alone."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from thirteen.client import RoomClient, TableConnection, legal_move
from thirteen.server.db.models import JournalEntry
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings
from thirteen.server.tables import requests
from thirteen.server.tables.broadcast import Watcher
from thirteen.server.tables.owner import TableOwner
from thirteen.server.tables.requests import Request

SEATS = 3


@dataclass
class Player:
    user_id: int
    name: str
    conn: TableConnection
    watcher: Watcher
    writes: list[list[dict[str, Any]]]
    """What the room wrote on this player's socket, a list of frames a write."""
    sat: int
    """The state id of the player's ``sit``, journaled with the id ``"sit"``."""


@dataclass
class Table:
    owner: TableOwner
    loop: asyncio.AbstractEventLoop
    players: list[Player]

    def run(self, coro: Any) -> Any:
        """Run ``coro`` on the room's event loop (where the table's owner lives)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def dealt(self, seed: int) -> tuple[int, list[dict[str, Any]]]:
        """Wait until every player must set a hand: the table's state id then, and a legal
        setting for each player (``seed``: the choice's randomness). The writes counted from
        here."""
        views = []
        for p in self.players:
            p.conn.wait(lambda f: _must_act(f) is not None)
            views.append(p.conn.view)
            p.writes.clear()
        rng = random.Random(seed)
        rules = self.owner.rules
        return self.owner.state.state_id, [legal_move(v["hand"]["me"], rules, rng) for v in views]

    def decide_together(self, sends: list[tuple[Player, str, dict[str, Any]]]) -> list[Any]:
        """Queue every ``(player, id, decision)`` at the owner in one go, before it takes any
        of them (as the room's socket readers hand them over: ``submit_nowait``); the answers."""
        state_id = self.owner.state.state_id

        async def queue() -> list[dict[str, Any]]:
            replies = [
                self.owner.submit_nowait(
                    Request(
                        "action",
                        watcher=p.watcher,
                        user_id=p.user_id,
                        name=p.name,
                        client_id=ident,
                        state_id=state_id,
                        payload=action,
                    )
                )
                for p, ident, action in sends
            ]
            return list(await asyncio.gather(*replies))

        return list(self.run(queue()))

    def journaled(self) -> list[tuple[int, str | None]]:
        """The table's journal: each entry's state id and client id."""

        async def read() -> list[tuple[int, str | None]]:
            async with self.owner.journal.db.begin() as s:
                rows = await s.execute(
                    select(JournalEntry.state_id, JournalEntry.client_id)
                    .where(JournalEntry.table_id == self.owner.id)
                    .order_by(JournalEntry.state_id)
                )
                return [(int(a), b) for a, b in rows.all()]

        return list(self.run(read()))


def _must_act(frame: dict[str, Any]) -> dict[str, Any] | None:
    if frame.get("type") not in ("snapshot", "update"):
        return None
    hand = frame["view"]["hand"]
    me: dict[str, Any] | None = hand["me"] if hand else None
    return me if me is not None and me["must_act"] else None


@contextmanager
def _three_players(settings: Settings) -> Iterator[Table]:
    """A room, a Chinese Poker table without bots, and three players seated at it, their
    sockets' writes counted."""
    app = create_app(settings)
    with ExitStack() as stack:
        url = stack.enter_context(serve_in_thread(app))
        boss = stack.enter_context(RoomClient(url))
        boss.sign_up("boss", "the chief's password")
        made = boss.create_table(
            "chinese-1-6", bots=0, rules={"showdown_seconds": 60, "min_players": SEATS}
        )
        owner = app.state.room.owners[made["id"]]
        assert owner.task is not None
        players = []
        for seat in range(SEATS):
            name = f"player{seat}"
            client = stack.enter_context(RoomClient(url))
            client.sign_up(name, f"a good password, seat {seat}")
            conn = client.open_table(made["id"])
            stack.callback(conn.close)
            sat = conn.do({"type": "sit", "seat": seat, "buy_in": made["max_buy_in"]}, ident="sit")
            (watcher,) = (w for w in owner.watchers if w.name == name)
            assert watcher.user_id is not None
            players.append(Player(watcher.user_id, name, conn, watcher, [], sat["state_id"]))
        for p in players:  # the writes of each socket from here on
            real = p.watcher.send_now
            assert real is not None

            def counted(*texts: bytes, real: Any = real, writes: Any = p.writes) -> bool:
                writes.append([json.loads(text) for text in texts])
                return bool(real(*texts))

            p.watcher.send_now = counted
        yield Table(owner, owner.task.get_loop(), players)


def test_decisions_queued_together_are_journaled_once_and_told_in_one_write_a_socket(
    settings: Settings,
) -> None:
    with _three_players(settings) as table:
        before, moves = table.dealt(7)
        pieces = table.owner.journal.db.writer.stats.pieces
        answers = table.decide_together(
            [
                (p, f"set-{n}", move)
                for n, (p, move) in enumerate(zip(table.players, moves, strict=True))
            ]
        )
        made = [before + 1, before + 2, before + 3]
        assert answers == [
            {"type": "ack", "id": f"set-{n}", "state_id": made[n]} for n in range(SEATS)
        ]
        # one piece of the writer's for the three (the hand settled with the last: its pot and
        # history too), before anyone was told
        assert table.owner.journal.db.writer.stats.pieces == pieces + 1
        assert table.journaled()[-3:] == [(made[n], f"set-{n}") for n in range(SEATS)]
        for n, p in enumerate(table.players):
            # each action its own update, in order; the player's ack right after theirs; all
            # in the socket's first write after the deal
            first = [(f["type"], f["state_id"]) for f in p.writes[0]]
            updates = [("update", s) for s in made]
            assert first == [*updates[: n + 1], ("ack", made[n]), *updates[n + 1 :]]
            last = [f for f in p.writes[0] if f["type"] == "update"][-1]
            assert last["view"]["hand"]["results"] is not None  # the showdown
            p.conn.wait(lambda f, n=n: f["type"] == "ack" and f["id"] == f"set-{n}")
            if n < SEATS - 1:
                p.conn.wait(lambda f: f["type"] == "update" and f["state_id"] == made[-1])
            seen = [(f["type"], f.get("state_id")) for f in p.conn.frames[-len(first) :]]
            assert seen == first  # as the client read them
        assert table.owner.decision_since == {}  # nothing pending: the hand is over


def test_a_decision_refused_after_others_is_answered_alone_in_its_place(
    settings: Settings,
) -> None:
    """The third of three is refused by the engine (cards not the player's): the first two are
    taken together, the third answered with the engine's sentence after them, changing
    nothing; the seat still decides."""
    with _three_players(settings) as table:
        before, moves = table.dealt(8)
        bad = dict(moves[2], front=moves[0]["front"])  # the first player's cards
        answers = table.decide_together(
            [
                (table.players[0], "a", moves[0]),
                (table.players[1], "b", moves[1]),
                (table.players[2], "c", bad),
            ]
        )
        assert answers[:2] == [
            {"type": "ack", "id": "a", "state_id": before + 1},
            {"type": "ack", "id": "b", "state_id": before + 2},
        ]
        assert answers[2]["type"] == "error"
        assert answers[2]["id"] == "c"
        assert table.journaled()[-2:] == [(before + 1, "a"), (before + 2, "b")]
        assert list(table.owner.decision_since) == [2]  # the refused seat still decides
        for p in table.players:  # the two in one write
            assert [f["state_id"] for f in p.writes[0] if f["type"] == "update"] == [
                before + 1,
                before + 2,
            ]
        again = table.decide_together([(table.players[2], "c2", moves[2])])
        assert again == [{"type": "ack", "id": "c2", "state_id": before + 3}]


def test_decisions_that_cannot_be_written_together_are_answered_as_if_alone(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One of three reuses an id the table journaled before and forgot it answered: written
    together the journal refuses the piece, so each is taken again alone — the reused id is
    answered with its first ``ack`` (the decision not taken), the other two taken."""
    monkeypatch.setattr(requests, "REMEMBERED_ANSWERS", 0)  # answers come from the journal
    with _three_players(settings) as table:
        before, moves = table.dealt(9)
        answers = table.decide_together(
            [
                (table.players[1], "x", moves[1]),
                (table.players[0], "sit", moves[0]),  # player 0's "sit" id again
                (table.players[2], "y", moves[2]),
            ]
        )
        assert answers == [
            {"type": "ack", "id": "x", "state_id": before + 1},
            {"type": "ack", "id": "sit", "state_id": table.players[0].sat},
            {"type": "ack", "id": "y", "state_id": before + 2},
        ]
        assert table.journaled()[-2:] == [(before + 1, "x"), (before + 2, "y")]
        assert list(table.owner.decision_since) == [0]
        for p in table.players:  # told one action at a time: a write each
            updates = [[f["state_id"] for f in w if f["type"] == "update"] for w in p.writes]
            assert [u for u in updates if u] == [[before + 1], [before + 2]]


def test_a_decision_that_fails_among_others_fails_alone(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request the room fails on (a bug, here one planted for the id ``"boom"``) is taken
    alone: it is answered ``internal`` and changes nothing; the others are taken."""
    real = requests.ClientActions._action_for

    def failing(self: requests.ClientActions, request: Request, *args: Any) -> Any:
        if request.client_id == "boom":
            raise RuntimeError("planted")
        return real(self, request, *args)

    monkeypatch.setattr(requests.ClientActions, "_action_for", failing)
    with _three_players(settings) as table:
        before, moves = table.dealt(10)
        idents = ["a", "boom", "c"]
        answers = table.decide_together(list(zip(table.players, idents, moves, strict=True)))
        assert answers[0] == {"type": "ack", "id": "a", "state_id": before + 1}
        assert (answers[1]["type"], answers[1]["code"], answers[1]["id"]) == (
            "error",
            "internal",
            "boom",
        )
        assert answers[2] == {"type": "ack", "id": "c", "state_id": before + 2}
        assert list(table.owner.decision_since) == [1]
