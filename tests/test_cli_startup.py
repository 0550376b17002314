"""``thirteen`` answers at once: ``--help`` imports no command, and a command imports only what it
needs (issue 9, item 4). These are structural checks of what gets imported; the times are in the
benchmarks, not here."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from cli_helpers import CLI
from thirteen.cli import COMMANDS
from thirteen.commands.lazy import SHORT_HELP, Lazy
from thirteen.commands.solve import SOLVERS

HEAVY = ("numba", "numpy", "rich", "thirteen.bots", "thirteen.bench")
"""What no quick command should import."""

PYPROJECT = Path(__file__).parents[1] / "pyproject.toml"


def typer_as_pinned() -> bool:
    """Whether the installed Typer is one ``pyproject.toml`` allows (a virtual environment made
    before the pin may still hold Typer 0.29, which parses arguments through pydantic)."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    (pin,) = [r for r in map(Requirement, project["dependencies"]) if r.name == "typer"]
    return pin.specifier.contains(version("typer"))


def modules_after(*args: str) -> set[str]:
    """The modules a fresh interpreter has imported after running ``thirteen ARGS``."""
    program = (
        "import json, sys\n"
        "from thirteen.cli import main\n"
        f"sys.argv = ['thirteen', *{list(args)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write('\\n' + json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stderr.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


def test_help_imports_no_command_and_no_engine() -> None:
    modules = modules_after("--help")
    assert "thirteen.cli" in modules
    assert not heavy(modules)
    assert not [m for m in modules if m.startswith(("thirteen.engine", "pydantic"))]
    assert [m for m in modules if m.startswith("thirteen.commands.")] == ["thirteen.commands.lazy"]


@pytest.mark.parametrize(
    "args",
    [["eval", "As", "Ks", "Qs"], ["rules"], ["rules", "ofc"], ["score", "--help"]],
)
def test_quick_commands_import_no_compiled_kernels(args: list[str]) -> None:
    modules = modules_after(*args)
    assert not heavy(modules)
    command = args[0] if args[0] != "eval" else "evaluate"
    others = {f"thirteen.commands.{name}" for name in ("solve", "duel", "demo", "simulate")}
    assert f"thirteen.commands.{command}" in modules
    assert not modules & others


@pytest.mark.skipif(
    not typer_as_pinned(), reason=f"typer {version('typer')} is not the pinned one: reinstall"
)
@pytest.mark.parametrize("args", [["eval", "As", "Ks", "Qs"], ["rules"], ["score", "--help"]])
def test_quick_commands_import_no_pydantic(args: list[str]) -> None:
    """Parsing arguments costs no pydantic (with Typer 0.29's, eval and rules took 3× the time
    of import typer; without, 1.7×: benchmarks/README.md, cli-start)."""
    assert not [m for m in modules_after(*args) if m.startswith(("pydantic", "annotated_types"))]


def test_solve_help_imports_no_solver() -> None:
    modules = modules_after("solve", "--help")
    assert "thirteen.commands.solve" in modules
    assert not heavy(modules)
    assert not [m for m in modules if m.startswith("thirteen.commands.solve_")]


def test_help_lists_every_command_whole(cli: CLI) -> None:
    r = cli(["--help"])
    assert r.code == 0
    for name, entry in COMMANDS.items():
        assert f"{name}  " in r.out
        assert entry.help in r.out  # never cut short
    solve = cli(["solve", "--help"])
    for name, entry in SOLVERS.items():
        assert f"{name}  " in solve.out
        assert entry.help in solve.out


@pytest.mark.parametrize(
    ("table", "name"),
    [*((COMMANDS, name) for name in COMMANDS), *((SOLVERS, name) for name in SOLVERS)],
)
def test_each_command_loads_and_keeps_its_options(
    cli: CLI, table: dict[str, Lazy], name: str
) -> None:
    entry = table[name]
    assert len(entry.help) <= SHORT_HELP
    command = entry.load(name)
    assert command.name == name
    args = [name, "--help"] if table is COMMANDS else ["solve", name, "--help"]
    r = cli(args)
    assert r.code == 0, r.err
    assert f"thirteen {' '.join(args[:-1])}" in r.out
    for param in command.params:
        for option in param.opts:
            if option.startswith("--"):
                assert option in r.out


def test_sub_command_help_shows_its_options(cli: CLI) -> None:
    r = cli(["solve", "ofc", "--help"])
    assert "--budget" in r.out
    assert "Most seconds of sampling" in r.out


@pytest.mark.parametrize("suite", ["room", "chaos"])
def test_a_bench_without_its_extra_names_the_extra(suite: str) -> None:
    """Installed without the ``bench`` extra (no httpx), ``thirteen bench room`` says what to
    install and exits 2 instead of dying with a ModuleNotFoundError traceback."""
    program = (
        "import sys\n"
        "sys.modules['httpx'] = None  # as if it were not installed\n"
        "from thirteen.cli import main\n"
        f"sys.argv = ['thirteen', 'bench', {suite!r}, '--quick']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert "pip install 'thirteen[bench]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_dev_extra_holds_the_bench_extra() -> None:
    """``make`` installs ``.[dev]``; the benchmarks it runs need the ``bench`` extra."""
    extras = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    dev = [Requirement(r) for r in extras["optional-dependencies"]["dev"]]
    assert any(r.name == "thirteen" and "bench" in r.extras for r in dev)
    bench = {Requirement(r).name for r in extras["optional-dependencies"]["bench"]}
    assert "httpx" in bench
