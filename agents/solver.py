"""Perfect play: the exact solver on every board, and the ``solver`` agent.

Scores are in Pascal Pons' convention, for the side to move: positive when it wins, the
larger the sooner (``(cells left + 1) // 2`` when it wins with its next disc), 0 for a draw,
negative when it loses. ``solve(position)`` and ``column_scores(position)`` use one
solver per process, whose transposition table keeps what it learnt from one call to the
next; ``configure`` sets its table size (default ``DEFAULT_TABLE_MB``).
"""

from __future__ import annotations

import math

import numpy as np

from agents._kernels import solver as kernels
from agents._kernels.bitboard import board_array
from arena.board import Position, Rules
from arena.errors import IllegalMoveError

DEFAULT_TABLE_MB = 64
# What the kernels take after the two bitboards: board array, table, scratch, stats, book
# keys, book scores, book depth.
KernelArguments = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                        int]
MIN_TABLE_MB = 8 << kernels.MIN_TABLE_BITS >> 20  # 2 MB


def table_bits(table_mb: float) -> int:
    """log2 of the most 8-byte rows that fit in ``table_mb`` megabytes (at least the minimum)."""
    if not table_mb >= MIN_TABLE_MB:
        raise ValueError(f"the solver's table needs at least {MIN_TABLE_MB} MB, got {table_mb}")
    return int(math.log2(table_mb * (1 << 20) / 8))


class Solver:
    """An exact solver with its transposition table (``table_mb`` megabytes).

    The table belongs to one board at a time: a position of another board clears it.
    """

    def __init__(self, table_mb: float = DEFAULT_TABLE_MB):
        self.table = kernels.new_table(table_bits(table_mb))
        self.stats = kernels.new_stats()
        self._scratch = kernels.new_scratch(0)
        self._rules: Rules | None = None
        self._packed = np.zeros(0, dtype=np.uint64)

    @property
    def table_mb(self) -> float:
        """The size of the transposition table in megabytes."""
        return self.table.nbytes / (1 << 20)

    @property
    def nodes(self) -> int:
        """The positions searched by the last call."""
        return int(self.stats[kernels.NODES])

    def clear(self) -> None:
        """Forget everything the table learnt."""
        self.table.fill(0)

    def use_board(self, rules: Rules) -> None:
        """Make the table belong to ``rules`` (clearing it if it belonged to another board)."""
        if rules == self._rules:
            return
        if self._rules is not None:
            self.clear()
        self._rules = rules
        self._packed = board_array(rules)
        self._scratch = kernels.new_scratch(rules.rows * rules.cols)

    def arguments(self, position: Position) -> KernelArguments:
        """The kernel arguments after the two bitboards, for ``position``'s board."""
        self.use_board(position.rules)
        return (self._packed, self.table, self._scratch, self.stats,
                kernels.EMPTY_BOOK_KEYS, kernels.EMPTY_BOOK_SCORES, -1)

    def _start(self, position: Position, max_nodes: int | None) -> KernelArguments:
        if position.is_terminal:
            raise IllegalMoveError(f"solver: the game is already over in {position.describe()}")
        arguments = self.arguments(position)
        self.stats[kernels.NODES] = 0
        self.stats[kernels.LIMIT] = np.iinfo(np.int64).max if max_nodes is None else max_nodes
        return arguments

    def _finished(self) -> bool:
        return bool(self.stats[kernels.NODES] <= self.stats[kernels.LIMIT])

    def solve(self, position: Position, max_nodes: int | None = None) -> int | None:
        """The exact score of ``position`` for the side to move; None if it takes more than
        ``max_nodes`` nodes."""
        arguments = self._start(position, max_nodes)
        score = kernels.solve(np.uint64(position.current), np.uint64(position.mask), *arguments)
        return int(score) if self._finished() else None

    def column_scores(self, position: Position,
                      max_nodes: int | None = None) -> dict[int, int] | None:
        """The exact score of every legal column, for the side to move (minus the score of
        the position it leads to); None if it takes more than ``max_nodes`` nodes."""
        arguments = self._start(position, max_nodes)
        scores = kernels.column_scores(np.uint64(position.current), np.uint64(position.mask),
                                       *arguments)
        if not self._finished():
            return None
        return {c: int(score) for c, score in enumerate(scores.tolist())
                if score != kernels.NO_SCORE}


_shared: Solver | None = None


def shared_solver() -> Solver:
    """The process's solver, made on first use with the configured table size."""
    global _shared
    if _shared is None:
        _shared = Solver()
    return _shared


def configure(table_mb: float = DEFAULT_TABLE_MB) -> Solver:
    """Give the process's solver a new table of ``table_mb`` megabytes."""
    global _shared
    _shared = Solver(table_mb)
    return _shared


def solve(position: Position) -> int:
    """The exact score of ``position`` for the side to move (Pons' convention)."""
    score = shared_solver().solve(position)
    assert score is not None  # no node budget
    return score


def column_scores(position: Position) -> dict[int, int]:
    """The exact score of every legal column, for the side to move."""
    scores = shared_solver().column_scores(position)
    assert scores is not None  # no node budget
    return scores
