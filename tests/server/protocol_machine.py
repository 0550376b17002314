"""A Hypothesis state machine over the table protocol, on real sockets against a live room.

Players sign up, open sockets (several each), sit with buy-ins good and bad, top up, sit out
and in, leave, play legal decisions, send decisions on a stale or future ``state_id``, resend
used action ids (with the same or another action), send junk actions, garbage text and binary,
deeply nested JSON, frames over 8 KiB (an error, then a close) and floods (the same), ping,
resync, drop their sockets and reconnect ``since`` the last state they saw, and watch as
spectators. Every body may be poisoned (:mod:`poison`): non-finite numbers, huge integers,
deep nesting and unknown keys in an action or a message, and in the rules of a table or a
practice run asked over HTTP (refused, never stored). The table runs short timers, so decisions time out, hands are dealt and settled and
idle players are unseated while the machine runs.

Invariants after every step: the ledger audit (its own database connection) is clean, every
socket's ``state_id`` never goes back, no frame says ``internal``, no HTTP answer is a 5xx, and
``/healthz`` answers. At teardown every frame of every finished hand goes through the leak
oracle (``play.check_no_leak``).

Used by tests/server/test_protocol_machine.py (few steps) and scripts/fuzz_room.py (many).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from play import check_no_leak, decide
from poison import POISONS, RULE_NUMBERS, UNKNOWN_KEY
from websockets.exceptions import ConnectionClosed

from thirteen.client import RoomClient, RoomError, TableConnection
from thirteen.engine.rules import Rules, get_rules
from thirteen.server.db.session import Database
from thirteen.server.money.audit import audit
from thirteen.server.tables.protocol import BURST, CLIENT_ACTIONS, MAX_FRAME_BYTES

PRESETS = ("chinese-1-6", "ofc", "ofc-pineapple")
TIMERS = {
    "set_hand_seconds": 1.5,
    "first_street_seconds": 1.5,
    "street_seconds": 1.0,
    "fantasyland_seconds": 1.5,
    "showdown_seconds": 0.1,
    "sit_out_seconds": 3.0,
}
"""Short enough that decisions time out and idle players are unseated within a run."""
MAX_PLAYERS = 3
MAX_SOCKETS = 6
ANSWER_SECONDS = 30.0
WAIT_SECONDS = 2.0
"""How long ``let_time_pass`` waits for the table to move (it returns as soon as it does)."""
TIMING_CODES = {
    "stale",
    "too_late",
    "not_your_turn",
    "no_hand",
    "not_playing",
    "time_order",
    "not_seated",
    "already_done",
    "not_in_hand",
}
"""Why a legal decision made on a fresh view may still be refused: the clock got there first
(``not_in_hand``: the seat timed out, sat out, and the next hand was dealt without it — met by
a long fuzz run on a loaded machine)."""
NAMES = itertools.count(1)
PREFIX = f"fz{os.getpid() % 100_000}n"
"""Account names stay unique when several processes fuzz one room."""

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
WHOLE = st.one_of(
    st.integers(-5, 3000),
    st.integers(),
    st.sampled_from([None, "100", 1.5, True, [], {}, 2**63, -(2**63)]),
)
STATE_ID = st.one_of(st.none(), st.integers(-3, 2**54), st.sampled_from(["1", 1.0, True, [1]]))


class Shared:
    """What one test (one room, one database) shares across the machine's examples."""

    def __init__(self, url: str, database_url: str, boss: RoomClient) -> None:
        self.url = url
        self.boss = boss
        self.loop = asyncio.new_event_loop()
        self.db = Database(database_url)
        self.counts: Counter[str] = Counter()

    def audit(self) -> list[str]:
        return self.loop.run_until_complete(audit(self.db)).problems

    def close(self) -> None:
        self.loop.run_until_complete(self.db.close())
        self.loop.close()


@dataclass
class Player:
    name: str
    client: RoomClient


@dataclass
class Socket:
    """One socket of the machine's: whose, what it sent, and how far its checks got."""

    conn: TableConnection
    player: Player | None
    open: bool = True
    checked: int = 0
    last_state_id: int = -1
    sent: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    """(id, message, first answer) of actions the table answered."""
    stamps: list[float] = field(default_factory=list)


class ProtocolMachine(RuleBasedStateMachine):
    shared: ClassVar[Shared]
    audit_every: ClassVar[int] = 1
    """Audit the ledger every this many steps (1 in the suite; more in a long run)."""
    wait_seconds: ClassVar[float] = WAIT_SECONDS

    def __init__(self) -> None:
        super().__init__()
        self.players: list[Player] = []
        self.sockets: list[Socket] = []
        self.all_sockets: list[Socket] = []
        self.table: dict[str, Any] = {}
        self.rules: Rules | None = None
        self.rng = random.Random(0)
        self.steps = 0

    # ------------------------------------------------------------------ helpers
    @property
    def counts(self) -> Counter[str]:
        return self.shared.counts

    def http(self, client: RoomClient, method: str, path: str, body: Any = None) -> Any:
        """An HTTP request that may be refused, never with a 5xx."""
        try:
            return client.request(method, path, body)
        except RoomError as e:
            if e.status >= 500:
                raise AssertionError(f"{method} {path}: {e.status} {e.code} {e}") from e
            raise

    def pick(self, i: int, *, open_: bool | None = True, seated: bool = False) -> Socket | None:
        found = [
            s
            for s in self.sockets
            if (open_ is None or s.open == open_)
            and (not seated or (s.player is not None and s.conn.seat is not None))
        ]
        return found[i % len(found)] if found else None

    def room_left(self, sock: Socket, messages: int) -> bool:
        """Whether sending ``messages`` now keeps the socket under the room's flood limit
        (a little under it: our clock and the room's differ by a hair)."""
        moment = time.monotonic()
        sock.stamps = [t for t in sock.stamps if moment - t < 1.5]
        return len(sock.stamps) + messages <= BURST - 5

    def send(self, sock: Socket, message: str | bytes | dict[str, Any]) -> None:
        sock.stamps.append(time.monotonic())
        self.counts["messages"] += 1
        try:
            sock.conn.send(message)
        except ConnectionClosed:
            self.closed(sock)

    def closed(self, sock: Socket) -> None:
        """The room closed the socket: it must have said why (or dropped a slow reader)."""
        sock.open = False
        while sock.conn.closed is None and sock.conn.receive(timeout=ANSWER_SECONDS) is not None:
            pass  # what the room said before it closed
        code = sock.conn.closed[0] if sock.conn.closed else None
        self.counts[f"closed {code}"] += 1

    def closed_for_a_reason(self, sock: Socket) -> None:
        """A socket closed before its answer: only for sending too much (or reading too
        slowly), never because a message broke the room's handler (that closes with 1001
        and no sentence)."""
        assert sock.conn.closed is not None
        assert sock.conn.closed[0] in (1008, 4008), (sock.conn.closed, sock.conn.frames[-3:])

    def drain(self, sock: Socket) -> None:
        """Read every frame already waiting."""
        while sock.open:
            try:
                frame = sock.conn.receive(timeout=0)
            except TimeoutError:
                return
            if frame is None:
                sock.open = False

    def wait_for(self, sock: Socket, predicate: Any, timeout: float = ANSWER_SECONDS) -> Any:
        """The first frame matching ``predicate``; None if the socket closed first."""
        try:
            return sock.conn.wait(predicate, timeout=timeout)
        except RoomError:
            self.closed(sock)
            return None

    def act(
        self, sock: Socket, action: Any, state_id: Any = "current", ident: str | None = None
    ) -> dict[str, Any] | None:
        """Send an action; the room's answer to it (None if the socket closed first)."""
        ident = ident or f"m{next(NAMES)}"
        message: dict[str, Any] = {"type": "action", "id": ident, "action": action}
        if state_id == "current":
            message["state_id"] = sock.conn.state_id
        elif state_id is not None:
            message["state_id"] = state_id
        self.send(sock, message)
        answer = self.wait_for(
            sock, lambda f: f.get("id") == ident and f["type"] in ("ack", "error")
        )
        if answer is None:
            self.closed_for_a_reason(sock)
            return None
        self.check_answer(answer)
        if answer["type"] == "ack":
            self.counts["acks"] += 1
        if sock.player is not None:
            sock.sent.append((ident, message, answer))
        return answer

    def check_answer(self, answer: dict[str, Any]) -> None:
        if answer["type"] == "error":
            assert answer["code"] != "internal", answer
            assert answer["message"].endswith("."), answer
            self.counts[f"error {answer['code']}"] += 1

    def expect_refusal(self, sock: Socket, codes: set[str], close: int | None) -> None:
        """The room answers with an error frame with one of ``codes`` (then closes, if
        ``close``); a flood close on the way is an answer too."""
        frame = self.wait_for(sock, lambda f: f["type"] == "error" and "id" not in f)
        if frame is None:
            assert sock.conn.closed is not None
            assert sock.conn.closed[0] in (close, 1008, 1009), sock.conn.closed
            return
        self.check_answer(frame)
        assert frame["code"] in codes | {"flood"}, frame
        if close is not None or frame["code"] == "flood":
            assert self.wait_for(sock, lambda f: False) is None
            assert sock.conn.closed is not None
            assert sock.conn.closed[0] in (close, 1008), sock.conn.closed

    # ------------------------------------------------------------------ the table
    @initialize(
        preset=st.sampled_from(PRESETS),
        bot=st.booleans(),
        watching=st.booleans(),
    )
    def open_table(self, preset: str, bot: bool, watching: bool) -> None:
        """A table with short timers (and maybe a bot); two players seated, with a socket
        each; maybe a spectator."""
        self.rules = get_rules(preset, TIMERS)
        self.table = self.shared.boss.create_table(
            preset,
            rules=TIMERS,
            bots=1 if bot else 0,
            bot_level="random",
            min_buy_in=100,
            max_buy_in=1000,
        )
        self.counts["tables"] += 1
        for n in range(2):
            self.sign_up()
            self.open_socket(n, watch=False)
        for n in range(2):
            self.sit(n, n, 500)
        if watching:
            self.open_socket(0, watch=True)
        self.poisoned_rules("set_hand_seconds", "1e999", practice=True)  # (issue 31's request)

    @rule()
    @precondition(lambda self: len(self.players) < MAX_PLAYERS)
    def sign_up(self) -> None:
        name = f"{PREFIX}{next(NAMES)}"
        client = RoomClient(self.shared.url)
        client.sign_up(name, "a fuzzing password")
        self.players.append(Player(name, client))

    @rule(i=st.integers(0, 99), watch=st.booleans())
    @precondition(lambda self: len(self.sockets) < MAX_SOCKETS)
    def open_socket(self, i: int, watch: bool) -> None:
        player = None if watch or not self.players else self.players[i % len(self.players)]
        client = player.client if player else self.shared.boss
        conn = client.open_table(self.table["id"], watch_only=player is None)
        sock = Socket(conn, player)
        self.sockets.append(sock)
        self.all_sockets.append(sock)
        self.counts["sockets"] += 1

    # ------------------------------------------------------------------ seats and chips
    @rule(i=st.integers(0, 99), seat=st.one_of(st.integers(-1, 4), WHOLE), buy_in=WHOLE)
    def sit(self, i: int, seat: Any, buy_in: Any) -> None:
        sock = self.pick(i)
        if sock is None or sock.player is None or not self.room_left(sock, 1):
            return
        if isinstance(seat, int) and 0 <= seat < 4:
            free = [n for n, s in enumerate(sock.conn.view.get("seats", [])) if s is None]
            seat = free[seat % len(free)] if free else seat
        self.act(sock, {"type": "sit", "seat": seat, "buy_in": buy_in}, state_id=None)

    @rule(i=st.integers(0, 99), amount=WHOLE)
    def top_up(self, i: int, amount: Any) -> None:
        sock = self.pick(i, seated=True) or self.pick(i)
        if sock is not None and sock.player is not None and self.room_left(sock, 1):
            self.act(sock, {"type": "top_up", "amount": amount}, state_id=None)

    @rule(i=st.integers(0, 99), kind=st.sampled_from(["leave", "stay", "sit_out", "sit_in"]))
    def seat_action(self, i: int, kind: str) -> None:
        sock = self.pick(i, seated=True) or self.pick(i)
        if sock is not None and sock.player is not None and self.room_left(sock, 1):
            self.act(sock, {"type": kind}, state_id=None)

    # ------------------------------------------------------------------ decisions
    @rule(i=st.integers(0, 99), seed=st.integers(0, 2**16))
    def play_legally(self, i: int, seed: int) -> None:
        sock = self.pick(i, seated=True)
        if sock is None or not self.room_left(sock, 1):
            return
        self.drain(sock)
        if not sock.open or not sock.conn.my_turn():
            return
        assert self.rules is not None
        answer = self.act(sock, decide(sock.conn, self.rules, random.Random(seed)))
        if answer is not None and answer["type"] == "error":
            assert answer["code"] in TIMING_CODES, answer

    @rule(i=st.integers(0, 99), when=st.sampled_from(["past", "future"]), seed=st.integers(0, 9))
    def decide_on_a_stale_state(self, i: int, when: str, seed: int) -> None:
        sock = self.pick(i, seated=True)
        if sock is None or not self.room_left(sock, 1):
            return
        self.drain(sock)
        if not sock.open or not sock.conn.my_turn():
            return
        assert self.rules is not None
        move = decide(sock.conn, self.rules, random.Random(seed))
        # before this hand was dealt, or ahead of anything the table has done
        answer = self.act(sock, move, state_id=0 if when == "past" else 2**40)
        if answer is not None:
            assert answer["type"] == "error", answer
            assert answer["code"] in TIMING_CODES, answer

    @rule(i=st.integers(0, 99), j=st.integers(0, 99), other=st.booleans())
    def resend_an_action_id(self, i: int, j: int, other: bool) -> None:
        """A used id gets its first answer again (even with another action) and moves
        nothing."""
        sock = self.pick(i)
        if sock is None or not sock.sent or not self.room_left(sock, 1):
            return
        ident, message, first = sock.sent[j % len(sock.sent)]
        action = {"type": "top_up", "amount": 1} if other else message["action"]
        before = self.chips_in(sock)
        again = self.act(sock, action, state_id=message.get("state_id"), ident=ident)
        if again is not None:
            assert again == first, (again, first)
            self.counts["resent"] += 1
        assert self.chips_in(sock) == before

    def chips_in(self, sock: Socket) -> int:
        """Transfers that only the player's own actions make (buy-ins and top-ups): a
        cash-out may come at any moment, these may not."""
        assert sock.player is not None
        wallet = self.http(sock.player.client, "GET", "/api/wallet?limit=500")
        return sum(1 for t in wallet["transfers"] if t["reason"] in ("buy-in", "top-up"))

    @rule(
        i=st.integers(0, 99),
        kind=st.sampled_from(sorted(CLIENT_ACTIONS | {"fold", "", "deal", "timeout"})),
        extra=st.dictionaries(st.text(max_size=10), JSON, max_size=4),
        state_id=STATE_ID,
        ident=st.one_of(st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True), JSON),
    )
    def junk_action(
        self, i: int, kind: str, extra: dict[str, Any], state_id: Any, ident: Any
    ) -> None:
        """Any action, with any fields: an ack or an error (never an internal one)."""
        sock = self.pick(i)
        if sock is None or not self.room_left(sock, 1):
            return
        if not isinstance(ident, str) or not ident:
            ident = f"m{next(NAMES)}"
        ident = f"{ident[:50]}{next(NAMES)}"  # unique, so the answer is this action's
        message = {"type": "action", "id": ident, "action": {"type": kind, **extra}}
        if state_id is not None:
            message["state_id"] = state_id
        self.send(sock, json.dumps(message))
        frame = self.wait_for(sock, lambda f: f["type"] == "error" or f.get("id") == ident)
        if frame is None:
            self.closed_for_a_reason(sock)
        else:
            self.check_answer(frame)

    @rule(
        i=st.integers(0, 99),
        kind=st.sampled_from(sorted(CLIENT_ACTIONS)),
        key=st.sampled_from(["seat", "buy_in", "amount", "seconds", "front", UNKNOWN_KEY]),
        poison=st.sampled_from(POISONS),
        in_action=st.booleans(),
    )
    def poisoned_message(self, i: int, kind: str, key: str, poison: str, in_action: bool) -> None:
        """An action with a number no JSON encoder writes (NaN, 1e999, 10**30, …), deep
        nesting or an unknown key, in the action or beside it: an answer, never a broken
        handler."""
        sock = self.pick(i)
        if sock is None or not self.room_left(sock, 1):
            return
        ident = f"p{next(NAMES)}"
        field = f'"{key}": {poison}'
        if in_action:
            text = f'{{"type": "action", "id": "{ident}", "action": {{"type": "{kind}", {field}}}}}'
        else:
            text = f'{{"type": "action", "id": "{ident}", {field}, "action": {{"type": "{kind}"}}}}'
        self.send(sock, text)
        self.counts["poisoned messages"] += 1
        frame = self.wait_for(sock, lambda f: f["type"] == "error" or f.get("id") == ident)
        if frame is None:
            self.closed_for_a_reason(sock)
        else:
            self.check_answer(frame)

    @rule(
        setting=st.sampled_from(RULE_NUMBERS),
        poison=st.sampled_from(POISONS),
        practice=st.booleans(),
    )
    def poisoned_rules(self, setting: str, poison: str, practice: bool) -> None:
        """A table (an admin's) or a practice run (a player's) asked with a rule no table can
        run: refused with a sentence, nothing stored (the restart after the run shows it)."""
        if practice and not self.players:
            return
        client = self.players[0].client if practice else self.shared.boss
        path = "/api/practice/duplicate" if practice else "/api/tables"
        body = f'{{"preset": "chinese-1-6", "rules": {{"{setting}": {poison}}}}}'
        answer = client.http.post(
            path,
            content=body,
            headers={"x-csrf-token": client.csrf, "content-type": "application/json"},
        )
        self.counts["poisoned rules"] += 1
        assert answer.status_code in (400, 422), (path, body[:80], answer.text[:300])
        assert answer.json()["error"]["code"] in ("bad_rules", "bad_request"), answer.text

    # ------------------------------------------------------------------ garbage
    @rule(
        i=st.integers(0, 99),
        payload=st.one_of(
            st.text(max_size=300),
            st.binary(max_size=300),
            JSON.map(json.dumps),
            st.integers(1, 4000).map(lambda n: "[" * n + "]" * n),
            st.integers(1, 1300).map(lambda n: '{"a":' * n + "1" + "}" * n),
        ),
    )
    def garbage(self, i: int, payload: str | bytes) -> None:
        sock = self.pick(i)
        if sock is None or not self.room_left(sock, 1):
            return
        try:
            parsed = json.loads(payload)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict) and parsed.get("type") in ("action", "resync", "ping"):
            return  # could be a real message: junk_action covers those
        self.send(sock, payload)
        self.expect_refusal(sock, {"bad_message", "bad_action"}, close=None)

    @rule(
        i=st.integers(0, 99), size=st.integers(MAX_FRAME_BYTES + 1, 64 * 1024), text=st.booleans()
    )
    def oversized(self, i: int, size: int, text: bool) -> None:
        sock = self.pick(i)
        if sock is None or not self.room_left(sock, 1):
            return
        self.send(sock, "x" * size if text else b"x" * size)
        self.expect_refusal(sock, {"too_big"}, close=1009)
        sock.open = False

    @rule(i=st.integers(0, 99))
    def flood(self, i: int) -> None:
        sock = self.pick(i)
        if sock is not None:
            self.drain(sock)
        if sock is None or not sock.open:
            return
        start = len(sock.conn.frames)
        for _ in range(2 * BURST):
            self.send(sock, {"type": "ping"})
            self.counts["flood messages"] += 1
            if not sock.open:
                break
        if sock.open:
            assert self.wait_for(sock, lambda f: False) is None
        errors = [f for f in sock.conn.frames[start:] if f["type"] == "error"]
        assert [f["code"] for f in errors] == ["flood"], (
            errors,
            sock.conn.closed,
            [f["type"] for f in sock.conn.frames[start:]],
        )
        assert sock.conn.closed is not None
        assert sock.conn.closed[0] == 1008, sock.conn.closed
        sock.open = False

    # ------------------------------------------------------------------ sockets
    @rule(i=st.integers(0, 99))
    def ping(self, i: int) -> None:
        sock = self.pick(i)
        if sock is not None and self.room_left(sock, 1):
            self.send(sock, {"type": "ping"})
            self.wait_for(sock, lambda f: f["type"] == "pong")

    @rule(i=st.integers(0, 99), back=st.integers(-2, 50))
    def resync(self, i: int, back: int) -> None:
        sock = self.pick(i)
        if sock is None or not self.room_left(sock, 1):
            return
        self.send(sock, {"type": "resync", "since": max(0, sock.conn.state_id - back)})
        self.wait_for(sock, lambda f: f["type"] == "snapshot")

    @rule(i=st.integers(0, 99))
    def drop(self, i: int) -> None:
        sock = self.pick(i)
        if sock is not None:
            sock.conn.drop()
            sock.open = False

    @rule(i=st.integers(0, 99))
    def reconnect(self, i: int) -> None:
        """A socket lost (by us or by the room) comes back ``since`` the last state it saw."""
        sock = self.pick(i, open_=None)
        if sock is None:
            return
        if sock.open:
            self.drain(sock)
        sock.conn.reconnect()
        sock.open = True
        sock.stamps.clear()
        self.counts["reconnects"] += 1

    @rule(i=st.integers(0, 99))
    def let_time_pass(self, i: int) -> None:
        """Wait (at most a couple of seconds) for the table to move by itself: a deal, a
        timeout, a bot's move, an idle player unseated."""
        sock = self.pick(i)
        if sock is None:
            return
        now = sock.conn.state_id
        try:
            sock.conn.wait(lambda f: f.get("state_id", -1) > now, timeout=self.wait_seconds)
        except TimeoutError:
            self.counts["quiet waits"] += 1
        except RoomError:
            self.closed(sock)

    # ------------------------------------------------------------------ invariants
    @invariant()
    def state_ids_never_go_back(self) -> None:
        for sock in self.sockets:
            frames = sock.conn.frames
            for frame in frames[sock.checked :]:
                if frame.get("type") in ("snapshot", "update"):
                    assert frame["state_id"] >= sock.last_state_id, (frame, sock.last_state_id)
                    sock.last_state_id = frame["state_id"]
                elif frame.get("type") == "error":
                    assert frame.get("code") != "internal", frame
            self.counts["frames"] += len(frames) - sock.checked
            sock.checked = len(frames)

    @invariant()
    def the_ledger_balances_and_the_room_answers(self) -> None:
        self.steps += 1
        if self.steps % self.audit_every == 0:
            assert self.shared.audit() == []
            self.counts["audits"] += 1
        assert self.http(self.shared.boss, "GET", "/healthz") == {"status": "ok"}

    def finish_hand(self) -> None:
        """Play the hand in progress to its end (legal moves for our seats, the clock for the
        rest), so that the leak oracle has a finished hand to check."""
        live = [s for s in self.sockets if s.open]
        for sock in live:
            self.drain(sock)
        live = [s for s in live if s.open]
        if not live or live[0].conn.view.get("phase") != "playing":
            return
        watch = live[0]
        start = len(watch.conn.frames)
        rng = random.Random(0)
        end = time.monotonic() + ANSWER_SECONDS
        while not any(
            e["event"] == "HandSettled"
            for f in watch.conn.frames[start:]
            for e in f.get("events", [])
        ):
            assert time.monotonic() < end, ("the hand did not end", watch.conn.frames[-3:])
            for sock in live:
                self.drain(sock)
                if sock.open and sock.player is not None and sock.conn.my_turn():
                    assert self.rules is not None
                    self.act(sock, decide(sock.conn, self.rules, rng))
            if not watch.open:
                return
            try:
                watch.conn.wait(lambda f: f["type"] in ("update", "snapshot"), timeout=WAIT_SECONDS)
            except TimeoutError:
                pass
            except RoomError:
                self.closed(watch)

    def teardown(self) -> None:
        try:
            if self.table:
                self.finish_hand()
            for sock in self.sockets:
                sock.conn.close()
            if self.table:
                for sock in self.all_sockets:
                    self.counts["frames checked for leaks"] += check_no_leak(
                        self.shared.boss, self.table["id"], sock.conn.frames
                    )
                self.http(self.shared.boss, "DELETE", f"/api/tables/{self.table['id']}")
            assert self.shared.audit() == []
            self.counts["audits"] += 1
        finally:
            for sock in self.sockets:
                sock.conn.close()
            for player in self.players:
                player.client.close()


__all__ = ["ProtocolMachine", "Shared"]
