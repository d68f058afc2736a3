"""Datasets of positions for training: one row per position before a move of a game, with
the game's moves, the move played, the game's result for the mover and, when labelled, the
exact solver's score of every column.

Games come from run directories (``run_games``) or are played here by two agents
(``play_games``: random play by default). The columns of a dataset (``Dataset``), for a board
of ``rows`` x ``cols``:

- ``game`` (int32): the game's index among the games read; ``ply`` (int16): discs on the
  board; ``side_to_move`` (int8): 1 (moved first) or 2;
- ``current``, ``mask`` (uint64): the position as bitboards in the layout of
  ``arena.rules.board`` (column ``c`` owns bits ``c*(rows+1)`` upwards from the bottom row,
  ``current`` the discs of the side to move, ``mask`` all discs); ``planes(dataset)`` turns
  them into the int8 planes of ``arena.envs.observation``;
- ``moves`` (str): the move string reaching the position (1 = leftmost column);
- ``move`` (int8): the column played next, 0-based; ``result`` (int8): how the game ended
  for the side to move, +1 won, 0 drawn, -1 lost (a forfeit counts as the game's result);
- ``duplicate`` (bool): the position, or its mirror image, came in an earlier row;
- ``scores`` (int8, rows x cols, when labelled): the exact score of each column in Pons'
  convention (positive: the mover wins, the larger the sooner; 0 a draw; negative a loss),
  ``NO_SCORE`` for a full column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from arena.analysis.annotate import default_from_ply
from arena.analysis.parallel import SolverSettings, chunked_map, solver_settings
from arena.hosting.policy import make_host
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.notation import format_moves, parse_moves
from arena.rules.results import Result, Side
from arena.runs.planning.seeds import game_rng
from arena.runs.playing.game import play_game
from arena.runs.store.reading import open_run
from arena.search.kernels.bitboard import board_array
from arena.search.kernels.vector import observe

NO_SCORE = -128
CHUNK = 64  # positions a solver worker labels at a time (the progress bar moves by as many)


class DatasetError(ArenaError):
    """Games that cannot make one dataset (boards that differ, nothing to read)."""


@dataclass(frozen=True)
class GameLine:
    """A whole game: its columns from the empty board and its winner (0: a draw)."""

    moves: tuple[int, ...]
    winner: int


@dataclass
class Dataset:
    """The rows of a dataset as column arrays (see the module docstring)."""

    rules: Rules
    game: np.ndarray
    ply: np.ndarray
    side_to_move: np.ndarray
    current: np.ndarray
    mask: np.ndarray
    moves: np.ndarray
    move: np.ndarray
    result: np.ndarray
    duplicate: np.ndarray
    scores: np.ndarray | None = field(default=None)

    def __len__(self) -> int:
        return len(self.ply)

    def positions(self) -> list[Position]:
        """The rows' positions."""
        return [Position(self.rules, int(c), int(m))
                for c, m in zip(self.current, self.mask, strict=True)]

    def boards(self) -> list[tuple[int, int]]:
        """The distinct positions of the rows as bitboards (current, mask), in row order."""
        return list(dict.fromkeys(zip(self.current.tolist(), self.mask.tolist(), strict=True)))

    def select(self, keep: np.ndarray) -> Dataset:
        """The rows where ``keep`` is True."""
        arrays = {name: getattr(self, name)[keep] for name in COLUMNS}
        scores = None if self.scores is None else self.scores[keep]
        return replace(self, **arrays, scores=scores)


COLUMNS = ("game", "ply", "side_to_move", "current", "mask", "moves", "move", "result",
           "duplicate")


def run_games(directories: Sequence[Path]) -> tuple[Rules, list[GameLine]]:
    """The games of the runs in ``directories`` (each checked as ``open_run`` checks it), all
    on one board."""
    rules: Rules | None = None
    games: list[GameLine] = []
    for directory in directories:
        reading = open_run(directory)
        if rules is not None and reading.meta.rules != rules:
            raise DatasetError(f"{directory} is a run on {reading.meta.rules}, the runs "
                               f"before it on {rules}: a dataset holds one board")
        rules = reading.meta.rules
        for row in reading.rows():
            a_player = 1 if row.first is Side.A else 2
            winner = 0 if row.result is Result.DRAW else (
                a_player if row.result is Result.WIN else 3 - a_player)
            games.append(GameLine(tuple(parse_moves(row.moves, rules)), winner))
    if rules is None:
        raise DatasetError("no run directory given")
    return rules, games


def play_games(agent_a: str, agent_b: str, count: int, rules: Rules, seed: int,
               progress: Callable[[int], None] | None = None) -> list[GameLine]:
    """``count`` games of ``agent_a`` (moving first in even games) against ``agent_b``, each
    agent hosted and each game seeded as in a match of run seed ``seed``; ``progress`` is told
    of each game played."""
    hosts = [make_host(agent_a, "auto"), make_host(agent_b, "auto")]
    games = []
    try:
        for game in range(count):
            players = hosts if game % 2 == 0 else hosts[::-1]
            record = play_game(players, [game_rng(seed, game)] * 2, Position.empty(rules))
            games.append(GameLine(tuple(record.moves), record.winner))
            if progress is not None:
                progress(1)
    finally:
        for host in hosts:
            host.close()
    return games


def dataset_of_games(games: Iterable[GameLine], rules: Rules,
                     plies: tuple[int, int] | None = None) -> Dataset:
    """One row per position before a move of ``games`` (with ``plies[0]`` to ``plies[1]``
    discs, when given), duplicates marked."""
    low, high = plies or (0, rules.rows * rules.cols)
    rows: dict[str, list] = {name: [] for name in COLUMNS}
    seen: set[int] = set()
    for index, line in enumerate(games):
        position = Position.empty(rules)
        for ply, column in enumerate(line.moves):
            if low <= ply <= high:
                mover = position.side_to_move
                key = position.key()
                mirrored = position.mirror().key()
                rows["game"].append(index)
                rows["ply"].append(ply)
                rows["side_to_move"].append(mover)
                rows["current"].append(position.current)
                rows["mask"].append(position.mask)
                rows["moves"].append(format_moves(line.moves[:ply]))
                rows["move"].append(column)
                rows["result"].append(0 if line.winner == 0 else 1 if line.winner == mover
                                      else -1)
                rows["duplicate"].append(key in seen or mirrored in seen)
                seen.add(key)
            position = position.play(column)
    dtypes = {"game": np.int32, "ply": np.int16, "side_to_move": np.int8,
              "current": np.uint64, "mask": np.uint64, "moves": object, "move": np.int8,
              "result": np.int8, "duplicate": np.bool_}
    return Dataset(rules, **{name: np.array(rows[name], dtype=dtypes[name])
                             for name in COLUMNS})


def _label_chunk(positions: Sequence[tuple[int, int]], rules: Rules, max_nodes: int | None,
                 settings: SolverSettings) -> list[list[int]]:
    """The column scores of a few positions (bitboards), with the process's solver; all
    NO_SCORE for a position that needs more than ``max_nodes`` nodes."""
    from arena.search.solver import ensure_solver

    solver = ensure_solver(*settings)
    labelled = []
    for current, mask in positions:
        scores = solver.column_scores(Position(rules, current, mask), max_nodes)
        labelled.append([NO_SCORE] * rules.cols if scores is None
                        else [scores.get(c, NO_SCORE) for c in range(rules.cols)])
    return labelled


COSTLY_CELLS = 30
"""Boards of this many cells or more (5 x 6 and up) make the solver take seconds or more over
some positions of the early game, where it has no database: the empty 5 x 6 board takes it
3 s on two cores, 6 x 6 14 s; 4 x 5 0.3 s."""


def costly_boards(dataset: Dataset, max_nodes: int | None = None) -> int:
    """How many of the distinct positions of ``dataset`` the solver may take long over: with
    no node budget, on a board of ``COSTLY_CELLS`` or more, those before the first ply it
    grades by default (``default_from_ply``: none on 6 x 7, where it has the published
    database; those of fewer than 12 discs on other boards)."""
    rules = dataset.rules
    if max_nodes is not None or rules.rows * rules.cols < COSTLY_CELLS:
        return 0
    early = default_from_ply(rules)
    return sum(1 for _, mask in dataset.boards() if int(mask).bit_count() < early)


def label(dataset: Dataset, jobs: int = 1, max_nodes: int | None = None,
          progress: Callable[[int], None] | None = None) -> Dataset:
    """``dataset`` with the exact score of every column of every row, solved in ``jobs``
    processes (each position once, whatever its duplicates: ``boards()``); with
    ``max_nodes``, the rows whose position the solver does not finish within that many nodes
    are left out. ``progress`` is told of the distinct positions as they are labelled."""
    boards = dataset.boards()
    unique = {board: index for index, board in enumerate(boards)}
    found = np.full((len(boards), dataset.rules.cols), NO_SCORE, dtype=np.int8)
    start = 0
    for chunk, chunk_scores in chunked_map(_label_chunk, boards, jobs, CHUNK, dataset.rules,
                                           max_nodes, solver_settings()):
        found[start:start + len(chunk)] = chunk_scores
        start += len(chunk)
        if progress is not None:
            progress(len(chunk))
    rows = np.array([unique[key] for key in zip(dataset.current.tolist(),
                                                 dataset.mask.tolist(), strict=True)],
                    dtype=np.int64)
    scores = found[rows]
    return replace(dataset, scores=scores).select(np.any(scores != NO_SCORE, axis=1))


def planes(dataset: Dataset) -> np.ndarray:
    """The (rows, 2, board rows, board cols) int8 planes of every row (plane 0 the side to
    move's discs, board row 0 at the top), as the environments and ``onnx:`` agents see them."""
    rules = dataset.rules
    out = np.zeros((len(dataset), 2, rules.rows, rules.cols), dtype=np.int8)
    legal = np.zeros((len(dataset), rules.cols), dtype=np.bool_)
    observe(board_array(rules), dataset.current, dataset.mask, out, legal)
    return out
