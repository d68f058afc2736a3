"""How move strings end, found in bulk by the compiled core, which plays them through: still
going, won by the last move, a full board, or not a legal game (the check of a run's rows).

The work is done in C++ (``arena/search/core/endings.hpp``, bound as
``arena.search.kernels._core.game_endings``), with the GIL released.
"""

from __future__ import annotations

import numpy as np

from arena.search.kernels.native import core

ONGOING, WON, FULL, BAD_COLUMN, PAST_END = 0, 1, 2, -1, -2


def game_endings(columns: np.ndarray, offsets: np.ndarray, rows: int, cols: int,
                 connect: int) -> np.ndarray:
    """How each move string ends: ONGOING, WON (by its last move), FULL, or BAD_COLUMN /
    PAST_END (a column off the board or full; a move after a line).

    Game ``g``'s moves are the 0-based columns ``columns[offsets[g]:offsets[g + 1]]`` (any
    integer dtype); the codes come back as an int8 array of ``len(offsets) - 1``.
    """
    return core.game_endings(np.ascontiguousarray(columns, dtype=np.int64),
                             np.ascontiguousarray(offsets, dtype=np.int64), rows, cols, connect)
