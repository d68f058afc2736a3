"""``arena run``: run an experiment file, entry after entry, resumable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.cli.options import command_line
from arena.cli.progress import ProgressBar, with_progress
from arena.cli.tournament import (
    LABEL_WIDTH,
    TournamentProgressBar,
    format_ratings,
)
from arena.experiment import Entry, TournamentEntry, entry_lines, load_experiment
from arena.names import short_names
from arena.pool import available_cores
from arena.summary import PairingSummary

__all__ = ["run_command"]


def _play(entry: Entry, root: Path, jobs: int, quiet: bool,
          session: dict[str, Any]) -> list[PairingSummary]:
    """Play an entry's missing games with a progress bar."""
    plan = entry.plan(root)
    if not quiet:
        click.echo(f"{entry.label}: {plan.total} games{' at most' if entry.kind == 'sprt' else ''}"
                   f" in {root / entry.name}", err=True)
    bar = TournamentProgressBar if isinstance(entry, TournamentEntry) else ProgressBar
    return with_progress(plan.total, root / entry.name, quiet, lambda progress: entry.run(
        root, jobs=jobs, progress=progress, session=session), bar)


def format_entry(entry: Entry, summaries: list[PairingSummary], root: Path) -> str:
    """What is printed after an entry: its pairings' results (for a tournament, its ratings
    instead) and its notes, indented under its label."""
    ratings = entry.ratings(root) if isinstance(entry, TournamentEntry) else None
    if ratings is None:
        lines = entry_lines(summaries)
    else:
        games = sum(s.games for s in summaries)
        lines = [f"{len(summaries)} pairings, {games} games; ratings (Elo):",
                 *format_ratings(ratings, short_names(ratings["agent"])).splitlines()]
    lines += entry.notes(root)
    return "\n".join([f"{entry.label}:", *(f"  {line}" for line in lines)])


@click.command("run")
@click.argument("experiment_file", metavar="FILE", type=click.Path(path_type=Path))
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results directory (default: results/NAME for experiments/NAME.toml); "
                   "each entry gets a directory in it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars; only the results.")
@click.option("--no-report", is_flag=True,
              help="Do not write the charts, the entries' report.md and the experiment's page.")
def run_command(experiment_file: Path, jobs: int | None, out: Path | None, quiet: bool,
                no_report: bool) -> None:
    """Run the matches, tournaments and SPRTs of the experiment file FILE (TOML).

    The whole file is checked before any game is played. Results go to results/NAME/ (NAME
    is the file's name without .toml), one run directory per entry, and results/NAME/report.md
    lists them all and compares results with their published references. Running the same
    file again resumes it; finished entries are not played again.

    \b
    Example:
      arena run experiments/seed-table.toml
    """
    experiment = load_experiment(experiment_file)
    root = out or experiment.default_root()
    experiment.check_directories(root)
    workers = jobs or available_cores()
    command = command_line()
    for entry in experiment.entries:
        session = {"command": command, "experiment": str(experiment.path), "entry": entry.label}
        summaries = _play(entry, root, workers, quiet, session)
        click.echo(format_entry(entry, summaries, root))
        if not no_report:
            from arena.report import write_report  # matplotlib loads only when needed

            write_report(root / entry.name)
    if not no_report:
        from arena.experiment import write_experiment_report

        click.echo(f"{'Report':<{LABEL_WIDTH}}{write_experiment_report(experiment, root, command)}")
