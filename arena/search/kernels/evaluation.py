"""The heuristics of the search agents at the depth limit, on uint64 bitboards, in the compiled
core (``arena/search/core/evaluation.hpp``, which its negamax search evaluates with):
``evaluate`` for Python callers, and the window heuristic's arrays every search takes.

Values follow ``arena.search.heuristics``: clamped to ``HEURISTIC_LIMIT``, except that live
threats score wins and losses on the shared ``WIN_SCORE`` scale.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from arena.rules.board import Rules
from arena.search.heuristics import window_points
from arena.search.kernels.native import core


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


evaluate = core.evaluate
"""``evaluate(cur, mask, ply, win_step, board, terms, lines, points)``: the heuristic value of a
position for the side to move, ``ply`` plies below the root (``board``: a ``board_array``,
``terms``: a ``heuristics.terms_array``, ``lines`` and ``points``: ``board_windows``')."""
