"""docs/architecture.md held against the code: every module of arena/ named in its layer
table, every name there a module, imports only up that table (to a module of the same row or
of a row above), and the imports that wait inside functions exactly those its table lists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

DOC = ROOT / "docs" / "architecture.md"


def table(text: str, heading: str) -> list[list[str]]:
    """The rows of the first Markdown table after ``heading`` (its cells, header and rule
    left out)."""
    after = text[text.index(heading):]
    lines = [line for line in after.splitlines() if line.startswith("|")]
    start = after.splitlines().index(lines[0])
    rows = []
    for line in after.splitlines()[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]


def quoted(cell: str) -> list[str]:
    """The names a cell quotes in backticks, in order."""
    return re.findall(r"`([^`]+)`", cell)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def arena_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / "arena").rglob("*.py"))}


def layer_rows(text: str) -> list[tuple[str, list[str]]]:
    """The layer table's rows, bottom to top: each row's place (``rules/``,
    ``runs/planning/``, ``api.py``) and the names its modules column quotes."""
    rows = table(text, "## The layers")
    return [(place, quoted(row[2])) for row in rows for place in quoted(row[0])]


def documented_modules(text: str) -> dict[str, int]:
    """Each module the layer table names (dotted), with the index of its row (bottom 0)."""
    found: dict[str, int] = {}
    for index, (place, names) in enumerate(layer_rows(text)):
        if place.endswith(".py"):  # a module of its own at the top of arena/
            stem = place.removesuffix(".py")
            found["arena" if stem == "__init__" else f"arena.{stem}"] = index
            continue
        package = "arena." + place.strip("/").replace("/", ".")
        found[package] = index  # the folder's __init__
        for name in names:
            dotted = f"{package}.{name.removesuffix('/*').replace('/', '.')}"
            if name.endswith("/*"):  # a folder of modules: all of them
                for module in arena_modules():
                    if module == dotted or module.startswith(dotted + "."):
                        found[module] = index
            else:
                found[dotted] = index
    return found


def imports(path: Path) -> list[tuple[str, bool]]:
    """Every module ``path`` imports (absolute imports), and whether inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested = {id(node) for function in ast.walk(tree)
              if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
              for node in ast.walk(function)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]  # resolved later
        else:
            continue
        found.extend((name, id(node) in nested) for name in names)
    return found


def resolved(name: str, known: dict[str, Path]) -> str | None:
    """The arena module ``name`` is or is in (``from m import f`` names ``m.f``), or None."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_module_of_arena_is_in_the_layer_table(doc: str) -> None:
    missing = sorted(set(arena_modules()) - set(documented_modules(doc)))
    assert missing == [], f"docs/architecture.md's layer table lacks {missing}"


def test_every_module_the_layer_table_names_exists(doc: str) -> None:
    stale = sorted(set(documented_modules(doc)) - set(arena_modules()))
    assert stale == [], f"docs/architecture.md's layer table names no module: {stale}"


def test_imports_point_up_the_layer_table_only(doc: str) -> None:
    """A module imports modules of its own row or of the rows above it in the table (the
    layers below), inside functions as at the top of a file."""
    rows = documented_modules(doc)
    known = arena_modules()
    upward = sorted(
        (name, target) for name, path in known.items() for imported, _ in imports(path)
        if (target := resolved(imported, known)) in rows and name in rows  # the rest: above
        and "arena" not in (name, target) and rows[target] > rows[name])
    assert upward == []


def test_the_imports_that_wait_are_those_the_doc_lists(doc: str) -> None:
    """Outside ``cli/`` (whose commands import what they run when they run it), an import
    waits inside a function only where the table of deferred imports says: every such
    import listed, and every listed one there."""
    known = arena_modules()
    listed = {(what, by) for row in table(doc, "## Imports that wait")
              for what in quoted(row[0]) for by in quoted(row[1])}
    waiting = set()
    for name, path in known.items():
        if name.startswith("arena.cli"):
            continue
        for imported, inside in imports(path):
            if inside:
                target = resolved(imported, known)
                waiting.add((target if target is not None else imported.split(".")[0], name))
    assert sorted(waiting - listed) == [], "imports inside functions the doc does not list"
    assert sorted(listed - waiting) == [], "listed imports that do not wait (or do not exist)"
