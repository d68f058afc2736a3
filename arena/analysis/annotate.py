"""Where games were thrown away: every move the agents played in a run's games, from a given
ply on (the moves of an opening are not theirs), graded by the exact solver, and for each game
the first move that changed its theoretical result.

Unless told, grading starts at ``default_from_ply``: every ply on 6 x 7, where the solver
has the published 12-ply database, else ply ``FROM_PLY_WITHOUT_DATABASE``; a run analysed
before goes on as it began.

The theoretical result of a position is what perfect play from there gives agent A: win,
draw or loss (the run's convention: agent A's point of view). A move changes it only for the
worse for the side that plays it; such a move is a blunder. ``ply`` counts the discs on the
board before the move (the move is the game's move number ``ply + 1``).

With ``best_moves``, the positions are solved strongly instead: the exact score of each
position (the best of its columns' scores) and so of each move (minus that of the position it
leads to); a move is a best move when no legal column scores higher, as
``arena.analysis.accuracy`` grades agents on position sets.

Written beside games.csv: ``analysis.csv`` (one row a game), ``blunders.csv`` (one row a
blunder) and, with ``best_moves``, ``moves.csv`` (one row a graded move). Games are appended
as they are analysed, so an interrupted analysis resumes, with the options it began with.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from arena.analysis.parallel import SolverSettings, chunked_map, solver_settings
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.results import Result, Side
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.reading import open_run
from arena.runs.store.rows import GameRow
from arena.search.database import database_used
from arena.search.oracle import outcome_class
from arena.system.files import check_writable, truncate_partial_line

if TYPE_CHECKING:
    import pandas as pd

CHUNK = 2  # games per task of the worker pool
FROM_PLY_WITHOUT_DATABASE = 12
"""Where grading starts by default on a board without the database: the earlier positions
of big boards cost the solver seconds to minutes each."""


class AnalysisError(ArenaError):
    """A run that cannot be analysed, or an analysis made with other options."""


@dataclass(frozen=True)
class Blunder:
    """A move that changed the theoretical result of its game."""

    game: int
    ply: int
    side: Side  # who played it
    agent: str
    move: int  # the column, 1 = leftmost
    before: Result  # the theoretical result for agent A before the move
    after: Result  # and after it


@dataclass(frozen=True)
class GradedMove:
    """A move by its exact score, beside the best of its position (``best_moves``)."""

    game: int
    ply: int
    side: Side  # who played it
    agent: str
    move: int  # the column, 1 = leftmost
    score: int  # the move's exact score for the side that played it (Pons' convention)
    best_score: int  # the highest score of a legal column: the position's score
    best: int  # 1 if the move has that score, else 0
    before: Result  # the theoretical result for agent A before the move
    after: Result  # and after it


@dataclass(frozen=True)
class GameAnalysis:
    """One game: its theoretical result from ``from_ply`` on and its first blunder."""

    game: int
    agent_a: str
    agent_b: str
    first: Side
    result: Result  # the result the game had, for agent A
    plies: int
    from_ply: int
    graded_from: int  # the first ply graded: from_ply, or later after a longer opening
    start: Result | None  # the theoretical result for A where grading starts (None: over)
    moves_a: int  # moves of agent A analysed
    moves_b: int
    blunders_a: int
    blunders_b: int
    first_blunder_ply: int | None
    first_blunder_side: Side | None
    first_blunder_agent: str
    first_blunder_move: int | None
    first_blunder_before: Result | None
    first_blunder_after: Result | None


def default_from_ply(rules: Rules) -> int:
    """The first ply the solver grades on ``rules``' board unless told: 0 (every move) where
    it has the published database (6 x 7, unless turned off), else
    ``FROM_PLY_WITHOUT_DATABASE``."""
    return 0 if database_used(rules) else FROM_PLY_WITHOUT_DATABASE


def path_scores(positions: Sequence[Position], solve: Callable[[Position], int]) -> list[int]:
    """The score of each position for the side to move, by ``solve`` (exact, or with a weak
    solve its sign only), those of positions that are over too: lost as soon as can be if the
    last move won, else a draw. The last positions are solved first: they fill the table for
    the earlier ones."""
    scores = [0] * len(positions)
    for index in reversed(range(len(positions))):
        position = positions[index]
        if position.won:
            scores[index] = -((position.rules.rows * position.rules.cols + 2
                               - position.plies) // 2)
        elif not position.is_full:
            scores[index] = solve(position)
    return scores


def analyse_game(game: GameRow, rules: Rules, from_ply: int,
                 solve: Callable[[Position], int],
                 strong: Callable[[Position], int] | None = None,
                 ) -> tuple[GameAnalysis, list[Blunder], list[GradedMove]]:
    """Grade every move of ``game`` the agents played at ``from_ply`` discs or more (the
    opening's moves are not theirs) with ``solve`` (a position's score, of which only the
    sign counts); with ``strong`` in its place (a position's exact score), each beside its
    exact score and the best one too (else no ``GradedMove``)."""
    positions = [Position.empty(rules)]
    for char in game.moves:
        positions.append(positions[-1].play(int(char) - 1))
    start = min(max(from_ply, len(game.opening)), len(game.moves))
    scores = path_scores(positions[start:], strong or solve)
    classes = [outcome_class(score) for score in scores]

    def mover(ply: int) -> Side:  # who plays the move at ply
        return game.first if ply % 2 == 0 else game.first.other

    def for_a(ply: int) -> Result:  # the theoretical result at ply, for agent A
        value = classes[ply - start]
        return Result.of_sign(value if mover(ply) is Side.A else -value)

    blunders, moves, counts = [], [], {Side.A: 0, Side.B: 0}
    for ply in range(start, len(game.moves)):
        side, move = mover(ply), int(game.moves[ply])
        agent = game.agent_a if side is Side.A else game.agent_b
        counts[side] += 1
        before, after = for_a(ply), for_a(ply + 1)
        if before != after:
            blunders.append(Blunder(game.game, ply, side, agent, move, before, after))
        if strong:
            score, top = -scores[ply + 1 - start], scores[ply - start]
            moves.append(GradedMove(game.game, ply, side, agent, move, score, top,
                                    int(score == top), before, after))
    first = blunders[0] if blunders else None
    return GameAnalysis(
        game=game.game, agent_a=game.agent_a, agent_b=game.agent_b, first=game.first,
        result=game.result, plies=len(game.moves), from_ply=from_ply, graded_from=start,
        start=None if positions[start].is_terminal else for_a(start),
        moves_a=counts[Side.A], moves_b=counts[Side.B],
        blunders_a=sum(b.side is Side.A for b in blunders),
        blunders_b=sum(b.side is Side.B for b in blunders),
        first_blunder_ply=first.ply if first else None,
        first_blunder_side=first.side if first else None,
        first_blunder_agent=first.agent if first else "",
        first_blunder_move=first.move if first else None,
        first_blunder_before=first.before if first else None,
        first_blunder_after=first.after if first else None,
    ), blunders, moves


def _analyse_chunk(games: Sequence[GameRow], rules: Rules, from_ply: int,
                   settings: SolverSettings, best_moves: bool,
                   ) -> list[tuple[GameAnalysis, list[Blunder], list[GradedMove]]]:
    """Analyse a few games with weak solves by the process's solver (in a worker: one like
    its parent's), or with ``best_moves`` strong ones."""
    from arena.search.solver import ensure_solver, solve

    shared = ensure_solver(*settings)

    def weak(position: Position) -> int:
        score = shared.solve(position, weak=True)
        assert score is not None  # no node budget
        return score

    return [analyse_game(game, rules, from_ply, weak, solve if best_moves else None)
            for game in games]


class _Appender:
    """A CSV file of dataclass rows, opened for appending (header first when new)."""

    def __init__(self, path: Path, kind: type):
        self.path = path
        self.header = [f.name for f in fields(kind)]

    def append(self, rows: Sequence[Any]) -> None:
        new = not self.path.exists() or self.path.stat().st_size == 0
        with self.path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            if new:
                writer.writerow(self.header)
            writer.writerows(["" if value is None else value for value in astuple(row)]
                             for row in rows)


def finished_games(directory: Path, from_ply: int | None = None,
                   best_moves: bool | None = None) -> tuple[set[int], int | None, bool | None]:
    """The games already in analysis.csv, which must have been made with ``from_ply`` and
    ``best_moves``, and those options (None: as analysis.csv's first game, or None without
    one; an analysis made with ``best_moves`` is one with a moves.csv). blunders.csv and
    moves.csv are cut back to those games, so that a game interrupted between the files is
    analysed again."""
    files = RunFiles(directory)
    analysis = files.analysis
    done: set[int] = set()
    if analysis.exists():
        truncate_partial_line(analysis)
        with analysis.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if from_ply is None:
                    from_ply = int(row["from_ply"])
                if int(row["from_ply"]) != from_ply:
                    raise AnalysisError(
                        f"{analysis} was made with --from-ply {row['from_ply']}; use that, or "
                        f"{_start_again(files)}")
                done.add(int(row["game"]))
    if not done:
        files.moves.unlink(missing_ok=True)  # no analysis to go on with: no option yet
        return done, from_ply, best_moves
    made_with = files.moves.exists()
    if best_moves is not None and best_moves != made_with:
        made = ("with --best-moves; keep it" if made_with
                else "without --best-moves; leave it out")
        raise AnalysisError(f"{analysis} was made {made}, or {_start_again(files)}")
    for path in (files.blunders, files.moves):
        _keep_games(path, done)
    return done, from_ply, made_with


def _start_again(files: RunFiles) -> str:
    """What to delete to analyse a run anew."""
    names = [path.name for path in (files.analysis, files.blunders, files.moves)
             if path.exists()]
    return f"delete {', '.join(names[:-1])} and {names[-1]} to start again"


def _keep_games(path: Path, games: set[int]) -> None:
    """Cut the CSV file at ``path`` (game first) back to the rows of ``games``."""
    if not path.exists():
        return
    truncate_partial_line(path)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    kept = [rows[0], *(row for row in rows[1:] if int(row[0]) in games)] if rows else []
    if len(kept) != len(rows):
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(kept)


class Pending(NamedTuple):
    """What is left to analyse of a run, and how."""

    games: list[GameRow]  # the games not analysed yet, in game order
    total: int  # the games of the run
    from_ply: int  # where grading starts
    best_moves: bool  # strong solves: each move's exact score too (moves.csv)


def pending_games(directory: Path, from_ply: int | None = None,
                  best_moves: bool | None = None) -> Pending:
    """The games of the run in ``directory`` (checked as ``arena.runs.store.reading.open_run``
    checks them) not analysed yet, graded from ``from_ply``, with exact scores if
    ``best_moves``; None: as the run's analysis so far, else from ``default_from_ply`` of
    its board, without exact scores. UnwritableError, before any work, when the analysis
    cannot be written beside the games (a read-only filesystem)."""
    run = open_run(directory)
    check_writable(directory, "the analysis")
    games = sorted(run.rows(), key=lambda game: game.game)
    done, from_ply, best_moves = finished_games(directory, from_ply, best_moves)
    if from_ply is None:
        from_ply = default_from_ply(run.meta.rules)
    return Pending([game for game in games if game.game not in done], len(games), from_ply,
                   bool(best_moves))


def analyse_run(directory: Path, from_ply: int, games: Sequence[GameRow],
                jobs: int = 1, progress: Callable[[int], None] | None = None,
                best_moves: bool = False) -> None:
    """Analyse ``games`` of the run in ``directory`` (see ``pending_games``) with ``jobs``
    processes and append them to its analysis (with ``best_moves``, moves.csv too);
    ``progress(n)`` is told as games finish."""
    rules = load_meta(directory).rules
    files = RunFiles(directory)
    analysis = _Appender(files.analysis, GameAnalysis)
    blunders = _Appender(files.blunders, Blunder)
    moves = _Appender(files.moves, GradedMove)
    for _, chunk_results in chunked_map(_analyse_chunk, games, jobs, CHUNK, rules, from_ply,
                                        solver_settings(), best_moves):
        for game_analysis, game_blunders, game_moves in chunk_results:
            blunders.append(game_blunders)  # the others first: a game counts once analysed
            if best_moves:
                moves.append(game_moves)
            analysis.append([game_analysis])
        if progress:
            progress(len(chunk_results))


def load_analysis(directory: Path) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """analysis.csv and blunders.csv as DataFrames with their dtypes (the ply and column of
    a first blunder are nullable integers), or None if the run has no analysis."""
    import pandas as pd

    files = RunFiles(directory)
    if not files.analysis.exists():
        return None
    text = {"agent_a": str, "agent_b": str, "first": str, "result": str, "start": str,
            "first_blunder_side": str, "first_blunder_agent": str,
            "first_blunder_before": str, "first_blunder_after": str}
    analysis = pd.read_csv(files.analysis, dtype=text, keep_default_na=False,
                           na_values={"first_blunder_ply": [""], "first_blunder_move": [""]})
    for column in ("first_blunder_ply", "first_blunder_move"):
        analysis[column] = analysis[column].astype("Int64")
    blunders = pd.read_csv(files.blunders,
                           dtype={"side": str, "agent": str, "before": str, "after": str},
                           keep_default_na=False)
    return analysis, blunders


def load_moves(directory: Path) -> pd.DataFrame | None:
    """moves.csv as a DataFrame with its dtypes, or None if the run was not analysed with
    ``best_moves``."""
    import pandas as pd

    path = RunFiles(directory).moves
    if not path.exists():
        return None
    return pd.read_csv(path, dtype={"side": str, "agent": str, "before": str, "after": str},
                       keep_default_na=False)
