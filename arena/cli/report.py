"""`arena report`: charts and a report page for a run directory."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.options import chart_options
from arena.runs.request import ChartOptions

__all__ = ["report_command"]


@click.command("report")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@chart_options
def report_command(directory: Path, charts: ChartOptions) -> None:
    """Write the charts and report.md for the run in DIR (a directory holding games.csv).

    Charts are PNG by default; --format svg,pdf writes vector charts for a paper (text kept
    as text), linked from the page.

    \b
    Examples:
      arena report results/negamax-depths
      arena report results/negamax-depths --format png,svg,pdf --dpi 300
    """
    from arena.report.run_page import write_report  # matplotlib and pandas load only when needed

    click.echo(write_report(directory, charts))
