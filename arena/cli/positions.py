"""What ``arena dataset`` and ``arena export dataset`` share: their options and the dataset
of games made, labelled and written."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli.options import solver_options
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
