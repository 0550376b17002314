"""Every example in the README runs as written (issue 9, item 10).

Each ``thirteen …`` line of a ``sh`` block runs in a shell, in a directory holding the files the
examples name (:data:`FILES`); the JSON block is what ``thirteen score hand.json`` reads; the
Python block runs as is. Each must exit 0 and print what its comment promises.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from table_helpers import SALTS, table_with
from thirteen.bots.base import RandomBot
from thirteen.engine.actions import StartHand
from thirteen.engine.deck import Deal
from thirteen.engine.history import begin_history, finish, history_to_json, record
from thirteen.engine.legal import legal_actions
from thirteen.engine.rules import get_rules
from thirteen.engine.state import Phase, deciders
from thirteen.engine.table import apply
from thirteen.engine.views import view

README = Path(__file__).parent.parent / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", TEXT, flags=re.MULTILINE | re.DOTALL)
NOT_RUN = {
    "make run": "sets up .venv/ and plays the demo, which `thirteen demo` here runs",
    "make test": "runs the whole test suite, this test included",
}
"""Lines of the README's sh blocks this test does not run, and why."""


def shell_lines(block: str) -> list[str]:
    """The commands of a sh block, continuation lines joined."""
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip()]


EXAMPLES = [line for kind, block in BLOCKS if kind == "sh" for line in shell_lines(block)]
COMMANDS = [line for line in EXAMPLES if line.startswith("thirteen ")]


def a_history() -> str:
    """A full hand history, as a table records one (random players, a fixed deal)."""
    rules = get_rules("ofc-pineapple")
    rng = random.Random(3)
    state = table_with(rules, ["p0", "p1"])
    order = list(range(52))
    rng.shuffle(order)
    start = StartHand(deal=Deal.from_order(order, SALTS), at=5.0)
    history = begin_history(state, start)
    state, _ = apply(state, start)
    now = 5.0
    while state.phase == Phase.PLAYING:
        seat = min(deciders(state))
        seat_view = view(state, seat)
        now += 1.5
        action = RandomBot(rng).choose(seat_view, legal_actions(seat_view), 1.0)
        action = dataclasses.replace(action, at=now)
        state, _ = apply(state, action)
        history = record(history, action)
    return json.dumps(history_to_json(finish(history)))


def score_input() -> str:
    (block,) = [block for kind, block in BLOCKS if kind == "json"]
    return block


FILES: dict[str, Callable[[], str]] = {
    "hands.txt": lambda: "As Ks Qd\nQs Qd 7c 7h 2c\n\nAh Kh Qh Jh Th\n",
    "hand.json": score_input,
    "history.json": a_history,
}
"""The files the examples read, and how this test makes each."""


def json_lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


EXPECT: dict[str, Callable[[str], object]] = {
    "thirteen eval As": lambda out: json_lines(out)[0]["category"] == "high card",
    "thirteen eval -": lambda out: (
        [h["category"] for h in json_lines(out)] == ["high card", "two pair", "straight flush"]
    ),
    "thirteen score": lambda out: sum(json.loads(out)["totals"]) == 0,
    "thirteen rules": lambda out: "ofc-pineapple-progressive" in out and "pineapple" in out,
    "thirteen demo": lambda out: "open-face-cards, hand 1" in out,
    "thirteen simulate": lambda out: "1000 hands of ofc-pineapple, 3 random players" in out,
    "thirteen verify": lambda out: "ok  the deck and salts match the published commitment" in out,
    "thirteen solve setting": lambda out: "Declare Dragon" in out,
    "thirteen solve fantasyland": lambda out: "fantasyland: 14 cards, ofc-pineapple" in out,
    "thirteen solve ofc": lambda out: "Play:" in out,
    "thirteen duel": lambda out: "1:strong" in out and "2:heuristic" in out,
    "thirteen bench": lambda out: "benchmark: evaluate" in out,
}
"""What each example's output must show (the first matching start wins)."""


def test_the_readme_has_its_examples() -> None:
    assert len(COMMANDS) == 12
    assert {kind for kind, _ in BLOCKS} == {"sh", "json", "python"}
    others = {line.split("#")[0].strip() for line in EXAMPLES if line not in COMMANDS}
    assert others == set(NOT_RUN)


@pytest.mark.parametrize("line", COMMANDS, ids=[" ".join(c.split()[1:3]) for c in COMMANDS])
def test_each_command_runs_as_written(line: str, tmp_path: Path) -> None:
    named = set(re.findall(r"[\w-]+\.(?:txt|json)\b", line))
    assert named <= set(FILES), f"make {named - set(FILES)} in FILES"
    for name in named:
        (tmp_path / name).write_text(FILES[name](), encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    check = next(check for start, check in EXPECT.items() if line.startswith(start))
    assert check(done.stdout), done.stdout


def test_the_python_example_runs() -> None:
    (block,) = [block for kind, block in BLOCKS if kind == "python"]
    names: dict[str, object] = {}
    exec(block, names)
    describe, strength = names["describe"], names["strength"]
    assert callable(describe)
    assert describe(strength) == "Pair of Queens"
    assert names["rules"] == get_rules("ofc-pineapple", {"max_players": 2})
