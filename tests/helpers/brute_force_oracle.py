"""A perfect-play oracle for small boards, by exhaustive negamax, in Pons' score convention.

The score of a position for the side to move: (cells + 1 - plies) // 2 for a win with the
disc played at ``plies`` discs already on the board (sooner wins score higher), 0 for a
draw, minus the opponent's score for a loss.
"""

from __future__ import annotations

from functools import cache

from arena.rules.board import Position


class BruteForceOracle:
    """Exact column scores by searching every game to its end (tiny boards only)."""

    def column_scores(self, position: Position) -> dict[int, int]:
        """The score of each legal column for the side to move."""
        return {column: self._move_score(position, column) for column in position.legal_moves()}

    def _move_score(self, position: Position, column: int) -> int:
        child = position.play(column)
        if child.won:
            cells = position.rules.rows * position.rules.cols
            return (cells + 1 - position.plies) // 2
        return -_value(child)


@cache
def _value(position: Position) -> int:
    if position.is_full:
        return 0
    return max(BruteForceOracle()._move_score(position, column)
               for column in position.legal_moves())
