"""Imports point down only, with no circles, and the engine stays pure (no I/O, clock, global
random or asyncio).

Every import counts, at module level or inside a function: a lazy import still makes one module
depend on another, and the circle it hides is one a reader has to keep in their head.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
LAYERS: dict[str, set[str]] = {
    "engine": set(),
    "bots": {"engine"},
    "bench": {"engine", "bots", "client", "server"},  # chaos audits the room's database
    "client": {"engine"},
    "server": {"engine", "bots"},
    "commands": {"engine", "bots", "bench", "client", "server"},
    "cli": {"engine", "bots", "bench", "client", "server", "commands"},
    "__main__": {"cli"},
}
"""What each layer (a subpackage or top-level module of ``thirteen``) may import besides itself."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path) -> set[str]:
    """Every ``thirteen`` module (and other top-level names) ``path`` imports, anywhere in it.

    ``from package import name`` counts as importing the submodule when ``name`` is one, and the
    package itself otherwise.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                names.add(sub if sub in MODULES else node.module)
    return names


def layer_of(module: str) -> str:
    return module.split(".")[1] if "." in module else ""


GRAPH = {
    name: {m for m in imports_of(path) if m in MODULES and m != name}
    for name, path in MODULES.items()
}


def test_the_walk_sees_every_module() -> None:
    assert "thirteen.engine.table" in GRAPH
    assert "thirteen.engine.autoplay" in GRAPH["thirteen.engine.table"]
    assert layer_of("thirteen.engine.table") == "engine"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_only_downwards(layer: str) -> None:
    allowed = LAYERS[layer] | {layer}
    upward = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if layer_of(name) == layer
        for target in targets
        if layer_of(target) and layer_of(target) not in allowed
    ]
    assert not upward, upward


def test_every_layer_is_known() -> None:
    unknown = {layer_of(name) for name in MODULES} - set(LAYERS) - {""}
    assert not unknown, f"add these to LAYERS with what they may import: {unknown}"


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in ``graph``, as the list of modules around it, or ``None``."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
                continue
            nxt = todo.pop()
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                stack.append((nxt, sorted(graph[nxt])))
                path.append(nxt)
                on_path.add(nxt)
    return None


def test_the_circle_finder_finds_circles() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_circles() -> None:
    circle = find_circle(GRAPH)
    assert circle is None, " -> ".join(circle or [])


def test_engine_is_pure() -> None:
    for path in (PACKAGE / "engine").rglob("*.py"):
        for name in imports_of(path):
            assert name.split(".")[0] not in FORBIDDEN_IN_ENGINE, f"{path.name} imports {name}"
