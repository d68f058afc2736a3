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

Where it runs: ``solve``, ``column_scores``, ``probe`` and ``next_probe``, which the arena
calls (``arena.search.solver``, ``arena.search.parallel``, the benchmarks), are the compiled
core's (``arena/search/core/solver.hpp``, C++17): node for node this module's numba search,
the same scores, node counts, table rows and stop at a node budget, with the GIL released and
safe from several threads on one table. The numba search stays here (``solve_jit``,
``column_scores_jit``, ``next_probe_jit`` and what they inline) only for the numba kernel that
still calls it inside compiled code, the fused game loop (``games._solver``,
``games._adjudicated_winner``), until that is ported too (issue 39); the allocators
(``new_table``, ``new_scratch``, ``new_stats``, ``no_books``), ``Books`` and the constants
serve both.

In the numba search the recursion receives raw pointers rather than arrays: an array
argument costs two atomic reference count updates per call. Recursive kernels cache
correctly only when every recursive call has exactly the argument types of the outer call
(numba issue 6061).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from arena.rules.board import MAX_COLUMNS
from arena.search.kernels.bitboard import (
    ONE,
    ZERO,
    Int,
    Tables,
    centre_column,
    column_cells,
    playable,
    popcount,
    unpack,
    winning_cells,
)
from arena.search.kernels.native import core

HASH_MULTIPLIER = np.uint64(0x9E37_79B9_7F4A_7C15)
DATA_BITS = 20
MIN_TABLE_BITS = DATA_BITS + 1  # the bucket index supplies the hash bits rows do not keep
OFFSET = 33  # a bound b is stored as b + OFFSET: scores lie within [-32, 32] on any board
FIELD = np.uint64(127)
MOVE_SHIFT = np.uint64(14)
UPPER_SHIFT = np.uint64(7)
SIZE_SHIFT = np.uint64(18)
DATA = np.uint64(DATA_BITS)
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


class Env(NamedTuple):
    """What every node of a search needs besides its position and window."""

    t: Tables
    cells: Int
    tt: Any  # CPointer(uint64): the transposition table
    shift: np.uint64  # 64 - log2(table rows)
    scratch: Any  # CPointer(int64): MAX_COLUMNS move slots per ply
    stats: Any  # CPointer(int64): nodes, node budget
    book_keys: Any  # CPointer(uint64)
    book_scores: Any  # CPointer(int8)
    book_size: Int
    book_depth: Int  # -1: no book
    database: Any  # CPointer(uint8): the published database's records
    database_size: Int  # its records (0: none)
    database_index: Any  # CPointer(int32)
    busy: Any  # CPointer(uint64): the keys of positions some thread is searching, by hash
    busy_shift: np.uint64  # 64 - log2(busy rows)
    split_until: Int  # nodes of fewer plies leave a busy child for after the others (0: none)


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


# --- low-level helpers -----------------------------------------------------------------


@intrinsic
def _data_pointer(typingctx: Any, array: Any) -> Any:
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return types.CPointer(array.dtype)(array), codegen


# A raw pointer to the data of a contiguous array.
data_pointer = cast(Callable[[np.ndarray], Any], _data_pointer)


@intrinsic
def _prefetch(typingctx: Any, pointer: Any, index: Any) -> Any:
    if not isinstance(pointer, types.CPointer) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        address = builder.gep(args[0], [args[1]])
        raw = builder.bitcast(address, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch", [raw.type], ir.FunctionType(ir.VoidType(), [raw.type, i32, i32, i32]))
        builder.call(function, [raw, i32(0), i32(3), i32(1)])  # read, keep, data cache
        return context.get_dummy_value()

    return types.none(pointer, index), codegen


# Ask the processor to bring ``pointer[index]`` into the cache (no effect on any value).
prefetch = cast(Callable[[Any, Int], None], _prefetch)


@njit(cache=True, inline="always")
def half(value: Int) -> Int:
    """``value / 2`` rounded towards zero (as C does), for scores of either sign."""
    return value // 2 if value >= 0 else -((-value) // 2)


@njit(cache=True, inline="always")
def mirror(bits: np.uint64, t: Tables) -> np.uint64:
    """``bits`` reflected left to right."""
    out = ZERO
    last = np.uint64(t.cols - 1)
    for c in range(t.cols):
        column = (bits >> (np.uint64(c) * t.height)) & t.column
        out |= column << ((last - np.uint64(c)) * t.height)
    return out


@njit(cache=True, inline="always")
def first_columns(t: Tables, count: Int) -> np.uint64:
    """The cells of columns 0 to ``count - 1``."""
    cells = ZERO
    for c in range(count):
        cells |= column_cells(t, c)
    return cells


@njit(cache=True, inline="always")
def non_losing_moves(cur: np.uint64, mask: np.uint64, t: Tables) -> np.uint64:
    """The playable cells that do not let the opponent win at once (0 if none is left)."""
    moves = playable(mask, t)
    threats = winning_cells(cur ^ mask, mask, t)
    forced = moves & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO
        moves = forced
    return moves & ~(threats >> ONE)


@njit(cache=True, inline="always")
def book_score(key: np.uint64, e: Env) -> Int:
    """The book's score of a symmetry-normalised key, or NO_SCORE (binary search)."""
    low: Int = 0
    high = e.book_size
    while low < high:
        middle = (low + high) >> 1
        if e.book_keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    if low < e.book_size and e.book_keys[low] == key:
        return np.int64(e.book_scores[low])
    return NO_SCORE


@njit(cache=True, inline="always")
def database_code(first: np.uint64, mask: np.uint64, t: Tables, mirrored: bool) -> Int:
    """The database's code of a position whose first player holds ``first`` (columns left
    to right, each bottom up: 10 a disc of the first player, 11 of the second, 0 after the
    column; a 0 at the end), as a signed 32-bit number; of its mirror image if
    ``mirrored``."""
    code: Int = 0
    rows = np.int64(t.height) - 1
    for i in range(t.cols):
        base = np.uint64(t.cols - 1 - i if mirrored else i) * t.height
        for r in range(rows):
            bit = ONE << (base + np.uint64(r))
            if not mask & bit:
                break
            code = (code << 2) | (2 if first & bit else 3)
        code <<= 1
    code <<= 1
    return code - (1 << 32) if code >= (1 << 31) else code


@njit(cache=True, inline="always")
def database_entry(e: Env, index: Int) -> Int:
    """The code of the database's record ``index``."""
    at = index * DATABASE_RECORD
    code = ((np.int64(e.database[at]) << 24) | (np.int64(e.database[at + 1]) << 16)
            | (np.int64(e.database[at + 2]) << 8) | np.int64(e.database[at + 3]))
    return code - (1 << 32) if code >= (1 << 31) else code


@njit(cache=True)
def database_score(cur: np.uint64, mask: np.uint64, plies: Int, e: Env) -> Int:
    """The database's exact score of a position for the side to move, or NO_SCORE
    (binary searches for its code, then its mirror image's, among the records of its top
    16 bits)."""
    first = cur if plies % 2 == 0 else cur ^ mask
    for mirrored in range(2):
        code = database_code(first, mask, e.t, mirrored == 1)
        bucket = (code >> 16) + (1 << 15)
        low = np.int64(e.database_index[bucket])
        high = np.int64(e.database_index[bucket + 1])
        while low < high:
            middle = (low + high) >> 1
            if database_entry(e, middle) < code:
                low = middle + 1
            else:
                high = middle
        if low < e.database_size and database_entry(e, low) == code:
            value = np.int64(e.database[low * DATABASE_RECORD + 4])
            value = value - 256 if value >= 128 else value  # for the first player
            if value == 0:
                return 0
            points = (e.cells + 2 - plies - (100 - abs(value))) // 2
            return points if (value > 0) == (plies % 2 == 0) else -points
    return NO_SCORE


# --- search ----------------------------------------------------------------------------


@njit(cache=True)
def negamax(cur: np.uint64, mask: np.uint64, plies: Int, alpha: Int, beta: Int, e: Env) -> Int:
    """The score of a position if it lies within (alpha, beta), else a bound beyond it.

    The side to move must not be able to win at once, and the board must not be full.
    When the node budget is spent the search unwinds at once with meaningless values.
    """
    t = e.t
    e.stats[NODES] += 1
    if e.stats[NODES] > e.stats[LIMIT]:
        return 0
    moves = non_losing_moves(cur, mask, t)
    if not moves:
        return -((e.cells - plies) // 2)
    if plies >= e.cells - 2:
        return 0
    floor = -((e.cells - 2 - plies) // 2)  # the opponent cannot win with its next disc
    if alpha < floor:
        alpha = floor
        if alpha >= beta:
            return alpha
    ceiling = (e.cells - 1 - plies) // 2  # we cannot win with our next disc
    if beta > ceiling:
        beta = ceiling
        if alpha >= beta:
            return beta

    key = cur + mask
    mirrored = False
    if plies <= SYMMETRY_PLIES or plies <= e.book_depth:
        image = mirror(cur, t) + mirror(mask, t)
        if image == key:
            moves &= first_columns(t, t.cols // 2 + 1)  # the left half suffices
        elif image < key:
            key = image
            mirrored = True
        if plies <= e.book_depth:
            known = book_score(key, e)
            if known != NO_SCORE:
                return known
    hashed = key * HASH_MULTIPLIER
    row = np.int64(hashed >> e.shift) & ~1  # the bucket: rows row and row + 1
    tag = hashed << DATA
    slot: Int = row
    entry = e.tt[row]
    first: Int = -1
    if (entry ^ tag) >> DATA != ZERO:
        slot = row + 1
        entry = e.tt[slot]
        if (entry ^ tag) >> DATA != ZERO:
            slot = -1  # not in the table
            entry = ZERO
    if entry:
        lower = np.int64(entry & FIELD)
        upper = np.int64((entry >> UPPER_SHIFT) & FIELD)
        first = np.int64((entry >> MOVE_SHIFT) & np.uint64(15)) - 1
        if first >= 0 and mirrored:
            first = t.cols - 1 - first
        if lower and lower - OFFSET > alpha:
            alpha = lower - OFFSET
            if alpha >= beta:
                return alpha
        if upper and upper - OFFSET < beta:
            beta = upper - OFFSET
            if alpha >= beta:
                return beta
    size = np.uint64(min(3, (e.cells - plies) >> 3)) << SIZE_SHIFT  # how big a subtree
    if plies == DATABASE_PLIES and e.database_size:  # kept in the table: found sooner next
        known = database_score(cur, mask, plies, e)
        if known != NO_SCORE:
            _store(e, row, slot, tag | size, entry, known, EXACT, -1, mirrored)
            return known

    # Rank the moves: the table's best move, then the threats it makes, then the centre.
    slots = plies * MAX_COLUMNS
    count = 0
    for i in range(t.cols):
        c = centre_column(t, i)
        move = moves & column_cells(t, c)
        if move:
            rank = (1 << 20 if c == first
                    else popcount(winning_cells(cur | move, mask | move, t)))
            e.scratch[slots + count] = (rank << 8) | ((15 - i) << 4) | c
            count += 1
            prefetch(e.tt, np.int64((((cur ^ mask) + (mask | move)) * HASH_MULTIPLIER)
                                    >> e.shift))

    start = alpha
    best: Int = NO_SCORE
    best_column: Int = -1
    split = plies < e.split_until
    deferred = 0  # moves left for later (kept in the slots already sorted)
    n = 0
    while n < count + deferred:
        if n < count:  # selection sort, as far as the cut-off
            pick = n
            for j in range(n + 1, count):
                if e.scratch[slots + j] > e.scratch[slots + pick]:
                    pick = j
            c = e.scratch[slots + pick] & 15
            e.scratch[slots + pick] = e.scratch[slots + n]
        else:  # then the moves another thread was searching
            c = e.scratch[slots + n - count]
        n += 1
        move = moves & column_cells(t, c)
        child = (cur ^ mask) + (mask | move)  # the child's key
        cell: Int = -1
        if split and 1 < n <= count:  # not the first move: another thread may have it
            cell = np.int64((child * HASH_MULTIPLIER) >> e.busy_shift)
            if e.busy[cell] == child:
                e.scratch[slots + deferred] = c  # a slot the sort is done with
                deferred += 1
                continue
            if e.busy[cell] == ZERO:
                e.busy[cell] = child
            else:  # the row holds another thread's mark: left to it
                cell = -1
        score = -negamax(cur ^ mask, mask | move, plies + 1, -beta, -alpha, e)
        if cell >= 0 and e.busy[cell] == child:
            e.busy[cell] = ZERO
        if e.stats[NODES] > e.stats[LIMIT]:
            return 0
        if score > best:
            best = score
            best_column = c
        if score >= beta:
            _store(e, row, slot, tag | size, entry, score, LOWER, best_column, mirrored)
            return score
        if score > alpha:
            alpha = score
    _store(e, row, slot, tag | size, entry, best, UPPER if best <= start else EXACT,
           best_column, mirrored)
    return best



@njit(cache=True, inline="always")
def _store(e: Env, row: Int, slot: Int, tag: np.uint64, entry: np.uint64, bound: Int,
           kind: Int, column: Int, mirrored: bool) -> None:
    """Write a bound of ``kind`` and the best column to the bucket at ``row``, keeping the
    other bound of ``entry`` (the row ``slot`` that held this position, or 0 and -1).

    A new position takes the first row if its subtree size class (in ``tag``) is at least
    that of the first row's position, which moves to the second row; else the second row.
    """
    lower = entry & FIELD
    upper = (entry >> UPPER_SHIFT) & FIELD
    if kind != UPPER:
        lower = np.uint64(bound + OFFSET)
    if kind != LOWER:
        upper = np.uint64(bound + OFFSET)
    if mirrored:
        column = e.t.cols - 1 - column
    new = tag | np.uint64(column + 1) << MOVE_SHIFT | upper << UPPER_SHIFT | lower
    if slot >= 0:
        e.tt[slot] = new
        return
    first = e.tt[row]
    if (new >> SIZE_SHIFT) & np.uint64(3) >= (first >> SIZE_SHIFT) & np.uint64(3):
        e.tt[row + 1] = first
        e.tt[row] = new
    else:
        e.tt[row + 1] = new


# --- entry points ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _env(packed: np.ndarray, tt: np.ndarray, scratch: np.ndarray, stats: np.ndarray,
         books: Books, busy: np.ndarray, split_until: Int) -> Env:
    """What every node needs; ``busy`` is never read when ``split_until`` is 0."""
    t = unpack(packed)
    return Env(t, popcount(t.board), data_pointer(tt),
               np.uint64(64 - popcount(np.uint64(tt.shape[0] - 1))), data_pointer(scratch),
               data_pointer(stats), data_pointer(books.keys), data_pointer(books.scores),
               books.keys.shape[0], books.depth, data_pointer(books.database),
               books.database.shape[0] // DATABASE_RECORD, data_pointer(books.database_index),
               data_pointer(busy),
               np.uint64(64 - popcount(np.uint64(busy.shape[0] - 1))), split_until)


@njit(cache=True)
def next_probe_jit(low: Int, high: Int) -> Int:
    """The null window ``(middle, middle + 1)`` to search next when the score lies in
    ``[low, high]`` (``low < high``): halfway, or nearer 0 when 0 is nearer."""
    middle = low + (high - low) // 2
    if middle <= 0 and half(low) < middle:
        middle = half(low)
    elif middle >= 0 and high // 2 > middle:
        middle = high // 2
    return middle


@njit(cache=True, inline="always")
def _solve(cur: np.uint64, mask: np.uint64, weak: bool, e: Env) -> Int:
    """The exact score of a position that is not over (or 0 once the budget is spent);
    ``weak``: only its sign is sure (win, draw or loss), which is cheaper."""
    plies = popcount(mask)
    if plies == e.cells:
        return 0
    if winning_cells(cur, mask, e.t) & playable(mask, e.t):
        return (e.cells + 1 - plies) // 2
    low = -1 if weak else -((e.cells - plies) // 2)
    high = 1 if weak else (e.cells + 1 - plies) // 2
    while low < high:  # null-window searches, probing near 0 first
        middle = next_probe_jit(low, high)
        score = negamax(cur, mask, plies, middle, middle + 1, e)
        if e.stats[NODES] > e.stats[LIMIT]:
            return 0
        if score <= middle:
            high = score
        else:
            low = score
    return low


@njit(cache=True, nogil=True)
def solve_jit(cur: np.uint64, mask: np.uint64, weak: bool, packed: np.ndarray,
              tt: np.ndarray, scratch: np.ndarray, stats: np.ndarray, books: Books) -> Int:
    """The exact score of a position that is not over, for the side to move (``weak``:
    a score of the right sign only).

    ``packed`` is the board's ``board_array``; ``stats[NODES]`` counts the nodes searched
    (the caller resets it); past ``stats[LIMIT]`` nodes the search gives up and returns 0.
    """
    e = _env(packed, tt, scratch, stats, books, tt, 0)
    return _solve(cur, mask, weak, e)


@njit(cache=True, nogil=True)
def column_scores_jit(cur: np.uint64, mask: np.uint64, packed: np.ndarray, tt: np.ndarray,
                      scratch: np.ndarray, stats: np.ndarray, books: Books) -> np.ndarray:
    """The exact score of every column for the side to move (NO_SCORE for a full one)."""
    e = _env(packed, tt, scratch, stats, books, tt, 0)
    plies = popcount(mask)
    scores = np.full(e.t.cols, NO_SCORE, dtype=np.int64)
    moves = playable(mask, e.t)
    wins = winning_cells(cur, mask, e.t) & moves
    for i in range(e.t.cols):
        c = centre_column(e.t, i)
        move = moves & column_cells(e.t, c)
        if move & wins:
            scores[c] = (e.cells + 1 - plies) // 2
        elif move:
            scores[c] = -_solve(cur ^ mask, mask | move, False, e)
    return scores


# --- the compiled core -------------------------------------------------------------------

solve = core.solve
"""``solve(cur, mask, weak, packed, tt, scratch, stats, books)``: the exact score of a position
that is not over, for the side to move (``weak``: a score of the right sign only), in compiled
C++ (``arena/search/core/solver.hpp``, the GIL released), node for node ``solve_jit``.

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
(the GIL released), as ``column_scores_jit``; the arguments as ``solve``'s."""

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
score lies in ``[low, high]`` (``low < high``): halfway, or nearer 0 when 0 is nearer (the
core's; ``next_probe_jit`` inside numba)."""
