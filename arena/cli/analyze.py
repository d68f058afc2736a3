"""``arena analyze``: the moves of a run's games graded by the exact solver."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from arena.cli.options import FROM_PLY_HELP, solver_options
from arena.runs.playing.progress import progress_bar
from arena.system.processes import worker_count


@click.command("analyze")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--from-ply", type=click.IntRange(min=0), default=None, metavar="K",
              help="Grade the moves played with K or more discs on the board. Default: "
                   f"{FROM_PLY_HELP}; a run analysed before: as then.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that solve positions (default: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@solver_options()
def analyze_command(directory: Path, from_ply: int | None, jobs: int | None,
                    quiet: bool) -> None:
    """Find, in each game of the run in DIRECTORY, the first move that changed its result.

    Every move the agents played from ply K on (not the moves of an opening; by default
    every move on 6 x 7, from ply 12 on other boards) is graded by the exact solver: the
    theoretical result (what perfect play from there gives agent A: win, draw or loss)
    before and after it. A move that changes it is a blunder of the side that played it.
    analysis.csv (one row a game: its first blunder, ply, agent, from what to what, and
    blunder counts) and blunders.csv (one row a blunder) are written beside games.csv, game
    by game: run the command again to resume. `arena report DIRECTORY` then shows blunders
    per agent and per phase.

    \b
    Examples:
      arena analyze results/matches/RUN
      arena analyze results/matches/RUN --from-ply 8 --jobs 2
      arena analyze results/matches/RUN-5x6 --from-ply 0
    """

    from arena.analysis.annotate import (
        analyse_run,
        load_analysis,
        pending_games,
    )
    from arena.report.blunders import ALL, blunder_rates
    from arena.runs.store.files import RunFiles
    from arena.runs.store.meta import load_meta

    todo, total, from_ply = pending_games(directory, from_ply)
    with progress_bar(total, "analysing", not quiet, unit="game",
                      initial=total - len(todo)) as advance:
        analyse_run(directory, from_ply, todo, worker_count(jobs), advance)
    tables = load_analysis(directory)
    assert tables is not None
    analysis, blunders = tables
    meta = load_meta(directory)
    rules, names = meta.rules, meta.names()
    rates = blunder_rates(analysis, blunders, rules.rows * rules.cols)
    first = analysis["first_blunder_agent"].value_counts()
    click.echo(f"Games       {len(analysis)} analysed ({len(todo)} now), moves from ply "
               f"{from_ply} on")
    for row in rates[rates["phase"] == ALL].to_dict("records"):
        click.echo(f"{names.get(row['agent'], row['agent'])}: {row['blunders']} blunders in "
                   f"{row['moves']} moves ({row['rate']:.1%} [{row['low']:.1%}, "
                   f"{row['high']:.1%}]), the first blunder of {first.get(row['agent'], 0)} "
                   "games")
    click.echo(f"Output      {RunFiles(directory).analysis}")
    click.echo(f"Report      arena report {shlex.quote(str(directory))} adds the blunders per "
               "agent and per phase to report.md")
