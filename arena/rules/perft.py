"""Perft: count the move sequences of a given length, the classic check of a rules engine."""

from __future__ import annotations

from arena.rules.board import Position


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth``; a finished game has none."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(col), depth - 1) for col in moves)
