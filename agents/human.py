"""The human agent: a person at the terminal types the columns."""

from __future__ import annotations

import numpy as np

from arena.play.terminal import TerminalPrompt
from arena.protocol.agent import BaseAgent
from arena.rules.board import Position


class HumanAgent(BaseAgent):
    """Asks the person at the terminal for a column (type 1 = leftmost, q to quit)."""

    interactive = True

    def __init__(self) -> None:
        self.prompt = TerminalPrompt()

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Show the board, then ask until the person names a legal column.

        End of input or q abandons the game.
        """
        return self.prompt.ask_column(position)
