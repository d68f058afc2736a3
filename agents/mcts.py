"""The Monte Carlo tree search agent: UCT with random playouts, in the compiled core.

The tree search runs in ``arena.search.kernels.mcts``, whose ``set_root``, ``search`` and
``playout_results`` are the C++ core's (``arena/search/core/mcts.hpp``, the GIL released
while it searches); this module sizes the work of a move (``iterations``, or a time budget),
feeds the kernel its randomness from the game's Generator and turns the root's statistics
into a Choice: the most visited move, with its share of the visits and its mean playout
result (1 a win, 0.5 a draw, 0 a loss). The kernels are imported when a game starts, not
with this module (``arena agents`` loads no kernels). Whole games of MCTS players by
iterations are played by the fused loop (``arena.search.kernels.games``).
"""

from __future__ import annotations

import math
from time import perf_counter
from typing import TYPE_CHECKING, Literal

import numpy as np

from arena.protocol.agent import BaseAgent, Choice, GameStart
from arena.protocol.kernel_agents import MCTSKernel
from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError

from .budget import (
    PLANNED_SHARE,
    RATE_SHARE,
    check_time,
    nodes_for_move,
    seconds_for_move,
)

if TYPE_CHECKING:
    from arena.search.kernels.mcts import Tree

Rollout = Literal["random", "immediate-win"]
ROLLOUTS: tuple[Rollout, ...] = ("random", "immediate-win")
FIRST_BATCH = 64  # iterations of the first batch of a timed move
INITIAL_CAPACITY = 4096  # tree nodes allocated at first; the arrays double when full
MAX_NODES = 1 << 20  # a move stops when its tree holds this many nodes (about 90 MB)


class MCTSAgent(BaseAgent):
    """Monte Carlo tree search (UCT) with random playouts, in compiled C++.

    Each of ``iterations`` per move descends the tree by the UCB1 bound (mean result plus
    ``c`` times sqrt(ln parent visits / visits)), adds one untried move, plays a game out
    from it and counts the result on the way back. ``rollout=immediate-win`` plays out games
    in which a side that can win at once does. With ``time`` (seconds per move) it runs as
    many iterations as fit instead, and then is not reproducible move for move. A game's
    ``Limit.time`` stops a move early (at 80% of it), ``Limit.nodes`` caps the iterations,
    and a tree of ``MAX_NODES`` nodes ends the move.
    It plays the most visited move and reports the iterations (``playouts``), that move's
    share of the visits and its mean result (``score``).
    """

    supported_limits = frozenset({"time", "nodes"})

    def __init__(self, iterations: int = 1000, c: float = 1.4, rollout: Rollout = "random",
                 time: float | None = None):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a whole number >= 1, got {iterations!r}")
        if not (isinstance(c, (int, float)) and math.isfinite(c) and c >= 0):
            raise ValueError(f"c must be a number >= 0, got {c!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        check_time(time)
        self.iterations = iterations
        self.c = float(c)
        self.rollout = rollout
        self.time = time
        self.reproducible = time is None

    def new_game(self, game: GameStart) -> None:
        """Remember the game and have the kernels loaded before the first move is timed."""
        from arena.search.kernels import mcts as kernels
        from arena.search.kernels.bitboard import board_array

        super().new_game(game)
        tree = kernels.new_tree(2, game.rules.cols)
        packed = board_array(game.rules)
        kernels.set_root(*tree, np.uint64(0), np.uint64(0), packed)
        kernels.search(*tree, 1, 1, self.c, False, np.zeros(1, dtype=np.uint64), packed)

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """The most visited move after the move's iterations."""
        from arena.search.kernels import mcts as kernels
        from arena.search.kernels.bitboard import board_array

        if position.is_terminal:
            raise IllegalMoveError(f"mcts: the game is already over in {position.describe()}")
        start = perf_counter()
        seconds = seconds_for_move(self.time, self.game)
        deadline = None if seconds is None else start + PLANNED_SHARE * seconds
        target = None if self.time is not None else self.iterations
        nodes = nodes_for_move(self.game)
        if nodes is not None:
            target = nodes if target is None else min(target, nodes)
        packed = board_array(position.rules)
        tree = kernels.new_tree(min(INITIAL_CAPACITY, (target or MAX_NODES) + 1),
                                position.rules.cols)
        kernels.set_root(*tree, np.uint64(position.current), np.uint64(position.mask), packed)
        state = rng.integers(0, 2**63, size=1, dtype=np.int64).astype(np.uint64)
        count, done = 1, 0
        size = FIRST_BATCH if deadline is not None else target or 0
        while size > 0:
            count, ran = kernels.search(*tree, count, size, self.c,
                                        self.rollout == "immediate-win", state, packed)
            done += ran
            if count == len(tree[0]):  # full
                if count >= MAX_NODES:
                    break
                tree = kernels.grown(tree, 2 * count)
            size = self._next_batch(done, target, start, deadline)
        return self._choice(tree, done, count)

    def kernel_player(self, rules: Rules) -> MCTSKernel | None:
        """Whole games can be played in compiled code when the moves are by iterations
        (no time per move) and the tree never reaches ``MAX_NODES``."""
        if self.time is not None or self.iterations >= MAX_NODES:
            return None
        return MCTSKernel(self.iterations, self.c, self.rollout == "immediate-win")

    @staticmethod
    def _next_batch(done: int, target: int | None, start: float,
                    deadline: float | None) -> int:
        """The iterations of the next batch (0: the move is done)."""
        left = target - done if target is not None else 1 << 62
        if left <= 0 or deadline is None:
            return max(left, 0)
        now = perf_counter()
        rate = done / max(now - start, 1e-9)
        return max(0, min(left, 2 * done, int(RATE_SHARE * rate * (deadline - now))))

    @staticmethod
    def _choice(tree: Tree, done: int, count: int) -> Choice:
        from arena.search.kernels import mcts as kernels

        _, links, tallies = tree
        children = [(int(child), column) for column, child
                    in enumerate(links[0, kernels.CHILDREN:]) if child >= 0]
        visits, reward = tallies[:, kernels.VISITS], tallies[:, kernels.REWARD]
        child, column = max(children, key=lambda c: (visits[c[0]], reward[c[0]] / visits[c[0]]))
        return Choice(column, nodes=count, playouts=done,
                      visit_share=float(visits[child] / visits[0]),
                      score=float(reward[child] / visits[child]))
