"""What a perfect-play oracle (the solver) offers the window and `arena show`: column scores,
and how to read them.

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


def outcome_class(score: int) -> int:
    """The theoretical result a score means for the side to move: 1 for a win, 0 for a
    draw, -1 for a loss."""
    return (score > 0) - (score < 0)


def winning_disc(score: int, position: Position) -> int:
    """For a won or lost position, which of the winner's discs (counted from the start of
    the game) completes its line under perfect play."""
    cells, plies = position.rules.rows * position.rules.cols, position.plies
    if score > 0:  # the side to move has plies // 2 discs
        return plies // 2 + (cells + 1 - plies) // 2 - score + 1
    if score < 0:  # the other side has (plies + 1) // 2
        return (plies + 1) // 2 + (cells - plies) // 2 + score + 1
    raise ValueError("a draw has no winning disc")


def next_disc_scores(position: Position) -> dict[int, int] | None:
    """The exact score of every legal column when the next disc decides each: the side to
    move wins with it, or it lets the other side win with its own next disc, or it fills the
    board (a draw); None when some column needs a search (the solver's).

    Exact by the scale itself: a win with one's next disc is the best score there is,
    ``(cells + 1 - plies) // 2``, so the other side's reply cannot do better than that win.
    ``arena solve`` answers such positions without loading the solver's kernels.
    """
    if position.is_terminal:
        return None
    cells, plies = position.rules.rows * position.rules.cols, position.plies
    wins = position.winning_moves()
    scores = {}
    for column in position.legal_moves():
        if column in wins:
            scores[column] = (cells + 1 - plies) // 2
            continue
        child = position.play(column)
        if child.is_full:
            scores[column] = 0
        elif child.winning_moves():
            scores[column] = -((cells - plies) // 2)
        else:
            return None
    return scores


def describe_score(score: int, position: Position) -> str:
    """The score in words, e.g. ``player 1 (to move) wins with its 4th disc``."""
    mover = position.side_to_move
    if score == 0:
        return "a draw with perfect play"
    winner = mover if score > 0 else 3 - mover
    role = "to move" if winner == mover else "not to move"
    return f"player {winner} ({role}) wins with its {_ordinal(winning_disc(score, position))} disc"


def _ordinal(number: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    if 10 <= number % 100 <= 20:
        suffix = "th"
    return f"{number}{suffix}"
