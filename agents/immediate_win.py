"""The immediate-win agent (seed 003): take a win in one when there is one."""

from __future__ import annotations

import numpy as np

from arena.protocol.agent import BaseAgent
from arena.protocol.kernel_agents import ImmediateWinKernel
from arena.rules.board import Position, Rules


class ImmediateWinAgent(BaseAgent):
    """Plays a winning column when it has one, else (optionally blocking) a random column."""

    def __init__(self, block: bool = False):
        self.block = block

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """A winning column, else a block of the opponent's single win, else a random one."""
        candidates = position.winning_moves()
        if not candidates and self.block:
            threats = position.winning_moves(3 - position.side_to_move)
            if len(threats) == 1:
                candidates = threats
        if not candidates:
            candidates = position.legal_moves()
        return candidates[int(rng.integers(len(candidates)))]

    def kernel_player(self, rules: Rules) -> ImmediateWinKernel:
        """Whole games of this agent can be played in compiled code."""
        return ImmediateWinKernel(self.block)
