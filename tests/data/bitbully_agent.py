"""BitBully (``pip install bitbully``, the ``dev`` extra), an independent perfect player of the
6 x 7 board, as an agent of this project: the tests play the ``solver`` agent against it."""

from __future__ import annotations

import numpy as np
from bitbully import BitBully, Board

from arena.protocol.agent import BaseAgent, Choice
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import UnsupportedBoardError
from arena.rules.notation import to_array


def bitbully_board(position: Position) -> Board:
    """BitBully's board of ``position`` (its rows top first; ours are bottom first)."""
    return Board.from_array(to_array(position)[::-1].tolist())


class BitBullyPlayer(BaseAgent):
    """Perfect play by BitBully's scores of every column (Pascal Pons' convention), with its
    default 12-ply book; ties broken at random by the game's Generator."""

    def __init__(self) -> None:
        self._solver: BitBully | None = None

    def check_rules(self, rules: Rules) -> None:
        """BitBully plays the standard board only."""
        if rules != DEFAULT_RULES:
            raise UnsupportedBoardError(f"BitBully plays only on {DEFAULT_RULES}, not {rules}")

    def warm_up(self, rules: Rules) -> None:
        """Load BitBully and its book."""
        self.solver()

    def solver(self) -> BitBully:
        """BitBully with its default book, loaded once."""
        if self._solver is None:
            self._solver = BitBully()
        return self._solver

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A best-scored column."""
        scores = self.solver().score_all_moves(bitbully_board(position))
        best = max(scores.values())
        ties = sorted(column for column, score in scores.items() if score == best)
        column = ties[int(rng.integers(len(ties)))]
        return Choice(column, score=best)
