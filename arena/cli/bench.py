"""``arena bench``: the speed of agents on fixed positions."""

from __future__ import annotations

from pathlib import Path

import click

from arena.analysis.bench import (
    QUICK_POSITIONS,
    SETS,
    format_table,
    make_plan,
    run_bench,
    write_csv,
)
from arena.system.files import check_writable


@click.command("bench")
@click.option("--agents", "--agent", "specs", multiple=True, metavar="SPEC",
              help="Measure this agent instead of the default list (repeatable).")
@click.option("--set", "position_set", type=click.Choice(SETS), default="games",
              show_default=True, help="Positions for the agents given with --agents.")
@click.option("--quick", is_flag=True,
              help=f"At most {QUICK_POSITIONS} positions per agent, each timed once.")
@click.option("--fresh-process/--no-fresh-process", default=True, show_default=True,
              help="Also time the first negamax move of a new Python process.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the table to this CSV file.")
@click.option("--force", is_flag=True, help="Overwrite the --out file if it exists.")
def bench_command(specs: tuple[str, ...], position_set: str, quick: bool, fresh_process: bool,
                  out: Path | None, force: bool) -> None:
    """Measure milliseconds per move, nodes and playouts per second on fixed positions.

    By default: negamax at depth 10 on the first 100 positions of Pons' Test_L2_R1 (set
    pons), negamax at depth 4 with each heuristic, minimax at depth 4, MCTS with 10,000
    iterations (both rollouts) and the simple agents on the positions of 8 seeded games
    (set games). Each position is timed three
    times and its fastest run counts; ms_per_move is the median over the positions.
    """
    if out is not None and out.exists() and not force:
        raise click.BadParameter(f"{out} exists; use --force to overwrite it",
                                 param_hint="--out")
    if out is not None:
        check_writable(out.parent, f"the table {out.name}")  # before minutes of measuring
    plan = make_plan(specs, position_set, quick)
    rows = run_bench(plan, fresh_process=fresh_process,
                     progress=lambda message: click.echo(message, err=True))
    click.echo(format_table(rows))
    if out is not None:
        write_csv(rows, out)
        click.echo(f"wrote {out}", err=True)
