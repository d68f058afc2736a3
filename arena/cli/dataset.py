"""``arena dataset`` (positions of games played now) and ``arena export dataset`` (positions of
run directories): training data, labelled with the exact solver on request."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli.options import board_options, solver_options
from arena.rules.board import Rules
from arena.runs.playing.progress import progress_bar
from arena.system.processes import worker_count

if TYPE_CHECKING:
    from arena.analysis.datasets import GameLine

DEFAULT_GAMES = 1000


def dataset_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options shared by both commands: --out, --plies, --solve, --drop-duplicates,
    --jobs, --force, --quiet and the solver's."""
    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path),
                     required=True, help="The file to write: FILE.parquet or FILE.npz."),
        click.option("--plies", default=None, metavar="A-B",
                     help="Keep positions with A to B discs (default: every position before "
                          "a move)."),
        click.option("--solve/--no-solve", default=True, show_default=True,
                     help="Label every position with the exact score of each column."),
        click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Leave out a position the solver does not finish within N nodes "
                          "(default: solve every position, however long it takes: on 6 x 7, "
                          "with the published 12-ply database, a few seconds at most; the "
                          "early positions of other big boards can take minutes)."),
        click.option("--drop-duplicates", is_flag=True,
                     help="Leave out a position seen before, or whose mirror image was "
                          "(default: keep it, marked in the duplicate column)."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                     help="Processes that solve positions (default: all cores)."),
        click.option("--force", is_flag=True, help="Overwrite FILE if it exists."),
        click.option("-q", "--quiet", is_flag=True, help="No progress bars."),
        solver_options(),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def write(rules: Rules, games: Sequence[GameLine], out: Path, plies: str | None, solve: bool,
          max_nodes: int | None, drop_duplicates: bool, jobs: int | None,
          force: bool, quiet: bool) -> None:
    """Make the dataset of ``games``, label it (saying first if that may take long), write
    it and say what was written."""
    from arena.analysis.annotate import FROM_PLY_WITHOUT_DATABASE
    from arena.analysis.dataset_files import write_dataset
    from arena.analysis.datasets import costly_boards, dataset_of_games, label
    from arena.analysis.position_sets import parse_plies

    bounds = parse_plies(plies, plies) if plies is not None else None
    dataset = dataset_of_games(games, rules, bounds)
    if drop_duplicates:
        dataset = dataset.select(~dataset.duplicate)
    rate = ""
    if solve:
        boards, costly = len(dataset.boards()), costly_boards(dataset, max_nodes)
        if costly:
            cells = rules.rows * rules.cols
            click.echo(f"arena: {costly:,} of the {boards:,} positions to label have fewer "
                       f"than {FROM_PLY_WITHOUT_DATABASE} discs on {rules}, where the solver "
                       "has no database: each can take it seconds, minutes on boards bigger "
                       f"than 6 x 7; --plies {FROM_PLY_WITHOUT_DATABASE}-{cells} or "
                       "--max-nodes N bound the time", err=True)
        start, before = time.perf_counter(), len(dataset)
        with progress_bar(boards, "labelling", not quiet) as advance:
            dataset = label(dataset, worker_count(jobs), max_nodes, advance)
        seconds = time.perf_counter() - start
        rate = f", labelled in {seconds:.1f} s ({before / max(seconds, 1e-9):,.0f}/s)"
        if len(dataset) < before:
            rate += f"; {before - len(dataset)} left out past {max_nodes} nodes"
    write_dataset(dataset, out, force)
    click.echo(f"Wrote {out}: {len(dataset)} positions of {len(games)} games on {rules}"
               f"{rate}")


@click.command("dataset")
@click.option("-n", "--games", type=click.IntRange(min=1), default=DEFAULT_GAMES,
              show_default=True, help="Games to play.")
@click.option("--agents", nargs=2, default=("random", "random"), show_default=True,
              metavar="A B", help="The two agents (spec strings); A moves first in even "
                                  "games, B in odd ones.")
@click.option("--seed", type=click.IntRange(min=0), default=42, show_default=True,
              help="Run seed: game g draws from the generator of game g of a match.")
@dataset_options
@board_options
def dataset_command(games: int, agents: tuple[str, str], seed: int, rules: Rules,
                    **options: Any) -> None:
    """Play GAMES games and write their positions as a dataset, labelled by the solver.

    One row per position before a move: the board as bitboards, side to move, ply, the
    move played, the game's result for the mover and (with --solve, the default) the exact
    score of every column. The columns are in the docs (docs/reference/datasets.md).

    \b
    Examples:
      arena dataset -n 2000 --out random.parquet
      arena dataset -n 500 --agents negamax:depth=4 mcts --out games.npz --no-solve
    """
    from arena.analysis.dataset_files import check_out
    from arena.analysis.datasets import play_games
    from arena.protocol.players import canonical_player

    check_out(options["out"], options["force"])
    for spec in agents:
        canonical_player(spec, rules)  # a bad spec fails before a game is played
    with progress_bar(games, "playing", not options["quiet"], unit="game") as advance:
        played = play_games(agents[0], agents[1], games, rules, seed, advance)
    write(rules, played, **options)


@click.command("dataset")
@click.argument("directories", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@dataset_options
def export_dataset_command(directories: tuple[Path, ...], **options: Any) -> None:
    """Write the positions of the games of the runs in DIRECTORIES as a dataset.

    Every run is checked as a resume checks it and must be on the same board. The columns
    are those of arena dataset (docs/reference/datasets.md).

    \b
    Examples:
      arena export dataset results/matches/RUN --out run.parquet
      arena export dataset RUN1 RUN2 --plies 10-42 --drop-duplicates --out both.npz
    """
    from arena.analysis.dataset_files import check_out
    from arena.analysis.datasets import run_games

    check_out(options["out"], options["force"])
    rules, games = run_games(directories)
    write(rules, games, **options)
