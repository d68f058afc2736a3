"""Positions for tests: boards drawn by hand (``position_of``), positions of random games, and
the extreme boards the rules engine must support."""

from __future__ import annotations

import numpy as np

from arena.rules.board import Position, Rules
from arena.rules.notation import from_array

EXTREME_RULES = (
    Rules(rows=63, cols=1, connect=3),  # one tall column
    Rules(rows=63, cols=1, connect=63),
    Rules(rows=6, cols=9, connect=4),  # widest
    Rules(rows=7, cols=8, connect=4),  # exactly 64 bits
    Rules(rows=7, cols=8, connect=8),  # connect = max(rows, cols)
    Rules(rows=1, cols=9, connect=3),  # one row
    Rules(rows=31, cols=2, connect=31),
    Rules(),
)


def position_of(rows: list[str], connect: int = 4) -> Position:
    """A position from rows drawn top to bottom: x = player 1, o = player 2, . = empty."""
    cells = [[".xo".index(c) for c in row] for row in reversed(rows)]
    return from_array(np.array(cells, dtype=np.int8), connect=connect)


def random_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Non-terminal positions of random games, stopped at random plies."""
    rng = np.random.default_rng(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.empty(rules)
        for _ in range(int(rng.integers(rules.rows * rules.cols))):
            position = position.play(int(rng.choice(position.legal_moves())))
            if position.is_terminal:
                break
        if not position.is_terminal:
            positions.append(position)
    return positions


def winning_positions(count: int) -> list[Position]:
    """Random positions of the standard board where the side to move can win at once."""
    return [p for p in random_positions(Rules(), 20 * count, seed=1) if p.winning_moves()][:count]


def blocking_positions(count: int) -> list[tuple[Position, int]]:
    """Random positions with a single opponent win to block, which the block does not feed."""
    found = []
    for position in random_positions(Rules(), 30 * count, seed=2):
        threats = position.winning_moves(3 - position.side_to_move)
        if position.winning_moves() or len(threats) != 1:
            continue
        after = position.play(threats[0])
        if not after.is_terminal and not after.winning_moves():
            found.append((position, threats[0]))
    return found[:count]
