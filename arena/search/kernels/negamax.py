"""The negamax search of the negamax agent: iterative alpha-beta on uint64 bitboards, in the
compiled core (``arena/search/core/negamax.hpp``, with the heuristics of ``evaluation.hpp``):
``root_scores`` searches, the GIL released; this module holds the arrays a search works in and
their layout.

Scores are int64 and follow ``arena.search.heuristics``: a win for the side to move found ``p``
plies below the root scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0; with
flat win scoring (``win_step = 0``) every win scores ``WIN_SCORE`` and every loss its
negative, however far ahead. A search stops at a node limit (``stats[NODE_LIMIT]``) with
``stats[ABORTED]`` set, its scores void; table rows carry the generation of the search that
wrote them, and a search trusts only its own generation's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.rules.board import MAX_COLUMNS
from arena.search.heuristics import WIN_SCORE
from arena.search.kernels.native import core

INFINITY = 2 * WIN_SCORE
NO_SCORE = -4 * WIN_SCORE  # marks an illegal root column in a score array
# A table row is [key, value << 32 | generation << 8 | best column << 2 | flag]; the table is
# cleared when the generation wraps after 2**24 searches.
TT_FIELDS = 2
GENERATIONS = 1 << 24
# The search stack holds one row per ply: SLOTS fields, then the ordered columns to try, then
# scratch for their ordering.
SLOTS = 11
STACK_WIDTH = SLOTS + 2 * MAX_COLUMNS
COLUMN_BITS = 4  # bits per column of the move order in a search array's settings


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


root_scores = core.root_scores
"""``root_scores(cur, mask, depth, packed, terms, lines, points, tt, stats, stack, all_ties)``:
``score_root``'s scores in a new int64 array, one per column, in compiled C++ (the GIL
released). ``packed`` is a ``search_array``, ``terms`` a ``terms_array``, ``lines`` and
``points`` the board's ``board_windows``; ``tt``, ``stats`` and ``stack`` (``new_table``,
``new_stats``, ``new_stack`` of at least ``depth``) are used in place, never copied."""
