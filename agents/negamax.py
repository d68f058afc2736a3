"""The bitboard negamax agent (seed 002): alpha-beta search in numba kernels.

The search runs on two uint64 bitboards in ``agents._kernels.negamax``; this module turns a
Position into kernel arguments and the root scores into a Choice. Scores are from the
agent's point of view on the shared scale of ``agents.heuristics``: a win ``p`` plies
ahead scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from agents._kernels import negamax as kernels
from agents._kernels.bitboard import board_array
from agents._kernels.evaluation import board_windows
from agents.heuristics import centre_first, parse_heuristic, terms_array
from arena.agent import BaseAgent, Choice
from arena.board import BITBOARD_BITS, Position, Rules
from arena.errors import IllegalMoveError

MAX_DEPTH = BITBOARD_BITS  # more plies than any board has cells
MAX_TABLE_BITS = 20  # 2**20 rows of 16 bytes
TABLE_BITS_PER_DEPTH = 6  # 2**(6 + depth) rows: as small as does the job, to stay in cache


def check_depth(depth: int) -> None:
    """Raise ValueError unless ``depth`` is a whole number of plies from 1 to MAX_DEPTH."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"negamax depth must be a whole number from 1 to {MAX_DEPTH}, "
                         f"got {depth!r}")


class NegamaxAgent(BaseAgent):
    """Bitboard negamax with alpha-beta and named heuristics (seed 002), numba-fast.

    ``heuristic`` names the evaluation at the depth limit (see ``agents.heuristics``:
    none, positional, threats, live-threats, stacked-threats, window; combine with ``+``,
    weight with ``*``). ``tiebreak=first`` plays the first best move in centre-first
    order instead of a random one. ``ordering`` (skip moves that lose at once, try the
    table's and the threat-making moves first) and ``tt`` (transposition table) change
    the nodes searched, never the root score.
    """

    def __init__(
        self,
        depth: int = 4,
        heuristic: str = "none",
        tiebreak: Literal["random", "first"] = "random",
        ordering: bool = True,
        tt: bool = True,
    ):
        check_depth(depth)
        if tiebreak not in ("random", "first"):
            raise ValueError(f"tiebreak must be random or first, got {tiebreak!r}")
        self.depth = depth
        self.terms = terms_array(parse_heuristic(heuristic))
        self.tiebreak = tiebreak
        self.ordering = ordering
        bits = min(MAX_TABLE_BITS, TABLE_BITS_PER_DEPTH + depth) if tt else 0
        self._table = kernels.new_table(bits)
        self._stack = kernels.new_stack(depth)
        self._stats = np.zeros(2, dtype=np.int64)  # nodes of the last search, generation
        self._rules: Rules | None = None
        self._arguments: tuple[Any, ...] = ()

    def root_scores(self, position: Position) -> dict[int, int]:
        """The score of each legal column, in centre-first order, searched ``depth`` plies.

        The best score is exact, and with ``tiebreak=random`` so is every column that ties
        with it; the others may be upper bounds below the best.
        """
        if position.is_terminal:
            raise IllegalMoveError(f"negamax: the game is already over in {position.describe()}")
        if position.rules is not self._rules:  # the same Rules object all game long
            self._use_board(position.rules)
        scores = kernels.root_scores(np.uint64(position.current), np.uint64(position.mask),
                                     self.depth, *self._arguments).tolist()
        return {c: scores[c] for c in self._order if scores[c] != kernels.NO_SCORE}

    def _use_board(self, rules: Rules) -> None:
        """Prepare the kernel arguments for ``rules``."""
        windows = board_windows(rules)
        self._rules = rules
        self._order = centre_first(rules.cols)
        self._arguments = (board_array(rules), self.terms, windows.lines, windows.points,
                           self._table, self._stats, self._stack, self.ordering,
                           self.tiebreak == "random")

    def warm_up(self, rules: Rules) -> None:
        """Load (or compile) the search kernel for ``rules`` with a one-ply search."""
        self._use_board(rules)
        empty = np.uint64(0)
        kernels.root_scores(empty, empty, 1, *self._arguments)

    @property
    def nodes(self) -> int:
        """The positions visited by the last search, the root included."""
        return int(self._stats[0])

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A best-scoring column; ties go to ``rng`` or to the centre-first order."""
        scores = self.root_scores(position)
        best = max(scores.values())
        ties = [c for c, score in scores.items() if score == best]
        if len(ties) > 1 and self.tiebreak == "random":
            ties = [ties[int(rng.integers(len(ties)))]]
        return Choice(ties[0], nodes=self.nodes, depth=self.depth, score=best)
