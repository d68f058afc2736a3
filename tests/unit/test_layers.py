"""The layout docs/architecture.md describes, held against the code's imports: layers that
import only the layers below them, no cycles, nothing of ``agents`` imported by ``arena``,
and imports inside functions only where they put off loading the compiled core, matplotlib or
pygame."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.paths import ROOT

LAYERS = ("rules", "system", "stats", "search", "protocol", "hosting", "kaggle", "runs", "envs",
          "competitions", "analysis", "report", "play", "api", "cli")
"""arena's layers, bottom to top (docs/architecture.md)."""

ROOMS = {"runs": ("planning", "store", "playing")}
"""The rooms of a layer, bottom to top (docs/architecture.md): a room imports only the rooms
below it; the layer's own modules (the old names of moved modules) stand above them all."""

DEFERRED = {"arena.search.solver", "arena.search.kernels.endings", "arena.search.kernels.games",
            "arena.search.kernels.row_text", "arena.report.run_page", "arena.report.chart_kinds",
            "arena.play.gui.controller", "arena.play.thinker", "arena.play.gui.window"}
"""The only modules of the arena imported inside functions outside the commands: the solver's,
the replay's and the fused game loop's kernels (the compiled core's games and their rows'
text), matplotlib's report and its charts (for ``plot``), pygame's window."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / "arena").rglob("*.py"))}


def imports(path: Path) -> Iterator[tuple[str, bool]]:
    """Every module ``path`` imports, and whether the import is inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested = {id(node) for function in ast.walk(tree)
              if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
              for node in ast.walk(function)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            yield name, id(node) in nested


def layer(module: str) -> str:
    return module.split(".")[1]


OLD_NAMES = {"arena.runs.rows"}
"""Modules kept under an earlier name beside the rooms, for the names the room's module lacks
(``load_games``); the other earlier names are ``arena.MOVED``'s, with no file."""


def room(module: str) -> int:
    """Where ``module`` stands among its layer's rooms: their index, or above them all."""
    parts = module.split(".")
    rooms = ROOMS.get(parts[1], ()) if len(parts) > 1 else ()
    return rooms.index(parts[2]) if len(parts) > 2 and parts[2] in rooms else len(rooms)


def arena_imports() -> dict[str, set[tuple[str, bool]]]:
    """For each module, the arena modules it imports (resolved to a module that exists)."""
    known = modules()
    found: dict[str, set[tuple[str, bool]]] = {}
    for name, path in known.items():
        found[name] = set()
        for target, inside in imports(path):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("arena."):
                found[name].add((target, inside))
    return found


def test_at_most_16_names_atop_arena() -> None:
    names = [path.name for path in (ROOT / "arena").iterdir()
             if path.name != "__pycache__" and (path.suffix == ".py" or path.is_dir())]
    assert len(names) <= 16, names
    assert {path.removesuffix(".py") for path in names} - {"__init__"} == set(LAYERS)


def test_arena_never_imports_agents() -> None:
    offenders = [(name, target) for name, path in modules().items()
                 for target, _ in imports(path)
                 if target.split(".")[0] in ("agents", "connect_four_agents")]
    assert offenders == []


def test_imports_point_down_the_layers() -> None:
    upward = [(name, target) for name, targets in arena_imports().items() if name != "arena"
              for target, _ in targets if target != "arena"
              and LAYERS.index(layer(target)) > LAYERS.index(layer(name))]
    assert upward == []


def test_imports_point_down_the_rooms_of_a_layer() -> None:
    upward = [(name, target) for name, targets in arena_imports().items() if name != "arena"
              for target, _ in targets if target != "arena"
              and layer(target) == layer(name) and room(target) > room(name)]
    assert upward == []


def test_every_module_of_a_layer_with_rooms_is_in_a_room() -> None:
    loose = {name for name in modules() if name.count(".") >= 2 and layer(name) in ROOMS
             and room(name) == len(ROOMS[layer(name)])}
    assert loose == OLD_NAMES


def test_no_import_cycles() -> None:
    graph = {name: {target for target, _ in targets
                    if not target.startswith(name + ".") and not name.startswith(target + ".")}
             for name, targets in arena_imports().items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for target in graph.get(node, ()):
            if state.get(target) == 1:
                return [*trail, node, target]
            if target not in state:
                cycle = visit(target, [*trail, node])
                if cycle:
                    return cycle
        state[node] = 2
        return None

    for start in graph:
        if start not in state:
            assert visit(start, []) is None


def test_imports_inside_functions_only_defer_costly_modules() -> None:
    deferred = {(name, target) for name, targets in arena_imports().items()
                if name != "arena" and layer(name) != "cli"
                for target, inside in targets if inside}
    assert {target for _, target in deferred} <= DEFERRED, deferred
