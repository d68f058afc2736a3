"""The exact solver: the score of any position under perfect play, on every board.

Scores are in Pascal Pons' convention, for the side to move: positive when it wins, the
larger the sooner (``(cells left + 1) // 2`` when it wins with its next disc), 0 for a draw,
negative when it loses. ``solve(position)`` and ``column_scores(position)`` use one
solver per process, whose transposition table keeps what it learnt from one call to the
next; ``configured`` sets its table size (default ``DEFAULT_TABLE_MB``), book directory and
threads for as long as a command runs. With several threads, they search different windows
of one position at once on the one table, and split a window between them when none is left
free (``arena.search.parallel``). The ``solver`` agent
(the solver agent), adjudication, the analysis commands and the window's hints all ask it.

The search itself runs in the compiled core (``arena/search/core/solver.hpp`` through
``arena.search.kernels.solver``: C++17, the GIL released while it searches), as do the fused
game loop's solver players and its adjudication.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError
from arena.search.book import Book, load_book
from arena.search.database import Database, database_for
from arena.search.kernels import solver as kernels
from arena.search.kernels.bitboard import board_array
from arena.search.parallel import Lane, Task, new_lanes, solve_in_lanes
from arena.search.table_size import DEFAULT_TABLE_MB, TableSizeError, table_bits
from arena.system.cachedir import cache_dir

# What the kernels take after the two bitboards: board array, table, scratch, stats, books.
KernelArguments = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, kernels.Books]


class Solver:
    """An exact solver with its transposition table (``table_mb`` megabytes), using the
    opening books it finds in ``book_dir`` (a cache directory; None: no books), searching
    with ``threads`` threads on the one table when no node budget is set (with a budget,
    one thread: the nodes of one search are what a budget counts). One thread searches
    exactly as the single-threaded solver; more give the same scores, sooner. On 6 x 7 it
    looks positions of 12 discs up in the published database (``arena.search.database``)
    unless ``CONNECT_FOUR_ARENA_DATABASE=off``.

    The table belongs to one board at a time: a position of another board clears it.
    """

    def __init__(self, table_mb: float = DEFAULT_TABLE_MB, book_dir: Path | None = None,
                 threads: int = 1):
        bits = table_bits(table_mb)
        try:
            self.table = kernels.new_table(bits)
        except MemoryError:
            raise TableSizeError(f"cannot allocate a solver table of {8 << bits >> 20} MB "
                                 "(--table-mb): not enough free memory") from None
        self.stats = kernels.new_stats()
        self.book_dir = book_dir
        self.book: Book | None = None
        self.database: Database | None = None
        self._scratch = kernels.new_scratch(0)
        self._rules: Rules | None = None
        self._packed = np.zeros(0, dtype=np.uint64)
        self._lanes: list[Lane] = []
        self.threads = threads

    @property
    def threads(self) -> int:
        """The threads that search one position together."""
        return self._threads

    @threads.setter
    def threads(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"the solver needs at least one thread, got {count}")
        self._threads = count  # the lanes follow at the next threaded search

    @property
    def table_mb(self) -> float:
        """The size of the transposition table in megabytes."""
        return self.table.nbytes / (1 << 20)

    @property
    def nodes(self) -> int:
        """The positions searched by the last call (by all its threads)."""
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
        self._lanes = []
        self.book = load_book(self.book_dir, rules) if self.book_dir is not None else None
        self.database = database_for(rules)

    def use_book(self, book: Book | None) -> None:
        """Use ``book`` (for its board) instead of the one found in ``book_dir``."""
        if book is not None:
            self.use_board(book.rules)
        self.book = book

    def arguments(self, position: Position) -> KernelArguments:
        """The kernel arguments after the two bitboards, for ``position``'s board."""
        self.use_board(position.rules)
        books = kernels.no_books()
        if self.database is not None:
            books = books._replace(database=self.database.records,
                                   database_index=self.database.index)
        if self.book is not None:
            books = books._replace(keys=self.book.keys, scores=self.book.scores,
                                   depth=self.book.depth)
        return (self._packed, self.table, self._scratch, self.stats, books)

    def _start(self, position: Position, max_nodes: int | None) -> KernelArguments:
        if position.is_terminal:
            raise IllegalMoveError(f"solver: the game is already over in {position.describe()}")
        arguments = self.arguments(position)
        self.stats[kernels.NODES] = 0
        self.stats[kernels.LIMIT] = np.iinfo(np.int64).max if max_nodes is None else max_nodes
        return arguments

    def _finished(self) -> bool:
        return bool(self.stats[kernels.NODES] <= self.stats[kernels.LIMIT])

    def solve(self, position: Position, max_nodes: int | None = None,
              weak: bool = False) -> int | None:
        """The exact score of ``position`` for the side to move; None if it takes more than
        ``max_nodes`` nodes. ``weak``: only the sign is sure (win, draw or loss), and it
        comes sooner."""
        arguments = self._start(position, max_nodes)
        if self.threads > 1 and max_nodes is None:
            found, nodes = self._solve_in_lanes(position, weak, arguments)
            self.stats[kernels.NODES] = nodes
            return found
        score = kernels.solve(np.uint64(position.current), np.uint64(position.mask), weak,
                              *arguments)
        return int(score) if self._finished() else None

    def column_scores(self, position: Position,
                      max_nodes: int | None = None) -> dict[int, int] | None:
        """The exact score of every legal column, for the side to move (minus the score of
        the position it leads to); None if it takes more than ``max_nodes`` nodes."""
        arguments = self._start(position, max_nodes)
        if self.threads > 1 and max_nodes is None:
            return self._column_scores_in_lanes(position, arguments)
        scores = kernels.column_scores(np.uint64(position.current), np.uint64(position.mask),
                                       *arguments)
        if not self._finished():
            return None
        return {c: int(score) for c, score in enumerate(scores.tolist())
                if score != kernels.NO_SCORE}

    def _solve_in_lanes(self, position: Position, weak: bool, arguments: KernelArguments
                        ) -> tuple[int, int]:
        """``solve`` by every thread: the score and the nodes of all threads."""
        known = self._known_score(position)
        if known is not None:
            return known, 0
        (score,), nodes = self._run_lanes([self._task(position, weak)], arguments)
        return score, nodes

    def _column_scores_in_lanes(self, position: Position, arguments: KernelArguments
                                ) -> dict[int, int]:
        """``column_scores`` by every thread, the columns searched at once (the centre
        first, the kernel's order; a column whose position is the mirror image of another's
        takes its score), the nodes of all threads counted in ``stats``."""
        cols = position.rules.cols
        order = sorted(position.legal_moves(), key=lambda c: (abs(2 * c - cols + 1), c))
        scores: dict[int, int] = {}
        searched: dict[int, Position] = {}
        images: dict[int, int] = {}  # column -> the column of its mirror image
        for column in order:
            child = position.play(column)
            image = child.mirror()
            twin = next((c for c, p in searched.items() if p == image), None)
            if child.winner is not None:
                scores[column] = self._end_score(position)
            elif twin is not None:
                images[column] = twin
            else:
                known = self._known_score(child)
                if known is None:
                    searched[column] = child
                else:
                    scores[column] = -known
        found, nodes = self._run_lanes([self._task(child, False)
                                        for child in searched.values()], arguments)
        scores |= {column: -score for column, score in zip(searched, found, strict=True)}
        scores |= {column: scores[twin] for column, twin in images.items()}
        self.stats[kernels.NODES] = nodes
        return dict(sorted(scores.items()))

    @staticmethod
    def _end_score(position: Position) -> int:
        """The score of winning with the next disc in ``position``."""
        return (position.rules.rows * position.rules.cols + 1 - position.plies) // 2

    def _known_score(self, position: Position) -> int | None:
        """The score of a position that needs no search (a win with the next disc, a full
        board), else None."""
        if position.is_terminal:  # the last cell was played without a win
            return 0
        return self._end_score(position) if position.winning_moves() else None

    @staticmethod
    def _task(position: Position, weak: bool) -> Task:
        """``position`` to search, with the bounds the kernel starts from."""
        cells = position.rules.rows * position.rules.cols
        if weak:
            return Task(position.current, position.mask, -1, 1)
        return Task(position.current, position.mask, -((cells - position.plies) // 2),
                    (cells + 1 - position.plies) // 2)

    def _run_lanes(self, tasks: list[Task], arguments: KernelArguments
                   ) -> tuple[list[int], int]:
        """The scores of ``tasks`` by every thread, and the nodes searched."""
        if not tasks:
            return [], 0
        if len(self._lanes) != self.threads:
            assert self._rules is not None  # the arguments are for a board
            self._lanes = new_lanes(self.threads, self._rules.rows * self._rules.cols)
        packed, table, _, _, books = arguments
        return solve_in_lanes(tasks, self._lanes, (packed, table, books))


_shared: Solver | None = None


def shared_solver() -> Solver:
    """The process's solver, made on first use: the default table, the books of the cache
    directory (``arena.system.cachedir``)."""
    global _shared
    if _shared is None:
        _shared = Solver(DEFAULT_TABLE_MB, cache_dir())
    return _shared


@contextmanager
def configured(table_mb: float = DEFAULT_TABLE_MB, book_dir: Path | None = None,
               threads: int = 1) -> Iterator[Solver]:
    """The process's solver made anew for the block (a table of ``table_mb`` megabytes, the
    books of ``book_dir``, default the cache directory, ``threads`` threads); the one before
    is back afterwards."""
    global _shared
    before = _shared
    _shared = Solver(table_mb, cache_dir(book_dir), threads)
    try:
        yield _shared
    finally:
        _shared = before


def ensure_solver(table_mb: float, book_dir: Path | None, threads: int = 1) -> Solver:
    """The process's solver, made anew unless it has this table size and book directory,
    searching with ``threads`` threads (for worker processes, told what their parent
    uses)."""
    global _shared
    if (_shared is None or len(_shared.table) != 1 << table_bits(table_mb)
            or _shared.book_dir != book_dir):
        _shared = Solver(table_mb, book_dir)
    _shared.threads = threads
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


class SolverOracle:
    """The exact solver as the oracle of the window's hints and of `arena show`
    (``arena.search.oracle.Oracle``): the process's solver, one question at a time, whatever the
    thread that asks, searching with ``threads`` threads."""

    def __init__(self, threads: int = 1) -> None:
        self._lock = threading.Lock()
        self.threads = threads

    def column_scores(self, position: Position) -> dict[int, int]:
        """The exact score of every legal column, for the side to move."""
        with self._lock:
            shared_solver().threads = self.threads
            return column_scores(position)
