"""``arena book``: build the solver's opening book for a board."""

from __future__ import annotations

import time
from pathlib import Path

import click

from arena.cli.options import board_options, solver_options
from arena.rules.board import Rules
from arena.runs.playing.progress import progress_bar
from arena.system.processes import worker_count

DEFAULT_DEPTH = 2
BOOK_TABLE_MB = 1024


@click.command("book")
@click.option("--depth", type=click.IntRange(min=0), default=DEFAULT_DEPTH, show_default=True,
              help="Solve every position with at most this many discs.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that solve positions (default: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@board_options
@solver_options(BOOK_TABLE_MB, pass_cache=True, with_threads=True)
def book_command(depth: int, jobs: int | None, quiet: bool, rules: Rules, cache: Path) -> None:
    """Build the solver's opening book: the exact score of every early position.

    The book goes to books/ in the cache directory, where `arena solve`, `arena accuracy`,
    `arena analyze` and the solver agent find it. The deepest positions are solved first
    (in parallel), then each shallower ply with the help of the deeper ones. An interrupted
    build resumes where it stopped; a finished book is replaced by building it again. The
    table size (--table-mb) and the solver's threads (--threads) are per process; by
    default the cores are shared among the processes (--jobs 1: every core on each
    position).

    \b
    Examples:
      arena book                              # 6 x 7, depth 2
      arena book --depth 3 --jobs 2 --table-mb 2048
      arena book --depth 3 --jobs 1 --threads 2
      arena book --rows 5 --cols 6 --depth 10
    """

    from arena.analysis.books import build_book, plan_book
    build = plan_book(rules, depth, cache)
    start = time.perf_counter()
    with progress_bar(build.total, f"book of {rules} to depth {depth}", not quiet) as advance:
        book = build_book(build, worker_count(jobs), advance)
    minutes = (time.perf_counter() - start) / 60
    click.echo(f"Book        {len(book)} positions of {rules} with at most {depth} discs")
    click.echo(f"Time        {minutes:.1f} minutes")
    click.echo(f"Output      {build.path}")
