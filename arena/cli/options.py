"""Options shared by several commands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from arena.board import Rules


def board_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --rows, --cols and --connect; the command receives them as ``rules``."""

    @functools.wraps(command)
    def with_rules(*args: Any, rows: int, cols: int, connect: int, **kwargs: Any) -> Any:
        return command(*args, rules=Rules(rows=rows, cols=cols, connect=connect), **kwargs)

    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("--rows", type=int, default=6, show_default=True, help="Board rows."),
        click.option("--cols", type=int, default=7, show_default=True,
                     help="Board columns (at most 9; columns x (rows + 1) <= 64)."),
        click.option("--connect", type=int, default=4, show_default=True,
                     help="Discs in a row that win (3 to max(rows, cols))."),
    ]
    decorated: Callable[..., Any] = with_rules
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


def write_run_report(directory: Path) -> None:
    """Write the charts and report.md of a finished run and say where they are."""
    from arena.match import release_workers
    from arena.report import write_report  # matplotlib and pandas load only when needed

    release_workers()  # the games are played: their memory is the report's now
    click.echo(f"Report      {write_report(directory)}")


def run_options(results_dir: Path, openings: str = "none") -> Callable[[Callable[..., Any]],
                                                                        Callable[..., Any]]:
    """Add the options every game-playing command shares: workers, seed, openings, time
    limit, board, output directory, quiet, report and backend."""
    from arena.game import TIME_MARGIN_SECONDS
    from arena.match import DEFAULT_SEED

    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                     help="Worker processes (default: all cores; 1 with an interactive agent)."),
        click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED,
                     show_default=True,
                     help="Run seed: each game's seed comes from it and the game's index."),
        click.option("--openings", default=openings, show_default=True, metavar="SPEC",
                     help="none, random:K (K random plies, each opening played twice with "
                          "colours swapped) or a file of move strings, one per line."),
        click.option("--time-per-move", type=click.FloatRange(min=0, min_open=True),
                     default=None, metavar="SECONDS",
                     help=f"Time budget per move; a move over it by more than "
                          f"{TIME_MARGIN_SECONDS} s loses the game."),
        board_options,
        click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help=f"Run directory (default: under {results_dir}, named after the "
                          "command). The same command again resumes it."),
        click.option("-q", "--quiet", is_flag=True,
                     help="No progress bar; only the final tables."),
        click.option("--no-report", is_flag=True,
                     help="Skip the charts and report.md written at the end (see "
                          "`arena report`)."),
        click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky",
                     show_default=True,
                     help="loky: processes on this machine; dask: a dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="With --backend dask: join this scheduler, e.g. tcp://10.0.0.5:8786 "
                          "(default: start a local cluster)."),
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def solver_options(table_mb: float | None = None) -> Callable[[Callable[..., Any]],
                                                                  Callable[..., Any]]:
    """Add --table-mb (default ``table_mb``, else the solver's) and --cache; they set up the
    process's solver and cache directory before the command runs."""
    from agents.solver import DEFAULT_TABLE_MB, MIN_TABLE_MB

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_solver(*args: Any, table_mb: float, cache: Path | None, **kwargs: Any) -> Any:
            from agents.solver import configure
            from arena.cachedir import use_cache_dir

            use_cache_dir(cache)
            configure(table_mb)
            return command(*args, **kwargs)

        table = click.option(
            "--table-mb", type=click.FloatRange(min=MIN_TABLE_MB),
            default=table_mb or DEFAULT_TABLE_MB, show_default=True, metavar="MB",
            help="Size of the solver's transposition table in megabytes, per process (a "
                 "power of two is used in full).")
        cache = click.option(
            "--cache", type=click.Path(file_okay=False, path_type=Path), default=None,
            metavar="DIR",
            help="Cache directory of opening books and solved positions (default: "
                 "$CONNECT_FOUR_ARENA_CACHE or ~/.cache/connect-four-arena).")
        return table(cache(with_solver))

    return decorate
