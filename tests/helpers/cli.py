"""The ``arena`` command as tests run it: in this process through click's CliRunner, or in a
child Python that imports this checkout, as a user runs it."""

from __future__ import annotations

import os
import sys

import click
from click.testing import CliRunner, Result

from arena.cli import main
from tests.helpers.paths import ROOT

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


def arena_command(*args: str) -> list[str]:
    """The command line of ``arena ARGS...`` in a child Python (run it with ``checkout_env()``)."""
    return [sys.executable, "-c", ARENA, *args]


def checkout_env() -> dict[str, str]:
    """This process's environment with PYTHONPATH set to the checkout, so that a child Python
    imports the arena under test."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}
