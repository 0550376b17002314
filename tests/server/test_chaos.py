"""The chaos harness's short run: the room killed with SIGKILL between two of its writes while
players play over real sockets — 50 times on SQLite, 25 on PostgreSQL (each life costs a
server start; the long runs are `thirteen bench chaos`) — then the audit is clean, every
acknowledged action is in the journal, and every hand settled (none voided)."""

from __future__ import annotations

from thirteen.bench.chaos import ChaosOptions, run_chaos

KILLS = {"sqlite": 50, "postgresql": 25}


def test_kills_between_writes(database_url: str) -> None:
    kills = KILLS["sqlite" if database_url.startswith("sqlite") else "postgresql"]
    result = run_chaos(ChaosOptions(kills=kills, database_url=database_url))
    assert result.player_errors == []
    assert result.audit_problems == []
    assert result.missing_from_journal == []
    assert result.kills + result.outside_kills == kills
    assert result.kills >= kills * 0.9  # nearly every life ended by its own switch, mid-write
    # the players played through it: acknowledged actions, answers lost with a life and asked
    # again under the same id, hands settled (a hand in the air at a kill resumes and settles)
    assert result.acked > kills
    assert result.resent > 0
    assert result.hands_settled > 0
    assert result.hands_voided == 0
