"""The protocol state machine (tests/server/protocol_machine.py) against a live room, on SQLite
and PostgreSQL: a few short runs here; scripts/fuzz_room.py makes long ones — then the room
restarts on what they left, opens a new table, plays a hand there and audits clean. And the
message parser on any JSON at all."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from poison import the_room_restarts_and_plays
from protocol_machine import JSON, ProtocolMachine, Shared

from thirteen.client import RoomClient
from thirteen.server.http.app import create_app
from thirteen.server.serve import serve_in_thread
from thirteen.server.settings import Settings
from thirteen.server.tables.protocol import ProtocolError, encode, encode_utf8, parse_message

EXAMPLES = 5
STEPS = 30


def test_the_protocol_holds_whatever_clients_send(settings: Settings) -> None:
    with serve_in_thread(create_app(settings)) as room, RoomClient(room) as boss:
        boss.sign_up("boss", "the chief's password")
        shared = Shared(room, settings.database_url, boss)

        class Machine(ProtocolMachine):
            pass

        Machine.shared = shared
        try:
            run_state_machine_as_test(
                Machine,
                settings=hypothesis_settings(
                    max_examples=EXAMPLES, stateful_step_count=STEPS, database=None
                ),
            )
        finally:
            shared.close()
        counts = shared.counts
        assert counts["messages"] > 0
        assert counts["frames checked for leaks"] > 0
        assert counts["poisoned messages"] + counts["poisoned rules"] > 0
    the_room_restarts_and_plays(settings)


MESSAGE = st.dictionaries(
    st.sampled_from(["type", "id", "state_id", "since", "action"]),
    st.one_of(st.sampled_from(["action", "ping", "resync", "sit", "x1"]), JSON),
)


@given(
    message=st.one_of(
        MESSAGE,
        st.builds(
            lambda m, a: {**m, "type": "action", "id": "a1", "action": a},
            MESSAGE,
            st.dictionaries(st.sampled_from(["type", "seat", "buy_in"]), JSON),
        ),
    )
)
def test_any_json_is_a_message_or_a_protocol_error(message: dict[str, Any]) -> None:
    """Whatever JSON a client sends, the parser answers with a sentence, never an exception
    (an action whose type was a list once killed the socket's handler)."""
    with contextlib.suppress(ProtocolError):
        parse_message(json.dumps(message))


FRAME_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(-9, 9), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(frame=st.dictionaries(st.text(max_size=8) | st.integers(-9, 9), FRAME_VALUES, max_size=5))
def test_a_frame_is_written_as_the_standard_encoder_writes_it(frame: dict[Any, Any]) -> None:
    """Frames are written by orjson, which is asked about keys that are not text only when it
    meets one (issue 33): any frame — integer keys, integers past 64 bits — reads back as the
    standard encoder's JSON does."""
    written = encode(frame)
    assert encode_utf8(frame) == written.encode()
    assert json.loads(written) == json.loads(json.dumps(frame))
