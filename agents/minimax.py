"""The classic minimax agent of seeds 000, 001 and 004, on a 2-D numpy board.

The search looks ``depth`` plies ahead from the agent's own point of view (the agent
maximises, its opponent minimises), optionally with alpha-beta pruning. Positions at the
depth limit are valued by the seeds' window heuristic for the agent only; won and lost
positions score ``WIN_SCORE`` minus the ply of the winning move, so a faster win scores
higher and a slower loss scores higher than a faster one.

Scoring windows from the agent's side only is the seeds' own rule (their minimax always
calls ``score_position(board, AI_PIECE)``), and it is kept: the agent's twos and threes
score, the opponent's count only as -4 per open three. It makes odd depths optimistic: at
depth 1, 3 or 5 the last ply searched is the agent's own, no reply of the opponent's is
weighed at the horizon, and a move that adds the agent's windows looks better than it is
(``experiments/minimax-depths.toml`` measures what each depth is worth in games).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from arena.protocol.agent import BaseAgent, Choice
from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError, MalformedInputError
from arena.rules.notation import to_array
from arena.search.heuristics import WIN_SCORE, window_points

INFINITY = 2 * WIN_SCORE
CENTRE_POINTS = 3
# The seeds' directions as (row step, column step): horizontal, vertical, both diagonals.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class WindowTables:
    """Every window of ``connect`` cells on one board size, as flat indices, and its points."""

    windows: np.ndarray  # (number of windows, connect) flat cell indices (row * cols + col)
    windows_through: tuple[np.ndarray, ...]  # per flat cell, the windows that contain it
    centre: np.ndarray  # flat indices of the centre column (cols // 2)
    points: np.ndarray  # points of a window by code = own * (connect + 1) + empty
    cell_codes: np.ndarray  # (3, 3): cell_codes[player][cell value] adds to a window's code


@cache
def window_tables(rules: Rules) -> WindowTables:
    """The window tables of ``rules``, computed once per board size."""
    rows, cols, k = rules.rows, rules.cols, rules.connect
    windows = [
        [(row + i * dr) * cols + col + i * dc for i in range(k)]
        for row in range(rows)
        for col in range(cols)
        for dr, dc in DIRECTIONS
        if 0 <= row + (k - 1) * dr < rows and 0 <= col + (k - 1) * dc < cols
    ]
    array = np.array(windows, dtype=np.intp).reshape(-1, k)
    through = tuple(array[(array == cell).any(axis=1)] for cell in range(rows * cols))
    cell_codes = np.zeros((3, 3), dtype=np.int16)
    for player in (1, 2):
        cell_codes[player] = [1, 0, 0]  # an empty cell counts 1
        cell_codes[player][player] = k + 1  # an own disc counts k + 1
    return WindowTables(
        windows=array,
        windows_through=through,
        centre=np.arange(rows, dtype=np.intp) * cols + cols // 2,
        points=_window_points(k),
        cell_codes=cell_codes,
    )


def _window_points(connect: int) -> np.ndarray:
    """The seeds' points of one window (``window_points``) by ``own * (connect + 1) + empty``."""
    by_opponent = window_points(connect)
    points = np.zeros((connect + 1) ** 2, dtype=np.int64)
    for own in range(connect + 1):
        for empty in range(connect + 1 - own):
            points[own * (connect + 1) + empty] = by_opponent[own, connect - own - empty]
    return points


def window_score(board: np.ndarray, rules: Rules, player: int) -> int:
    """The seeds' heuristic value of a rows x cols board (0 empty, 1, 2) for ``player``."""
    return _flat_window_score(_checked_flat(board, rules), window_tables(rules), player)


def _flat_window_score(flat: np.ndarray, tables: WindowTables, player: int) -> int:
    codes = tables.cell_codes[player][flat][tables.windows].sum(axis=1)
    centre = int(np.count_nonzero(flat[tables.centre] == player))
    return int(tables.points[codes].sum()) + CENTRE_POINTS * centre


def _checked_flat(board: np.ndarray, rules: Rules) -> np.ndarray:
    """A flat int8 copy of ``board`` after checking it fits ``rules``."""
    array = np.asarray(board)
    if array.shape != (rules.rows, rules.cols):
        raise MalformedInputError(
            f"board of shape {array.shape} does not fit {rules}: expected "
            f"({rules.rows}, {rules.cols})"
        )
    if not np.isin(array, (0, 1, 2)).all():
        raise MalformedInputError("board cells must be 0 (empty), 1 or 2")
    return array.astype(np.int8).ravel()


class _Search:
    """One depth-limited minimax search on a flat board changed in place and restored."""

    def __init__(self, board: np.ndarray, rules: Rules, player: int, pruning: bool):
        self.flat = _checked_flat(board, rules)
        self.rows, self.cols = rules.rows, rules.cols
        grid = self.flat.reshape(rules.rows, rules.cols)
        self.heights = [int(np.count_nonzero(grid[:, col])) for col in range(rules.cols)]
        self.tables = window_tables(rules)
        self.player = player
        self.pruning = pruning
        self.nodes = 1

    def moves(self) -> list[int]:
        """The columns that are not full, left to right as in the seeds."""
        return [col for col in range(self.cols) if self.heights[col] < self.rows]

    def move_value(self, col: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        """The value of playing ``col`` as the ``ply``-th move below the root.

        ``depth`` plies are searched after it. The value is exact when it lies strictly
        between ``alpha`` and ``beta`` (always, without pruning), else a bound beyond them.
        """
        mover = self.player if ply % 2 else 3 - self.player
        cell = self.heights[col] * self.cols + col
        self.flat[cell] = mover
        self.heights[col] += 1
        self.nodes += 1
        if self._completes_line(cell, mover):
            value = WIN_SCORE - ply if mover == self.player else ply - WIN_SCORE
        elif not (moves := self.moves()):
            value = 0
        elif depth == 0:
            value = _flat_window_score(self.flat, self.tables, self.player)
        else:
            value = self._node_value(moves, depth, ply, alpha, beta)
        self.heights[col] -= 1
        self.flat[cell] = 0
        return value

    def _node_value(self, moves: list[int], depth: int, ply: int, alpha: int, beta: int) -> int:
        """The minimax value of the current position, ``ply`` plies below the root."""
        maximising = ply % 2 == 0
        value = -INFINITY if maximising else INFINITY
        for col in moves:
            score = self.move_value(col, depth - 1, ply + 1, alpha, beta)
            if maximising:
                value = max(value, score)
                alpha = max(alpha, value)
            else:
                value = min(value, score)
                beta = min(beta, value)
            if self.pruning and alpha >= beta:
                break
        return value

    def _completes_line(self, cell: int, mover: int) -> bool:
        """True if ``mover``'s disc on ``cell`` made a line."""
        return _any_line(self.flat, self.tables.windows_through[cell], mover)


def _any_line(flat: np.ndarray, windows: np.ndarray, player: int) -> bool:
    """True if one of ``windows`` is filled with ``player``'s discs."""
    return bool((flat[windows] == player).all(axis=1).any())


def check_depth(depth: int) -> None:
    """Raise ValueError unless ``depth`` is a whole number of plies >= 1."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"minimax depth must be a whole number >= 1, got {depth!r}")


def minimax_scores(
    board: np.ndarray, rules: Rules, player: int, depth: int, pruning: bool = True
) -> tuple[dict[int, int], int]:
    """The minimax score of every legal root move for ``player`` to move, and the nodes searched.

    ``board`` is a rows x cols array as given by ``arena.rules.notation.to_array`` (row 0 at the
    bottom, 0 empty, 1 first player, 2 second player) and must hold no line yet. The root
    score is the maximum of the scores and is exact, as is the score of every move that
    reaches it; with pruning, the other moves' scores are upper bounds below the maximum.
    """
    check_depth(depth)
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, got {player!r}")
    search = _Search(board, rules, player, pruning)
    if not search.moves() or any(
        _any_line(search.flat, search.tables.windows, side) for side in (1, 2)
    ):
        raise IllegalMoveError("minimax: the game on this board is already over")
    scores: dict[int, int] = {}
    best = -INFINITY
    for col in search.moves():
        # alpha = best - 1 keeps a move that merely equals the best exact, for the tie-break.
        scores[col] = search.move_value(col, depth - 1, 1, best - 1, INFINITY)
        best = max(best, scores[col])
    return scores, search.nodes


def best_moves(scores: dict[int, int]) -> list[int]:
    """The columns whose score is the highest, left to right."""
    top = max(scores.values())
    return [col for col, score in scores.items() if score == top]


class MinimaxAgent(BaseAgent):
    """Classic depth-limited minimax with the seeds' window heuristic (seeds 000, 001, 004)."""

    def __init__(self, depth: int = 4, pruning: bool = True):
        check_depth(depth)
        self.depth = depth
        self.pruning = pruning

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A best-scoring column, ties broken at random with ``rng``."""
        scores, nodes = minimax_scores(
            to_array(position), position.rules, position.side_to_move, self.depth, self.pruning
        )
        candidates = best_moves(scores)
        column = candidates[int(rng.integers(len(candidates)))]
        return Choice(column, nodes=nodes, depth=self.depth, score=scores[column])
