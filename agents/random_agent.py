"""The random agent."""

from __future__ import annotations

import numpy as np

from arena.protocol.agent import BaseAgent
from arena.rules.board import Position


class RandomAgent(BaseAgent):
    """Plays a legal column uniformly at random."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """A uniformly random legal column."""
        moves = position.legal_moves()
        return moves[int(rng.random() * len(moves))]  # 4x cheaper than rng.integers
