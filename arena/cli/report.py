"""`arena report`: charts and report pages for a run directory, or several runs compared."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.options import chart_options, report_run, warn_damaged_transcripts, which_names
from arena.rules.errors import MalformedInputError
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.files import RunFiles

__all__ = ["report_command"]


@click.command("report")
@click.argument("directories", metavar="DIR...", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--compare", is_flag=True,
              help="Put the runs in DIR... side by side in one table and one chart (they "
                   "must share a board); printed, and written to --out when given.")
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --compare: the directory for the comparison's report.md, "
                   "report.html and its chart (not a run directory).")
@click.option("--label", "labels", multiple=True, metavar="WHICH=NAME",
              help="With --compare: a name for a run in the tables, the verdict and the chart "
                   "(default: its directory's name): WHICH is A or 1 for the first DIR, B or 2 "
                   "for the second, and so on, e.g. --label 1=v1 --label 2='v2, no bug'.")
@chart_options
def report_command(directories: tuple[Path, ...], compare: bool, out: Path | None,
                   labels: tuple[str, ...], charts: ChartOptions) -> None:
    """Write the charts, report.md and report.html of the run in DIR, or compare runs.

    DIR is a directory holding games.csv. A report that is current (nothing it shows and
    none of its options changed since it was written, nor any of its files) is left as it is.
    report.html is the same page in one self-contained file (charts inline as SVG, tables
    sorted by a click, the notable games linked to report-games.html, their replay page).
    Charts are PNG by default; --format svg,pdf writes vector charts for a paper (text kept
    as text), linked from the page.

    With --compare, read several runs (e.g. variants of a heuristic played on different
    days) and print one table of their pairings: A's score with its 95% interval, Elo,
    games, each run's name and date; then how much each later run's A scores more (score and
    Elo, with 95% intervals) than the first run's in the same pairing (or against the same
    B when each run has one agent A), and a one-line verdict. Runs on different boards are
    refused.

    \b
    Examples:
      arena report results/negamax-depths
      arena report results/negamax-depths --format png,svg,pdf --dpi 300
      arena report --compare results/h-v1 results/h-v2 results/h-v3 --out results/h-compare
      arena report --compare results/h-v1 results/h-v2 --label 1=v1 --label 2=v2
    """
    if not compare:
        if len(directories) > 1:
            raise MalformedInputError(f"{len(directories)} directories given: report one run "
                                      "DIR, or compare runs with --compare DIR DIR ...")
        if out is not None:
            raise MalformedInputError("--out goes with --compare (a run's report is written "
                                      "into its own directory)")
        if labels:
            raise MalformedInputError("--label goes with --compare (it names compared runs; "
                                      "a run's agents are named by the command that plays it)")
        click.echo(report_run(directories[0], charts))
        warn_damaged_transcripts(directories[0])
        return
    from arena.report.compare import compare as compare_runs

    names = which_names(labels, [str(directory) for directory in directories], "runs")
    comparison = compare_runs(*directories, out=out, charts=charts,  # a bad --out prints nothing
                              labels=names)
    click.echo(comparison.text())
    if out is not None:
        click.echo(f"Report      {RunFiles(out).report}")
