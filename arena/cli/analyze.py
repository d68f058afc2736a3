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
@click.option("--best-moves", is_flag=True,
              help="Solve the positions strongly (their exact scores, not only win, draw "
                   "or loss) and write moves.csv: each move's score, the best score and "
                   "whether it is a best move. Costs about 1.6 times the plain analysis "
                   "(6 x 7: 100 games of 17 moves in about 3 s of one core). Default: as the "
                   "run's analysis so far, else off.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that solve positions (default: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@solver_options()
def analyze_command(directory: Path, from_ply: int | None, best_moves: bool,
                    jobs: int | None, quiet: bool) -> None:
    """Find, in each game of the run in DIRECTORY, the first move that changed its result.

    Every move the agents played from ply K on (not the moves of an opening; by default
    every move on 6 x 7, from ply 12 on other boards) is graded by the exact solver: the
    theoretical result (what perfect play from there gives agent A: win, draw or loss)
    before and after it. A move that changes it is a blunder of the side that played it.
    analysis.csv (one row a game: its first blunder, ply, agent, from what to what, and
    blunder counts) and blunders.csv (one row a blunder) are written beside games.csv, game
    by game: run the command again to resume (with the options it began with). With
    --best-moves, moves.csv too (one row a graded move): whether it is a best move, a
    column with the highest exact score, as `arena accuracy` grades agents on position
    sets.
    `arena report DIRECTORY` then shows blunders (and best moves) per agent and per phase,
    and each agent's first losing move of a game.

    \b
    Examples:
      arena analyze results/matches/RUN
      arena analyze results/matches/RUN --best-moves
      arena analyze results/matches/RUN --from-ply 8 --jobs 2
      arena analyze results/matches/RUN-5x6 --from-ply 0
    """

    from arena.analysis.annotate import (
        analyse_run,
        load_analysis,
        load_moves,
        pending_games,
    )
    from arena.report.best_moves import best_move_rates
    from arena.report.blunders import ALL, blunder_rates
    from arena.runs.store.files import RunFiles
    from arena.runs.store.meta import load_meta

    pending = pending_games(directory, from_ply, best_moves or None)
    todo, total = pending.games, pending.total
    with progress_bar(total, "analysing", not quiet, unit="game",
                      initial=total - len(todo)) as advance:
        analyse_run(directory, pending.from_ply, todo, worker_count(jobs), advance,
                    pending.best_moves)
    tables = load_analysis(directory)
    assert tables is not None
    analysis, blunders = tables
    meta = load_meta(directory)
    rules, names = meta.rules, meta.names()
    cells = rules.rows * rules.cols
    rates = blunder_rates(analysis, blunders, cells)
    moves = load_moves(directory)
    best = None if moves is None else best_move_rates(moves, cells).set_index(
        ["agent", "phase"])
    first = analysis["first_blunder_agent"].value_counts()
    click.echo(f"Games       {len(analysis)} analysed ({len(todo)} now), moves from ply "
               f"{pending.from_ply} on")
    for row in rates[rates["phase"] == ALL].to_dict("records"):
        agent = row["agent"]
        line = (f"{names.get(agent, agent)}: {row['blunders']} blunders in {row['moves']} "
                f"moves ({row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}]), the first "
                f"blunder of {first.get(agent, 0)} games")
        if best is not None:
            share = best.loc[(agent, ALL)]
            line += (f"; a best move {int(share['best'])} times ({share['rate']:.1%} "
                     f"[{share['low']:.1%}, {share['high']:.1%}])")
        click.echo(line)
    files = RunFiles(directory)
    click.echo(f"Output      {files.analysis}" + (f", {files.moves}" if moves is not None
                                                  else ""))
    shown = "blunders and best moves" if moves is not None else "blunders"
    click.echo(f"Report      arena report {shlex.quote(str(directory))} adds the {shown} per "
               "agent and per phase to report.md")
