"""``arena ladder``: ratings on a fixed scale, kept in a database file across runs."""

from __future__ import annotations

import math
import shlex
from pathlib import Path

import click

from arena.cli.options import board_options, name_agents, run_options
from arena.cli.printed import LABEL_WIDTH, aligned, usage_text
from arena.cli.status import INTERRUPTED
from arena.competitions.ladder.adding import add_run, finished_run
from arena.competitions.ladder.anchors import fix_anchors, readable_ladder, take_shipped
from arena.competitions.ladder.distance import distance_table
from arena.competitions.ladder.fit import refit
from arena.competitions.ladder.leaderboard import write_leaderboard
from arena.competitions.ladder.placement import (
    DEFAULT_BATCH,
    DEFAULT_MAX_GAMES,
    DEFAULT_TARGET,
    Step,
    checked_agent,
    directory_name,
    place,
    placement_ladder,
)
from arena.competitions.ladder.store import Ladder, LadderError, board_key, open_ladder
from arena.competitions.ladder.tables import boards, history, score_text, skill_text, standings
from arena.protocol.agent import GameAbandoned
from arena.protocol.labels import plain_spec, plain_specs
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest
from arena.runs.playing.elapsed import elapsed_line
from arena.system.files import write_atomically

DEFAULT_DB = Path("results") / "ladder" / "ladder.sqlite"
PLACEMENTS_DIR = Path("results") / "ladder" / "placements"
DEFAULT_ACCURACY = Path("results") / "accuracy" / "accuracy.csv"

db_option = click.option(
    "--db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB,
    show_default=True, help="The ladder's database file (SQLite).")


@click.group("ladder")
def ladder_command() -> None:
    """Rate agents on a fixed scale anchored from random up to perfect play.

    The ladder is one SQLite file (--db) holding agents with their code fingerprints, games,
    the anchors of each board and every fit. A board's anchors are fixed once and never
    refitted; every fit holds them there. The anchors of 5 x 6 and 6 x 7 come with the arena
    (fixed from its reference runs): `place` and `add` take them into a ladder that has none
    for the board, making the file if needed, and `show` reads them where there is no ladder
    file.
    Other boards' anchors are fixed from a reference run with `arena ladder anchor DIR`.

    \b
    Examples:
      arena ladder place negamax:depth=6 --rows 5 --cols 6
      arena ladder add results/tournaments/DIR results/matches/DIR
      arena ladder show
      arena ladder anchor results/ladder/reference-4x5
      arena ladder export --out site/
    """


def _signed(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else "-"


def format_standings(ladder: Ladder, board_names: list[str] | None = None) -> str:
    """Every board's latest standings as text."""
    blocks = []
    for board in board_names or boards(ladder.connection):
        table = standings(ladder.connection, board)
        names = plain_specs(table["agent"])
        rows = [[str(r["rank"]), names[r["agent"]] + (" (anchor)" if r["anchor"] else ""),
                 _signed(r["rating"]), f"[{_signed(r['low'])}, {_signed(r['high'])}]",
                 f"{r['to_perfect']:.0f}" if math.isfinite(r["to_perfect"]) else "-",
                 str(r["games"]), score_text(r["score"]),
                 skill_text(r["skill_mu"], r["skill_sigma"])]
                for r in table.to_dict("records")]
        scale = "anchors fixed" if table["anchor"].any() else "no anchors: relative to this " \
            "field, " + ("random = 0" if "random" in set(table["agent"]) else "its mean 0")
        blocks.append(f"Board {board} (Elo; {scale}; 95% bootstrap intervals):\n" + aligned(
            ["rank", "agent", "Elo", "95% interval", "to perfect", "games", "score",
             "OpenSkill μ ± 2σ"], rows, right={0, 2, 3, 4, 5, 6, 7}))
    return "\n\n".join(blocks) if blocks else "The ladder is empty."


def _took_shipped(db: Path, board: str) -> None:
    shown = "" if db == DEFAULT_DB else f" --db {shlex.quote(str(db))}"
    click.echo(f"{db}: board {board} takes the anchors that come with the arena "
               f"(arena ladder show{shown} lists them)")


@ladder_command.command("add")
@click.argument("directories", nargs=-1, required=True, metavar="DIR...",
                type=click.Path(file_okay=False, path_type=Path))
@db_option
def add_command(directories: tuple[Path, ...], db: Path) -> None:
    """Add the games of finished run directories to the ladder, then refit.

    Each run is checked as a resume checks it; a run already in the ladder adds nothing
    (a run is known by its description, a game by its index), so adding twice is harmless.
    A board is refitted when it got new games or anchors. A board without anchors in the
    ladder takes those that come with the arena (5 x 6 and 6 x 7); on another board, until
    its anchors are fixed (`arena ladder anchor DIR`), the ratings are relative to the
    field (random = 0 if it played).
    """
    # every run checked before the ladder is made or touched
    runs = [board_key(finished_run(directory).meta.rules) for directory in directories]
    with open_ladder(db) as ladder:
        touched: list[str] = []  # the boards to refit: new games or new anchors
        for board in dict.fromkeys(runs):
            taken = take_shipped(ladder, board)
            if taken is not None:
                _took_shipped(db, board)
                touched.append(board)
        for directory in directories:
            added = add_run(ladder, directory)
            click.echo(f"{added.directory}: {added.new_games} new of {added.games} games "
                       f"(board {added.board})")
            if added.new_games and added.board not in touched:
                touched.append(added.board)
        with elapsed_line("fitting the ratings"):
            for board in touched:
                refit(ladder, board)
        click.echo("\n" + format_standings(ladder, touched or None))


@ladder_command.command("anchor")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@db_option
def anchor_command(directory: Path, db: Path) -> None:
    """Fix the anchors of a board once, from the finished reference run in DIRECTORY.

    Every agent of the run becomes an anchor at its rating in the run (Bradley-Terry with
    draws, random = 0); the run's games join the ladder. A board's anchors are never
    refitted: fixing them again is refused.
    """
    finished_run(directory)  # checked before the ladder is made or touched
    with open_ladder(db) as ladder:
        with elapsed_line("fitting the ratings"):
            board = fix_anchors(ladder, str(directory))
            refit(ladder, board)
        click.echo(format_standings(ladder, [board]))


def _reading(db: Path) -> Ladder:
    """The ladder in ``db`` to read; where there is none, the shipped anchors, said so."""
    ladder = readable_ladder(db)
    if ladder.path != db:
        click.echo(f"No ladder at {db} yet: the anchors that come with the arena "
                   "(arena ladder place SPEC starts one).\n")
    return ladder


@ladder_command.command("show")
@db_option
def show_command(db: Path) -> None:
    """Print the latest standings of every board of the ladder (without a ladder file, the
    anchors that come with the arena)."""
    with _reading(db) as ladder:
        click.echo(format_standings(ladder))


@ladder_command.command("export")
@db_option
@click.option("-o", "--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The directory to write ladder.csv and ladder.html in (default: the "
                   "database's).")
def export_command(db: Path, out: Path | None) -> None:
    """Write the standings as ladder.csv and a self-contained HTML leaderboard, ladder.html.

    The page has no scripts and loads nothing: each agent's rating history over the fits
    is drawn inline in SVG.
    """
    out = out or db.parent
    with _reading(db) as ladder:
        tables = {board: (standings(ladder.connection, board), history(ladder.connection, board))
                  for board in boards(ladder.connection)}
    if not tables:
        raise LadderError(f"{db}: the ladder is empty; nothing to export")
    out.mkdir(parents=True, exist_ok=True)
    write_leaderboard(tables, out / "ladder.csv", out / "ladder.html")
    click.echo(f"{out / 'ladder.csv'}\n{out / 'ladder.html'}")


def _step_line(step: Step) -> str:
    estimate = step.estimate
    return (f"{step.games} games against {step.anchor}: {estimate.rating:+.0f} "
            f"[{estimate.low:+.0f}, {estimate.high:+.0f}] after {estimate.games} games")


@ladder_command.command("place")
@click.argument("spec")
@db_option
@click.option("--target", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TARGET,
              show_default=True, metavar="ELO",
              help="Stop once the 95% interval is at most ± this many Elo.")
@click.option("--batch", type=click.IntRange(min=2), default=DEFAULT_BATCH, show_default=True,
              help="Games per step against one anchor (even: colours alternate).")
@click.option("--max-games", type=click.IntRange(min=2), default=DEFAULT_MAX_GAMES,
              show_default=True,
              help="Stop once the steps in --out that place SPEC on this board hold this "
                   "many games (earlier commands' included; the last step cut short to fit), "
                   "whatever the interval.")
@run_options(PLACEMENTS_DIR)
def place_command(spec: str, db: Path, target: float, batch: int, max_games: int,
                  request: RunRequest, labels: tuple[str, ...], no_report: bool) -> None:
    """Place SPEC on the ladder: play the anchors nearest its estimate until its interval is
    narrow enough, and store the result.

    Each step plays --batch games against one anchor, the nearest below the estimate and the
    nearest above it in turn; the agent is rated from its games against the anchors (held at
    their ratings) until its 95% interval is at most ± --target Elo, or until --max-games
    games are played. Every step is a run directory under --out; the same command again
    resumes, playing the same games (an llm: agent's answers replayed, not asked again;
    --concurrency plays its games several at once). The board (--rows, --cols,
    --connect) takes the anchors that come with the arena (5 x 6 and 6 x 7) when the ladder
    has none for it, the file made if there is none; another board needs its anchors fixed
    first (`arena ladder anchor DIR`).

    \b
    Examples:
      arena ladder place negamax:depth=3 --rows 5 --cols 6
      arena ladder place my_bot.py:Bot --rows 5 --cols 6 --target 50 --seed 7
      arena ladder place llm:gpt-4o-mini -j 1 --concurrency 8 --max-games 200
    """
    del no_report  # steps are small runs: no report is written for them
    request = name_agents(request, [spec], labels)
    name = checked_agent(spec, request)  # a bad agent makes no ladder
    board = board_key(request.rules)
    directory = request.out or PLACEMENTS_DIR / directory_name(spec, board, request.seed)
    ladder, taken = placement_ladder(db, board, name)
    if taken is not None:
        _took_shipped(db, board)
    with ladder:
        click.echo(f"Placing {plain_spec(name)} on board {board} in {directory}: steps of "
                   f"{batch} games until ± {target:g} Elo, at most {max_games} games in all")
        try:
            done = place(ladder, spec, request, directory, target=target, batch=batch,
                         max_games=max_games, told=lambda step: click.echo(_step_line(step)))
        except (KeyboardInterrupt, GameAbandoned):
            click.echo(f"arena: interrupted; the games played are kept in {directory}: run "
                       "the same command to go on", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None
        estimate = done.estimate
        assert estimate is not None
        reached = "reached" if estimate.half_width <= target else "not reached"
        click.echo(f"\n{plain_spec(done.agent)}: {estimate.rating:+.0f} [{estimate.low:+.0f}, "
                   f"{estimate.high:+.0f}] on board {done.board} from {estimate.games} games "
                   f"against the anchors, {done.games} of them played now "
                   f"(± {estimate.half_width:.0f}; target ± {target:g} {reached})")
        spent = done.spent
        if spent is not None:
            steps = len(done.steps)
            click.echo(f"{'Model':<{LABEL_WIDTH}}{plain_spec(done.agent)} over the {steps} "
                       f"step{'s' * (steps != 1)} of this command: {usage_text(spent)}")
        click.echo("\n" + format_standings(ladder, [done.board]))


@ladder_command.command("distance")
@db_option
@click.option("--accuracy", "accuracy_file", type=click.Path(dir_okay=False, path_type=Path),
              default=DEFAULT_ACCURACY, show_default=True, metavar="FILE",
              help="The accuracy.csv of `arena accuracy`, measured on the same board.")
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE", help="Also write the table to FILE as CSV.")
@board_options
def distance_command(db: Path, accuracy_file: Path, csv_file: Path | None,
                     rules: Rules) -> None:
    """Each ladder agent's rating gap to perfect play beside its best-move rate.

    The gap is the perfect-play anchor's (solver's) rating minus the agent's; the best-move
    rate (with its 95% interval) and blunder rate come from an accuracy.csv written by
    `arena accuracy` on the ladder's board (--rows, --cols, --connect).

    \b
    Examples:
      arena accuracy random negamax:depth=3 solver:blunder=0.1 --rows 5 --cols 6 \\
          --set random:6-12 --out results/ladder/accuracy-5x6
      arena ladder distance --rows 5 --cols 6 --accuracy results/ladder/accuracy-5x6/accuracy.csv
    """
    from arena.analysis.accuracy import read_table

    if not accuracy_file.is_file():
        raise LadderError(f"{accuracy_file}: no such accuracy file (arena accuracy writes one)")
    try:
        accuracy = read_table(accuracy_file)
    except (ValueError, KeyError) as error:
        raise LadderError(f"{accuracy_file}: not an accuracy table ({error})") from None
    board = board_key(rules)
    with _reading(db) as ladder:
        table = distance_table(standings(ladder.connection, board), accuracy, rules)
    if table.empty:
        raise LadderError(f"the ladder of board {board} has no ratings yet")
    rows = [[r["agent"], _signed(r["rating"]),
             f"{r['to_perfect']:.0f}" if math.isfinite(r["to_perfect"]) else "-",
             r["set"] or "-",
             f"{r['accuracy']:.1%} [{r['accuracy_low']:.1%}, {r['accuracy_high']:.1%}]"
             if r["set"] else "-",
             f"{r['blunder_rate']:.1%}" if r["set"] else "-"]
            for r in table.to_dict("records")]
    click.echo(f"Board {board}: rating gap to perfect play beside best-move rate\n" + aligned(
        ["agent", "Elo", "gap to perfect", "set", "best move [95%]", "blunders"], rows,
        right={1, 2, 4, 5}))
    if csv_file is not None:
        write_atomically(csv_file, table.to_csv(index=False))
