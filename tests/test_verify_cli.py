"""``thirteen verify`` (exit codes, what it says, bad input) and ``--histories DIR`` on the commands
that play hands."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import CLI
from thirteen.bots.arena import play, seated_table, seeded_deal
from thirteen.bots.base import RandomBot
from thirteen.engine import history_text
from thirteen.engine.history import HandHistory, history_to_json, redact_history
from thirteen.engine.history_text import history_to_text
from thirteen.engine.history_verify import verify_history
from thirteen.engine.rules import get_rules


@pytest.fixture(scope="module")
def history() -> HandHistory:
    hands: list[HandHistory] = []
    bots = [RandomBot(random.Random(i)) for i in range(3)]
    play(get_rules("ofc-pineapple"), bots, 2, seed=5, on_hand=lambda _, h: hands.append(h))
    assert [h.start.hands_played for h in hands] == [0, 1]
    return hands[1]


def write(tmp_path: Path, name: str, content: str | dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


# --- exit codes ----------------------------------------------------------------------------------
def test_a_full_history_verifies_with_exit_0(
    cli: CLI, tmp_path: Path, history: HandHistory
) -> None:
    data = history_to_json(history)
    for source in (
        write(tmp_path, "h.json", data),
        write(tmp_path, "h.txt", history_to_text(data)),
    ):
        r = cli(["verify", source])
        assert r.code == 0, r.err
        assert "ok  the header (hand 2, ofc-pineapple rules" in r.out
        assert "replay in time order, each decision within its deadline" in r.out
        assert "replayed result equals the recorded result" in r.out
        assert "verified: everything in this history holds" in r.out
        assert data["commitment"] in r.out
        assert not r.err
    r = cli(["verify", "-"], stdin=history_to_text(data))
    assert r.code == 0, r.err


def test_a_players_copy_is_partly_verified_with_exit_3(
    cli: CLI, tmp_path: Path, history: HandHistory
) -> None:
    copy_ = redact_history(history, 1)
    for source in (
        write(tmp_path, "c.json", copy_),
        write(tmp_path, "c.txt", history_to_text(copy_)),
    ):
        r = cli(["verify", source])
        assert r.code == 3, r.err
        assert "opened cards match" in r.out
        assert "not checked" in r.out
        assert "cannot be replayed" in r.out
        assert "partly verified" in r.out
        assert "verified: everything" not in r.out
        ok_lines = [line for line in r.out.splitlines() if line.startswith("ok")]
        assert all("result" not in line and "replay" not in line for line in ok_lines)


def test_a_forged_result_in_a_players_copy_is_not_ok(
    cli: CLI, tmp_path: Path, history: HandHistory
) -> None:
    copy_ = redact_history(history, 1)
    copy_["result"]["totals"] = [-t for t in copy_["result"]["totals"]]
    copy_["result"]["money"] = [-m for m in copy_["result"]["money"]]
    r = cli(["verify", write(tmp_path, "forged.json", copy_)])
    assert r.code == 3
    assert "the result" in next(line for line in r.out.splitlines() if "not checked" in line)
    text = history_to_text(redact_history(history, 1))
    line = next(x for x in text.split("\n") if x.startswith("result seat 1:"))
    forged = text.replace(line, "result seat 1: +40 points, +40 money")
    r = cli(["verify", write(tmp_path, "forged.txt", forged)])
    assert r.code == 1
    assert "line" in r.err
    assert "+40 points" in r.err


def test_a_tampered_history_fails_with_exit_1_and_one_line(
    cli: CLI, tmp_path: Path, history: HandHistory
) -> None:
    data = history_to_json(history)
    data["start"]["seats"][0]["stack"] += 1
    r = cli(["verify", write(tmp_path, "bad.json", data)])
    assert r.code == 1
    assert r.err.startswith("thirteen: the history does not verify: ")
    assert "do not make the published commitment" in r.err
    assert len(r.err.strip().splitlines()) == 1
    data = history_to_json(history)
    data["actions"].pop()
    r = cli(["verify", write(tmp_path, "short.json", data)])
    assert r.code == 1
    assert "an action is missing" in r.err


# --- bad input: one clear line, exit 2 -----------------------------------------------------------
def bad_inputs(history: HandHistory) -> dict[str, str]:
    data = history_to_json(history)
    text = history_to_text(data)
    at_abc = json.loads(json.dumps(data))
    at_abc["actions"][0]["at"] = "abc"
    minus_one = redact_history(history, 0)
    minus_one["deal"]["openings"][0][0] = -1
    far = redact_history(history, 0)
    far["deal"]["openings"][-1][0] = 999
    huge = "1" * 5000
    stack = str(data["start"]["seats"][0]["stack"])
    dealt_at = data["actions"][0]["at"]
    return {
        "start_hand at abc": json.dumps(at_abc),
        "opening at -1": json.dumps(minus_one),
        "opening at 999": json.dumps(far),
        "5000-digit stack (JSON)": json.dumps(data).replace(stack, huge, 1),
        "5000-digit hand (JSON)": json.dumps(data).replace('"hand": 2', f'"hand": {huge}'),
        "5000-digit time (JSON)": json.dumps(data).replace(f'"at": {dealt_at}', f'"at": {huge}'),
        "5000-digit stack (text)": text.replace(f"stack {stack}", f"stack {huge}", 1),
        "5000-digit time (text)": text.replace(
            f"\n{history_text._time_text(dealt_at, True)} ", f"\n{huge} "
        ),
        "not json": "{not json",
        "not a history": json.dumps({"format": "pgn"}),
        "empty": "",
    }


@pytest.mark.parametrize(
    "case",
    [
        "start_hand at abc",
        "opening at -1",
        "opening at 999",
        "5000-digit stack (JSON)",
        "5000-digit hand (JSON)",
        "5000-digit time (JSON)",
        "5000-digit stack (text)",
        "5000-digit time (text)",
        "not json",
        "not a history",
        "empty",
    ],
)
def test_bad_input_gives_one_line_and_exit_2(
    cli: CLI, tmp_path: Path, history: HandHistory, case: str
) -> None:
    content = bad_inputs(history)[case]
    assert content != json.dumps(history_to_json(history))  # the case changed something
    r = cli(["verify", write(tmp_path, "bad", content)])
    assert r.code == 2, (case, r)
    assert r.err.startswith("thirteen: ")
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert "Traceback" not in r.err
    assert not r.out


def test_missing_files_and_directories_exit_2(cli: CLI, tmp_path: Path) -> None:
    assert cli(["verify", str(tmp_path / "missing.json")]).code == 2
    assert cli(["verify", str(tmp_path)]).code == 2
    r = cli(["verify", "-"], stdin="{not json")
    assert r.code == 2
    assert "not valid JSON" in r.err


# --- --histories DIR -----------------------------------------------------------------------------
def verify_all(cli: CLI, directory: Path) -> tuple[int, int]:
    """Verify every file in ``directory``: (full histories verified, seat copies partly)."""
    full = copies = 0
    for path in sorted(directory.iterdir()):
        r = cli(["verify", str(path)])
        if "-seat" in path.name:
            assert r.code == 3, (path.name, r)
            copies += 1
        else:
            assert r.code == 0, (path.name, r)
            full += 1
    return full, copies


def test_simulate_writes_histories_that_verify(cli: CLI, tmp_path: Path) -> None:
    out = tmp_path / "hands"
    args = ["simulate", "--rules", "ofc-pineapple", "--players", "3", "--hands", "3"]
    r = cli([*args, "--seed", "2", "--json", "--histories", str(out)])
    assert r.code == 0, r.err
    assert json.loads(r.out)["hands"] == 3  # stdout stays one JSON object
    names = sorted(p.name for p in out.iterdir())
    assert "ofc-pineapple-hand-00001.json" in names
    assert "ofc-pineapple-hand-00003.txt" in names
    assert "ofc-pineapple-hand-00002-seat2.txt" in names
    assert verify_all(cli, out) == (3 * 2, 3 * 3 * 2)
    data = json.loads((out / "ofc-pineapple-hand-00003.json").read_text())
    assert data["hand"] == 3
    assert verify_history(data).ok


def test_duel_writes_one_history_per_table(cli: CLI, tmp_path: Path) -> None:
    out = tmp_path / "duel"
    r = cli(
        [
            "duel",
            "--rules",
            "chinese-1-6",
            "--bots",
            "heuristic,random",
            "--hands",
            "2",
            "--seed",
            "1",
            "--duplicate",
            "--budget",
            "0",
            "--histories",
            str(out),
        ]
    )
    assert r.code == 0, r.err
    assert "hand histories in" in r.out
    names = {p.name for p in out.iterdir()}
    assert {"chinese-1-6-table0-hand-00002.json", "chinese-1-6-table1-hand-00002.txt"} <= names
    assert verify_all(cli, out) == (2 * 2 * 2, 2 * 2 * 2 * 2)


def test_demo_writes_histories_of_every_preset(cli: CLI, tmp_path: Path) -> None:
    out = tmp_path / "demo"
    r = cli(["demo", "--seed", "4", "--budget", "0", "--histories", str(out)])
    assert r.code == 0, r.err
    full, copies = verify_all(cli, out)
    assert full == 2 * 8  # one hand of each preset, JSON and text
    assert copies >= 2 * 2 * 8


def test_histories_must_be_a_directory(cli: CLI, tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    r = cli(["simulate", "--hands", "1", "--histories", str(a_file)])
    assert r.code == 2
    assert "not a directory" in r.err


def test_the_arena_records_the_hands_it_plays() -> None:
    rules = get_rules("ofc")
    hands: list[tuple[int, HandHistory]] = []
    bots = [RandomBot(random.Random(i)) for i in range(2)]
    play(rules, bots, 2, seed=1, duplicate=True, on_hand=lambda t, h: hands.append((t, h)))
    assert [t for t, _ in hands] == [0, 1, 0, 1]
    for _, h in hands:
        assert verify_history(history_to_json(h)).ok
    assert seated_table(rules, 2).hands_played == 0
    assert seeded_deal(random.Random(1)).root == hands[0][1].deal.root
