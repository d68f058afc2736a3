"""games.csv checked row by row against the plan of its run, before anything trusts it.

Every row must be a game of the plan (index in range, once), with the plan's pairing, seed,
first mover and opening; a result and a termination from the known sets; numbers where numbers
belong; and a move string that plays legally from the opening to exactly that ending: a
line by the last move for ``four_in_a_row``, a full board for ``board_full``, a game still
going for a forfeit, with the result that follows; and for ``adjudicated``, a game still going
at the run's adjudication ply, with any result (in a run that adjudicates, no other game goes
past that ply). The move strings are checked in bulk by the
compiled core (``arena.search.kernels.endings``), so a run of a million games is checked in seconds.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

import numpy as np

from arena.rules.board import Rules
from arena.rules.results import FORFEITS, Result, Side, Termination
from arena.runs.planning.plan import MatchPlan
from arena.runs.planning.seeds import game_seed
from arena.runs.store.rows import COLUMNS, GamesTableError, read_header

CHUNK = 100_000
"""Rows checked by the kernel at a time (bounded memory for any run)."""

RESULTS = frozenset(Result)
TERMINATIONS = frozenset(Termination)
PLAN_FIELDS = ("pair", "seed", "agent_a", "agent_b", "first", "opening")


class Claim(NamedTuple):
    """What a row says of its game's ending: who moved first, A's result, the termination."""

    first: Side
    result: Result
    termination: Termination


class _Pending:
    """Rows waiting for the endings kernel: their line, move string and what they claim."""

    def __init__(self) -> None:
        self.lines: list[int] = []
        self.moves: list[str] = []
        self.claims: list[Claim] = []

    def add(self, line: int, moves: str, claim: Claim) -> None:
        self.lines.append(line)
        self.moves.append(moves)
        self.claims.append(claim)


def held_games(path: Path, total: int) -> np.ndarray:
    """The mask of the games a games.csv the run wrote holds (its rows trusted, not checked:
    only the game index of each is read)."""
    finished = np.zeros(total, dtype=bool)
    with path.open("rb") as file:
        file.readline()  # the header
        indices = [int(line[:line.index(b",")]) for line in file if line.endswith(b"\n")]
    try:
        finished[indices] = True
    except IndexError:
        raise GamesTableError(f"{path}: a game index past the run's {total} games") from None
    return finished


def check_games(path: Path, plan: MatchPlan, length: int | None = None) -> np.ndarray:
    """Check every row of ``path`` (its first ``length`` bytes) against ``plan``; the mask of
    the games it holds.

    GamesTableError names the file and the line of the first row that does not fit.
    """
    finished = np.zeros(plan.total, dtype=bool)
    pending = _Pending()
    for line, row in _rows(path, length):
        game, moves, claim = _check_row(path, line, row, plan, finished)
        finished[game] = True
        pending.add(line, moves, claim)
        if len(pending.lines) >= CHUNK:
            _check_endings(path, pending, plan.settings.rules)
            pending = _Pending()
    _check_endings(path, pending, plan.settings.rules)
    return finished


def _rows(path: Path, length: int | None) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of every row after the header."""
    try:
        with path.open("rb") as file:
            reader = csv.reader(_lines(path, file, length), strict=True)
            if not read_header(path, reader):
                return
            while True:
                try:
                    row = next(reader)
                except StopIteration:
                    return
                except csv.Error as error:
                    raise GamesTableError(f"{path}, line {reader.line_num}: not a CSV row "
                                          f"({error})") from None
                yield reader.line_num, row
    except OSError as error:
        raise GamesTableError(f"{path}: cannot read it: {error.strerror}") from None


def _lines(path: Path, file: BinaryIO, length: int | None) -> Iterator[str]:
    """The file's lines as text, up to ``length`` bytes."""
    read = 0
    for number, raw in enumerate(file, start=1):
        read += len(raw)
        if length is not None and read > length:
            return
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise GamesTableError(f"{path}, line {number}: not UTF-8 text") from None


def _check_row(path: Path, line: int, row: list[str], plan: MatchPlan,
               finished: np.ndarray) -> tuple[int, str, Claim]:
    """The row's game, moves and claimed ending, once every field fits the plan."""
    def bad(problem: str) -> GamesTableError:
        return GamesTableError(f"{path}, line {line}: {problem}; this row is not a game of "
                               "this run")

    if len(row) != len(COLUMNS):
        raise bad(f"{len(row)} fields, expected {len(COLUMNS)}")
    (index, pair, seed, agent_a, agent_b, first, opening, moves, result, termination, plies,
     *numbers, _) = row
    game = _whole(index)
    if game is None or not 0 <= game < plan.total:
        raise bad(f"game {index!r} is not a game index from 0 to {plan.total - 1}")
    if finished[game]:
        raise bad(f"game {game} appears twice")
    task = plan.task(game)
    expected = ("" if task.pair is None else str(task.pair),
                str(game_seed(plan.settings.seed, game)), task.agent_a, task.agent_b,
                task.first.value, task.opening)
    found = (pair, seed, agent_a, agent_b, first, opening)
    if found != expected:
        name, value, wanted = next(item for item in zip(PLAN_FIELDS, found, expected,
                                                        strict=True) if item[1] != item[2])
        raise bad(f"{name} is {value!r} where game {game} has {wanted!r}")
    if result not in RESULTS:
        raise bad(f"result {result!r} is not one of {', '.join(Result)}")
    if termination not in TERMINATIONS:
        raise bad(f"termination {termination!r} is not one of {', '.join(Termination)}")
    if not moves.startswith(opening):
        raise bad(f"moves {moves!r} do not start with the opening {opening!r}")
    if _whole(plies) != len(moves):
        raise bad(f"plies {plies!r} is not the number of moves ({len(moves)})")
    problem = _adjudication_problem(plan.settings.adjudicate, opening, moves,
                                    termination == Termination.ADJUDICATED)
    if problem:
        raise bad(problem)
    time_a, time_b, nodes_a, nodes_b, turns_a, turns_b = numbers
    for name, value in (("time_a", time_a), ("time_b", time_b)):
        if not _seconds(value):
            raise bad(f"{name} {value!r} is not a number of seconds")
    for name, value in (("nodes_a", nodes_a or "0"), ("nodes_b", nodes_b or "0"),
                        ("turns_a", turns_a), ("turns_b", turns_b)):
        if not value.isdigit():
            raise bad(f"{name} {value!r} is not a whole number")
    return game, moves, Claim(Side(first), Result(result), Termination(termination))


def _adjudication_problem(ply: int | None, opening: str, moves: str, adjudicated: bool) -> str:
    """What is wrong with a game that ended after ``moves``, ``adjudicated`` or not, in a run
    that adjudicates at ``ply`` (None: never) ('' if nothing): an adjudicated game ends at
    that ply (or its longer opening's end), any other before it or there."""
    if ply is None:
        return "the game was adjudicated, but this run does not adjudicate" if adjudicated \
            else ""
    due = max(ply, len(opening))
    if adjudicated and len(moves) != due:
        return f"the game was adjudicated after {len(moves)} plies, not at ply {due}"
    if not adjudicated and len(moves) > due:
        return (f"the game went on to {len(moves)} plies, past this run's adjudication at "
                f"ply {due}")
    return ""


def _whole(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _seconds(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value) and value >= 0


def _check_endings(path: Path, pending: _Pending, rules: Rules) -> None:
    """Play the pending rows' moves through and match each ending with the row's claim."""
    if not pending.lines:
        return
    text = "".join(pending.moves).encode("ascii", errors="replace")
    columns = np.frombuffer(text, dtype=np.uint8).astype(np.int64) - ord("1")
    offsets = np.zeros(len(pending.moves) + 1, dtype=np.int64)
    np.cumsum([len(moves) for moves in pending.moves], out=offsets[1:])
    from arena.search.kernels.endings import game_endings  # loaded only when rows are checked

    codes = game_endings(columns, offsets, rules.rows, rules.cols, rules.connect)
    for line, moves, claim, code in zip(pending.lines, pending.moves, pending.claims, codes,
                                        strict=True):
        problem = _ending_problem(moves, claim, int(code))
        if problem:
            raise GamesTableError(f"{path}, line {line}: {problem}; this row is not a game of "
                                  "this run")


def _ending_problem(moves: str, claim: Claim, code: int) -> str:
    """What is wrong with a row's claimed ending, given where its moves end ('' if right)."""
    from arena.search.kernels.endings import BAD_COLUMN, FULL, ONGOING, PAST_END, WON

    first, result, termination = claim
    if code == BAD_COLUMN:
        return f"moves {moves!r} play a column that is off the board or full"
    if code == PAST_END:
        return f"moves {moves!r} go on after a line was completed"
    endings = {WON: Termination.FOUR_IN_A_ROW, FULL: Termination.BOARD_FULL}
    if code in endings and termination != endings[code]:
        return f"moves {moves!r} end in {endings[code]}, not {termination}"
    if code == ONGOING and termination == Termination.ADJUDICATED:
        return ""  # any result: the solver's proof is not repeated here
    if code == ONGOING and termination not in FORFEITS:
        return f"moves {moves!r} leave the game unfinished, yet it ended in {termination}"
    if code == FULL:
        expected = Result.DRAW
    else:  # the last mover won, or the side to move (the other player) forfeited
        expected = Result.of_winner(2 - len(moves) % 2, Side.A.mover(first))
    if result != expected:
        return f"moves {moves!r} ending in {termination} make the result {expected}, not {result}"
    return ""
