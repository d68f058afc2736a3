"""What the arena tells a user points to what their install has: no message, help text or
agent description names a folder of the repository that a pip install lacks, and ``arena
docs`` in an install without the docs names what documents it there."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from arena.cli import COMMANDS
from arena.cli.docs import where
from arena.competitions.ladder.anchors import shipped_anchors
from arena.hosting.engines.line_protocol import PROTOCOL
from arena.protocol.registry import spec_kinds
from tests.helpers.cli import arena

REPOSITORY_ONLY = ("docs/", "examples/", "experiments/", "benchmarks/", "tools/", "tests/")
"""Folders of the repository that a pip install does not have."""


def repository_paths() -> tuple[str, ...]:
    """The repository-only folders and the committed reference runs the anchors come from."""
    return (*REPOSITORY_ONLY, *sorted(set(shipped_anchors()["source"])))


def helps(command: click.Command, path: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """``arena PATH... --help`` of ``command`` and of every subcommand of it."""
    code, out = arena(*path, "--help")
    assert code == 0, out
    yield " ".join(path), out
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from helps(sub, (*path, name))


def shown_texts() -> Iterator[tuple[str, str]]:
    for name, lazy in COMMANDS.items():
        module, _, attribute = lazy.target.partition(":")
        yield from helps(getattr(importlib.import_module(module), attribute), (name,))
    for kind in (None, *spec_kinds()):
        code, out = arena("agents", *([kind] if kind else []))
        assert code == 0, out
        yield f"agents {kind or ''}", out


def test_no_help_or_agent_description_names_a_repository_path() -> None:
    named = [(where, path) for where, text in shown_texts()
             for path in repository_paths() if path in text.replace("\n", " ")]
    assert named == []


def test_an_install_without_the_docs_names_what_documents_it(tmp_path: Path) -> None:
    readme = tmp_path / "connect_four_arena-1.0.dist-info" / "METADATA"
    told = where(tmp_path, readme=readme)
    assert "\n" not in told and str(readme) in told
    assert all(command in told for command in (
        "arena --help", "arena COMMAND --help", "arena agents", "arena agents engine"))
    assert not any(path in told for path in repository_paths())


def test_the_engine_protocol_is_shown_by_arena_agents_engine() -> None:
    code, out = arena("agents", "engine")
    assert code == 0 and PROTOCOL in out
    commands = ("arena 1", "setoption NAME VALUE", "board ROWS COLS CONNECT", "newgame PLAYER",
                "position MOVES", "go [time S] [bank S] [depth D] [nodes N] seed K", "quit")
    answers = ("ready", "unsupported REASON", "move COLUMN", "info TEXT", "error TEXT",
               "name TEXT", "option NAME [DEFAULT]", "limits depth nodes", "reproducible no")
    assert all(line in PROTOCOL for line in (*commands, *answers))


def test_a_checkout_builds_its_docs_with_the_one_install_form(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Docs\n")
    told = where(tmp_path)
    assert f"in {tmp_path}: python3 -m pip install -e '.[docs]' && mkdocs build" in told


@pytest.mark.parametrize("command", ["dataset", "export dataset"])
def test_the_dataset_help_names_every_column(command: str) -> None:
    from arena.analysis.datasets import COLUMNS
    code, out = arena(*command.split(), "--help")
    listed = arena("dataset", "--help")[1].replace("\n", " ")
    assert code == 0 and all(re.search(rf"\b{column}\b", listed) for column in COLUMNS)
    assert "score_0" in listed and ("arena dataset --help" in out or command == "dataset")


def test_a_ladder_taking_the_shipped_anchors_says_how_to_see_them(tmp_path: Path) -> None:
    """Not the reference run's folder, which a pip install lacks: the command that lists
    them, for the ladder file given."""
    db = tmp_path / "my ladder.sqlite"
    code, out = arena("ladder", "place", "negamax:depth=1", "--rows", "5", "--cols", "6",
                      "--db", str(db), "--batch", "10", "--max-games", "10", "-j", "1",
                      "--out", str(tmp_path / "placed"), "-q")
    assert code == 0, out
    assert out.splitlines()[0] == (f"{db}: board 5x6c4 takes the anchors that come with the "
                                   f"arena (arena ladder show --db '{db}' lists them)")
    code, shown = arena("ladder", "show", "--db", str(db))
    assert code == 0 and "solver (anchor)" in shown
