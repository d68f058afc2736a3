"""The human agent: a person at the terminal types the columns."""

from __future__ import annotations

from collections.abc import Callable

import click
import numpy as np

from arena.agent import BaseAgent, GameAbandoned
from arena.board import Position
from arena.render import render_for_stdout

QUIT_WORDS = ("q", "quit", "exit")


class HumanAgent(BaseAgent):
    """Asks the person at the terminal for a column (type 1 = leftmost, q to quit)."""

    interactive = True

    def __init__(self) -> None:
        self.ask: Callable[[str], str] = input
        self.tell: Callable[[str], None] = click.echo

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Show the board, then ask until the person names a legal column.

        End of input or q abandons the game.
        """
        cols = position.rules.cols
        self.tell(render_for_stdout(position))
        while True:
            try:
                answer = self.ask(f"Your move (1-{cols}, q to quit): ").strip().lower()
            except EOFError:
                raise GameAbandoned("end of input") from None
            if answer in QUIT_WORDS:
                raise GameAbandoned("you quit")
            if not answer.isdigit() or not 1 <= int(answer) <= cols:
                self.tell(f"{answer!r} is not a column: type a number from 1 to {cols}.")
                continue
            column = int(answer) - 1
            if not position.can_play(column):
                self.tell(f"Column {answer} is full: pick another.")
                continue
            return column
