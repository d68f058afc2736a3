"""The commands' modules stand side by side: each imports the shared modules of arena/cli
(options, printed tables, progress, exit statuses, dataset writing) and never another
command's module, so that a command can change without another's output changing with it."""

from __future__ import annotations

import ast
from pathlib import Path

from arena.cli import COMMANDS
from tests.helpers.paths import ROOT

CLI = ROOT / "arena" / "cli"

SHARED = {"__init__", "options", "printed", "positions", "progress", "status"}
"""The modules of arena/cli that are no command's: what several commands share."""


def command_modules() -> set[str]:
    """The modules of ``COMMANDS`` (their subcommands live with them)."""
    return {lazy.target.partition(":")[0].rpartition(".")[2] for lazy in COMMANDS.values()}


def cli_imports(path: Path) -> set[str]:
    """The modules of arena/cli that ``path`` imports, at the top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "arena.cli":
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("arena.cli."):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names
                      if alias.name.startswith("arena.cli.")}
    return found


def test_every_module_is_a_command_or_shared() -> None:
    modules = {path.stem for path in CLI.glob("*.py")}
    assert modules == command_modules() | SHARED
    assert not command_modules() & SHARED


def test_no_command_imports_another() -> None:
    commands = command_modules()
    crossing = {(module, other) for module in commands
                for other in cli_imports(CLI / f"{module}.py") & commands if other != module}
    assert crossing == set()


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text("from arena.cli.match import x\nimport arena.cli.sprt\n"
                      "from arena.cli import stats\n"
                      "def f():\n    from arena.cli.tournament import y\n")
    assert cli_imports(source) == {"match", "sprt", "stats", "tournament"}
