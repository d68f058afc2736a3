"""Whole games between two kernel agents, a batch of them in one compiled call.

``play_games`` plays them in the compiled core (``games.hpp``) when both players are random,
immediate-win, negamax, MCTS or solver players, with or without the solver's adjudication:
every pairing of kernel agents. numba's loop, ``play_games_jit``, and the numba searches it
calls stay only as the tests' reference until numba leaves.

A kernel agent is one of the searches of this package driven as an agent drives it: a
uniformly random column, a win in one (or a block), negamax at a fixed depth, MCTS by
iterations, or the exact solver. Each game draws from its own ``Generator(PCG64(seed))``
stream (``streams``), both players in turn, exactly as the agents draw from numpy's, so a game
played here is the game the agents play one move at a time.

A player is described by ``kind`` and a row of ``SETTINGS`` integers and ``REALS`` floats;
negamax players bring their search arrays (``NegamaxArrays``), MCTS players a tree with room
for their iterations (``mcts.new_tree``), and solver players share the solver's arrays with
the adjudication (``SolverArrays``); the arrays of the kinds not playing are None. Think
time is counted in cycles of the processor's constant-rate counter, read when a player is
asked for its move and when it has chosen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from arena.search.kernels import mcts, negamax, solver
from arena.search.kernels.bitboard import (  # noqa: F401 - board_array for the callers
    ONE,
    Int,
    Tables,
    board_array,
    centre_column,
    column_cells,
    playable,
    popcount,
    unpack,
    winning_cells,
    without_runtime,
)
from arena.search.kernels.mcts import new_tree  # noqa: F401 - for the callers
from arena.search.kernels.native import core
from arena.search.kernels.streams import (
    STREAM_WORDS,
    bounded,
    half_uint64,
    next_double,
    seed_stream,
)

RANDOM, IMMEDIATE_WIN, NEGAMAX, MCTS, SOLVER = range(5)  # player kinds
KIND, BLOCK, DEPTH, TIEBREAK, ALL_TIES, ITERATIONS, ROLLOUT_WINS = range(7)  # SETTINGS
SETTINGS = 7
C, BLUNDER = range(2)  # REALS
REALS = 2
TIE_RANDOM, TIE_FIRST, TIE_LEFT, TIE_RIGHT = range(4)  # negamax tie-breaks
ONGOING, FOUR_IN_A_ROW, BOARD_FULL, ADJUDICATED = range(4)  # how a game ended
NO_NODES = -1  # a player that reports no nodes, or made no move
NO_ADJUDICATION = -1


class NegamaxArrays(NamedTuple):
    """A negamax player's search arguments: its ``search_array``, heuristic terms, the board's
    windows (lines and points), its transposition table, stats and stack, its move order
    (the columns, int64), and room for the root scores (one per column)."""

    search: np.ndarray
    terms: np.ndarray
    lines: np.ndarray
    points: np.ndarray
    table: np.ndarray
    stats: np.ndarray
    stack: np.ndarray
    order: np.ndarray
    scores: np.ndarray


class SolverArrays(NamedTuple):
    """The exact solver's arguments after the board: table, scratch, stats, books."""

    table: np.ndarray
    scratch: np.ndarray
    stats: np.ndarray
    books: solver.Books


class Outcomes(NamedTuple):
    """What a batch of games gave, one row per game; sides are 0 (agent A) and 1 (agent B).

    ``moves[g, :plies[g] - start plies]`` are the columns played after the opening."""

    winners: np.ndarray  # int8: the winning side, -1 for a draw
    endings: np.ndarray  # int8: FOUR_IN_A_ROW, BOARD_FULL or ADJUDICATED
    plies: np.ndarray  # int64: discs on the board at the end
    moves: np.ndarray  # uint8 (games, cells)
    cycles: np.ndarray  # int64 (games, 2): counter cycles each side thought
    nodes: np.ndarray  # int64 (games, 2): nodes each side reported, NO_NODES for none
    turns: np.ndarray  # int64 (games, 2): moves each side was asked for


def new_outcomes(games: int, cells: int) -> Outcomes:
    """Empty outcomes for ``games`` games on a board of ``cells`` cells."""
    return Outcomes(np.zeros(games, dtype=np.int8), np.zeros(games, dtype=np.int8),
                    np.zeros(games, dtype=np.int64), np.zeros((games, cells), dtype=np.uint8),
                    np.zeros((games, 2), dtype=np.int64), np.zeros((games, 2), dtype=np.int64),
                    np.zeros((games, 2), dtype=np.int64))


def cycles() -> int:
    """The processor's cycle counter (plain Python: nanoseconds of ``time.perf_counter_ns``)."""
    return time.perf_counter_ns()


@intrinsic
def _read_cycle_counter(typingctx: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), []),
            "llvm.readcyclecounter")
        return builder.call(function, [])

    return types.int64(), codegen


_machine_cycles = cast(Callable[[], int], _read_cycle_counter)  # in kernels: no argument


@overload(cycles, inline="always")
def _compiled_cycles() -> Any:
    def compiled() -> Any:
        return _machine_cycles()

    return compiled


def counter() -> int:
    """The counter ``play_games`` reads think times from, read from Python (the compiled
    core's: the time-stamp counter that numba's ``cycles`` reads too, on x86-64)."""
    return core.counter()


@njit(cache=True, inline="always")
def _nth_cell(cells: np.uint64, n: Int) -> np.uint64:
    """The ``n``-th lowest set bit of ``cells``."""
    for _ in range(n):
        cells &= cells - ONE
    return cells & (~cells + ONE)


@njit(cache=True, inline="always")
def _column(cell: np.uint64, t: Tables) -> Int:
    return popcount(cell - ONE) // np.int64(t.height)


@njit(cache=True, inline="always")
def _cell(mask: np.uint64, column: Int, t: Tables) -> np.uint64:
    return playable(mask, t) & column_cells(t, column)


@njit(cache=True)
def _immediate_win(cur: np.uint64, mask: np.uint64, block: Int, t: Tables,
                   stream: np.ndarray) -> np.uint64:
    """The immediate-win agent's cell: a win, else (``block``) the block of a single threat,
    else any legal cell, uniformly at random among them."""
    moves = playable(mask, t)
    candidates = winning_cells(cur, mask, t) & moves
    if not candidates and block:
        threats = winning_cells(cur ^ mask, mask, t) & moves
        if popcount(threats) == 1:
            candidates = threats
    if not candidates:
        candidates = moves
    return _nth_cell(candidates, bounded(stream, popcount(candidates)))


@without_runtime
def _negamax(cur: np.uint64, mask: np.uint64, settings: np.ndarray, a: NegamaxArrays,
             t: Tables, stream: np.ndarray) -> tuple[Int, Int]:
    """The negamax agent's column and the nodes its search visited."""
    scores = a.scores
    negamax.score_root(scores, cur, mask, settings[DEPTH], a.search, a.terms, a.lines,
                       a.points, a.table, a.stats, a.stack, settings[ALL_TIES] != 0)
    best = -negamax.INFINITY
    ties = 0
    for column in a.order:
        if scores[column] != negamax.NO_SCORE:
            if scores[column] > best:
                best, ties = scores[column], 1
            elif scores[column] == best:
                ties += 1
    nodes = a.stats[negamax.NODES]
    tiebreak = settings[TIEBREAK]
    if ties == 1 or tiebreak == TIE_RANDOM:  # the k-th tie in the move order
        pick = bounded(stream, ties)
        for column in a.order:
            if scores[column] == best:
                if pick == 0:
                    return column, nodes
                pick -= 1
    for i in range(t.cols):
        column = (centre_column(t, i) if tiebreak == TIE_FIRST else
                  t.cols - 1 - i if tiebreak == TIE_RIGHT else i)
        if scores[column] == best:
            return column, nodes
    return -1, nodes


@njit(cache=True)
def _mcts(cur: np.uint64, mask: np.uint64, settings: np.ndarray, reals: np.ndarray,
          tree: tuple[np.ndarray, np.ndarray, np.ndarray], packed: np.ndarray, t: Tables,
          stream: np.ndarray) -> tuple[Int, Int]:
    """The MCTS agent's column (most visits, then best mean) and its tree's node count."""
    positions, links, tallies = tree
    mcts.set_root_jit(positions, links, tallies, cur, mask, packed)
    state = np.full(1, half_uint64(stream), dtype=np.uint64)
    count, _ = mcts.search_jit(positions, links, tallies, 1, settings[ITERATIONS], reals[C],
                           settings[ROLLOUT_WINS] != 0, state, packed)
    best, best_visits, best_mean = -1, -1.0, -1.0
    for column in range(t.cols):
        child = links[0, mcts.CHILDREN + column]
        if child < 0:
            continue
        visits = tallies[child, mcts.VISITS]
        mean = tallies[child, mcts.REWARD] / visits
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best, best_visits, best_mean = column, visits, mean
    positions[:count, :] = 0  # the next move starts from an empty tree, as a new one
    tallies[:count, :] = 0.0
    return best, count


@njit(cache=True)
def _solver(cur: np.uint64, mask: np.uint64, reals: np.ndarray, s: SolverArrays,
            packed: np.ndarray, t: Tables, stream: np.ndarray) -> tuple[Int, Int]:
    """The solver agent's column (a best one at random, or a blunder) and its nodes."""
    s.stats[solver.NODES] = 0
    s.stats[solver.LIMIT] = np.iinfo(np.int64).max
    scores = solver.column_scores_jit(cur, mask, packed, s.table, s.scratch, s.stats, s.books)
    nodes = s.stats[solver.NODES]
    legal, best, ties = 0, -solver.NO_SCORE, 0
    for column in range(t.cols):
        if scores[column] != solver.NO_SCORE:
            legal += 1
            if legal == 1 or scores[column] > best:
                best, ties = scores[column], 1
            elif scores[column] == best:
                ties += 1
    if reals[BLUNDER] > 0.0 and next_double(stream) < reals[BLUNDER]:
        pick, wanted = bounded(stream, legal), solver.NO_SCORE
    else:
        pick, wanted = bounded(stream, ties), best
    for column in range(t.cols):
        score = scores[column]
        if score != solver.NO_SCORE and (wanted == solver.NO_SCORE or score == wanted):
            if pick == 0:
                return column, nodes
            pick -= 1
    return -1, nodes


@njit(cache=True)
def _adjudicated_winner(cur: np.uint64, mask: np.uint64, s: SolverArrays,
                        packed: np.ndarray) -> Int:
    """+1 if the side to move wins with perfect play, -1 if it loses, 0 for a draw."""
    s.stats[solver.NODES] = 0
    s.stats[solver.LIMIT] = np.iinfo(np.int64).max
    score = solver.solve_jit(cur, mask, True, packed, s.table, s.scratch, s.stats, s.books)
    return 1 if score > 0 else -1 if score < 0 else 0


def play_games(seeds: np.ndarray, starts: np.ndarray, firsts: np.ndarray, adjudicate: Int,
               packed: np.ndarray, settings: np.ndarray, reals: np.ndarray,
               negamax_a: NegamaxArrays | None, negamax_b: NegamaxArrays | None,
               tree_a: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               tree_b: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               s: SolverArrays | None, out: Outcomes) -> None:
    """Play the games of a batch into ``out`` in the compiled core, as ``play_games_jit``
    documents (numba's loop, the tests' reference)."""
    core.play_games(seeds, starts, firsts, adjudicate, packed, settings, reals, negamax_a,
                    negamax_b, tree_a, tree_b, s, *out)


@njit(cache=True)
def play_games_jit(seeds: np.ndarray, starts: np.ndarray, firsts: np.ndarray, adjudicate: Int,
               packed: np.ndarray, settings: np.ndarray, reals: np.ndarray,
               negamax_a: NegamaxArrays | None, negamax_b: NegamaxArrays | None,
               tree_a: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               tree_b: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               s: SolverArrays | None, out: Outcomes) -> None:
    """Play game ``g`` from the position ``starts[g]`` (its two bitboards: the side to move's
    discs, all discs; not over) with agent A as player 1 when ``firsts[g]`` is 0, else agent
    B, the players drawing from ``Generator(PCG64(seeds[g]))`` in turn; fill ``out``.

    ``settings`` and ``reals`` hold a row per side (A, B). A game ends when a line is
    completed, the board is full, or (``adjudicate`` >= 0) at that many discs, with the
    result the solver proves.

    The arrays of a kind no player is (``negamax_a`` for an agent A that is not negamax,
    ``s`` when no solver plays or adjudicates) are None: numba prunes the branches that use
    them, so each combination of kinds is compiled with only the searches it plays (random
    against random compiles in seconds, not the minute all the searches take).
    """
    t = unpack(packed)
    stream = np.zeros(STREAM_WORDS, dtype=np.uint64)
    for g in range(len(seeds)):
        seed_stream(stream, seeds[g])
        cur, mask = starts[g, 0], starts[g, 1]
        plies = popcount(mask)
        side = firsts[g] if plies % 2 == 0 else 1 - firsts[g]  # the side to move
        out.nodes[g, 0] = NO_NODES
        out.nodes[g, 1] = NO_NODES
        out.cycles[g, :] = 0
        out.turns[g, :] = 0
        out.winners[g] = -1
        played = 0
        ending = BOARD_FULL if mask == t.board else ONGOING
        while ending == ONGOING:
            if s is not None and 0 <= adjudicate <= plies:
                winner = _adjudicated_winner(cur, mask, s, packed)
                out.winners[g] = -1 if winner == 0 else side if winner > 0 else 1 - side
                ending = ADJUDICATED
                break
            kind = settings[side, KIND]
            began = cycles()
            nodes: Int = NO_NODES
            if kind == RANDOM:
                moves = playable(mask, t)
                cell = _nth_cell(moves, np.int64(next_double(stream) * popcount(moves)))
            elif kind == IMMEDIATE_WIN:
                cell = _immediate_win(cur, mask, settings[side, BLOCK], t, stream)
            else:  # a player's arrays are None when it is of another kind: not compiled
                column: Int = -1
                if kind == NEGAMAX and side == 0:
                    if negamax_a is not None:
                        column, nodes = _negamax(cur, mask, settings[side], negamax_a, t,
                                                 stream)
                elif kind == NEGAMAX:
                    if negamax_b is not None:
                        column, nodes = _negamax(cur, mask, settings[side], negamax_b, t,
                                                 stream)
                elif kind == MCTS and side == 0:
                    if tree_a is not None:
                        column, nodes = _mcts(cur, mask, settings[side], reals[side], tree_a,
                                              packed, t, stream)
                elif kind == MCTS:
                    if tree_b is not None:
                        column, nodes = _mcts(cur, mask, settings[side], reals[side], tree_b,
                                              packed, t, stream)
                elif s is not None:
                    column, nodes = _solver(cur, mask, reals[side], s, packed, t, stream)
                cell = _cell(mask, column, t)
            out.cycles[g, side] += cycles() - began
            out.turns[g, side] += 1
            if nodes != NO_NODES:
                out.nodes[g, side] = max(out.nodes[g, side], 0) + nodes
            out.moves[g, played] = _column(cell, t)
            played += 1
            plies += 1
            won = cell & winning_cells(cur, mask, t)
            mask |= cell
            cur = (cur | cell) ^ mask
            if won:
                out.winners[g] = side
                ending = FOUR_IN_A_ROW
            elif mask == t.board:
                ending = BOARD_FULL
            side = 1 - side
        out.endings[g] = ending
        out.plies[g] = plies
