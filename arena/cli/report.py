"""`arena report`: charts and report pages for a run directory, or several runs compared."""

from __future__ import annotations

from pathlib import Path

import click

from arena.rules.errors import MalformedInputError
from arena.runs.files import RunFiles

__all__ = ["report_command"]


@click.command("report")
@click.argument("directories", metavar="DIR...", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--compare", is_flag=True,
              help="Put the runs in DIR... side by side in one table and one chart (they "
                   "must share a board); printed, and written to --out when given.")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --compare: the directory for the comparison's report.md, "
                   "report.html and compare.png (not a run directory).")
def report_command(directories: tuple[Path, ...], compare: bool, out: Path | None) -> None:
    """Write the charts, report.md and report.html (with report-games.html, the replay page
    of the games it links) for the run in DIR (a directory holding games.csv).

    With --compare, read several runs (e.g. variants of a heuristic played on different
    days) and print one table of their pairings: A's score with its 95% interval, Elo,
    games, each run's name and date; runs on different boards are refused.

    \b
    Examples:
      arena report results/negamax-depths
      arena report --compare results/h-v1 results/h-v2 results/h-v3 --out results/h-compare
    """
    if not compare:
        if len(directories) > 1:
            raise MalformedInputError(f"{len(directories)} directories given: report one run "
                                      "DIR, or compare runs with --compare DIR DIR ...")
        if out is not None:
            raise MalformedInputError("--out goes with --compare (a run's report is written "
                                      "into its own directory)")
        from arena.report.run_page import write_report  # matplotlib and pandas load when needed

        click.echo(write_report(directories[0]))
        return
    from arena.report.compare import compare as compare_runs

    comparison = compare_runs(*directories, out=out)  # written first: a bad --out prints nothing
    click.echo(comparison.text())
    if out is not None:
        click.echo(f"Report      {RunFiles(out).report}")
