"""``arena perft``."""

from __future__ import annotations

import time

import click

from arena.cli.options import board_options
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.rules.perft import perft
from arena.runs.playing.progress import progress_bar


@click.command("perft")
@click.argument("depth", type=click.IntRange(min=0))
@board_options
@click.option("--moves", default="", metavar="STRING",
              help="Start from the position after these moves (digits, 1 = leftmost column).")
def perft_command(depth: int, rules: Rules, moves: str) -> None:
    """Count the move sequences of length DEPTH (a won position has no moves).

    Known answers for 6 x 7, connect 4, from the empty board, depths 1 to 8: 7, 49, 343,
    2401, 16807, 117649, 823536, 5673234.
    """
    position = from_moves(moves, rules)
    start = time.perf_counter()
    with progress_bar(len(position.legal_moves()), f"perft {depth}", enabled=depth >= 2,
                      unit="first move") as advance:
        count = perft(position, depth, advance)
    seconds = time.perf_counter() - start
    click.echo(f"perft {depth}: {count}")
    click.echo(f"{seconds:.2f} s, {count / max(seconds, 1e-9):,.0f} leaves/s", err=True)
