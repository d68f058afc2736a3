"""Perft: count the move sequences of a given length, the classic check of a rules engine."""

from __future__ import annotations

from collections.abc import Callable

from arena.rules.board import Position


def perft(position: Position, depth: int, progress: Callable[[int], None] | None = None) -> int:
    """The number of move sequences of length ``depth``; a finished game has none.
    ``progress`` is told of each first move whose sequences are counted (the legal moves of
    ``position`` in all, when ``depth`` is at least 2)."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    count = 0
    for col in moves:
        count += perft(position.play(col), depth - 1)
        if progress is not None:
            progress(1)
    return count
