"""``arena show``: show a recorded game of a run directory in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.options import FROM_PLY_HELP
from arena.report.game_text import SYMBOL, answer_lines, header_lines, move_lines
from arena.rules.errors import MalformedInputError
from arena.rules.render import render_for_stdout
from arena.runs.playing.progress import progress_bar
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.model_usage import TranscriptDamage, damage_warning, transcript_damage
from arena.runs.store.recorded import RecordedGame, load_recorded_games
from arena.runs.store.transcripts import read_records
from arena.search.oracle import Oracle


@click.command("show")
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("game", type=int)
@click.option("--step", is_flag=True,
              help="Move by move: each move and the board after it (on a terminal, Enter "
                   "shows the next move, q stops).")
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="Show the board after this many plies instead of the final one.")
@click.option("--list", "list_moves", is_flag=True, help="List every move, one per line.")
@click.option("--scores", is_flag=True,
              help="Grade every move with the exact solver: its score beside the best one "
                   "(Pons' scores for the mover: positive wins, the sooner the larger), and "
                   "whether it was an inaccuracy, a mistake or a blunder. Implies --list.")
@click.option("--answers", is_flag=True,
              help="Under each move of a language model (an llm: agent), what it answered: "
                   "its invalid answers with their reasons, the answer it played and what the "
                   "move cost, from the game's transcript. Implies --list.")
@click.option("--from-ply", type=click.IntRange(min=0), default=None, metavar="K",
              help="With --scores: grade the moves played with K or more discs on the board "
                   f"(default: {FROM_PLY_HELP}).")
def show_command(directory: Path, game: int, step: bool, ply: int | None,
                 list_moves: bool, scores: bool, answers: bool, from_ply: int | None) -> None:
    """Show GAME (its index, the game column of games.csv) of the run in DIRECTORY.

    Prints who played with which symbol (X moved first: the agents by the run's names, with
    their specs), the opening, the moves, the result and how the game ended, then the final
    board.

    \b
    Examples:
      arena show results/matches/random-vs-immediate-win_seed42_1a2b3c4d 7
      arena show DIR 7 --step
      arena show DIR 7 --ply 10
      arena show DIR 7 --scores --from-ply 8
      arena show DIR 7 --answers
    """
    oracle = None
    if scores:
        from arena.search.solver import SolverOracle

        oracle = SolverOracle()
    show_game(directory, game, step, ply, list_moves or scores or answers, oracle, from_ply,
              answers)


def show_game(directory: Path, index: int, step: bool = False, ply: int | None = None,
              list_moves: bool = False, oracle: Oracle | None = None,
              from_ply: int | None = None, answers: bool = False) -> None:
    """Print a recorded game; with ``oracle``, every listed move from ``from_ply`` discs on
    gets its score (None: from ``arena.analysis.annotate.default_from_ply`` of its board);
    with ``answers``, a language model's moves what it answered."""
    from arena.analysis.annotate import default_from_ply

    (game,) = load_recorded_games(directory, [index])
    if from_ply is None:
        from_ply = default_from_ply(game.rules)
    plies = len(game.columns)
    if ply is not None and ply > plies:
        raise MalformedInputError(f"--ply {ply}: game {index} has only {plies} plies")
    said = _answers(directory, game) if answers else {}
    lines = _move_lines(game, oracle, from_ply) if step or list_moves else []
    if lines and not step:  # a model's last answers, when they lost the game
        lines += [f"{number:>3}. {SYMBOL[1 + (number - 1) % 2]} no move" for number in sorted(said)
                  if number > plies]
        lines = ["\n".join([line, *said.get(number, [])])
                 for number, line in enumerate(lines, start=1)]
    for line in header_lines(game, directory, load_meta(directory).names()):
        click.echo(line)
    if oracle is not None and from_ply >= plies:
        click.echo(_nothing_graded(game, from_ply))
    if step:
        wait = sys.stdin.isatty() and sys.stdout.isatty()
        if wait:
            click.echo("(Enter: next move, q and Enter: stop)")
        click.echo("\n" + render_for_stdout(game.positions[0]))
        for done, line in enumerate(lines, start=1):
            if wait and _next_or_stop():
                return
            click.echo("\n" + line + "\n" + render_for_stdout(game.positions[done],
                                                              game.columns[done - 1]))
        return
    for line in lines:
        click.echo(line)
    shown = plies if ply is None else ply
    if shown < plies:
        click.echo(f"\nAfter {shown} of {plies} plies:")
    click.echo("\n" + render_for_stdout(game.positions[shown],
                                         game.columns[shown - 1] if shown else None))


def _move_lines(game: RecordedGame, oracle: Oracle | None, from_ply: int) -> list[str]:
    """The game's move lines, graded by ``oracle`` under a progress bar (the solver may take
    seconds a move on early plies of big boards)."""
    graded = max(0, len(game.columns) - from_ply) if oracle is not None else 0
    with progress_bar(graded, "grading moves", enabled=graded > 0, unit="move") as advance:
        return move_lines(game, oracle, from_ply, advance)


def _answers(directory: Path, game: RecordedGame) -> dict[int, list[str]]:
    """What the language models of ``game`` answered, by move number
    (``game_text.answer_lines``), after a warning if its transcript is damaged;
    MalformedInputError when no model played it."""
    index = game.row.game
    path = RunFiles(directory).llm_transcript(index)
    if not path.is_file():
        raise MalformedInputError(f"--answers: game {index} has no transcript in {directory} "
                                  "(no language model, an llm: agent, played it)")
    transcript = read_records(path)
    problem = transcript_damage(transcript, game.row)
    if problem is not None:
        warning = damage_warning([TranscriptDamage(index, path, problem)], "the answers shown")
        click.echo(f"arena: warning: {warning}", err=True)
    return answer_lines(transcript.records)


def _nothing_graded(game: RecordedGame, from_ply: int) -> str:
    """Why --scores graded no move of ``game``, and the --from-ply that grades its moves."""
    plies = len(game.columns)
    if not plies:
        return "No move graded: the game has no moves."
    first = len(game.row.opening) if len(game.row.opening) < plies else 0
    what = "the agents' moves" if first else "its moves"
    return (f"No move graded: the game has {plies} plies and moves are graded from ply "
            f"{from_ply} on; --from-ply {first} grades {what}.")


def _next_or_stop() -> bool:
    """Wait for Enter; True when the person typed q or input ended."""
    try:
        return input().strip().lower() == "q"
    except EOFError:
        return True
