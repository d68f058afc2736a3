"""``arena run``: run an experiment file, entry after entry, resumable."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from arena.cli.options import DPI_HELP, FORMAT_HELP, command_line, parse_formats_option
from arena.cli.printed import LABEL_WIDTH, format_ratings
from arena.cli.progress import with_progress
from arena.competitions.experiments import (
    REPORT,
    Entry,
    EntryPlayer,
    TournamentEntry,
    load_experiment,
    run_experiment,
)
from arena.competitions.round_tables import run_names
from arena.report.experiment_page import write_experiment_report
from arena.report.run_page import write_report
from arena.runs.planning.charts import ChartOptions
from arena.runs.playing.progress import ProgressBar, TournamentProgressBar
from arena.runs.playing.runner import Progress
from arena.runs.store.summary import PairingSummary, seeds_lines

__all__ = ["run_command"]


def _with_bar(root: Path, quiet: bool) -> EntryPlayer:
    """Runs each entry with a progress bar and the CLI's handling of interruptions."""
    def play(entry: Entry, run: Callable[[Progress | None], list[PairingSummary]]
             ) -> list[PairingSummary]:
        total = entry.planned_games(root)
        if not quiet:
            at_most = " at most" if entry.kind == "sprt" else ""
            click.echo(f"{entry.label}: {total} games{at_most} in {root / entry.name}",
                       err=True)
        bar = TournamentProgressBar if isinstance(entry, TournamentEntry) else ProgressBar
        return with_progress(total, root / entry.name, quiet, run, bar)

    return play


def format_entry(entry: Entry, summaries: list[PairingSummary], root: Path) -> str:
    """What is printed after an entry: its pairings' results (for a tournament, its ratings
    instead), its notes and the conditions it was played under, indented under its
    label."""
    ratings = entry.ratings(root) if isinstance(entry, TournamentEntry) else None
    specs = [spec for s in summaries for spec in (s.agent_a, s.agent_b)]
    labels = run_names(root / entry.name, specs if ratings is None else ratings["agent"])
    if ratings is None:
        lines = seeds_lines(summaries, labels)
    else:
        games = sum(s.games for s in summaries)
        lines = [f"{len(summaries)} pairings, {games} games; ratings (Elo):",
                 *format_ratings(ratings, labels).splitlines()]
    lines += entry.notes(root)
    conditions = entry.conditions(root)
    if conditions:
        lines.append(f"{'Conditions':<{LABEL_WIDTH}}{conditions}")
    return "\n".join([f"{entry.label}:", *(f"  {line}" for line in lines)])


def _charts(own: ChartOptions, formats: tuple[str, ...] | None, dpi: int | None
            ) -> ChartOptions:
    """The file's chart options with those of the command line over them."""
    return ChartOptions(formats or own.formats, dpi or own.dpi)


@click.command("run")
@click.argument("experiment_file", metavar="FILE", type=click.Path(path_type=Path))
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results directory (default: results/NAME for the file NAME.toml); "
                   "each entry gets a directory in it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars; only the results.")
@click.option("--no-report", is_flag=True,
              help="Do not write the charts, the entries' report.md and the experiment's page.")
@click.option("--format", "formats", default=None, metavar="FORMATS",
              help=FORMAT_HELP + " Overrides the file's formats.  [default: the file's, else png]")
@click.option("--dpi", type=click.IntRange(min=10, max=1200), default=None,
              help=DPI_HELP + " Overrides the file's dpi.  [default: the file's, else 120]")
def run_command(experiment_file: Path, jobs: int | None, out: Path | None, quiet: bool,
                no_report: bool, formats: str | None, dpi: int | None) -> None:
    """Run the matches, tournaments and SPRTs of the experiment file FILE (TOML).

    The whole file is checked before any game is played. Results go to results/NAME/ (NAME
    is the file's name without .toml), one run directory per entry, and results/NAME/report.md
    lists them all and compares results with their published references. Running the same
    file again resumes it; finished entries are not played again.

    \b
    Example:
      arena run my-experiment.toml
    """
    experiment = load_experiment(experiment_file)
    chosen = parse_formats_option(formats) if formats is not None else None
    root = out or experiment.default_root()
    command = command_line()
    for done in run_experiment(experiment, root, jobs=jobs, command=command,
                               play=_with_bar(root, quiet)):
        if not no_report:
            write_report(root / done.entry.name,
                         _charts(done.entry.request.charts(), chosen, dpi))
        click.echo(format_entry(done.entry, done.summaries, root))
    if not no_report:
        write_experiment_report(experiment, root, command,
                                _charts(experiment.charts, chosen, dpi))
        click.echo(f"{'Report':<{LABEL_WIDTH}}{root / REPORT}")
