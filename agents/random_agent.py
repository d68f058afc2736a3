"""The random agent."""

from __future__ import annotations

import numpy as np

from arena.protocol.agent import BaseAgent
from arena.protocol.kernel_agents import RandomKernel
from arena.rules.board import Position, Rules


class RandomAgent(BaseAgent):
    """Plays a legal column uniformly at random."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """A uniformly random legal column."""
        moves = position.legal_moves()
        return moves[int(rng.random() * len(moves))]  # 4x cheaper than rng.integers

    def kernel_player(self, rules: Rules) -> RandomKernel:
        """Whole games of this agent can be played in compiled code."""
        return RandomKernel()
