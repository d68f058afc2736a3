"""One game between two agents, with forfeits for crashes, illegal columns and overtime."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.agent import Agent, GameStart, Limit, as_choice
from arena.board import Position
from arena.errors import ArenaError
from arena.notation import format_moves

# An agent forfeits on time when one move takes longer than the limit plus this margin.
TIME_MARGIN_SECONDS = 0.1

FOUR_IN_A_ROW = "four_in_a_row"
BOARD_FULL = "board_full"
ILLEGAL_MOVE = "illegal_move"
AGENT_ERROR = "agent_error"
TIME_FORFEIT = "time_forfeit"
TERMINATIONS = (FOUR_IN_A_ROW, BOARD_FULL, ILLEGAL_MOVE, AGENT_ERROR, TIME_FORFEIT)


class GameAbandoned(BaseException):
    """Raised by an agent (a person at the terminal) to stop the game; it is not a forfeit."""


@dataclass
class GameOutcome:
    """How a game ended, from the players' point of view (player 1 moved first)."""

    winner: int  # 0 for a draw
    termination: str
    moves: list[int]
    error: str = ""
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    nodes: list[int | None] = field(default_factory=lambda: [None, None])
    agent_moves: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def move_string(self) -> str:
        """The whole game as a move string."""
        return format_moves(self.moves)


Observer = Callable[[Position, int | None], None]


def play_game(
    players: Sequence[Agent],
    rngs: Sequence[np.random.Generator],
    start: Position,
    opening: Sequence[int] = (),
    time_per_move: float | None = None,
    observer: Observer | None = None,
) -> GameOutcome:
    """Play ``players[0]`` (player 1) against ``players[1]`` from ``start`` to the end.

    ``opening`` moves are already part of ``start``'s history. ``observer(position, column)``
    is called with the start position (column None) and after every move.
    """
    outcome = GameOutcome(winner=0, termination="", moves=list(opening))
    for index, agent in enumerate(players):
        try:
            agent.new_game(GameStart(start.rules, index + 1, Limit(time=time_per_move)))
        except Exception as error:  # noqa: BLE001 - any crash is the agent's forfeit
            return _forfeit(outcome, index + 1, AGENT_ERROR, f"new_game: {_describe(error)}")
    position = start
    if observer:
        observer(position, None)
    while not position.is_terminal:
        mover = position.side_to_move
        agent, rng = players[mover - 1], rngs[mover - 1]
        began = time.perf_counter()
        try:
            answer = agent.choose(position, rng)
            column = answer if type(answer) is int else _record_choice(answer, outcome, mover)
        except Exception as error:  # noqa: BLE001
            return _forfeit(outcome, mover, AGENT_ERROR, _describe(error))
        finally:
            elapsed = time.perf_counter() - began
            outcome.seconds[mover - 1] += elapsed
            outcome.agent_moves[mover - 1] += 1
        if time_per_move is not None and elapsed > time_per_move + TIME_MARGIN_SECONDS:
            return _forfeit(outcome, mover, TIME_FORFEIT,
                            f"move {position.plies + 1} took {elapsed:.3f} s, limit "
                            f"{time_per_move} s + {TIME_MARGIN_SECONDS} s margin")
        try:
            position = position.play(column)
        except ArenaError:
            return _forfeit(outcome, mover, ILLEGAL_MOVE,
                            f"column {column} is not a legal move in position "
                            f"{outcome.move_string or '(empty)'}")
        outcome.moves.append(column)
        if observer:
            observer(position, column)
    outcome.winner = position.winner or 0
    outcome.termination = FOUR_IN_A_ROW if position.won else BOARD_FULL
    return outcome


def _record_choice(answer: object, outcome: GameOutcome, mover: int) -> int:
    """The column of an answer that is not a plain int; adds the nodes it reports."""
    choice = as_choice(answer)  # type: ignore[arg-type]
    if choice.nodes is not None:
        outcome.nodes[mover - 1] = (outcome.nodes[mover - 1] or 0) + choice.nodes
    return choice.column


def _forfeit(outcome: GameOutcome, loser: int, termination: str, message: str) -> GameOutcome:
    outcome.winner = 3 - loser
    outcome.termination = termination
    outcome.error = message
    return outcome


def _describe(error: Exception) -> str:
    return f"{type(error).__name__}: {error}".replace("\n", " ")
