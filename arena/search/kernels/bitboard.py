"""Per-board tables and the rules on uint64 bitboards (see the package docstring): the packed
array of a board's tables that every kernel of the compiled core reads, and the core's rules
for Python callers (``playable``, ``winning_cells``, ``has_line``, ``legal_columns``, which take
that array)."""

from __future__ import annotations

from functools import cache

import numpy as np

from arena.rules.board import Rules
from arena.search.heuristics import positional_weights
from arena.search.kernels.native import core

PLANES = 8  # bits of a positional weight: any board has at most 32 lines through a cell
STEPS = 4
BOARD_FIELDS = 8 + STEPS + PLANES  # the length of a ``board_array``


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


playable = core.playable
"""``playable(mask, board)``: the cell each column that is not full would receive next."""
winning_cells = core.winning_cells
"""``winning_cells(stones, mask, board)``: the empty cells that would complete a line."""
has_line = core.has_line
"""``has_line(stones, board)``: whether ``stones`` holds ``connect`` discs in a row."""
legal_columns = core.legal_columns
"""``legal_columns(mask, board)``: the columns that are not full, left to right."""
popcount = core.popcount
"""``popcount(bits)``: the number of set bits."""
