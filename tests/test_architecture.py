"""Imports point down only, with no circles, and the engine stays pure (no I/O, clock, global
random or asyncio); within the room, each part imports only what its docstring allows.

Every import counts, at module level or inside a function: a lazy import still makes one module
depend on another, and the circle it hides is one a reader has to keep in their head.
"""

from __future__ import annotations

import ast
import re
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
    "review": {"engine", "bots"},  # hand review (issue 34): above the solvers it consults
    "bench": {"engine", "bots", "client", "server"},  # chaos audits the room's database
    "client": {"engine"},
    "server": {"engine", "bots", "review"},
    "commands": {"engine", "bots", "review", "bench", "client", "server"},
    "cli": {"engine", "bots", "review", "bench", "client", "server", "commands"},
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


SERVER = "thirteen.server"
MAY_IMPORT = re.compile(r"^May import: (.+?)\.$", re.MULTILINE)


def server_part(module: str) -> str:
    """The part of the room a module belongs to: its package (``tables``) or, directly in
    ``server/``, the module itself (``room``); ``""`` for ``thirteen.server`` itself."""
    return module.removeprefix(SERVER + ".").split(".")[0] if module != SERVER else ""


def allowed_parts(docstring: str) -> set[str]:
    """The parts a "May import: a, b, c." line allows ("nothing of the room": none)."""
    found = MAY_IMPORT.findall(docstring)
    assert len(found) == 1, f"one 'May import: ….' line, not {len(found)}"
    said = found[0].strip()
    return set() if said == "nothing of the room" else {p.strip() for p in said.split(",")}


def part_docstring(part: str) -> str:
    base = PACKAGE / "server"
    path = base / part / "__init__.py" if (base / part).is_dir() else base / f"{part}.py"
    if not part:
        path = base / "__init__.py"
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


SERVER_PARTS = sorted({server_part(m) for m in MODULES if m.startswith(SERVER)})


def test_the_parser_reads_what_a_part_may_import() -> None:
    assert allowed_parts("Holds x.\n\nMay import: settings, db.\n") == {"settings", "db"}
    assert allowed_parts("May import: nothing of the room.") == set()
    with pytest.raises(AssertionError):
        allowed_parts("Holds x, and says nothing of its imports.")
    assert server_part("thirteen.server.tables.owner") == "tables"
    assert server_part("thirteen.server.room") == "room"


def test_the_room_is_a_house_of_few_rooms() -> None:
    """By concept: a handful of packages, and at most eight modules directly in ``server/``."""
    top = [p for p in (PACKAGE / "server").glob("*.py") if p.name != "__init__.py"]
    assert len(top) <= 8, sorted(p.name for p in top)
    assert {"db", "money", "tables", "competitions", "http"} <= set(SERVER_PARTS)


@pytest.mark.parametrize("part", SERVER_PARTS)
def test_each_part_of_the_room_imports_only_what_its_docstring_allows(part: str) -> None:
    allowed = allowed_parts(part_docstring(part))
    unknown = allowed - set(SERVER_PARTS)
    assert not unknown, f"{part}'s docstring names parts that do not exist: {unknown}"
    beyond = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name.startswith(SERVER) and server_part(name) == part
        for target in targets
        if target.startswith(SERVER + ".") and server_part(target) not in allowed | {part}
    ]
    assert not beyond, beyond


CLASS_LINES, MODULE_LINES, BROWSER_MODULE_LINES = 300, 800, 600
"""No class over 300 lines, no module over 800, no browser module over 600: a piece a reader
can hold, and an owner composes pieces rather than growing (issue 30)."""


def test_no_class_or_module_outgrows_a_reader() -> None:
    too_big = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) > MODULE_LINES:
            too_big.append(f"{path.relative_to(PACKAGE)}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > CLASS_LINES:
                    too_big.append(f"{path.relative_to(PACKAGE)}: class {node.name}, {lines} lines")
    for path in sorted((PACKAGE / "web").rglob("*.js")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > BROWSER_MODULE_LINES:
            too_big.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
    assert not too_big, too_big
