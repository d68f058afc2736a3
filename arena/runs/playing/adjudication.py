"""Adjudication: a game ends at a given ply with the result the exact solver proves, as
engine testers end games with tablebases.

The solver's weak search (win, draw or loss for the side to move) is exact whatever its table
holds, so an adjudicated game's result depends only on its moves: runs stay reproducible for
any ``--jobs``.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.rules.board import Position


@dataclass(frozen=True)
class Adjudicator:
    """Ends a game once ``from_ply`` discs are on the board (at once if its opening is
    longer) with the winner perfect play gives from there."""

    from_ply: int

    def due(self, position: Position) -> bool:
        """True when ``position`` (not over) is where the game ends."""
        return position.plies >= self.from_ply

    def winner(self, position: Position) -> int:
        """The player (1 or 2) who wins ``position`` with perfect play, 0 for a draw."""
        from arena.search.solver import shared_solver  # the kernels load only for adjudicated runs

        score = shared_solver().solve(position, weak=True)
        assert score is not None  # no node budget
        mover = position.side_to_move
        return mover if score > 0 else 3 - mover if score < 0 else 0
