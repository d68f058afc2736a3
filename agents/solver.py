"""Perfect play as an agent: the exact solver's best column (``arena.search.solver``), with
graded strength."""

from __future__ import annotations

import numpy as np

from arena.protocol.agent import BaseAgent, Choice
from arena.protocol.kernel_agents import SolverKernel
from arena.rules.board import Position, Rules

from .budget import PLANNED_SHARE, nodes_for_move, seconds_for_move

NOMINAL_NODES_PER_SECOND = 5_000_000
"""A time limit in nodes: under half the solver's speed on one core of the 2020s (11 to 15
million nodes a second in benchmarks/bench_solver.py)."""


class SolverAgent(BaseAgent):
    """Perfect play: a best-scored column of the exact solver, ties broken at random.

    Graded strength: with ``temperature`` > 0 the agent plays each column with probability
    proportional to exp(score / temperature) (at 1, a column scoring one point less is
    played e times less often); ``blunder`` is the chance per move of a uniformly random
    legal column instead. ``max_nodes`` (or a node limit of the game, whichever is smaller)
    bounds the search per move: past it the agent wins at once when it can, else blocks an
    immediate threat, else plays the column nearest the centre that does not let the
    opponent win at once (such moves report no score). A time limit of the game becomes a
    node budget too, at ``NOMINAL_NODES_PER_SECOND`` (machine-independent, and a fraction
    of the solver's real speed, so a move fits its time). The solver and its table are
    shared by every solver agent in the process; whether a budgeted search finishes depends
    on what that table already holds, so with ``max_nodes`` the agent is not reproducible
    move for move (with a game's node or time limit neither).
    """

    supported_limits = frozenset({"time", "nodes"})

    def __init__(self, temperature: float = 0.0, blunder: float = 0.0,
                 max_nodes: int | None = None):
        if not temperature >= 0:
            raise ValueError(f"temperature must be 0 or more, got {temperature!r}")
        if not 0 <= blunder <= 1:
            raise ValueError(f"blunder must be a probability from 0 to 1, got {blunder!r}")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, got {max_nodes!r}")
        self.temperature = temperature
        self.blunder = blunder
        self.max_nodes = max_nodes
        self.reproducible = max_nodes is None  # see the class docstring

    def warm_up(self, rules: Rules) -> None:
        """Load the kernels, the table and the board's book or database before the first timed
        move."""
        from arena.search.solver import shared_solver

        shared_solver().column_scores(Position.empty(rules), max_nodes=1)

    def kernel_player(self, rules: Rules) -> SolverKernel | None:
        """Whole games can be played in compiled code without a temperature (numpy's and
        the compiled exp may differ in the last bit) and without ``max_nodes``."""
        if self.temperature or self.max_nodes is not None:
            return None
        return SolverKernel(self.blunder)

    def node_budget(self) -> int | None:
        """The nodes a move may search: the smallest of ``max_nodes``, the game's node limit
        and its time limit turned into nodes."""
        seconds = seconds_for_move(None, self.game)
        budgets = [n for n in (self.max_nodes, nodes_for_move(self.game)) if n is not None]
        if seconds is not None:
            budgets.append(max(1, int(PLANNED_SHARE * seconds * NOMINAL_NODES_PER_SECOND)))
        return min(budgets) if budgets else None

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A column by the scores of every column, as the parameters say."""
        from arena.search.solver import shared_solver

        solver = shared_solver()
        scores = solver.column_scores(position, self.node_budget())
        nodes = solver.nodes
        if scores is None:
            return Choice(safe_column(position), nodes=nodes)
        legal = list(scores)
        best = max(scores.values())
        if self.blunder and rng.random() < self.blunder:
            column = legal[int(rng.integers(len(legal)))]
        elif self.temperature:
            values = np.array([scores[c] - best for c in legal], dtype=float)
            weights = np.exp(values / self.temperature)
            column = legal[int(rng.choice(len(legal), p=weights / weights.sum()))]
        else:
            ties = [c for c in legal if scores[c] == best]
            column = ties[int(rng.integers(len(ties)))]
        return Choice(column, nodes=nodes, score=scores[column])


def safe_column(position: Position) -> int:
    """An immediate win, else a block, else the column nearest the centre that does not
    give the opponent an immediate win (else the one nearest the centre)."""
    wins = position.winning_moves()
    if wins:
        return wins[0]
    threats = position.winning_moves(3 - position.side_to_move)
    if threats:
        return threats[0]
    legal = sorted(position.legal_moves(), key=lambda c: abs(2 * c - position.rules.cols + 1))
    safe = [c for c in legal if not position.play(c).winning_moves()]
    return (safe or legal)[0]
