"""The bitboard negamax agent (seed 002): alpha-beta search in the compiled core.

The search runs on two uint64 bitboards in ``arena.search.kernels.negamax``; this module turns a
Position into kernel arguments and the root scores into a Choice (the kernels are imported
when an agent is built, not with this module: listing the agents loads no kernels). Scores
are from the agent's point of view on the shared scale of ``arena.search.heuristics``: a win
``p`` plies ahead scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0 (with
``wins=flat``, every win ``WIN_SCORE`` and every loss ``-WIN_SCORE``).

The defaults are the project's modern search. Seed 002's own rules are switches:
``tiebreak=left`` or ``right``, ``move_order=left-to-right``, ``wins=flat``,
``clearing=always``, ``seed_scoring=true``, and two bug-for-bug reproductions of the
seed's code, ``seed_clearing_bug`` and ``seed_live_bug`` (see ``arena.search.heuristics``).
"""

from __future__ import annotations

from functools import cached_property
from time import perf_counter
from typing import Any, Literal

import numpy as np

from arena.protocol.agent import BaseAgent, Choice, GameStart
from arena.protocol.kernel_agents import NegamaxKernel
from arena.rules.board import BITBOARD_BITS, Position, Rules
from arena.rules.errors import IllegalMoveError
from arena.search.heuristics import (
    HEURISTIC_LIMIT,
    ThreatRules,
    centre_first,
    parse_heuristic,
    terms_array,
)

from .budget import (
    PLANNED_SHARE,
    RATE_SHARE,
    check_time,
    nodes_for_move,
    seconds_for_move,
)

MAX_DEPTH = BITBOARD_BITS  # more plies than any board has cells
MAX_TABLE_BITS = 20  # 2**20 rows of 16 bytes
TABLE_BITS_PER_DEPTH = 6  # 2**(6 + depth) rows: as small as does the job, to stay in cache


def check_depth(depth: int) -> None:
    """Raise ValueError unless ``depth`` is a whole number of plies from 1 to MAX_DEPTH."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"negamax depth must be a whole number from 1 to {MAX_DEPTH}, "
                         f"got {depth!r}")


Tiebreak = Literal["random", "first", "left", "right"]
MoveOrder = Literal["centre-first", "left-to-right"]
Wins = Literal["sooner", "flat"]
TIEBREAKS: tuple[Tiebreak, ...] = ("random", "first", "left", "right")
MOVE_ORDERS: tuple[MoveOrder, ...] = ("centre-first", "left-to-right")
WINS: tuple[Wins, ...] = ("sooner", "flat")


def _check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")


class NegamaxAgent(BaseAgent):
    """Bitboard negamax with alpha-beta and named heuristics (seed 002), in compiled C++.

    A game's ``Limit.depth`` caps ``depth``.

    ``heuristic`` names the evaluation at the depth limit (see ``arena.search.heuristics``:
    none, positional, threats, live-threats, stacked-threats, window; combine with ``+``,
    weight with ``*``). Among equally scored moves ``tiebreak`` picks one at random with
    the game's generator (``random``), the first in centre-first order (``first``), the
    leftmost (``left``) or the rightmost (``right``). ``move_order`` is the order moves are
    tried in; it and ``ordering`` (skip moves that lose at once, try the table's and the
    threat-making moves first) and ``tt`` (transposition table) change the nodes searched,
    never a score. ``wins=flat`` scores every win alike, however far ahead (``sooner``: a
    sooner win scores higher, a later loss too).

    Seed 002's threat rules (``arena.search.heuristics.ThreatRules``): ``clearing=always`` leaves
    threats above the lowest stacked pair of a column out of every threat term, not only
    beside ``stacked-threats``; ``seed_scoring`` scores stacked pairs per pair and player
    (the term's weight each), live-threat losses one ply sooner, and a full board at the
    depth limit by the heuristic instead of 0. Bug for bug: ``seed_clearing_bug`` (clearing
    also wipes all later columns) and ``seed_live_bug`` (the bottom cell of column 0 never
    counts as playable for live threats).
    """

    supported_limits = frozenset({"depth"})

    def __init__(
        self,
        depth: int = 4,
        heuristic: str = "none",
        tiebreak: Tiebreak = "random",
        ordering: bool = True,
        tt: bool = True,
        move_order: MoveOrder = "centre-first",
        wins: Wins = "sooner",
        clearing: Literal["stacked", "always"] = "stacked",
        seed_scoring: bool = False,
        seed_clearing_bug: bool = False,
        seed_live_bug: bool = False,
    ):
        check_depth(depth)
        _check_choice("tiebreak", tiebreak, TIEBREAKS)
        _check_choice("move_order", move_order, MOVE_ORDERS)
        _check_choice("wins", wins, WINS)
        rules = ThreatRules(clearing, seed_scoring, seed_clearing_bug, seed_live_bug)
        self.depth = depth
        self.depth_limit = depth  # the depth searched: ``depth``, or less by the game's limit
        self.terms = terms_array(parse_heuristic(heuristic), rules)
        self.tiebreak = tiebreak
        self.ordering = ordering
        self.move_order = move_order
        self.wins = wins
        self.seed_scoring = seed_scoring
        self._table_bits = min(MAX_TABLE_BITS, TABLE_BITS_PER_DEPTH + depth) if tt else 0
        self._node_limit: int | None = None  # the one in ``_stats``: None, not set yet
        self._rules: Rules | None = None
        self._arguments: tuple[Any, ...] = ()

    @cached_property
    def _table(self) -> np.ndarray:
        """The transposition table, allocated with the kernels (the kernels load only once the
        agent searches, not when it is built to check a spec)."""
        from arena.search.kernels import negamax as kernels

        return kernels.new_table(self._table_bits)

    @cached_property
    def _stack(self) -> np.ndarray:
        """The search stack, allocated with the kernels."""
        from arena.search.kernels import negamax as kernels

        return kernels.new_stack(self.depth)

    @cached_property
    def _stats(self) -> np.ndarray:
        """The stats array of the searches, allocated with the kernels."""
        from arena.search.kernels import negamax as kernels

        return kernels.new_stats()

    def new_game(self, game: GameStart) -> None:
        """Remember the game (a ``Limit.depth`` caps the depth) and have the kernels loaded
        before the first move is timed."""
        super().new_game(game)
        cap = game.limit.depth
        self.depth_limit = self.depth if cap is None else max(1, min(self.depth, cap))
        if game.rules is not self._rules:
            self.root_scores(Position.empty(game.rules), depth=1)

    def root_scores(self, position: Position, depth: int | None = None,
                    node_limit: int | None = None) -> dict[int, int]:
        """The score of each legal column, in the move order, searched ``depth`` plies
        (at most the agent's ``depth``, which is the default).

        The best score is exact, and so is every column that ties with it unless the
        tie-break takes the first best column in the move order anyway (``first`` with
        centre-first, ``left`` with left-to-right); the others may be upper bounds below
        the best. A search that would visit more than ``node_limit`` positions (None: no
        limit) stops early and returns no scores (``aborted`` says so).
        """
        from arena.search.kernels import negamax as kernels

        if position.is_terminal:
            raise IllegalMoveError(f"negamax: the game is already over in {position.describe()}")
        if position.rules is not self._rules:  # the same Rules object all game long
            self._use_board(position.rules)
        limit = kernels.NO_NODE_LIMIT if node_limit is None else node_limit
        if limit != self._node_limit:
            self._stats[kernels.NODE_LIMIT] = self._node_limit = limit
        scores = kernels.root_scores(np.uint64(position.current), np.uint64(position.mask),
                                     min(depth or self.depth, self.depth),
                                     *self._arguments).tolist()
        if node_limit is not None and self.aborted:
            return {}
        return {c: scores[c] for c in self._order if scores[c] != kernels.NO_SCORE}

    def _use_board(self, rules: Rules) -> None:
        """Prepare the kernel arguments for ``rules``."""
        from arena.search.kernels import negamax as kernels
        from arena.search.kernels.bitboard import board_array
        from arena.search.kernels.evaluation import board_windows

        windows = board_windows(rules)
        self._rules = rules
        self._order = (centre_first(rules.cols) if self.move_order == "centre-first"
                       else tuple(range(rules.cols)))
        packed = kernels.search_array(board_array(rules), self._order,
                                      win_step=int(self.wins == "sooner"),
                                      ordering=self.ordering,
                                      full_board_evaluation=self.seed_scoring,
                                      soonest_win=2 if self.seed_scoring else 3)
        first_in_order = "first" if self.move_order == "centre-first" else "left"
        self._arguments = (packed, self.terms, windows.lines, windows.points, self._table,
                           self._stats, self._stack, self.tiebreak != first_in_order)

    def kernel_player(self, rules: Rules) -> NegamaxKernel:
        """Whole games of this agent at its depth can be played in compiled code, with its
        own search arrays."""
        self._use_board(rules)
        packed, terms, lines, points, table, stats, stack, all_ties = self._arguments
        return NegamaxKernel(self.depth, self.tiebreak, all_ties, packed, terms, lines,
                             points, table, stats, stack, self._order)

    def warm_up(self, rules: Rules) -> None:
        """Load (or compile) the search kernel for ``rules`` with a one-ply search."""
        from arena.search.kernels import negamax as kernels

        self._use_board(rules)
        empty = np.uint64(0)
        kernels.root_scores(empty, empty, 1, *self._arguments)

    @property
    def nodes(self) -> int:
        """The positions visited by the last search, the root included."""
        from arena.search.kernels import negamax as kernels

        return int(self._stats[kernels.NODES])

    @property
    def aborted(self) -> bool:
        """True if the last search stopped at its node limit."""
        from arena.search.kernels import negamax as kernels

        return bool(self._stats[kernels.ABORTED])

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A best-scoring column, ties broken by ``tiebreak``."""
        scores = self.root_scores(position, self.depth_limit)
        return self._choice(scores, position, rng, self.nodes, self.depth_limit)

    def _choice(self, scores: dict[int, int], position: Position, rng: np.random.Generator,
                nodes: int, depth: int) -> Choice:
        best = max(scores.values())
        ties = [c for c, score in scores.items() if score == best]
        column = ties[0] if len(ties) == 1 else break_tie(ties, self.tiebreak,
                                                           position.rules.cols, rng)
        return Choice(column, nodes=nodes, depth=depth, score=best)


def break_tie(ties: list[int], tiebreak: Tiebreak, cols: int, rng: np.random.Generator) -> int:
    """The column ``tiebreak`` picks among two or more equally scored ``ties``."""
    if tiebreak == "left":
        return min(ties)
    if tiebreak == "right":
        return max(ties)
    if tiebreak == "first":
        return min(ties, key=centre_first(cols).index)
    return ties[int(rng.integers(len(ties)))]


DEFAULT_TIME = 0.1  # seconds per move when neither the agent nor the game sets a budget
MIN_GROWTH, MAX_GROWTH = 1.5, 8.0  # bounds of the predicted time ratio of depth d+1 to d


class DeepeningNegamaxAgent(NegamaxAgent):
    """Negamax by iterative deepening: searches as deep as its time per move allows.

    The budget of a move is ``time`` seconds, or the game's ``Limit.time`` (the smaller of
    the two when both are set; ``DEFAULT_TIME`` when neither is); ``Limit.nodes`` bounds
    the positions visited and ``Limit.depth`` (or ``depth``) the plies. It searches depth
    1, 2, 3, ... and plays the best move of the deepest search it completed (the Choice
    reports that depth), starting a depth only when the times of the last ones predict it
    ends within ``PLANNED_SHARE`` of the budget; a node limit computed from the speed so far
    stops a search that would run over. It stops early once a win or loss is proven. Its
    moves depend on the machine's speed: it is not reproducible move for move.
    """

    supported_limits = frozenset({"time", "depth", "nodes"})
    reproducible = False

    def __init__(
        self,
        time: float | None = None,
        depth: int = MAX_DEPTH,
        heuristic: str = "none",
        tiebreak: Tiebreak = "random",
        ordering: bool = True,
        tt: bool = True,
    ):
        check_time(time)
        super().__init__(depth=depth, heuristic=heuristic, tiebreak=tiebreak, ordering=ordering,
                         tt=tt)
        self.time = time

    def budget(self) -> tuple[float | None, int | None]:
        """The seconds and the nodes one move may spend (None: unbounded)."""
        seconds, nodes = seconds_for_move(self.time, self.game), nodes_for_move(self.game)
        if seconds is None and nodes is None:
            seconds = DEFAULT_TIME
        return seconds, nodes

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """The best move of the deepest search that fits the budget."""
        start = perf_counter()
        seconds, nodes_left = self.budget()
        deadline = None if seconds is None else start + PLANNED_SHARE * seconds
        deepest = min(self.depth_limit, position.rules.rows * position.rules.cols
                      - position.plies)
        scores: dict[int, int] = {}
        reached = total_nodes = 0
        spent: list[float] = []  # seconds of each completed depth
        rate = 0.0  # nodes per second of the deepest completed search
        for depth in range(1, deepest + 1):
            now = perf_counter()
            node_limit: int | None = None
            if scores and deadline is not None:
                if now + spent[-1] * _growth(spent) > deadline:
                    break
                node_limit = int(RATE_SHARE * rate * (deadline - now)) + 1
            if scores and nodes_left is not None:
                left = nodes_left - total_nodes
                node_limit = left if node_limit is None else min(node_limit, left)
            if node_limit is not None and node_limit < 2:  # not even the root and one move
                break
            found = self.root_scores(position, depth, node_limit)
            total_nodes += self.nodes
            if not found:  # stopped at its node limit
                break
            scores, reached = found, depth
            spent.append(perf_counter() - now)
            rate = self.nodes / max(spent[-1], 1e-6)
            if abs(max(scores.values())) > HEURISTIC_LIMIT:  # a win or a loss is proven
                break
        return self._choice(scores, position, rng, nodes=total_nodes, depth=reached)


def _growth(spent: list[float]) -> float:
    """The predicted ratio of the next depth's time to the last one's."""
    if len(spent) < 2 or spent[-2] <= 0:
        return MAX_GROWTH
    return min(MAX_GROWTH, max(MIN_GROWTH, spent[-1] / spent[-2]))
