"""How a game ends: the ``Termination`` of every game, and which of them are forfeits."""

from __future__ import annotations

from enum import StrEnum


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


FORFEITS: tuple[Termination, ...] = (
    Termination.ILLEGAL_MOVE,
    Termination.AGENT_ERROR,
    Termination.AGENT_CRASH,
    Termination.TIME_FORFEIT,
)
"""The terminations that lose the game for the agent at fault."""
