"""The ``arena`` command as tests run it: in this process through click's CliRunner, or in a
child Python that imports this checkout, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner, Result

from arena.cli import main
from tests.helpers.paths import ROOT
from tests.helpers.runs import snapshot

ARENA = "from arena.cli import main; main()"
"""Runs ``arena`` in a child Python: ``python -c ARENA ARGS...``."""


def invoke(*args: str, command: click.Command = main, input: str | None = None) -> Result:
    """``arena ARGS...`` run in this process (``command`` in place of the whole ``arena``
    group to try a group of fewer commands, or one command alone); ``input`` is its stdin."""
    return CliRunner().invoke(command, list(args), input=input)


def arena(*args: str, command: click.Command = main, input: str | None = None) -> tuple[int, str]:
    """The exit status and the output (stdout and stderr) of ``arena ARGS...``."""
    result = invoke(*args, command=command, input=input)
    return result.exit_code, result.output


def refused_and_untouched(directory: Path, *args: str) -> str:
    """The one line of ``arena ARGS...``, which must refuse with status 2 (nothing else
    printed) and leave ``directory`` exactly as it was: no file or folder added, removed or
    changed."""
    before = snapshot(directory)
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == "", result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: "), \
        result.output
    assert snapshot(directory) == before
    return result.stderr


def arena_command(*args: str) -> list[str]:
    """The command line of ``arena ARGS...`` in a child Python (run it with ``checkout_env()``)."""
    return [sys.executable, "-c", ARENA, *args]


def checkout_env() -> dict[str, str]:
    """This process's environment with PYTHONPATH set to the checkout, so that a child Python
    imports the arena under test."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


LOADED = """
import atexit, sys
from arena.cli import main
watched = sys.argv.pop(1).split(",")
atexit.register(lambda: print("loaded:", sorted(m for m in watched if m in sys.modules),
                              file=sys.stderr))
main()
"""
"""``arena ARGS...`` in a child Python that says, last, which of some modules it loaded."""


def arena_loading(watched: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS...`` in a child Python of this checkout (it must succeed); its stderr ends
    with ``loaded: [...]``, the modules of ``watched`` it imported, sorted."""
    return subprocess.run([sys.executable, "-c", LOADED, ",".join(watched), *args],
                          env=checkout_env(), capture_output=True, text=True, check=True)
