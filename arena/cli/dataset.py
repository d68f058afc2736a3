"""``arena dataset``: the positions of games played now as training data, labelled with the
exact solver on request (``arena export dataset``, in ``arena.cli.export``, writes those of
run directories; what both share is ``arena.cli.positions``)."""

from __future__ import annotations

from typing import Any

import click

from arena.cli.options import board_options
from arena.cli.positions import DEFAULT_GAMES, dataset_options, write
from arena.rules.board import Rules
from arena.runs.playing.progress import progress_bar

__all__ = ["DEFAULT_GAMES", "dataset_command", "dataset_options", "write"]

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

    One row per position before a move, its columns: game, ply, side_to_move (1 or 2),
    current and mask (the mover's discs and every disc, as bitboards), moves (the move
    string reaching the position), move (the column played next, 0-based), result (+1, 0 or
    -1 for the mover), duplicate (the position or its mirror image came before) and, with
    --solve (the default), score_0 to score_C-1 (each column's exact score in Pons'
    convention, null for a full column).

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
