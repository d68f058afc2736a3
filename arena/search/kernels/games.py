"""Whole games between two kernel agents, a batch of them in one call of the compiled core
(``games.hpp``): every pairing of kernel agents, with or without the solver's adjudication.

A kernel agent is one of the searches of this package driven as an agent drives it: a
uniformly random column, a win in one (or a block), negamax at a fixed depth, MCTS by
iterations, or the exact solver. Each game draws from its own ``Generator(PCG64(seed))``
stream (``streams``), both players in turn, exactly as the agents draw from numpy's, so a game
played here is the game the agents play one move at a time.

A player is described by ``kind`` and a row of ``SETTINGS`` integers and ``REALS`` floats;
negamax players bring their search arrays (``NegamaxArrays``), MCTS players a tree with room
for their iterations (``mcts.new_tree``), and solver players share the solver's arrays with
the adjudication (``SolverArrays``); the arrays of the kinds not playing are None. Think
time is counted in ticks of the processor's time-stamp counter (``counter``), read when a
player is asked for its move and when it has chosen.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from arena.search.kernels import solver
from arena.search.kernels.bitboard import board_array  # noqa: F401 - for the callers
from arena.search.kernels.mcts import new_tree  # noqa: F401 - for the callers
from arena.search.kernels.native import core

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


def counter() -> int:
    """The counter ``play_games`` reads think times from, read from Python (the processor's
    time-stamp counter, or a steady clock's nanoseconds where there is none)."""
    return core.counter()


def play_games(seeds: np.ndarray, starts: np.ndarray, firsts: np.ndarray, adjudicate: int,
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
    result the solver proves. The arrays of a kind no player is (``negamax_a`` for an agent A
    that is not negamax, ``s`` when no solver plays or adjudicates) are None. The GIL is
    released while the games are played.
    """
    core.play_games(seeds, starts, firsts, adjudicate, packed, settings, reals, negamax_a,
                    negamax_b, tree_a, tree_b, s, *out)
