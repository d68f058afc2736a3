"""How a game ends, as values: its ``Result`` from one side's point of view, the ``Side``
(agent A or agent B of a pairing), and its ``Termination``; which terminations are forfeits.

The values are the words games.csv records (``win``, ``a``, ``four_in_a_row``); everywhere
else a result is one of these values, flipped with ``Result.flip`` for the other side.
"""

from __future__ import annotations

from enum import StrEnum


class Result(StrEnum):
    """A game's result for one side (by convention agent A): win, draw or loss."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"

    @property
    def score(self) -> float:
        """The points it is worth: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return _SCORES[self]

    def flip(self) -> Result:
        """The same game's result for the other side."""
        return _FLIPPED[self]

    @classmethod
    def of_winner(cls, winner: int, player: int) -> Result:
        """The result for ``player`` (1 moves first, or 2) of a game ``winner`` won (0: a
        draw)."""
        if winner == 0:
            return cls.DRAW
        return cls.WIN if winner == player else cls.LOSS

    @classmethod
    def of_sign(cls, sign: int) -> Result:
        """The result a value's sign means: positive a win, 0 a draw, negative a loss."""
        return cls.WIN if sign > 0 else cls.LOSS if sign < 0 else cls.DRAW


_SCORES = {Result.WIN: 1.0, Result.DRAW: 0.5, Result.LOSS: 0.0}
_FLIPPED = {Result.WIN: Result.LOSS, Result.DRAW: Result.DRAW, Result.LOSS: Result.WIN}


class Side(StrEnum):
    """Agent A or agent B of a pairing (A is the first agent named: results are A's)."""

    A = "a"
    B = "b"

    @property
    def other(self) -> Side:
        """The other side."""
        return Side.B if self is Side.A else Side.A

    def mover(self, first: Side) -> int:
        """The mover this side is (1 moves first, 2) in a game where ``first`` moved first."""
        return 1 if self is first else 2

    player = mover
    """The earlier name of ``mover`` (a player is a run's ``Player``)."""


class Termination(StrEnum):
    """Why a game ended; the value is what games.csv records."""

    FOUR_IN_A_ROW = "four_in_a_row"
    """The player who moved last completed a line."""
    BOARD_FULL = "board_full"
    """The board filled up with no line: a draw."""
    ILLEGAL_MOVE = "illegal_move"
    """An agent named a full column, a column off the board, or something not a column."""
    AGENT_ERROR = "agent_error"
    """An agent raised an exception (any BaseException: SystemExit, KeyboardInterrupt, ...),
    or could not be built or started for the game."""
    AGENT_CRASH = "agent_crash"
    """The process hosting an agent died: os._exit, a signal, a native crash, out of memory."""
    TIME_FORFEIT = "time_forfeit"
    """An agent overran its time limit (and its time bank) by more than the grace."""
    ADJUDICATED = "adjudicated"
    """The game reached the run's adjudication ply and was scored with the result the exact
    solver proves from there."""
    DISQUALIFIED = "disqualified"
    """An agent was disqualified by a rule of its own (it raised ``Disqualified``): a language
    model named no legal column in any of its answers to one move."""


FORFEITS: tuple[Termination, ...] = (
    Termination.ILLEGAL_MOVE,
    Termination.AGENT_ERROR,
    Termination.AGENT_CRASH,
    Termination.TIME_FORFEIT,
    Termination.DISQUALIFIED,
)
"""The terminations that lose the game for the agent at fault."""
