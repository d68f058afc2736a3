"""The heuristics of the search agents at the depth limit, on uint64 bitboards.

Values follow ``arena.search.heuristics``: clamped to ``HEURISTIC_LIMIT``, except that live
threats score wins and losses on the shared ``WIN_SCORE`` scale.

The compiled core has the same terms (``arena/search/core/evaluation.hpp``, which its negamax
search evaluates with); these numba ones stay for the numba search that the fused loop and the
vector environment still call (see ``negamax``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from arena.rules.board import Rules
from arena.search.heuristics import (
    BOTTOM_LEFT_BUG,
    CLEAR_ABOVE_PAIRS,
    CLEAR_ALL_LATER,
    HEURISTIC_LIMIT,
    LIVE_THREATS,
    LOSS_SOONER,
    PER_PAIR,
    POSITIONAL,
    STACKED_SCORE,
    STACKED_THREATS,
    THREATS,
    WIN_SCORE,
    WINDOW,
    window_points,
)
from arena.search.kernels.bitboard import (
    ONE,
    PLANES,
    ZERO,
    Tables,
    column_cells,
    playable,
    popcount,
    winning_cells,
)


class Windows(NamedTuple):
    """The arrays of the window heuristic."""

    lines: np.ndarray  # uint64 every line of ``connect`` cells
    points: np.ndarray  # int64 window points by own * (connect + 1) + opponent discs



@cache
def board_windows(rules: Rules) -> Windows:
    """The window heuristic's arrays for ``rules``, computed once per board size."""
    return Windows(
        lines=np.array(rules.geometry.lines, dtype=np.uint64),
        points=window_points(rules.connect).ravel().astype(np.int64),
    )



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
def above_lowest_pair(mine: np.uint64, theirs: np.uint64, t: Tables) -> np.uint64:
    """Every cell above the lowest stacked threat pair of the board, in bit order: the
    cells seed 002's first clearing code wiped (its bug: later columns too)."""
    pairs = (mine & (mine >> ONE)) | (theirs & (theirs >> ONE))
    lowest = pairs & (~pairs + ONE)
    return t.board & ~((lowest << np.uint64(2)) - ONE) if pairs else ZERO


@njit(cache=True, inline="always")
def evaluate(cur: np.uint64, mask: np.uint64, ply: int, win_step: int, t: Tables,
             terms: np.ndarray, lines: np.ndarray, points: np.ndarray) -> int:
    """The heuristic value of a position for the side to move, ``ply`` plies below the root.

    ``terms`` holds (kernel id, weight, variant) rows sorted by id (see
    ``arena.search.heuristics.terms_array``), so that live threats decide first and unreachable
    threats are cleared before stacked pairs and threats are counted. The window term is
    the root player's window score, negated when the opponent of the root player is to
    move. The weighted sum is clamped to ``HEURISTIC_LIMIT``; live threats score wins and
    losses, ``p`` plies ahead as ``WIN_SCORE - win_step * p``.
    """
    other = cur ^ mask
    value = balance = 0
    mine = theirs = ZERO
    if terms.shape[0] and terms[0, 0] <= THREATS:  # a threat term, as those sort first
        mine = winning_cells(cur, mask, t)
        theirs = winning_cells(other, mask, t)
    for i in range(terms.shape[0]):
        kind, weight, variant = terms[i, 0], terms[i, 1], terms[i, 2]
        if kind == CLEAR_ALL_LATER:
            above = above_lowest_pair(mine, theirs, t)
            mine &= ~above
            theirs &= ~above
        elif kind == LIVE_THREATS:
            cells = playable(mask, t)
            if variant & BOTTOM_LEFT_BUG:
                cells &= ~ONE
            if mine & cells:
                return WIN_SCORE - win_step * (ply + 1)
            if popcount(theirs & cells) >= 2:
                return win_step * (ply + (1 if variant & LOSS_SOONER else 2)) - WIN_SCORE
        elif kind == CLEAR_ABOVE_PAIRS:
            balance, above = stacked_pairs(mine, theirs, t)
            mine &= ~above
            theirs &= ~above
        elif kind == STACKED_THREATS:
            if variant & PER_PAIR:
                value += weight * (popcount(mine & (mine >> ONE))
                                   - popcount(theirs & (theirs >> ONE)))
            else:
                value += weight * STACKED_SCORE * balance
        elif kind == THREATS:
            value += weight * (popcount(mine) - popcount(theirs))
        elif kind == POSITIONAL:
            value += weight * (positional(cur, t) - positional(other, t))
        elif kind == WINDOW:
            if ply % 2 == 0:
                value += weight * window_score(cur, other, t, lines, points)
            else:
                value -= weight * window_score(other, cur, t, lines, points)
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))
