"""Every example in the README runs as written (issue 9, item 10).

Each ``thirteen …`` line of a ``sh`` block runs in a shell, in a directory holding the files the
examples name (:data:`FILES`); the JSON block is what ``thirteen score hand.json`` reads; the
Python block runs as is. Each must exit 0 and print what its comment promises.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from thirteen.engine.rules import get_rules

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


def score_input() -> str:
    (block,) = [block for kind, block in BLOCKS if kind == "json"]
    return block


FILES: dict[str, Callable[[], str]] = {
    "hands.txt": lambda: "As Ks Qd\nQs Qd 7c 7h 2c\n\nAh Kh Qh Jh Th\n",
    "hand.json": score_input,
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
    "thirteen simulate --hands 3": lambda out: "3 hands of chinese-1-6" in out,
    "thirteen simulate": lambda out: "1000 hands of ofc-pineapple, 3 random players" in out,
    "thirteen verify": lambda out: "verified: everything in this history holds" in out,
    "thirteen review": lambda out: "3 hands, 3 decisions" in out and "EV lost a hand:" in out,
    "thirteen solve setting": lambda out: "Declare Dragon" in out,
    "thirteen solve fantasyland": lambda out: "fantasyland: 14 cards, ofc-pineapple" in out,
    "thirteen solve ofc": lambda out: "Play:" in out and "A gamble: this play fouls" in out,
    "thirteen duel": lambda out: "1:strong" in out and "2:heuristic" in out,
    "thirteen admin table create": lambda out: out.startswith("Opened table 1."),
    "thirteen admin table close": lambda out: "Table 1 is closing." in out,
    "thirteen admin promote": lambda out: "ann is now an admin." in out,
    "thirteen admin audit": lambda out: "The audit passed." in out,
    "thirteen admin export": lambda out: "0 hand histories in backup" in out,
    "thirteen admin migrate": lambda out: "up to date" in out,
    "thirteen admin backup": lambda out: "Backed up to room.backup" in out,
    "thirteen admin restore": lambda out: "the audit passed" in out,
    "thirteen bench": lambda out: "benchmark: evaluate" in out,
}
"""What each example's output must show (the first matching start wins)."""


def test_the_readme_has_its_examples() -> None:
    assert len(COMMANDS) == 22
    assert {kind for kind, _ in BLOCKS} == {"sh", "json", "python"}
    others = {line.split("#")[0].strip() for line in EXAMPLES if line not in COMMANDS}
    assert others == set(NOT_RUN)


ADMIN = [line for line in COMMANDS if line.startswith("thirteen admin")]


def make_account(folder: Path, name: str) -> None:
    """An account in the room's default database under ``folder`` (as a sign-up makes one)."""
    from thirteen.server.db.session import Database, migrate
    from thirteen.server.money.accounts import Accounts
    from thirteen.server.settings import load_settings

    url = f"sqlite+aiosqlite:///{folder / 'var' / 'thirteen.db'}"

    async def main() -> None:
        await migrate(url)
        db = Database(url)
        try:
            await Accounts(db, load_settings(database_url=url)).sign_up(name, "a password")
        finally:
            await db.close()

    asyncio.run(main())


def run(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run a README line with bash in ``folder``, with this environment's ``thirteen`` first."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        ["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, check=False
    )


def check_output(line: str, done: subprocess.CompletedProcess[str]) -> None:
    """The line exited 0 and printed what :data:`EXPECT` says it must."""
    assert done.returncode == 0, f"{line}\n{done.stderr}"
    check = next(check for start, check in EXPECT.items() if line.startswith(start))
    assert check(done.stdout), f"{line}\n{done.stdout}"


OTHERS = [line for line in COMMANDS if line not in ADMIN]


@pytest.mark.parametrize("line", OTHERS, ids=[" ".join(c.split()[1:3]) for c in OTHERS])
def test_each_command_runs_as_written(line: str, tmp_path: Path) -> None:
    if " hands/" in line and "--histories" not in line:  # reads what the README wrote before
        (writer,) = [c for c in COMMANDS if "--histories hands/" in c]
        made = run(writer, tmp_path)
        assert made.returncode == 0, made.stderr
    named = set(re.findall(r"(?<![/\w*-])[\w-]+\.(?:txt|json)\b", line))  # not a glob
    assert named <= set(FILES), f"make {named - set(FILES)} in FILES"
    for name in named:
        (tmp_path / name).write_text(FILES[name](), encoding="utf-8")
    check_output(line, run(line, tmp_path))


def test_the_operators_lines_run_in_order(tmp_path: Path) -> None:
    """The operator's lines act on one room, one after the other, as an operator types them:
    each exits 0 and prints what it promises."""
    assert len(ADMIN) == 8
    make_account(tmp_path, "ann")
    for line in ADMIN:
        check_output(line, run(line, tmp_path))


def test_the_python_example_runs() -> None:
    (block,) = [block for kind, block in BLOCKS if kind == "python"]
    names: dict[str, object] = {}
    exec(block, names)
    describe, strength = names["describe"], names["strength"]
    assert callable(describe)
    assert describe(strength) == "Pair of Queens"
    assert names["rules"] == get_rules("ofc-pineapple", {"max_players": 2})
