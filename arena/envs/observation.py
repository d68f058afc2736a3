"""One board as the environments show it: two int8 planes and the legal columns.

``planes(position)[0]`` holds the discs of the side to move, ``[1]`` the other side's, row 0
the top row (as boards are drawn), 1 where a disc is: the encoding of the vectorized
environment, of PettingZoo's and Gymnasium's, of the datasets' ``planes`` and of an ``onnx:``
agent's input.
"""

from __future__ import annotations

import numpy as np

from arena.rules.board import Position, Rules


def planes(position: Position, player: int | None = None) -> np.ndarray:
    """The (2, rows, cols) int8 planes of ``position`` seen by ``player`` (1 or 2; default the
    side to move): plane 0 that player's discs, plane 1 the other's."""
    rules = position.rules
    own = position.stones(player or position.side_to_move)
    theirs = own ^ position.mask
    out = np.zeros((2, rules.rows, rules.cols), dtype=np.int8)
    for col in range(rules.cols):
        for row in range(rules.rows):
            bit = rules.cell_bit(col, row)
            out[0, rules.rows - 1 - row, col] = bool(own & bit)
            out[1, rules.rows - 1 - row, col] = bool(theirs & bit)
    return out


def legal_mask(position: Position) -> np.ndarray:
    """The int8 mask of the columns that can be played (all 0 once the game is over)."""
    mask = np.zeros(position.rules.cols, dtype=np.int8)
    mask[position.legal_moves() if not position.is_terminal else []] = 1
    return mask


def shape(rules: Rules) -> tuple[int, int, int]:
    """The shape of ``planes`` on ``rules``' board."""
    return (2, rules.rows, rules.cols)
