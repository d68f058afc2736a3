"""The negamax search of the negamax agent: iterative alpha-beta on uint64 bitboards.

``root_scores``, which the agents call from Python, is the compiled core's
(``arena/search/core/negamax.hpp``, with the heuristics of ``evaluation.hpp``): node for node
this module's numba search, the same scores, node counts, table rows and stop at a node
limit, with the GIL released while it searches. The numba search (``search``, ``score_root``
and the functions they inline) stays here for the numba kernels that still call it inside
compiled code, numba's fused game loop (``games.play_games_jit``), until it is ported too
(issue 39); the allocators and constants serve both.

Scores are int64 and follow ``arena.search.heuristics``: a win for the side to move found ``p``
plies below the root scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0; with
flat win scoring (``win_step = 0``) every win scores ``WIN_SCORE`` and every loss its
negative, however far ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from arena.rules.board import MAX_COLUMNS
from arena.search.heuristics import WIN_SCORE
from arena.search.kernels.bitboard import (
    BOARD_FIELDS,
    ONE,
    Int,
    Tables,
    column_cells,
    playable,
    popcount,
    unpack,
    winning_cells,
    without_runtime,
)
from arena.search.kernels.evaluation import evaluate
from arena.search.kernels.native import core

INFINITY = 2 * WIN_SCORE
NO_SCORE = -4 * WIN_SCORE  # marks an illegal root column in a score array
HASH_MULTIPLIER = np.uint64(0x9E37_79B9_7F4A_7C15)
EXACT, LOWER, UPPER = 0, 1, 2
MIN_TT_DEPTH = 2  # shallower nodes are searched again rather than looked up
SORT_DEPTH = 4  # shallower nodes try their moves in centre-first order
# A table row is [key, value << 32 | generation << 8 | best column << 2 | flag]; a search
# only trusts rows of its own generation, which wraps after 2**24 searches.
TT_FIELDS = 2
GENERATIONS = 1 << 24
LOW_32 = 0xFFFF_FFFF

# --- search ---------------------------------------------------------------------------
#
# The search is iterative: numba cannot cache recursive functions reliably (numba issue
# 6061) and a call per node costs more than the node. ``stack`` holds one row per ply:
# the fields below, then the ordered columns to try, then scratch for their ordering.

CUR, MASK, MOVES, ALPHA, BETA, FLOOR, BEST, BEST_COLUMN, NEXT, COUNT, STORE = range(11)
SLOTS = 11
STACK_WIDTH = SLOTS + 2 * MAX_COLUMNS
COLUMN_BITS = 4  # bits per column in ``Settings.order``


class Settings(NamedTuple):
    """How one agent searches, all scalars (as ``Tables``, packed in an array by
    ``search_array`` after the board's tables and unpacked once per search)."""

    order: np.uint64  # the columns in the order moves are tried, COLUMN_BITS each, first lowest
    win_step: int  # a win p plies ahead scores WIN_SCORE - win_step * p
    ordering: int  # 1: skip moves that lose at once and sort the rest (see ``_open``)
    full_board_evaluation: int  # 1: a full board at the depth limit is evaluated, not 0
    soonest_win: int  # plies from a node without a win in one to the soonest win scored below


def search_array(board: np.ndarray, order: Sequence[int], win_step: int = 1,
                 ordering: bool = True, full_board_evaluation: bool = False,
                 soonest_win: int = 3) -> np.ndarray:
    """A board's ``board_array`` followed by the fields of a Settings (one array, so that a
    search takes one argument less): ``order`` lists every column.

    ``soonest_win`` is 3 (our next move but one) unless the evaluation scores a win sooner
    than it can happen: seed 002's live threats score the opponent's two playable threats
    as its loss on its next ply, 2 plies below us.
    """
    packed = sum(column << (COLUMN_BITS * i) for i, column in enumerate(order))
    settings = [packed, win_step, ordering, full_board_evaluation, soonest_win]
    return np.concatenate([board, np.array(settings, dtype=np.uint64)])


@njit(cache=True)
def unpack_settings(packed: np.ndarray) -> Settings:
    """The Settings in a ``search_array``."""
    fields = packed[BOARD_FIELDS:].view(np.int64)
    return Settings(packed[BOARD_FIELDS], fields[1], fields[2], fields[3], fields[4])


@njit(cache=True, inline="always")
def nth_column(s: Settings, index: int) -> Int:
    """The ``index``-th column in the search's move order."""
    return np.int64((s.order >> np.uint64(COLUMN_BITS * index)) & np.uint64(15))


def new_stack(depth: int) -> np.ndarray:
    """The search stack for searches of up to ``depth`` plies."""
    return np.zeros((depth + 1, STACK_WIDTH), dtype=np.int64)


NODES, GENERATION, NODE_LIMIT, ABORTED = range(4)  # the fields of a stats array
NO_NODE_LIMIT = 1 << 62


def new_stats() -> np.ndarray:
    """A stats array: nodes of the last search, table generation, the node limit of a
    search (``NO_NODE_LIMIT`` by default) and whether the last search hit it (0 or 1)."""
    return np.array([0, 0, NO_NODE_LIMIT, 0], dtype=np.int64)


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
                   t: Tables, s: Settings, stack: np.ndarray, ply: int) -> int:
    """Write the columns of ``moves`` into the slots of row ``ply``, best first; count them.

    ``first`` (a column, or -1) leads; the rest go by the number of threats the move
    makes, ties in the move order. (Rows are indexed, never sliced: a slice costs two
    atomic reference count updates.)
    """
    count = 0
    for i in range(t.cols):
        c = nth_column(s, i)
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
def _frontier(cur: np.uint64, mask: np.uint64, moves: np.uint64, alpha: int, beta: int,
              ply: int, t: Tables, s: Settings, terms: np.ndarray, lines: np.ndarray,
              points: np.ndarray, stats: np.ndarray) -> int:
    """The value of an opened node one ply above the depth limit: its children evaluated in
    the move order until a cut-off, as ``search`` would visit them (the same nodes counted,
    the same node limit), without a row of the stack for each.
    """
    best = -INFINITY
    other = cur ^ mask
    for i in range(t.cols):
        bit = moves & column_cells(t, nth_column(s, i))
        if not bit:
            continue
        if stats[NODES] >= stats[NODE_LIMIT]:
            stats[ABORTED] = 1
            return 0
        stats[NODES] += 1
        child = mask | bit
        if child == t.board and not s.full_board_evaluation:
            value = 0
        else:
            value = -evaluate(other, child, ply + 1, s.win_step, t, terms, lines, points)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


@njit(cache=True, inline="always")
def _open(cur: np.uint64, mask: np.uint64, depth: int, alpha: int, beta: int, ply: int,
          t: Tables, s: Settings, terms: np.ndarray, lines: np.ndarray, points: np.ndarray,
          tt: np.ndarray, stats: np.ndarray, stack: np.ndarray) -> tuple[int, bool]:
    """Enter a node: (its value, False) when known without children, else (0, True).

    An opened node has its fields and ordered columns written to row ``ply`` of ``stack``.
    """
    stats[NODES] += 1
    if mask == t.board and not (depth == 0 and s.full_board_evaluation):
        return 0, False
    if depth == 0:
        return evaluate(cur, mask, ply, s.win_step, t, terms, lines, points), False
    moves = playable(mask, t)
    if winning_cells(cur, mask, t) & moves:
        return WIN_SCORE - s.win_step * (ply + 1), False
    if s.ordering and depth >= 2:
        threats = winning_cells(cur ^ mask, mask, t)
        forced = threats & moves
        if forced:
            if forced & (forced - ONE):
                return s.win_step * (ply + 2) - WIN_SCORE, False
            moves = forced
        moves &= ~(threats >> ONE)  # a move below an opponent's threat loses at once
        if not moves:
            return s.win_step * (ply + 2) - WIN_SCORE, False
    ceiling = WIN_SCORE - s.win_step * (ply + s.soonest_win)  # the best score left
    if beta > ceiling:
        beta = ceiling
        if alpha >= beta:
            return beta, False
    if depth == 1:  # below MIN_TT_DEPTH and SORT_DEPTH: no table, no sorting
        return _frontier(cur, mask, moves, alpha, beta, ply, t, s, terms, lines, points,
                         stats), False
    first = -1
    store = tt.shape[0] > 1 and depth >= MIN_TT_DEPTH
    if store:
        entry = _row(tt, cur + mask)
        meta = tt[entry, 1]
        if tt[entry, 0] == np.int64(cur + mask) and (meta & LOW_32) >> 8 == stats[GENERATION]:
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
    if s.ordering and depth >= SORT_DEPTH:
        count = _ordered_moves(cur, mask, moves, first, t, s, stack, ply)
    else:
        count = 0
        for i in range(t.cols):
            c = nth_column(s, i)
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


@without_runtime
def search(cur: np.uint64, mask: np.uint64, depth: int, alpha: int, beta: int, ply: int,
           t: Tables, s: Settings, terms: np.ndarray, lines: np.ndarray, points: np.ndarray,
           tt: np.ndarray, stats: np.ndarray, stack: np.ndarray) -> int:
    """The negamax value of a position, ``ply`` plies below the root, searched ``depth`` deep.

    Alpha-beta, fail-soft: a value at or below ``alpha`` is an upper bound, one at or above
    ``beta`` a lower bound. ``stats`` is a ``new_stats`` array: past its node limit the
    search stops, sets ``stats[ABORTED]`` and returns a meaningless 0. ``tt`` is the
    transposition table (one row disables it); ``stack`` has a row per ply below ``ply``.
    With ``s.ordering``, moves that lose at once are skipped and the rest ordered.
    """
    top = ply
    while True:
        if stats[NODES] >= stats[NODE_LIMIT]:
            stats[ABORTED] = 1
            return 0
        value, opened = _open(cur, mask, depth, alpha, beta, ply, t, s, terms, lines, points,
                              tt, stats, stack)
        if stats[ABORTED]:  # by the node limit, in ``_frontier``
            return 0
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
                value = _close(stack, ply, tt, stats[GENERATION])
        parent = np.uint64(stack[ply, MASK])
        cur = np.uint64(stack[ply, CUR]) ^ parent
        column = column_cells(t, stack[ply, SLOTS + stack[ply, NEXT]])
        mask = parent | (np.uint64(stack[ply, MOVES]) & column)
        alpha, beta = -stack[ply, BETA], -stack[ply, ALPHA]
        depth -= 1
        ply += 1


@without_runtime
def score_root(scores: np.ndarray, cur: np.uint64, mask: np.uint64, depth: int,
               packed: np.ndarray, terms: np.ndarray, lines: np.ndarray, points: np.ndarray,
               tt: np.ndarray, stats: np.ndarray, stack: np.ndarray, all_ties: bool) -> None:
    """Write the score of every root column into ``scores`` (NO_SCORE if illegal),
    searching ``depth`` plies.

    The best score is exact, and so is every column that ties with it when ``all_ties``;
    without it only the first best column in the move order is sure to show the best
    score. ``packed`` is the agent's ``search_array`` (the board and its settings).
    ``stats`` (see ``new_stats``) counts the nodes of this search, and
    its generation is advanced so the table entries of earlier searches are ignored; a
    search that reaches the node limit stops with ``stats[ABORTED]`` set, its scores void.
    """
    t = unpack(packed)
    s = unpack_settings(packed)
    stats[NODES] = 1
    stats[ABORTED] = 0
    stats[GENERATION] += 1
    if stats[GENERATION] == GENERATIONS:
        tt[:] = 0
        stats[GENERATION] = 1
    scores[:] = NO_SCORE
    moves = playable(mask, t)
    wins = winning_cells(cur, mask, t) & moves
    best = -INFINITY
    for i in range(t.cols):
        c = nth_column(s, i)
        bit = moves & column_cells(t, c)
        if not bit:
            continue
        if bit & wins:
            value = WIN_SCORE - s.win_step
        else:
            alpha = best - 1 if all_ties else best
            value = -search(cur ^ mask, mask | bit, depth - 1, -INFINITY, -alpha, 1, t, s,
                            terms, lines, points, tt, stats, stack)
            if stats[ABORTED]:
                break
        scores[c] = value
        best = max(best, value)


root_scores = core.root_scores
"""``root_scores(cur, mask, depth, packed, terms, lines, points, tt, stats, stack, all_ties)``:
``score_root``'s scores in a new int64 array, one per column, in compiled C++ (the GIL
released). ``packed`` is a ``search_array``, ``terms`` a ``terms_array``, ``lines`` and
``points`` the board's ``board_windows``; ``tt``, ``stats`` and ``stack`` (``new_table``,
``new_stats``, ``new_stack`` of at least ``depth``) are used in place, never copied."""
