"""``arena export``: a run's games in other forms (``html``: a replay page)."""

from __future__ import annotations

from pathlib import Path

import click

from arena.errors import MalformedInputError


@click.group("export")
def export_command() -> None:
    """Write a run's games in another form.

    \b
    Examples:
      arena export html results/matches/DIR
      arena export html results/matches/DIR 3 7 10-19 --out games.html
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
    arrow keys, change game with the up and down arrows.
    """
    from arena.replay_html import write_replay_page

    path, count = write_replay_page(directory, parse_game_indices(games), out)
    click.echo(f"Wrote {count} game{'s' if count != 1 else ''} to {path}")
