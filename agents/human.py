"""The human agent: a person at the terminal types the columns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, overload

import click
import numpy as np

from arena.protocol.agent import BaseAgent, GameAbandoned
from arena.rules.board import Position
from arena.rules.render import render_for_stdout

QUIT_WORDS = ("q", "quit", "exit")
UNDO_WORDS = ("u", "undo")


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
        return self.ask_column(position)

    @overload
    def ask_column(self, position: Position, can_undo: Literal[False] = False) -> int: ...

    @overload
    def ask_column(self, position: Position, can_undo: bool) -> int | None: ...

    def ask_column(self, position: Position, can_undo: bool = False) -> int | None:
        """Show the board and ask for a legal column; None when the person asks to undo
        (only offered when ``can_undo``). End of input or q abandons the game."""
        cols = position.rules.cols
        self.tell(render_for_stdout(position))
        prompt = f"Your move (1-{cols}, {'u to undo, ' if can_undo else ''}q to quit): "
        while True:
            try:
                answer = self.ask(prompt).strip().lower()
            except EOFError:
                raise GameAbandoned("end of input") from None
            if answer in QUIT_WORDS:
                raise GameAbandoned("you quit")
            if can_undo and answer in UNDO_WORDS:
                return None
            if not answer.isdigit() or not 1 <= int(answer) <= cols:
                self.tell(f"{answer!r} is not a column: type a number from 1 to {cols}.")
                continue
            column = int(answer) - 1
            if not position.can_play(column):
                self.tell(f"Column {answer} is full: pick another.")
                continue
            return column
