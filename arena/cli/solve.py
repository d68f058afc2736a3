"""``arena solve``: exact scores of positions, one at a time or in bulk from stdin."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path

import click

from arena.cli.options import board_options, solver_options
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError, MalformedInputError
from arena.rules.notation import from_moves
from arena.runs.playing.elapsed import elapsed_line

FULL = "-"  # a full column in the bulk output


@click.command("solve")
@click.argument("moves", required=False)
@board_options
@solver_options(configure=False, with_threads=True)
@click.option("--columns", is_flag=True,
              help="In bulk mode, also write the score of every column (one solve each).")
def solve_command(moves: str | None, rules: Rules, columns: bool, table_mb: float,
                  cache: Path, threads: int) -> None:
    """Exact score of the position after MOVES, and of every column.

    Scores are for the side to move, in Pascal Pons' convention: positive for a win, the
    sooner the larger ((cells left + 1) / 2 for a win with the next disc), 0 for a draw,
    negative for a loss. A column's score is the score for the side to move if it plays
    there. MOVES are digits, 1 = leftmost column; "" is the empty board.

    Without MOVES, read one position a line from stdin (words after the move string, such
    as a score, are ignored; an empty line is the empty board) and write one line a
    position as soon as it is solved: `MOVES SCORE`, so that a benchmark set comes back
    as it went in; with --columns the score of every column follows (`-` for a full one).

    \b
    Examples:
      arena solve 4455
      arena solve "" --rows 4 --cols 5
      arena solve < positions.txt > scored.txt
      arena solve --columns < positions.txt
      arena solve "" --threads 2       # the empty board, two threads on it
    """
    from arena.search.oracle import describe_score, next_disc_scores

    if moves is None:
        if sys.stdin.isatty():
            click.echo("arena solve: reading move strings from stdin, one a line "
                       "(Ctrl-D ends)", err=True)
        from arena.search.solver import configured

        with configured(table_mb, cache, threads):
            solve_lines(sys.stdin, rules, columns)
        return
    position = parse_position(moves, rules, "MOVES")
    start = time.perf_counter()
    scores = next_disc_scores(position)  # no search, no kernels: the next disc decides
    how = "no search: the next disc decides"
    if scores is None:
        from arena.search.solver import column_scores, configured

        with configured(table_mb, cache, threads), elapsed_line("solving"):
            start = time.perf_counter()
            scores = column_scores(position)
        how = f"{threads} thread{'s' * (threads > 1)}"
    seconds = time.perf_counter() - start
    best = max(scores.values())
    click.echo(f"position  {moves or '(empty)'} on {rules}, player {position.side_to_move} "
               "to move")
    click.echo(f"score     {best}: {describe_score(best, position)}")
    click.echo("column    " + "".join(f"{c + 1:>5}" for c in range(rules.cols)))
    click.echo("score     " + "".join(f"{scores.get(c, FULL):>5}" for c in range(rules.cols)))
    click.echo(f"best      {', '.join(str(c + 1) for c, s in scores.items() if s == best)}")
    click.echo(f"solved in {seconds:.3f} s ({how})", err=True)


def solve_lines(lines: Iterable[str], rules: Rules, columns: bool) -> None:
    """Solve the position of every line and write one result line each, flushed."""
    from arena.search.solver import column_scores, solve

    for number, line in enumerate(lines, start=1):
        words = line.split()
        text = words[0] if words else ""
        position = parse_position(text, rules, f"stdin line {number}")
        if columns:
            scores = column_scores(position)
            cells = " ".join(str(scores.get(c, FULL)) for c in range(rules.cols))
            click.echo(f"{text} {max(scores.values())} {cells}")
        else:
            click.echo(f"{text} {solve(position)}")
        sys.stdout.flush()


def parse_position(text: str, rules: Rules, where: str) -> Position:
    """The position after the move string ``text``, which must not be over."""
    try:
        position = from_moves(text, rules)
    except ArenaError as error:
        raise MalformedInputError(f"{where}: {error}") from None
    if position.is_terminal:
        raise MalformedInputError(f"{where}: the game is already over after {text!r}: "
                                  "nothing to solve")
    return position
