"""`arena report`: charts and a report page for a run directory."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["report_command"]


@click.command("report")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
def report_command(directory: Path) -> None:
    """Write PNG charts and report.md for the run in DIR (a directory holding games.csv).

    \b
    Example:
      arena report results/negamax-depths
    """
    from arena.report.run_page import write_report  # matplotlib and pandas load only when needed

    click.echo(write_report(directory))
