"""What a perfect-play oracle (the solver) offers the window and the replays: column scores.

Scores follow Pascal Pons' convention: from the side to move's point of view, positive
when it wins (the sooner, the larger), 0 for a draw, negative when it loses.
"""

from __future__ import annotations

from typing import Protocol

from arena.rules.board import Position


class Oracle(Protocol):
    """Anything that knows the exact value of every legal move."""

    def column_scores(self, position: Position) -> dict[int, int]:
        """The exact score of each legal column (0-based) for the side to move."""
        ...


def score_text(score: int) -> str:
    """A score as shown to people: +3, 0, -2."""
    return f"{score:+d}" if score else "0"
