"""docs/protocol.md against the code: an example of every message and frame, each parsing as what
it says it is; every error code the room can send in its error tables; every event, view field,
limit and close code there; and examples that the room, played again, still produces."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from thirteen.engine import events, views
from thirteen.server.http import api
from thirteen.server.http.app import create_app
from thirteen.server.money.accounts import TICKET_SECONDS
from thirteen.server.settings import Settings, load_settings
from thirteen.server.tables import broadcast as tables
from thirteen.server.tables import protocol

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SRC = ROOT / "src" / "thirteen"
SCRIPT = ROOT / "scripts" / "protocol_examples.py"

EXAMPLE = re.compile(
    r"<!-- example:(?P<name>[a-z_:]+) -->\n```json\n(?P<body>.*?)\n```\n<!-- /example -->",
    re.DOTALL,
)
CODE_CALL = re.compile(
    r"\b(?:\w*Error|_illegal|error_frame|error_response|_refuse)\(\s*(?:websocket,\s*)?"
    r'"([a-z_]+)"'
)
"""A refusal with a literal code: ``RuleError("seat_taken", …)``, ``_illegal(…)``, …"""
HTTP_SENTENCE = re.compile(
    r'(?:\d{3}: |sentences\.get\((?:exc\.status_code|status), )\("([a-z_]+)"'
)
"""api.py's codes for Starlette's own errors: ``404: ("not_found", "…")``."""
ENGINE_FILES = ("actions.py", "cards.py", "naturals.py", "notation.py", "rules.py", "state.py")
"""The engine modules a client's message (or an admin's request) reaches, besides table.py."""
INTERNAL_CODES = {
    "time_order": "the room stamps every action with its own clock, never behind the table's",
    "hand_in_progress": "only the room deals",
    "showdown_on_show": "only the room deals",
    "not_enough_players": "only the room deals",
    "not_due": "only the room times a seat out",
    "nothing_due": "only the room times a seat out",
    "unknown_natural": "natural_not_played refuses a name the table does not pay first",
    "bad_hand_size": "a declared natural is always the 13 cards dealt",
    "bad_totals": "the engine's own check that a showdown's points add up to zero",
    "bad_point_value": "only the room changes the unit (a sit & go's schedule)",
    "same_point_value": "only the room changes the unit (a sit & go's schedule)",
}
"""Codes in those sources that a client never gets, and why."""
OWNER_REPLIES = {"attached", "detached", "resynced", "done", "stopped"}
"""Answers a table's owner gives the room's own code, never written to a socket."""


# ----------------------------------------------------------------------------- reading the code
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


PING = Settings.model_fields["ws_ping_seconds"].default
PING_TIMEOUT = Settings.model_fields["ws_ping_timeout_seconds"].default
"""The room's protocol pings by default (the operator may set them)."""
OPERATOR_FILES = {"backup.py": "thirteen admin backup/restore: the operator's, never a client's"}
"""Server modules no client reaches (their refusals are the CLI's, not the protocol's)."""


def _sources() -> list[Path]:
    server = sorted(p for p in (SRC / "server").rglob("*.py") if p.name not in OPERATOR_FILES)
    return [*server, SRC / "engine" / "table.py", *(SRC / "engine" / f for f in ENGINE_FILES)]


def error_codes() -> set[str]:
    """Every code the room's code and the engine's client-facing modules refuse with."""
    codes: set[str] = set(api.STATUS_BY_CODE)
    for path in _sources():
        codes |= set(CODE_CALL.findall(_read(path)))
    codes |= set(HTTP_SENTENCE.findall(_read(SRC / "server" / "http" / "api.py")))
    return codes


def message_types() -> set[str]:
    """The client message types ``parse_message`` takes."""
    source = _read(SRC / "server" / "tables" / "protocol.py")
    return set(re.findall(r'kind [!=]= "(\w+)"', source))


def frame_types() -> set[str]:
    """Every ``"type"`` a frame the room builds may have (and the owner's private replies); the
    actions the room builds for bots (``{"type": "sit", …}``) aside."""
    found: set[str] = set()
    tables = sorted((SRC / "server" / "tables").rglob("*.py"))
    for path in (*tables, SRC / "server" / "http" / "sockets.py", SRC / "server" / "room.py"):
        source = _read(path)
        found |= set(re.findall(r'"type": "(\w+)"', source))
        found |= set(re.findall(r'self\._frame\("(\w+)"', source))
    return found - protocol.CLIENT_ACTIONS


# ----------------------------------------------------------------------------- reading the doc
def examples(doc: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for m in EXAMPLE.finditer(doc):
        found.setdefault(m.group("name"), m.group("body"))
    return found


def section(doc: str, title: str) -> str:
    start = doc.index(f"\n## {title}\n")
    end = doc.find("\n## ", start + 1)
    return doc[start : end if end >= 0 else len(doc)]


def table_codes(text: str) -> set[str]:
    """Codes named in the first column of the tables in ``text``."""
    codes: set[str] = set()
    for cell in re.findall(r"^\| ((?:`[a-z_]+`(?:, )?)+) \|", text, re.MULTILINE):
        codes |= set(re.findall(r"`([a-z_]+)`", cell))
    return codes


def problems(doc: str) -> list[str]:
    """What is wrong with ``doc`` as the protocol's description; empty when nothing is."""
    out: list[str] = []
    markers = re.findall(r"<!-- example:([a-z_:]+) -->", doc)
    blocks = examples(doc)
    if len(markers) != len(EXAMPLE.findall(doc)):
        out.append("an example marker without a ```json block and <!-- /example -->")
    if len(markers) != len(set(markers)):
        out.append("an example name used twice")
    parsed: dict[str, Any] = {}
    for name, body in blocks.items():
        try:
            parsed[name] = json.loads(body)
        except ValueError as e:
            out.append(f"example {name}: not JSON ({e})")
    for name, value in parsed.items():
        direction, _, rest = name.partition(":")
        kind = rest.split(":")
        if direction == "http":
            continue
        if direction not in ("client", "server") or not isinstance(value, dict):
            out.append(f"example {name}: not a client or server message")
            continue
        if value.get("type") != kind[0]:
            out.append(f"example {name}: its type is {value.get('type')!r}")
        if direction == "client":
            try:
                message = protocol.parse_message(json.dumps(value))
            except protocol.ProtocolError as e:
                out.append(f"example {name}: the room refuses it ({e.code}: {e})")
                continue
            if isinstance(message, protocol.ActionMessage) and (
                len(kind) < 2 or message.action["type"] != kind[1]
            ):
                out.append(f"example {name}: its action is {message.action['type']!r}")
    client = [v for n, v in parsed.items() if n.startswith("client:")]
    for kind in sorted(message_types()):
        if not any(v.get("type") == kind for v in client):
            out.append(f"no example of the client message {kind!r}")
    actions = [v["action"] for v in client if v.get("type") == "action"]
    for kind in sorted(protocol.CLIENT_ACTIONS):
        if not any(a.get("type") == kind for a in actions):
            out.append(f"no example of the action {kind!r}")
    places = [a for a in actions if a.get("type") == "place"]
    if not any(a.get("discard") for a in places) or all(a.get("discard") for a in places):
        out.append("place needs an example with a discard and one without")
    server = [v for n, v in parsed.items() if n.startswith("server:")]
    for kind in sorted(frame_types() - OWNER_REPLIES):
        if not any(v.get("type") == kind for v in server):
            out.append(f"no example of the frame {kind!r}")

    try:
        errors = section(doc, "Errors")
    except ValueError:
        out.append("no section ## Errors")
        errors = ""
    documented = table_codes(errors)
    sendable = error_codes() - set(INTERNAL_CODES)
    for code in sorted(sendable - documented):
        out.append(f"the error code {code!r} is not in the error tables")
    for code in sorted(documented - error_codes()):
        out.append(f"the error tables name {code!r}, which nothing sends")
    for v in server:
        if v.get("type") == "error" and v.get("code") not in documented:
            out.append(f"the example error {v.get('code')!r} is not in the error tables")

    try:
        listed = section(doc, "Events")
    except ValueError:
        out.append("no section ## Events")
        listed = ""
    for cls in typing.get_args(events.Event):
        row = re.search(rf"^\| `{cls.__name__}` \| ([^|]*) \|", listed, re.MULTILINE)
        fields = [f.name for f in dataclasses.fields(cls)]
        if row is None:
            out.append(f"the event {cls.__name__} is not in the events table")
        elif re.findall(r"`(\w+)`", row.group(1)) != fields:
            out.append(f"the event {cls.__name__}'s fields are {', '.join(fields)}")

    try:
        view = section(doc, "The view")
    except ValueError:
        out.append("no section ## The view")
        view = ""
    for prefix, cls in (("", views.TableView), ("hand.", views.HandView)):
        for f in dataclasses.fields(cls):
            if f"`{prefix}{f.name}`" not in view:
                out.append(f"the view field {cls.__name__}.{f.name} is not in ## The view")
    # the fields of what a row holds are listed in that row itself (a `seat` named elsewhere in
    # the section does not document the seat of a result)
    for row_name, cls in (
        ("seats", views.SeatView),
        ("hand.boards", views.BoardView),
        ("hand.me", views.MyCards),
        ("hand.results", views.PlayerResultView),
    ):
        row = re.search(rf"^\| `{re.escape(row_name)}` \| ([^\n]*)$", view, re.MULTILINE)
        for f in dataclasses.fields(cls):
            if row is None or f"`{f.name}`" not in row.group(1):
                out.append(f"the view field {cls.__name__}.{f.name} is not in the {row_name} row")

    try:
        limits = section(doc, "Limits and close codes")
    except ValueError:
        out.append("no section ## Limits and close codes")
        limits = ""
    for close in (
        protocol.CLOSE_POLICY,
        protocol.CLOSE_TOO_BIG,
        protocol.CLOSE_GOING_AWAY,
        protocol.CLOSE_SLOW,
        protocol.CLOSE_SESSION_ENDED,
    ):
        if f"**{close}**" not in limits:
            out.append(f"the close code {close} is not in ## Limits and close codes")
    for number, what in (
        (f"{protocol.MAX_FRAME_BYTES // 1024} KiB ({protocol.MAX_FRAME_BYTES} bytes", "size"),
        (f"more than {protocol.BURST} messages", "burst"),
        (f"refilled {protocol.BURST} a second", "refill"),
        (f"{tables.OUTBOX_FRAMES} frames", "outbox"),
        (f"one every {PING:g} s, unanswered for {PING_TIMEOUT:g} s", "pings"),
        (f"within {PING + PING_TIMEOUT:g} s by default", "dead sockets"),
    ):
        if number not in limits:
            out.append(f"## Limits and close codes does not say {number!r} ({what})")
    if f"within {TICKET_SECONDS:g} seconds" not in doc:
        out.append(f"the doc does not say tickets last {TICKET_SECONDS:g} seconds")
    if f"last {tables.RECENT_EVENTS} actions" not in doc:
        out.append(f"the doc does not say resync covers {tables.RECENT_EVENTS} actions")
    return out


# ----------------------------------------------------------------------------- the tests
def test_the_doc_describes_the_protocol() -> None:
    assert problems(_read(DOC)) == []


def test_the_internal_codes_are_still_in_the_code() -> None:
    codes = error_codes()
    assert set(INTERNAL_CODES) <= codes
    assert frame_types() >= OWNER_REPLIES


def _drop_example(doc: str, name: str) -> str:
    return re.sub(rf"<!-- example:{name} -->\n.*?<!-- /example -->\n", "", doc, flags=re.DOTALL)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (
            lambda d: _drop_example(d, "client:action:surrender"),
            "no example of the action 'surrender'",
        ),
        (lambda d: _drop_example(d, "client:action:place:discard"), "place needs an example"),
        (lambda d: _drop_example(d, "server:pong"), "no example of the frame 'pong'"),
        (lambda d: _drop_example(d, "client:resync"), "no example of the client message 'resync'"),
        (
            lambda d: d.replace('{"type": "pong"', '{"type": "pong",'),
            "example server:pong: not JSON",
        ),
        (lambda d: d.replace('{"type": "closing"', '{"type": "closed"'), "its type is 'closed'"),
        (lambda d: d.replace('"id": "in-1"', '"id": "in 1"'), "the room refuses it (bad_message"),
        (lambda d: d.replace("| `stale` |", "| stale |"), "'stale' is not in the error tables"),
        (
            lambda d: d.replace("| `no_chips` |", "| `no_chipz` |"),
            "'no_chipz', which nothing sends",
        ),
        (lambda d: d.replace("`private_to` | `??`", "| `??`"), "CardsDealt's fields"),
        (lambda d: d.replace("`can_surrender`", "can_surrender"), "MyCards.can_surrender"),
        (lambda d: d.replace("**4008**", "4008"), "the close code 4008"),
        (lambda d: d.replace("**4001**", "4001"), "the close code 4001"),
        (lambda d: d.replace("more than 20 messages", "more than 30 messages"), "(burst)"),
    ],
)
def test_the_check_finds_what_is_wrong(change: Any, complaint: str) -> None:
    doc = _read(DOC)
    changed = change(doc)
    assert changed != doc
    assert any(complaint in p for p in problems(changed)), problems(changed)


# ----------------------------------------------------------------------------- played again
def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("protocol_examples", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _shape(value: Any) -> Any:
    """The keys of every object in ``value`` (values, cards and times aside)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return "…" if value == "…" else None


def _differences(doc: Any, fresh: Any, where: str = "") -> list[str]:
    if doc == "…":
        return []
    if isinstance(doc, dict) and isinstance(fresh, dict):
        out = [f"{where}.{k}: {'gone' if k in doc else 'new'}" for k in set(doc) ^ set(fresh)]
        for k in set(doc) & set(fresh):
            out += _differences(doc[k], fresh[k], f"{where}.{k}")
        return out
    if isinstance(doc, list) and isinstance(fresh, list):
        if len(doc) != len(fresh):
            return [f"{where}: {len(doc)} items, now {len(fresh)}"]
        pairs = enumerate(zip(doc, fresh, strict=True))
        return [d for i, (a, b) in pairs for d in _differences(a, b, f"{where}[{i}]")]
    if type(doc) is not type(fresh):
        return [f"{where}: {type(doc).__name__}, now {type(fresh).__name__}"]
    return []


def test_the_examples_are_what_the_room_sends_now(tmp_path: Path) -> None:
    """Play the script's games again: every example comes back with the same members (regenerate
    the doc with scripts/protocol_examples.py when the protocol changes)."""
    script = _script()
    captured = script.capture(tmp_path)
    doc = _read(DOC)
    in_doc = {name: json.loads(body) for name, body in examples(doc).items()}
    assert set(captured) == set(in_doc)
    changed = {
        name: found
        for name in in_doc
        if (found := _differences(_shape(in_doc[name]), _shape(captured[name]), name))
    }
    assert changed == {}
    assert problems(script.fill(doc, captured)) == []


# ----------------------------------------------------------------------------- the HTTP routes
HTTP_ROW = re.compile(r"^\| (GET|POST|PUT|PATCH|DELETE) \| (.*?) \| ", re.MULTILINE)


def http_routes_in(doc: str) -> set[tuple[str, str]]:
    """(method, path) of every row of the HTTP table, ids as ``{id}`` and queries left out."""
    found: set[tuple[str, str]] = set()
    for method, cell in HTTP_ROW.findall(section(doc, "Before the socket: HTTP")):
        for path in re.findall(r"`(/[^`?]*)", cell):
            found.add((method, re.sub(r"\{\w+\}", "{id}", path)))
    return found


def test_every_http_route_is_in_the_table(tmp_path: Path) -> None:
    """The table in "Before the socket: HTTP" is the list of the room's routes: every operation
    of /openapi.json is a row, and no row names a route the room does not have."""
    settings = load_settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", data_dir=tmp_path
    )
    schema = create_app(settings).openapi()
    served = {
        (method.upper(), re.sub(r"\{\w+\}", "{id}", path))
        for path, operations in schema["paths"].items()
        for method in operations
    }
    documented = http_routes_in(_read(DOC)) - {("GET", "/metrics")}  # not in the schema
    assert sorted(served - documented) == []
    assert sorted(documented - served) == []
