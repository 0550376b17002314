"""Capture a real frame of every kind for ``docs/protocol.md`` and write them into it.

Starts a room in-process (SQLite in a temporary folder, no default tables, bots that act at
once), plays Chinese Poker and pineapple over real WebSockets with :mod:`thirteen.client`, and
keeps one message or frame of each kind: what the client sent and what the room answered.
Only the deck is chosen (so that a natural comes up); everything else is the room at work.

Each example in the doc sits between ``<!-- example:NAME -->`` and ``<!-- /example -->``;
running this replaces every one of them, and fails when the doc has a marker nothing was
captured for (or the other way round), or when the room does not behave as the doc says (close
codes, repeated ids). Long frames are shortened (one board, one lobby table) but stay real JSON.

Usage: python scripts/protocol_examples.py [--doc docs/protocol.md] [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from thirteen.client import Frame, RoomClient, TableConnection
from thirteen.engine.autoplay import safe_setting
from thirteen.engine.cards import Card, format_cards, parse_cards
from thirteen.engine.deck import Deal
from thirteen.engine.legal import placements
from thirteen.engine.rules import get_rules
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import load_settings
from thirteen.server.tables import hands as table_module
from thirteen.server.tables import protocol

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
EXAMPLE = re.compile(
    r"(<!-- example:(?P<name>[a-z_:]+) -->\n)(?P<body>.*?)(<!-- /example -->)", re.DOTALL
)
SEED = 13
WIDTH = 96
"""Lines of the rendered JSON stay within this many characters where they can."""

SIX_PAIRS = [
    "As Ah Ks Kh Qs Qh Js Jh Ts Th 9s 9h 2c",
    "8s 8h 7s 7h 6s 6h 5s 5h 4s 4h 3s 3h 2d",
]
"""The two hands of the second Chinese deal: each holds six pairs, a natural."""


class Recording(TableConnection):
    """A table connection that keeps what it sent, as JSON."""

    def __init__(self, room: RoomClient, table_id: int, *, watch_only: bool = False) -> None:
        self.sent: list[Any] = []
        super().__init__(room, table_id, watch_only=watch_only)

    def send(self, message: Any) -> None:
        self.sent.append(message)
        super().send(message)

    def last_sent(self) -> dict[str, Any]:
        last: dict[str, Any] = copy.deepcopy(self.sent[-1])
        return last


class Examples:
    """What was captured, by example name."""

    def __init__(self) -> None:
        self.items: dict[str, Any] = {}

    def __setitem__(self, name: str, value: Any) -> None:
        if name in self.items:
            raise RuntimeError(f"example {name!r} captured twice")
        self.items[name] = copy.deepcopy(value)


# ---------------------------------------------------------------------------------- the room
@contextmanager
def room(folder: Path) -> Iterator[str]:
    """A room on SQLite in ``folder``, served as ``thirteen serve`` serves it; its base URL."""
    settings = load_settings(
        database_url=f"sqlite+aiosqlite:///{folder / 'room.db'}",
        data_dir=folder,
        argon2_memory_kib=8192,
        argon2_time_cost=1,
        default_tables=False,
        bot_delay=0,
        bot_budget=0.05,
        admins="boss",
    )
    with serve_in_thread(create_app(settings)) as url:
        yield url


@contextmanager
def chosen_decks(decks: list[list[Card] | None], seed: int = SEED) -> Iterator[None]:
    """Deal these decks, in order, at whatever table deals next (``None``: a shuffled one)."""
    rng = random.Random(seed)
    queue = list(decks)

    def deal() -> Deal:
        order = queue.pop(0) if queue else None
        if order is None:
            order = rng.sample(range(52), 52)
        return Deal.from_order(order, [rng.randbytes(16) for _ in range(52)])

    original = table_module.fresh_deal
    table_module.fresh_deal = deal
    try:
        yield
    finally:
        table_module.fresh_deal = original


def natural_deck(seed: int = SEED) -> list[Card]:
    dealt = [c for hand in SIX_PAIRS for c in parse_cards(hand)]
    rest = [c for c in range(52) if c not in dealt]
    random.Random(seed).shuffle(rest)
    return dealt + rest


# ---------------------------------------------------------------------------------- waiting
def has_event(frame: Frame, name: str, **fields: Any) -> bool:
    return any(
        e["event"] == name and all(e.get(k) == v for k, v in fields.items())
        for e in frame.get("events", [])
    )


def wait_event(conn: TableConnection, name: str, start: int = 0, **fields: Any) -> Frame:
    """The first frame (from the ``start``-th received on) with such an event."""
    for frame in conn.frames[start:]:
        if has_event(frame, name, **fields):
            return frame
    return conn.wait(lambda f: has_event(f, name, **fields))


def wait_turn(conn: TableConnection) -> None:
    if not conn.my_turn():
        conn.wait(lambda f: f["type"] in ("snapshot", "update") and conn.my_turn())


def wait_settled(conn: TableConnection, count: int) -> Frame:
    """The frame that settled hand number ``count`` (counted on this connection)."""
    frames = [f for f in conn.frames if has_event(f, "HandSettled")]
    while len(frames) < count:
        frames.append(conn.wait(lambda f: has_event(f, "HandSettled")))
    return frames[count - 1]


def wait_type(conn: TableConnection, kind: str) -> Frame:
    return conn.wait(lambda f: f["type"] == kind)


def refused(conn: TableConnection, sent: Callable[[], None]) -> tuple[Frame, tuple[int, str]]:
    """Send something the room refuses with a close; its error frame and the close code."""
    sent()
    error = wait_type(conn, "error")
    while conn.receive(timeout=30) is not None:
        pass
    assert conn.closed is not None
    return error, conn.closed


# ---------------------------------------------------------------------------------- playing
def chinese(url: str, boss: RoomClient, ex: Examples) -> None:
    rules = {"showdown_seconds": 0.5}
    table = boss.create_table(
        "chinese-1-6", name="Chinese Poker", seats=2, bots=1, bot_level="heuristic", rules=rules
    )
    tid = table["id"]
    watching = RoomClient(url)
    spectator = Recording(watching, tid, watch_only=True)
    ann_room = RoomClient(url)
    ex["http:account"] = ann_room.sign_up("ann", "password of A-N-N")
    ex["http:ticket"] = {"ticket": ann_room.ticket()}
    ann = Recording(ann_room, tid)
    ex["server:snapshot"] = ann.frames[0]

    ann.send({"type": "ping"})
    ex["client:ping"] = ann.last_sent()
    ex["server:pong"] = wait_type(ann, "pong")

    ann.send("not json")
    ex["server:error:bad_message"] = wait_type(ann, "error")

    # sit down: the room deals at once (a bot is waiting)
    sat = ann.do({"type": "sit", "seat": 1, "buy_in": 100}, ident="sit-1")
    ex["client:action:sit"] = ann.last_sent()
    ex["server:ack"] = sat
    dealt = wait_event(ann, "HandStarted")
    ex["server:update"] = dealt
    ex["server:update:spectator"] = wait_event(spectator, "HandSet", seat=0)
    wait_event(ann, "HandSet", seat=0)  # the bot has set: the player's decision ends the hand
    # sitting out now keeps the next hand from being dealt until sit_in
    ann.do({"type": "sit_out"}, ident="out-1")
    ex["client:action:sit_out"] = ann.last_sent()

    # a decision on an old state id: "stale", after a fresh snapshot
    wait_turn(ann)
    ann.do({"type": "time_bank"}, ident="bank-1")  # more time for this decision, from the bank
    ex["client:action:time_bank"] = ann.last_sent()
    seen = len(ann.frames)
    me = ann.me
    assert me is not None
    front, middle, back = safe_setting(get_rules("chinese-1-6"), parse_cards(me["cards"]))
    setting = {
        "type": "set_hand",
        "front": format_cards(front),
        "middle": format_cards(middle),
        "back": format_cards(back),
    }
    stale = ann.answer(ann.act(setting, state_id=dealt["state_id"] - 1, ident="set-0"))
    assert stale["type"] == "error", stale
    assert stale["code"] == "stale", stale
    ex["server:error:stale"] = stale
    fresh = [f["type"] for f in ann.frames[seen:]]
    assert fresh[-2:] == ["snapshot", "error"], fresh

    answer = ann.do(setting, ident="set-1")
    ex["client:action:set_hand"] = ann.last_sent()
    again = ann.answer(ann.act(setting, ident="set-1"))
    assert again == answer, (again, answer)  # the same id: the same answer, nothing done twice
    ex["server:update:showdown"] = wait_settled(ann, 1)

    # between hands: top up, then sit in (the next hand is the one with naturals)
    stack = ann.view["seats"][1]["stack"]
    ann.do({"type": "top_up", "amount": min(50, table["max_buy_in"] - stack)}, ident="top-1")
    ex["client:action:top_up"] = ann.last_sent()
    before = ann.state_id
    ann.do({"type": "sit_in"}, ident="in-1")
    ex["client:action:sit_in"] = ann.last_sent()
    second = wait_event(ann, "HandStarted", number=2)
    wait_event(ann, "HandSet", ann.frames.index(second), seat=0)
    ann.send({"type": "resync", "since": before})
    ex["client:resync"] = ann.last_sent()
    ex["server:snapshot:resync"] = wait_type(ann, "snapshot")
    ann.do({"type": "sit_out"}, ident="out-2")
    wait_turn(ann)
    me = ann.me
    assert me is not None
    assert me["naturals"], me
    ann.do({"type": "declare_natural", "natural": me["naturals"][0]}, ident="natural-1")
    ex["client:action:declare_natural"] = ann.last_sent()
    wait_settled(ann, 2)

    # a lost connection: reconnect with since=; an old id is still answered the same
    ann.do({"type": "sit_in"}, ident="in-2")
    wait_event(ann, "HandStarted", number=3)
    ann.reconnect()
    gone = wait_type(spectator, "presence")  # she was gone for a moment: only the bot is left
    assert gone["connected"] == [0], gone
    ex["server:presence"] = gone
    back = ann.frames[-1]  # the snapshot of a reconnection with since=: the events missed
    assert back["type"] == "snapshot", back
    assert back["events"], back
    old = ann.answer(ann.act({"type": "sit", "seat": 1, "buy_in": 100}, ident="sit-1"))
    assert old == sat, (old, sat)
    ann.do({"type": "sit_out"}, ident="out-3")
    wait_turn(ann)
    ann.do({"type": "surrender"}, ident="give-up-1")
    ex["client:action:surrender"] = ann.last_sent()
    wait_settled(ann, 3)

    spectator.act({"type": "sit", "seat": 1, "buy_in": 100}, ident="sit-1")
    ex["server:error:not_logged_in"] = wait_type(spectator, "error")

    # the table closes: ann, still seated, is told she was unseated and why; everyone watching
    # hears it closed, then the socket closes (1001)
    boss.request("DELETE", f"/api/tables/{tid}")
    ex["server:unseated"] = wait_type(ann, "unseated")
    ex["server:closing"] = wait_type(spectator, "closing")
    assert spectator.receive() is None
    assert spectator.closed is not None
    assert spectator.closed[0] == protocol.CLOSE_GOING_AWAY, spectator.closed
    for conn in (ann, spectator):
        conn.close()
    ann_room.close()
    watching.close()


def pineapple(url: str, boss: RoomClient, ex: Examples) -> None:
    table = boss.create_table(
        "ofc-pineapple",
        name="Pineapple",
        seats=2,
        bots=1,
        bot_level="heuristic",
        rules={"showdown_seconds": 0.5},
    )
    tid = table["id"]
    rng = random.Random(SEED)
    with RoomClient(url) as bob_room:
        bob_room.sign_up("bob", "password of B-O-B")
        bob = Recording(bob_room, tid)
        bob.do({"type": "sit", "seat": 1, "buy_in": 200}, ident="sit-1")
        street = 0
        left = False
        while True:
            wait_turn(bob)
            me = bob.me
            assert me is not None
            front, middle, back, discard = rng.choice(
                placements(parse_cards(me["cards"]), me["room"], me["discard_now"])
            )
            move = {
                "type": "place",
                "front": format_cards(front),
                "middle": format_cards(middle),
                "back": format_cards(back),
            }
            if discard:
                move["discard"] = format_cards(discard)
            bob.do(move, ident=f"street-{street}")
            if street == 0:
                ex["client:action:place"] = bob.last_sent()
            elif street == 1:
                ex["client:action:place:discard"] = bob.last_sent()
                ex["server:update:street"] = wait_event(bob, "CardsDealt", street=2)
            if not left:  # leaving during a hand (after it), and taking it back
                bob.do({"type": "leave"}, ident="leave-0")
                bob.do({"type": "stay"}, ident="stay-1")
                ex["client:action:stay"] = bob.last_sent()
                left = True
            if street == 4:  # his last street played: he leaves when the hand ends
                bob.do({"type": "leave"}, ident="leave-1")
                ex["client:action:leave"] = bob.last_sent()
            street += 1
            if street == 5:
                break
        wait_event(bob, "PlayerLeft", seat=1)

        # a frame too big, then a flood: each gets a sentence, then a close
        big = Recording(bob_room, tid, watch_only=True)
        error, closed = refused(big, lambda: big.send("x" * (protocol.MAX_FRAME_BYTES + 1)))
        assert closed[0] == protocol.CLOSE_TOO_BIG, closed
        ex["server:error:too_big"] = error
        flood = Recording(bob_room, tid, watch_only=True)

        def many() -> None:
            with contextlib.suppress(ConnectionClosed):  # the room may close it before the end
                for _ in range(3 * protocol.BURST):
                    flood.send({"type": "ping"})

        error, closed = refused(flood, many)
        assert closed[0] == protocol.CLOSE_POLICY, closed
        ex["server:error:flood"] = error
        bob.close()

        url_ws = bob_room.ws_url(f"/ws/tables/{tid}?ticket=not-a-ticket")
        with connect(url_ws) as ws:
            ex["server:error:bad_ticket"] = json.loads(ws.recv(timeout=30))
            code = None
            try:
                ws.recv(timeout=30)
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd else None
            assert code == protocol.CLOSE_POLICY, code


def lobby(url: str, boss: RoomClient, ex: Examples) -> None:
    with connect(boss.ws_url("/ws/lobby")) as ws:
        ex["server:lobby"] = json.loads(ws.recv(timeout=30))
        ws.send(json.dumps({"type": "ping"}))
        # a hand that starts or ends at the tables above meanwhile sends the list again first
        while (frame := json.loads(ws.recv(timeout=30)))["type"] != "pong":
            assert frame["type"] == "lobby", frame


def capture(folder: Path) -> dict[str, Any]:
    """Every example, from a room of its own in ``folder``."""
    ex = Examples()
    with room(folder) as url, chosen_decks([None, natural_deck()]), RoomClient(url) as boss:
        boss.sign_up("boss", "the chief's password")
        chinese(url, boss, ex)
        pineapple(url, boss, ex)
        lobby(url, boss, ex)
    return {name: shorten(name, value) for name, value in ex.items.items()}


# ---------------------------------------------------------------------------------- writing
CUT = "…"
"""What stands in an example for a part cut out of it."""
CUTS: dict[str, tuple[str, ...]] = {
    "server:update": ("view.hand.boards.1",),
    "server:update:spectator": ("view.seats",),
    "server:update:showdown": ("view.seats", "view.hand.results.1"),
    "server:update:street": ("view.seats",),
    "server:snapshot:resync": ("view.seats", "settings"),
    "server:lobby": ("tables.1",),
    "http:account": ("csrf_token",),
    "http:ticket": ("ticket",),
}
"""Where each example is shortened: a member replaced by ``"…"``, or a list cut from an index
on (``boards.1``: the first board kept)."""


def shorten(name: str, value: Any) -> Any:
    """A long frame made shorter, still JSON: each of its :data:`CUTS` replaced by ``"…"``."""
    value = copy.deepcopy(value)
    for path in CUTS.get(name, ()):
        *parents, last = path.split(".")
        node = value
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            del node[int(last) :]
            node.append(CUT)
        elif isinstance(node.get(last), str) and len(node[last]) > 8:
            node[last] = node[last][:8] + CUT
        else:
            node[last] = CUT
    return value


def render(value: Any, indent: int = 0, lead: int = 0) -> str:
    """JSON, on one line when it fits in :data:`WIDTH` (after ``lead`` characters of key), else
    one member a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(pad + key + render(v, indent + 2, len(key)))
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + render(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def fill(doc: str, examples: dict[str, Any]) -> str:
    """``doc`` with every example block replaced by what was captured."""
    names = [m.group("name") for m in EXAMPLE.finditer(doc)]
    missing = sorted(set(names) - set(examples))
    unused = sorted(set(examples) - set(names))
    if missing or unused:
        raise SystemExit(f"examples not captured: {missing}; captured but not in the doc: {unused}")

    def body(m: re.Match[str]) -> str:
        text = render(examples[m.group("name")])
        return f"{m.group(1)}```json\n{text}\n```\n{m.group(4)}"

    return EXAMPLE.sub(body, doc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc", type=Path, default=DOC)
    parser.add_argument(
        "--check", action="store_true", help="capture, but only say whether the doc would change"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="thirteen-protocol-") as folder:
        examples = capture(Path(folder))
    doc = args.doc.read_text(encoding="utf-8")
    new = fill(doc, examples)
    if args.check:
        verdict = "would change" if new != doc else "would not change"
        print(f"{len(examples)} examples captured; the doc {verdict}")
        return
    args.doc.write_text(new, encoding="utf-8")
    print(f"{len(examples)} examples written to {args.doc}", file=sys.stderr)


if __name__ == "__main__":
    main()
