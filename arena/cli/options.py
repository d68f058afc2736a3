"""Options shared by several commands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from arena.board import Rules


def board_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --rows, --cols and --connect; the command receives them as ``rules``."""

    @functools.wraps(command)
    def with_rules(*args: Any, rows: int, cols: int, connect: int, **kwargs: Any) -> Any:
        return command(*args, rules=Rules(rows=rows, cols=cols, connect=connect), **kwargs)

    options = [
        click.option("--rows", type=int, default=6, show_default=True, help="Board rows."),
        click.option("--cols", type=int, default=7, show_default=True,
                     help="Board columns (at most 9; columns x (rows + 1) <= 64)."),
        click.option("--connect", type=int, default=4, show_default=True,
                     help="Discs in a row that win (3 to max(rows, cols))."),
    ]
    decorated: Callable[..., Any] = with_rules
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


def write_run_report(directory: Path) -> None:
    """Write the charts and report.md of a finished run and say where they are."""
    from arena.report import write_report  # matplotlib and pandas load only when needed

    click.echo(f"Report      {write_report(directory)}")
