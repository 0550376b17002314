"""Imports point down only, and the engine stays pure (no I/O, clock, global random or asyncio)."""

from __future__ import annotations

import ast
from pathlib import Path

import thirteen

PACKAGE = Path(thirteen.__file__).parent
FORBIDDEN_IN_ENGINE = {
    "random",
    "time",
    "datetime",
    "asyncio",
    "os",
    "socket",
    "subprocess",
    "sqlite3",
}
LAYERS = {"engine": set(), "bots": {"engine"}, "server": {"engine", "bots"}}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_layers_import_only_downwards() -> None:
    for layer, allowed in LAYERS.items():
        folder = PACKAGE / layer
        if not folder.exists():
            continue
        for path in folder.rglob("*.py"):
            for name in imports_of(path):
                if name.startswith("thirteen."):
                    target = name.split(".")[1]
                    assert target == layer or target in allowed, f"{path.name} imports {name}"


def test_engine_is_pure() -> None:
    for path in (PACKAGE / "engine").rglob("*.py"):
        for name in imports_of(path):
            assert name.split(".")[0] not in FORBIDDEN_IN_ENGINE, f"{path.name} imports {name}"
