"""The exact solver: negamax with alpha-beta on uint64 bitboards, searched with null windows.

Scores follow Pascal Pons' convention, for the side to move: on a board of ``cells`` cells
holding ``plies`` discs, winning with one's next disc scores ``(cells + 1 - plies) // 2``,
and every later own disc needed costs one point; a loss is the negative of the winner's
score; a draw is 0.

Techniques (after Pons' published solver): alpha-beta in negamax form, a score found by a
sequence of null-window searches probing near 0 first; moves that let the opponent win at
once are never searched, a forced block is the only move, two open opponent threats lose;
the score is bounded by the fastest win and loss still possible; moves are tried in the
order: the table's best move, then the most threats created, then the centre. Beyond it: the
table keeps both bounds and the best move in one 8-byte row, in buckets of two rows that
keep the bigger subtrees, the rows of the children are prefetched while the moves are
ordered, positions of at most ``SYMMETRY_PLIES`` discs share their row with their mirror
image and a symmetric one searches only the left half.

The transposition table is a uint64 array of ``2**bits`` rows (``bits >= MIN_TABLE_BITS``),
in buckets of two. A row holds ``hash << DATA_BITS | size << 18 | best column + 1 << 14 |
upper << 7 | lower``, where ``hash`` is the position's key times an odd constant (a
bijection on 64 bits), the bucket is chosen by the top ``bits - 1`` bits of that hash and
the row keeps its low ``64 - DATA_BITS`` bits, so together they identify the position
exactly. ``lower`` and ``upper`` are bounds of the score plus ``OFFSET`` (0: no bound);
``size`` (0 to 3) grows with the empty cells, the size of the subtree below: a new
position takes the first row of its bucket if it is at least as big as the first row's
position, which moves to the second row, else the second row. Bounds are facts about a
position, so the table stays valid from one search to the next, on the same board.

The books (``Books``): the project's opening book, two sorted arrays, keys (the smaller of
a position's key and its mirror's) and exact scores, consulted for positions of at most
``depth`` discs; and on 6 x 7 the published database (``arena.search.database``), the raw
records of its file, consulted for positions of exactly ``DATABASE_PLIES`` discs by the
code of the position, then of its mirror image.

Where it runs: ``solve``, ``column_scores``, ``probe`` and ``next_probe`` are the compiled
core's (``arena/search/core/solver.hpp``, C++17), with the GIL released and safe from several
threads on one table; this module holds the arrays a search works in (``new_table``,
``new_scratch``, ``new_stats``, ``Books``) and the constants of their layout.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from arena.rules.board import MAX_COLUMNS
from arena.search.kernels.native import core

HASH_MULTIPLIER = 0x9E37_79B9_7F4A_7C15
DATA_BITS = 20
MIN_TABLE_BITS = DATA_BITS + 1  # the bucket index supplies the hash bits rows do not keep
OFFSET = 33  # a bound b is stored as b + OFFSET: scores lie within [-32, 32] on any board
FIELD = 127  # the bits of a bound in a row
MOVE_SHIFT, UPPER_SHIFT, SIZE_SHIFT = 14, 7, 18
SYMMETRY_PLIES = 10
NO_SCORE = -1000  # an illegal column in a score array; a position missing from the book
UPPER, LOWER, EXACT = 0, 1, 2  # kinds of bound to store
NODES, LIMIT = 0, 1  # the fields of the ``stats`` array: nodes searched, node budget
DATABASE_PLIES = 12  # the discs of every position in the published database
DATABASE_RECORD = 5  # bytes a record: the code (big-endian, signed 32 bits), the value
DATABASE_BUCKET_BITS = 16  # the database's index: where the codes of each top 16 bits begin


class Books(NamedTuple):
    """What the solver knows without a search: the opening book (``keys``, ``scores``,
    ``depth``: -1 for none) and the published database's records (``database``, uint8,
    read-only; empty for none) with their index (``database_index``, int32: for each value
    ``b`` of a code's top 16 bits counted from -2**15, the first record whose code's are at
    least ``b``, then the number of records)."""

    keys: np.ndarray  # uint64, ascending
    scores: np.ndarray  # int8
    depth: int
    database: np.ndarray
    database_index: np.ndarray


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of ``2**bits`` rows, every page written now."""
    if bits < MIN_TABLE_BITS:
        raise ValueError(f"a solver table needs at least 2**{MIN_TABLE_BITS} rows, got 2**{bits}")
    table = np.empty(1 << bits, dtype=np.uint64)
    table.fill(0)
    return table


def new_scratch(cells: int) -> np.ndarray:
    """Move slots for a search on a board of at most ``cells`` cells."""
    return np.zeros((cells + 1) * MAX_COLUMNS, dtype=np.int64)


def new_stats() -> np.ndarray:
    """The ``stats`` array: nodes of the last search and the node budget (none)."""
    return np.array([0, np.iinfo(np.int64).max], dtype=np.int64)


EMPTY_DATABASE = np.zeros(0, dtype=np.uint8)
EMPTY_DATABASE.flags.writeable = False  # as a memory-mapped file: one type for the kernels


def no_books() -> Books:
    """No opening book and no database."""
    return Books(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), -1, EMPTY_DATABASE,
                 np.zeros(1, dtype=np.int32))


solve = core.solve
"""``solve(cur, mask, weak, packed, tt, scratch, stats, books)``: the exact score of a position
that is not over, for the side to move (``weak``: a score of the right sign only), in compiled
C++ (``arena/search/core/solver.hpp``, the GIL released).

``packed`` is the board's ``board_array``; ``tt`` a ``new_table``, ``scratch`` a
``new_scratch`` of the board's cells (checked; the core keeps its move slots on its own
stack), ``stats`` a ``new_stats``, all used in place, never copied: ``stats[NODES]`` counts
the nodes searched (the caller resets it); past ``stats[LIMIT]`` nodes the search gives up and
returns 0. ``books`` is a ``Books``. A position that is over, a board of more than
``MAX_COLUMNS`` columns, a table smaller than ``2**MIN_TABLE_BITS`` rows or not a power of two,
a short scratch, arrays of other dtypes or shapes are refused (ValueError or TypeError)."""

column_scores = core.column_scores
"""``column_scores(cur, mask, packed, tt, scratch, stats, books)``: the exact score of every
column for the side to move (NO_SCORE for a full one) in a new int64 array, in compiled C++
(the GIL released); the arguments as ``solve``'s."""

probe = core.probe
"""``probe(cur, mask, middle, split, packed, tt, busy, scratch, stats, books)``: one
null-window search of a position the side to move cannot win at once, on a board that is not
full, in compiled C++ (the GIL released): a score at most ``middle`` is an upper bound of the
position's score, a larger one a lower bound (as ``solve`` but one window: for threads that
search one or different windows at once, ``arena.search.parallel``).

With ``split`` > 0, the nodes of at least ``split`` empty cells share their work with the
other threads searching the same window: every move but the first is marked in ``busy`` (a
power-of-two number of uint64 rows, shared by the threads) while it is searched, and a move
another thread marked is left until the other moves are done (by then the table mostly holds
its bound). Several threads may probe one table and one ``busy`` at once: their rows, and
``stats[LIMIT]``, which another thread may lower to stop the search, are read and written
whole (relaxed atomics)."""

next_probe = core.next_probe
"""``next_probe(low, high)``: the null window ``(middle, middle + 1)`` to search next when the
score lies in ``[low, high]`` (``low < high``): halfway, or nearer 0 when 0 is nearer."""
