"""``arena export``: a run's games in other forms (``html``: a replay page; ``dataset``: training
data, with ``arena dataset``'s options), and agents as Kaggle ConnectX submissions
(``kaggle``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.cli.positions import dataset_options, write
from arena.rules.errors import MalformedInputError
from arena.runs.playing.progress import progress_bar


@click.group("export")
def export_command() -> None:
    """Write a run's games in another form, or an agent as a Kaggle submission.

    \b
    Examples:
      arena export html results/matches/DIR
      arena export dataset results/matches/DIR --out positions.parquet
      arena export html results/matches/DIR 3 7 10-19 --out games.html
      arena export kaggle negamax-id:heuristic=threats+positional -o main.py
    """


def parse_game_indices(items: tuple[str, ...]) -> list[int] | None:
    """Game indices from arguments such as 7 and 10-19; None (all games) when none given."""
    if not items:
        return None
    indices: list[int] = []
    for item in items:
        low, dash, high = item.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise MalformedInputError(f"game {item!r}: expected an index such as 7 or a "
                                      "range such as 10-19")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise MalformedInputError(f"game range {item!r} runs backwards")
        indices.extend(index for index in range(first, last + 1) if index not in indices)
    return indices


@export_command.command("html")
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("games", nargs=-1)
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The page to write (default: DIRECTORY/replay.html).")
def export_html_command(directory: Path, games: tuple[str, ...], out: Path | None) -> None:
    """Write one self-contained HTML page replaying GAMES of the run in DIRECTORY.

    GAMES are indices (the game column of games.csv) or ranges such as 10-19; all games by
    default. The page needs no network: open it in any browser, step with the slider or the
    arrow keys, change game with the up and down arrows. Under a language model's move (an
    llm: agent), the page shows what the model answered and what the move cost.
    """
    from arena.report.replay_page import write_replay_page
    from arena.runs.store.recorded import load_recorded_games

    recorded = load_recorded_games(directory, parse_game_indices(games))
    with progress_bar(len(recorded), "replay page", enabled=True, unit="game") as advance:
        path, count = write_replay_page(directory, recorded, out, advance)
    click.echo(f"Wrote {count} game{'s' if count != 1 else ''} to {path}")


@export_command.command("kaggle")
@click.argument("spec")
@click.option("-o", "--out", type=click.Path(path_type=Path), default=Path("main.py"),
              show_default=True, help="The submission file to write.")
@click.option("--force", is_flag=True, help="Overwrite the file if it exists.")
def export_kaggle_command(spec: str, out: Path, force: bool) -> None:
    """Write the agent SPEC as one Kaggle ConnectX submission file.

    The file is plain Python (standard library only, no numpy, no arena): the agent's
    search ported from the arena's kernels, with the same scores. Kaggle calls its
    agent(observation, configuration) once per move.

    \b
    Exportable agents:
      negamax      the depth's search, any heuristic and switch; searched 1, 2, ... plies
                   deep, so a move that runs out of time plays the deepest finished search
      negamax-id   iterative deepening as deep as the move's time allows
      mcts         UCT with the arena's playouts; iterations, or time
      random, immediate-win
    A move uses 80% of the configuration's actTimeout (2 s on Kaggle), or of the agent's
    time when that is less; the first move also pays for loading the file.

    \b
    Examples:
      arena export kaggle negamax:depth=6,heuristic=threats+positional
      arena export kaggle negamax-id:heuristic=threats+positional -o main.py --force
      arena export kaggle mcts:time=1 -o mcts.py
    """
    from arena.kaggle.submission import write_submission

    settings = write_submission(spec, out, force)
    click.echo(f"Wrote {out}: {settings.spec} as a Kaggle ConnectX submission "
               f"({out.stat().st_size // 1024} KB, standard library only)")


@export_command.command("dataset")
@click.argument("directories", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@dataset_options
def export_dataset_command(directories: tuple[Path, ...], **options: Any) -> None:
    """Write the positions of the games of the runs in DIRECTORIES as a dataset.

    Every run is checked as a resume checks it and must be on the same board. The columns
    are those of arena dataset (arena dataset --help lists them).

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
