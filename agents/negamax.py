"""The bitboard negamax agent (seed 002): alpha-beta search in numba kernels.

The search runs on two uint64 bitboards in ``agents._kernels.negamax``; this module turns a
Position into kernel arguments and the root scores into a Choice. Scores are from the
agent's point of view on the shared scale of ``agents.heuristics``: a win ``p`` plies
ahead scores ``WIN_SCORE - p``, a loss ``-(WIN_SCORE - p)``, a draw 0 (with ``wins=flat``,
every win ``WIN_SCORE`` and every loss ``-WIN_SCORE``).

The defaults are the project's modern search. Seed 002's own rules are switches:
``tiebreak=left`` or ``right``, ``move_order=left-to-right``, ``wins=flat``,
``clearing=always``, ``seed_scoring=true``, and two bug-for-bug reproductions of the
seed's code, ``seed_clearing_bug`` and ``seed_live_bug`` (see ``agents.heuristics``).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from agents._kernels import negamax as kernels
from agents._kernels.bitboard import board_array
from agents._kernels.evaluation import board_windows
from agents.heuristics import ThreatRules, centre_first, parse_heuristic, terms_array
from arena.agent import BaseAgent, Choice
from arena.board import BITBOARD_BITS, Position, Rules
from arena.errors import IllegalMoveError

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
    """Bitboard negamax with alpha-beta and named heuristics (seed 002), numba-fast.

    ``heuristic`` names the evaluation at the depth limit (see ``agents.heuristics``:
    none, positional, threats, live-threats, stacked-threats, window; combine with ``+``,
    weight with ``*``). Among equally scored moves ``tiebreak`` picks one at random with
    the game's generator (``random``), the first in centre-first order (``first``), the
    leftmost (``left``) or the rightmost (``right``). ``move_order`` is the order moves are
    tried in; it and ``ordering`` (skip moves that lose at once, try the table's and the
    threat-making moves first) and ``tt`` (transposition table) change the nodes searched,
    never a score. ``wins=flat`` scores every win alike, however far ahead (``sooner``: a
    sooner win scores higher, a later loss too).

    Seed 002's threat rules (``agents.heuristics.ThreatRules``): ``clearing=always`` leaves
    threats above the lowest stacked pair of a column out of every threat term, not only
    beside ``stacked-threats``; ``seed_scoring`` scores stacked pairs per pair and player
    (the term's weight each), live-threat losses one ply sooner, and a full board at the
    depth limit by the heuristic instead of 0. Bug for bug: ``seed_clearing_bug`` (clearing
    also wipes all later columns) and ``seed_live_bug`` (the bottom cell of column 0 never
    counts as playable for live threats).
    """

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
        self.terms = terms_array(parse_heuristic(heuristic), rules)
        self.tiebreak = tiebreak
        self.ordering = ordering
        self.move_order = move_order
        self.wins = wins
        self.seed_scoring = seed_scoring
        bits = min(MAX_TABLE_BITS, TABLE_BITS_PER_DEPTH + depth) if tt else 0
        self._table = kernels.new_table(bits)
        self._stack = kernels.new_stack(depth)
        self._stats = np.zeros(2, dtype=np.int64)  # nodes of the last search, generation
        self._rules: Rules | None = None
        self._arguments: tuple[Any, ...] = ()

    def root_scores(self, position: Position) -> dict[int, int]:
        """The score of each legal column, in the move order, searched ``depth`` plies.

        The best score is exact, and so is every column that ties with it unless the
        tie-break takes the first best column in the move order anyway (``first`` with
        centre-first, ``left`` with left-to-right); the others may be upper bounds below
        the best.
        """
        if position.is_terminal:
            raise IllegalMoveError(f"negamax: the game is already over in {position.describe()}")
        if position.rules is not self._rules:  # the same Rules object all game long
            self._use_board(position.rules)
        scores = kernels.root_scores(np.uint64(position.current), np.uint64(position.mask),
                                     self.depth, *self._arguments).tolist()
        return {c: scores[c] for c in self._order if scores[c] != kernels.NO_SCORE}

    def _use_board(self, rules: Rules) -> None:
        """Prepare the kernel arguments for ``rules``."""
        windows = board_windows(rules)
        self._rules = rules
        self._order = (centre_first(rules.cols) if self.move_order == "centre-first"
                       else tuple(range(rules.cols)))
        settings = kernels.settings_array(self._order, win_step=int(self.wins == "sooner"),
                                          ordering=self.ordering,
                                          full_board_evaluation=self.seed_scoring,
                                          soonest_win=2 if self.seed_scoring else 3)
        first_in_order = "first" if self.move_order == "centre-first" else "left"
        self._arguments = (board_array(rules), settings, self.terms, windows.lines,
                           windows.points, self._table, self._stats, self._stack,
                           self.tiebreak != first_in_order)

    @property
    def nodes(self) -> int:
        """The positions visited by the last search, the root included."""
        return int(self._stats[0])

    def choose(self, position: Position, rng: np.random.Generator) -> Choice:
        """A best-scoring column, ties broken by ``tiebreak``."""
        scores = self.root_scores(position)
        best = max(scores.values())
        ties = [c for c, score in scores.items() if score == best]
        return Choice(break_tie(ties, self.tiebreak, position.rules.cols, rng),
                      nodes=self.nodes, depth=self.depth, score=best)


def break_tie(ties: list[int], tiebreak: Tiebreak, cols: int, rng: np.random.Generator) -> int:
    """The column ``tiebreak`` picks among the equally scored ``ties``."""
    if tiebreak == "left":
        return min(ties)
    if tiebreak == "right":
        return max(ties)
    if tiebreak == "first":
        return min(ties, key=centre_first(cols).index)
    return ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]
