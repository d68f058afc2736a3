"""The conformance check every registered agent must pass.

On random positions reached by legal play on several boards, an agent built from its spec
must return a legal column (an int or a Choice) and, told of a new game and given a fresh
Generator with the same seed, the same column again whatever it played in between (unless
it declares ``reproducible = False``, as agents that search by the clock do). A board the
agent cannot play must be refused before its first move, with UnsupportedBoardError from
``check_rules`` or ``new_game``; the standard board may not be refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from arena.protocol.agent import Agent, GameStart, as_choice, check_agent_rules, start_game
from arena.protocol.registry import make_agent
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import UnsupportedBoardError
from arena.rules.notation import to_moves

DEFAULT_BOARDS = (
    DEFAULT_RULES,
    Rules(rows=4, cols=5, connect=3),
    Rules(rows=6, cols=9, connect=5),
    Rules(rows=7, cols=8, connect=4),  # 8 x (7 + 1) = 64 bits, the largest bitboard
)
DEFAULT_POSITIONS_PER_BOARD = 30


class ConformanceError(AssertionError):
    """An agent broke the Agent contract: which check, on which position, what happened."""


def is_interactive(agent: object) -> bool:
    """True for agents (classes or instances) that ask a person; they cannot be checked."""
    return bool(getattr(agent, "interactive", False))


def is_reproducible(agent: object) -> bool:
    """False for agents that declare their moves may differ for one position and seed."""
    return bool(getattr(agent, "reproducible", True))


def check_agent(
    spec: str,
    boards: Sequence[Rules] = DEFAULT_BOARDS,
    positions_per_board: int = DEFAULT_POSITIONS_PER_BOARD,
    seed: int = 0,
) -> None:
    """Raise ConformanceError unless the agent of ``spec`` plays legally and, unless it says
    otherwise, reproducibly."""
    agent = make_agent(spec)
    if is_interactive(agent):
        raise ConformanceError(f"agent {spec!r} is interactive and cannot be checked")
    for board_index, rules in enumerate(boards):
        if not _plays_on(agent, spec, rules):
            continue
        rng = np.random.default_rng([seed, board_index])
        positions = random_positions(rules, positions_per_board, rng)
        seeds = [[seed, board_index, index] for index in range(len(positions))]
        first = [_ask(agent, spec, position, move_seed)
                 for position, move_seed in zip(positions, seeds, strict=True)]
        if not is_reproducible(agent):
            continue
        for index in reversed(range(len(positions))):  # other moves played in between
            again = _ask(agent, spec, positions[index], seeds[index])
            if again != first[index]:
                raise ConformanceError(
                    f"{_where(spec, positions[index])}: not reproducible: column "
                    f"{first[index] + 1}, then {again + 1} in a new game with a Generator of "
                    f"the same seed {seeds[index]}"
                )


def random_positions(rules: Rules, count: int, rng: np.random.Generator) -> list[Position]:
    """``count`` positions reached by random legal moves, each stopped before the game ends."""
    positions = []
    for _ in range(count):
        position = Position.empty(rules)
        for _ in range(int(rng.integers(rules.rows * rules.cols))):
            legal = position.legal_moves()
            after = position.play(legal[int(rng.integers(len(legal)))])
            if after.is_terminal:
                break
            position = after
        positions.append(position)
    return positions


def _plays_on(agent: Agent, spec: str, rules: Rules) -> bool:
    """Whether the agent accepts ``rules``; refusing the standard board is a failure."""
    try:
        check_agent_rules(agent, rules)
        start_game(agent, GameStart(rules, player=1))
    except UnsupportedBoardError as error:
        if rules == DEFAULT_RULES or not str(error):
            raise ConformanceError(
                f"agent {spec!r} refuses the board {rules}: {error!r} (the standard board "
                "must be supported and a refusal must say why)"
            ) from error
        return False
    except Exception as error:
        raise ConformanceError(
            f"agent {spec!r} on {rules}: new_game crashed: {type(error).__name__}: {error}"
        ) from error
    return True


def _ask(agent: Agent, spec: str, position: Position, seed: list[int]) -> int:
    """The column the agent plays in ``position`` as a new game, checked to be legal."""
    try:
        start_game(agent, GameStart(position.rules, position.side_to_move))
        answer = agent.choose(position, np.random.default_rng(seed))
    except Exception as error:
        raise ConformanceError(
            f"{_where(spec, position)}: crashed: {type(error).__name__}: {error}"
        ) from error
    try:
        column = as_choice(answer).column
    except TypeError as error:
        raise ConformanceError(f"{_where(spec, position)}: {error}") from None
    if not position.can_play(column):
        legal = " ".join(str(move + 1) for move in position.legal_moves())
        raise ConformanceError(
            f"{_where(spec, position)}: played column {column + 1} (it returned {column}, "
            f"counting from 0), which is not legal; legal columns: {legal}"
        )
    return column


def _where(spec: str, position: Position) -> str:
    return f"agent {spec!r} on {position.rules}, position {to_moves(position) or '(empty)'}"
