"""The protocol state machine (tests/server/protocol_machine.py) against a live room, on SQLite
and PostgreSQL: a few short runs here; scripts/fuzz_room.py makes long ones."""

from __future__ import annotations

from hypothesis import settings as hypothesis_settings
from hypothesis.stateful import run_state_machine_as_test
from protocol_machine import ProtocolMachine, Shared

from thirteen.client import RoomClient
from thirteen.server.settings import Settings

EXAMPLES = 5
STEPS = 30


def test_the_protocol_holds_whatever_clients_send(room: str, settings: Settings) -> None:
    with RoomClient(room) as boss:
        boss.sign_up("boss", "the boss password")
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
