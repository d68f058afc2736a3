"""docs/explanation/glossary.md: each word one meaning in the arena's names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def public_names(path: Path) -> set[str]:
    """The names a module defines that do not start with an underscore: classes, functions,
    module-level assignments, and their methods and fields."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {name for name in names if not name.startswith("_")}


def words(name: str) -> set[str]:
    """The words of a snake_case or CamelCase name, lower case."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return {word.lower() for word in spaced.split("_") if word}


def test_the_glossary_is_in_the_site() -> None:
    assert "explanation/glossary.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_openings_are_never_a_book() -> None:
    # A book is the solver's; the openings modules name only their earlier name so.
    names = public_names(ROOT / "arena/runs/planning/openings.py")
    booked = {name for name in names if "book" in words(name)} - {"OpeningBook"}
    assert not booked, booked
    assert "OpeningSet" in names
