"""How move strings end, found in bulk by a numba kernel that plays them through: still going,
won by the last move, a full board, or not a legal game (the check of a run's rows)."""

from __future__ import annotations

import numpy as np
from numba import njit

ONGOING, WON, FULL, BAD_COLUMN, PAST_END = 0, 1, 2, -1, -2


@njit(cache=True)
def _has_line(stones: np.uint64, rows: int, cols: int, connect: int) -> bool:
    height = rows + 1
    tall, wide = rows >= connect, cols >= connect
    for step, fits in ((1, tall), (height, wide), (height - 1, tall and wide),
                       (height + 1, tall and wide)):
        if not fits:  # no line in that direction, and its shifts could pass 63 bits
            continue
        run = stones
        for i in range(1, connect):
            run &= stones >> np.uint64(step * i)
        if run:
            return True
    return False


@njit(cache=True)
def game_endings(columns: np.ndarray, offsets: np.ndarray, rows: int, cols: int,
           connect: int) -> np.ndarray:
    """How each move string ends: ONGOING, WON (by its last move), FULL, or BAD_COLUMN /
    PAST_END (a column off the board or full; a move after a line)."""
    height = rows + 1
    one = np.uint64(1)
    board = np.uint64(0)
    for c in range(cols):
        board |= ((one << np.uint64(rows)) - one) << np.uint64(c * height)
    codes = np.zeros(len(offsets) - 1, dtype=np.int8)
    for game in range(len(offsets) - 1):
        mover = np.uint64(0)
        other = np.uint64(0)
        code = ONGOING
        for i in range(offsets[game], offsets[game + 1]):
            column = columns[i]
            if code == WON:
                code = PAST_END
                break
            if column < 0 or column >= cols:
                code = BAD_COLUMN
                break
            base = np.uint64(column * height)
            filled = mover | other
            if filled & (one << (base + np.uint64(rows - 1))):  # the column is full
                code = BAD_COLUMN
                break
            mover |= (filled + (one << base)) & ~filled
            if _has_line(mover, rows, cols, connect):
                code = WON
            elif (mover | other) == board:
                code = FULL
            mover, other = other, mover
        codes[game] = code
    return codes
