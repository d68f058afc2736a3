"""Numba-compiled bitboard kernels shared by the search agents: rules, heuristics, negamax.

A position is two uint64 bitboards in the layout of ``arena.board``: ``cur`` (discs of the
side to move) and ``mask`` (all discs). What a kernel needs to know about the board size
comes in a ``Tables`` tuple of scalars (a tuple holding arrays would cost atomic reference
counting at every node), which the entry point ``root_scores`` unpacks from the uint64
array of ``board_array``, built once per Rules (a tuple argument costs microseconds to
dispatch, an array does not); the window heuristic alone takes two arrays, ``lines`` and
``points`` from ``board_windows``. Every integer that
meets a bitboard is a ``np.uint64``: numba turns mixed signed and unsigned arithmetic into
floats, and shifts are kept below 64 because larger ones are undefined in LLVM.

Scores are int64 and follow ``agents.heuristics``: a win for the side to move found ``p``
plies below the root scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple, cast

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from agents.heuristics import (
    HEURISTIC_LIMIT,
    LIVE_THREATS,
    POSITIONAL,
    STACKED_SCORE,
    STACKED_THREATS,
    THREATS,
    WIN_SCORE,
    WINDOW,
    positional_weights,
    window_points,
)
from arena.board import MAX_COLUMNS, Rules

Int = int | np.int64  # an integer argument; numba compiles both alike
INFINITY = 2 * WIN_SCORE
NO_SCORE = -4 * WIN_SCORE  # marks an illegal root column in a score array
ZERO = np.uint64(0)
ONE = np.uint64(1)
ALL = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
HASH_MULTIPLIER = np.uint64(0x9E37_79B9_7F4A_7C15)
EXACT, LOWER, UPPER = 0, 1, 2
MIN_TT_DEPTH = 2  # shallower nodes are searched again rather than looked up
SORT_DEPTH = 4  # shallower nodes try their moves in centre-first order
# A table row is [key, value << 32 | generation << 8 | best column << 2 | flag]; a search
# only trusts rows of its own generation, which wraps after 2**24 searches.
TT_FIELDS = 2
GENERATIONS = 1 << 24
LOW_32 = 0xFFFF_FFFF


class Tables(NamedTuple):
    """The per-board constants of the kernels, all scalars."""

    bottom: np.uint64  # bottom cell of every column
    board: np.uint64  # every cell
    centre: np.uint64  # the cells of column cols // 2
    column: np.uint64  # the cells of column 0
    height: np.uint64  # bits per column
    cols: np.int64
    connect: np.int64
    directions: np.int64  # how many of ``steps`` are used
    steps: tuple[np.uint64, ...]  # 4 bit steps of the directions in which a line fits
    planes: tuple[np.uint64, ...]  # 8 bit planes of the positional weights: plane j, bit j


class Windows(NamedTuple):
    """The arrays of the window heuristic."""

    lines: np.ndarray  # uint64 every line of ``connect`` cells
    points: np.ndarray  # int64 window points by own * (connect + 1) + opponent discs


PLANES = 8  # bits of a positional weight: any board has at most 32 lines through a cell
STEPS = 4


@cache
def board_array(rules: Rules) -> np.ndarray:
    """The fields of ``rules``' Tables packed in a uint64 array, computed once per board size.

    Layout: bottom, board, centre, column, height, cols, connect, directions, then the
    STEPS steps (unused ones 0), then the PLANES planes.
    """
    geometry = rules.geometry
    tall, wide = rules.rows >= rules.connect, rules.cols >= rules.connect
    vertical, horizontal, falling, rising = geometry.directions
    fits = ((vertical, tall), (horizontal, wide), (falling, tall and wide),
            (rising, tall and wide))
    steps = [step for step, fit in fits if fit]
    weights = positional_weights(rules)
    planes = [sum(rules.cell_bit(c, r) for c in range(rules.cols) for r in range(rules.rows)
                  if int(weights[r, c]) >> j & 1)
              for j in range(PLANES)]
    fields = [geometry.bottom, geometry.board, geometry.columns[rules.cols // 2],
              geometry.columns[0], rules.height, rules.cols, rules.connect, len(steps)]
    return np.array(fields + steps + [0] * (STEPS - len(steps)) + planes, dtype=np.uint64)


def board_tables(rules: Rules) -> Tables:
    """The kernel tables of ``rules``, for calling kernels other than ``root_scores``."""
    return unpack.py_func(board_array(rules))  # numba would box the uint64 fields as ints


@cache
def board_windows(rules: Rules) -> Windows:
    """The window heuristic's arrays for ``rules``, computed once per board size."""
    return Windows(
        lines=np.array(rules.geometry.lines, dtype=np.uint64),
        points=window_points(rules.connect).ravel().astype(np.int64),
    )


@intrinsic
def _popcount(typingctx: Any, bits: Any) -> Any:
    if bits != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


# The number of set bits of a uint64, as an int64 (one machine instruction).
popcount = cast(Callable[[np.uint64], int], _popcount)


@njit(cache=True)
def unpack(packed: np.ndarray) -> Tables:
    """The Tables packed by ``board_array``."""
    return Tables(
        packed[0], packed[1], packed[2], packed[3], packed[4],
        np.int64(packed[5]), np.int64(packed[6]), np.int64(packed[7]),
        (packed[8], packed[9], packed[10], packed[11]),
        (packed[12], packed[13], packed[14], packed[15], packed[16], packed[17], packed[18],
         packed[19]),
    )


# --- rules --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def playable(mask: np.uint64, t: Tables) -> np.uint64:
    """The cell each non-full column would receive next."""
    return (mask + t.bottom) & t.board


@njit(cache=True, inline="always")
def column_cells(t: Tables, col: Int) -> np.uint64:
    """The cells of column ``col``."""
    return t.column << (np.uint64(col) * t.height)


@njit(cache=True, inline="always")
def centre_column(t: Tables, index: Int) -> Int:
    """The ``index``-th column in centre-first order (as ``heuristics.centre_first``)."""
    return t.cols // 2 + (1 - 2 * (index % 2)) * ((index + 1) // 2)


@njit(cache=True, inline="always")
def _runs(stones: np.uint64, step: np.uint64, length: Int) -> np.uint64:
    """Cells x such that x, x + step, ..., x + (length - 1) * step all hold a stone."""
    run = ALL
    for i in range(length):
        run &= stones >> (np.uint64(i) * step)
    return run


@njit(cache=True, inline="always")
def _winning_cells_4(stones: np.uint64, step: np.uint64) -> np.uint64:
    """Cells completing a line of four along ``step``: the common case, unrolled."""
    step2, step3 = step + step, step + step + step
    pair = (stones << step) & (stones << step2)
    cells = pair & ((stones << step3) | (stones >> step))
    pair = (stones >> step) & (stones >> step2)
    return cells | (pair & ((stones >> step3) | (stones << step)))


@njit(cache=True, inline="always")
def winning_cells(stones: np.uint64, mask: np.uint64, t: Tables) -> np.uint64:
    """The empty cells that would complete a line of ``connect`` for ``stones``."""
    k = t.connect
    cells = ZERO
    if k == 4 and t.directions == 4:
        d = t.steps
        cells = (_winning_cells_4(stones, d[0]) | _winning_cells_4(stones, d[1])
                 | _winning_cells_4(stones, d[2]) | _winning_cells_4(stones, d[3]))
        return cells & t.board & ~mask
    for i in range(t.directions):
        step = t.steps[i]
        below = ALL  # cells with stones on the `gap` cells below them in this direction
        for gap in range(k):
            if gap:
                below &= stones << (np.uint64(gap) * step)
            above = k - 1 - gap  # the stones needed above the cell
            cells |= below & (_runs(stones >> step, step, above) if above else ALL)
    return cells & t.board & ~mask


@njit(cache=True)
def has_line(stones: np.uint64, t: Tables) -> bool:
    """True if ``stones`` holds ``connect`` discs in a row."""
    for i in range(t.directions):  # noqa: SIM110 - numba compiles loops, not generators
        if _runs(stones, t.steps[i], t.connect):
            return True
    return False


@njit(cache=True)
def legal_columns(mask: np.uint64, t: Tables) -> np.ndarray:
    """The columns that are not full, left to right (the caller checks for a win)."""
    open_cells = playable(mask, t)
    return np.array([c for c in range(t.cols) if open_cells & column_cells(t, c)],
                    dtype=np.int64)


# --- heuristics ---------------------------------------------------------------------


@njit(cache=True, inline="always")
def positional(stones: np.uint64, t: Tables) -> int:
    """The number of win lines through the cells of ``stones``, summed."""
    total = 0
    for j in range(PLANES):
        total += popcount(stones & t.planes[j]) << j
    return total


@njit(cache=True, inline="always")
def window_score(own: np.uint64, other: np.uint64, t: Tables, lines: np.ndarray,
                 points: np.ndarray) -> int:
    """The minimax window heuristic of ``own``: points per window plus 3 per centre disc."""
    k1 = t.connect + 1
    total = 3 * popcount(own & t.centre)
    for line in lines:
        total += points[popcount(own & line) * k1 + popcount(other & line)]
    return total


@njit(cache=True, inline="always")
def stacked_pairs(mine: np.uint64, theirs: np.uint64, t: Tables) -> tuple[int, np.uint64]:
    """Columns whose lowest stacked threat pair is mine minus theirs, and the cells above.

    A stacked pair is two threats of one player directly above one another; per column
    only the lowest pair counts and the cells above it can never be reached.
    """
    own_pairs = mine & (mine >> ONE)
    other_pairs = theirs & (theirs >> ONE)
    balance = 0
    above = ZERO
    for c in range(t.cols):
        column = column_cells(t, c)
        pairs = (own_pairs | other_pairs) & column
        if pairs:
            lowest = pairs & (~pairs + ONE)
            balance += 1 if lowest & own_pairs else -1
            above |= column & ~((lowest << np.uint64(2)) - ONE)
    return balance, above


@njit(cache=True, inline="always")
def evaluate(cur: np.uint64, mask: np.uint64, ply: int, t: Tables, terms: np.ndarray,
             lines: np.ndarray, points: np.ndarray) -> int:
    """The heuristic value of a position for the side to move, ``ply`` plies below the root.

    ``terms`` holds (heuristic id, weight) rows sorted by id, so that live threats decide
    first and stacked pairs are known before threats are counted. The window term is the
    root player's window score, negated when the opponent of the root player is to move.
    The weighted sum is clamped to ``HEURISTIC_LIMIT``; live threats score wins and losses.
    """
    other = cur ^ mask
    value = 0
    mine = theirs = unreachable = ZERO
    if terms.shape[0] and terms[0, 0] <= THREATS:  # a threat term, as those sort first
        mine = winning_cells(cur, mask, t)
        theirs = winning_cells(other, mask, t)
    for i in range(terms.shape[0]):
        kind, weight = terms[i, 0], terms[i, 1]
        if kind == LIVE_THREATS:
            cells = playable(mask, t)
            if mine & cells:
                return WIN_SCORE - ply - 1
            if popcount(theirs & cells) >= 2:
                return ply + 2 - WIN_SCORE
        elif kind == STACKED_THREATS:
            balance, unreachable = stacked_pairs(mine, theirs, t)
            value += weight * STACKED_SCORE * balance
        elif kind == THREATS:
            value += weight * (popcount(mine & ~unreachable) - popcount(theirs & ~unreachable))
        elif kind == POSITIONAL:
            value += weight * (positional(cur, t) - positional(other, t))
        elif kind == WINDOW:
            if ply % 2 == 0:
                value += weight * window_score(cur, other, t, lines, points)
            else:
                value -= weight * window_score(other, cur, t, lines, points)
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))


# --- search ---------------------------------------------------------------------------
#
# The search is iterative: numba cannot cache recursive functions reliably (numba issue
# 6061) and a call per node costs more than the node. ``stack`` holds one row per ply:
# the fields below, then the ordered columns to try, then scratch for their ordering.

CUR, MASK, MOVES, ALPHA, BETA, FLOOR, BEST, BEST_COLUMN, NEXT, COUNT, STORE = range(11)
SLOTS = 11
STACK_WIDTH = SLOTS + 2 * MAX_COLUMNS


def new_stack(depth: int) -> np.ndarray:
    """The search stack for searches of up to ``depth`` plies."""
    return np.zeros((depth + 1, STACK_WIDTH), dtype=np.int64)


def new_table(bits: int) -> np.ndarray:
    """An empty transposition table of ``2**bits`` rows (``bits = 0``: no table).

    Every page is written now, so that no search pays for first touching it.
    """
    table = np.empty((1 << bits, TT_FIELDS), dtype=np.int64)
    table.fill(0)
    return table


@njit(cache=True, inline="always")
def _row(tt: np.ndarray, key: np.uint64) -> np.int64:
    """The table row of ``key`` (Fibonacci hashing)."""
    shift = np.uint64(64 - popcount(np.uint64(tt.shape[0] - 1)))
    return np.int64((key * HASH_MULTIPLIER) >> shift)


@njit(cache=True, inline="always")
def _ordered_moves(cur: np.uint64, mask: np.uint64, moves: np.uint64, first: int,
                   t: Tables, stack: np.ndarray, ply: int) -> int:
    """Write the columns of ``moves`` into the slots of row ``ply``, best first; count them.

    ``first`` (a column, or -1) leads; the rest go by the number of threats the move
    makes, ties in centre-first order. (Rows are indexed, never sliced: a slice costs two
    atomic reference count updates.)
    """
    count = 0
    for i in range(t.cols):
        c = centre_column(t, i)
        bit = moves & column_cells(t, c)
        if not bit:
            continue
        score = 1 << 20 if c == first else popcount(winning_cells(cur | bit, mask | bit, t))
        slot = SLOTS + count
        while slot > SLOTS and stack[ply, slot - 1 + MAX_COLUMNS] < score:
            stack[ply, slot + MAX_COLUMNS] = stack[ply, slot - 1 + MAX_COLUMNS]
            stack[ply, slot] = stack[ply, slot - 1]
            slot -= 1
        stack[ply, slot + MAX_COLUMNS] = score
        stack[ply, slot] = c
        count += 1
    return count


@njit(cache=True, inline="always")
def _open(cur: np.uint64, mask: np.uint64, depth: int, alpha: int, beta: int, ply: int,
          t: Tables, terms: np.ndarray, lines: np.ndarray, points: np.ndarray, tt: np.ndarray,
          stats: np.ndarray, stack: np.ndarray, ordering: bool) -> tuple[int, bool]:
    """Enter a node: (its value, False) when known without children, else (0, True).

    An opened node has its fields and ordered columns written to row ``ply`` of ``stack``.
    """
    stats[0] += 1
    if mask == t.board:
        return 0, False
    if depth == 0:
        return evaluate(cur, mask, ply, t, terms, lines, points), False
    moves = playable(mask, t)
    if winning_cells(cur, mask, t) & moves:
        return WIN_SCORE - ply - 1, False
    if ordering and depth >= 2:
        threats = winning_cells(cur ^ mask, mask, t)
        forced = threats & moves
        if forced:
            if forced & (forced - ONE):
                return ply + 2 - WIN_SCORE, False
            moves = forced
        moves &= ~(threats >> ONE)  # a move below an opponent's threat loses at once
        if not moves:
            return ply + 2 - WIN_SCORE, False
    ceiling = WIN_SCORE - ply - 3  # the fastest win left: our next move but one
    if beta > ceiling:
        beta = ceiling
        if alpha >= beta:
            return beta, False
    first = -1
    store = tt.shape[0] > 1 and depth >= MIN_TT_DEPTH
    if store:
        entry = _row(tt, cur + mask)
        meta = tt[entry, 1]
        if tt[entry, 0] == np.int64(cur + mask) and (meta & LOW_32) >> 8 == stats[1]:
            value = meta >> 32
            first = (meta >> 2) & 63
            if meta & 3 == EXACT:
                return value, False
            if meta & 3 == LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value, False
    if ordering and depth >= SORT_DEPTH:
        count = _ordered_moves(cur, mask, moves, first, t, stack, ply)
    else:
        count = 0
        for i in range(t.cols):
            c = centre_column(t, i)
            if moves & column_cells(t, c):
                stack[ply, SLOTS + count] = c
                count += 1
    stack[ply, CUR] = np.int64(cur)
    stack[ply, MASK] = np.int64(mask)
    stack[ply, MOVES] = np.int64(moves)
    stack[ply, ALPHA] = stack[ply, FLOOR] = alpha
    stack[ply, BETA] = beta
    stack[ply, BEST] = -INFINITY
    stack[ply, BEST_COLUMN] = -1
    stack[ply, NEXT] = 0
    stack[ply, COUNT] = count
    stack[ply, STORE] = store
    return 0, True


@njit(cache=True, inline="always")
def _close(stack: np.ndarray, ply: int, tt: np.ndarray, generation: int) -> int:
    """Leave the opened node of row ``ply``: store it in the table if it qualifies."""
    best = stack[ply, BEST]
    if stack[ply, STORE]:
        floor, beta = stack[ply, FLOOR], stack[ply, BETA]
        flag = UPPER if best <= floor else LOWER if best >= beta else EXACT
        key = np.uint64(stack[ply, CUR]) + np.uint64(stack[ply, MASK])
        entry = _row(tt, key)
        tt[entry, 0] = np.int64(key)
        tt[entry, 1] = best << 32 | generation << 8 | stack[ply, BEST_COLUMN] << 2 | flag
    return best


@njit(cache=True)
def search(cur: np.uint64, mask: np.uint64, depth: int, alpha: int, beta: int, ply: int,
           t: Tables, terms: np.ndarray, lines: np.ndarray, points: np.ndarray,
           tt: np.ndarray, stats: np.ndarray, stack: np.ndarray, ordering: bool) -> int:
    """The negamax value of a position, ``ply`` plies below the root, searched ``depth`` deep.

    Alpha-beta, fail-soft: a value at or below ``alpha`` is an upper bound, one at or above
    ``beta`` a lower bound. ``stats`` holds [nodes, generation]; ``tt`` is the
    transposition table (one row disables it); ``stack`` has a row per ply below ``ply``.
    With ``ordering``, moves that lose at once are skipped and the rest ordered.
    """
    top = ply
    while True:
        value, opened = _open(cur, mask, depth, alpha, beta, ply, t, terms, lines, points, tt,
                              stats, stack, ordering)
        while not opened:
            if ply == top:
                return value
            ply -= 1
            depth += 1
            value = -value
            if value > stack[ply, BEST]:
                stack[ply, BEST] = value
                stack[ply, BEST_COLUMN] = stack[ply, SLOTS + stack[ply, NEXT]]
                stack[ply, ALPHA] = max(stack[ply, ALPHA], value)
            stack[ply, NEXT] += 1
            opened = (stack[ply, ALPHA] < stack[ply, BETA]
                      and stack[ply, NEXT] < stack[ply, COUNT])
            if not opened:
                value = _close(stack, ply, tt, stats[1])
        parent = np.uint64(stack[ply, MASK])
        cur = np.uint64(stack[ply, CUR]) ^ parent
        column = column_cells(t, stack[ply, SLOTS + stack[ply, NEXT]])
        mask = parent | (np.uint64(stack[ply, MOVES]) & column)
        alpha, beta = -stack[ply, BETA], -stack[ply, ALPHA]
        depth -= 1
        ply += 1


@njit(cache=True)
def root_scores(cur: np.uint64, mask: np.uint64, depth: int, packed: np.ndarray,
                terms: np.ndarray, lines: np.ndarray, points: np.ndarray, tt: np.ndarray,
                stats: np.ndarray, stack: np.ndarray, ordering: bool,
                all_ties: bool) -> np.ndarray:
    """The score of every root column (NO_SCORE if illegal), searching ``depth`` plies.

    The best score is exact, and so is every column that ties with it when ``all_ties``;
    without it only the first best column in centre-first order is sure to show the best
    score. ``packed`` is the board's ``board_array``. ``stats[0]`` counts the nodes of this
    search; ``stats[1]`` is advanced so the table entries of earlier searches are ignored.
    """
    t = unpack(packed)
    stats[0] = 1
    stats[1] += 1
    if stats[1] == GENERATIONS:
        tt[:] = 0
        stats[1] = 1
    scores = np.full(t.cols, NO_SCORE, dtype=np.int64)
    moves = playable(mask, t)
    wins = winning_cells(cur, mask, t) & moves
    best = -INFINITY
    for i in range(t.cols):
        c = centre_column(t, i)
        bit = moves & column_cells(t, c)
        if not bit:
            continue
        if bit & wins:
            value = WIN_SCORE - 1
        else:
            alpha = best - 1 if all_ties else best
            value = -search(cur ^ mask, mask | bit, depth - 1, -INFINITY, -alpha, 1, t, terms,
                            lines, points, tt, stats, stack, ordering)
        scores[c] = value
        best = max(best, value)
    return scores
