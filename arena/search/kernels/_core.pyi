"""The compiled core of arena.search.kernels (C++17 and nanobind): the types of its functions.

Sources in arena/search/core/ (module.cpp binds them); see arena.search.kernels.native.
"""

from typing import Any

import numpy as np

BOARD_FIELDS: int
STREAM_WORDS: int
ONGOING: int
WON: int
FULL: int
BAD_COLUMN: int
PAST_END: int
NO_SCORE: int
STACK_WIDTH: int

# bitboard.hpp: ``board`` is the uint64 array of bitboard.board_array (BOARD_FIELDS words)
def board_tables(rows: int, cols: int, connect: int) -> np.ndarray: ...
def playable(mask: int, board: np.ndarray) -> int: ...
def winning_cells(stones: int, mask: int, board: np.ndarray) -> int: ...
def has_line(stones: int, board: np.ndarray) -> bool: ...
def legal_columns(mask: int, board: np.ndarray) -> np.ndarray: ...
def popcount(bits: int) -> int: ...

# streams.hpp: ``stream`` is a writable uint64 array of STREAM_WORDS words (streams.new_stream)
def seed_stream(stream: np.ndarray, seed: int) -> None: ...
def next_uint64(stream: np.ndarray) -> int: ...
def next_uint32(stream: np.ndarray) -> int: ...
def next_double(stream: np.ndarray) -> float: ...
def bounded(stream: np.ndarray, n: int) -> int: ...
def half_uint64(stream: np.ndarray) -> int: ...

# evaluation.hpp and negamax.hpp: ``packed`` is a negamax.search_array, ``terms`` a
# heuristics.terms_array, ``lines`` and ``points`` evaluation.board_windows' arrays; ``tt``,
# ``stats`` and ``stack`` (negamax.new_table, new_stats, new_stack) are written in place
def evaluate(cur: int | np.uint64, mask: int | np.uint64, ply: int, win_step: int,
             board: np.ndarray, terms: np.ndarray, lines: np.ndarray,
             points: np.ndarray) -> int: ...
def root_scores(cur: int | np.uint64, mask: int | np.uint64, depth: int, packed: np.ndarray,
                terms: np.ndarray, lines: np.ndarray, points: np.ndarray, tt: np.ndarray,
                stats: np.ndarray, stack: np.ndarray, all_ties: bool) -> np.ndarray: ...

# mcts.hpp: a tree is mcts.new_tree's three arrays (positions uint64 (n, 3), links int32
# (n, 2 + cols), tallies float64 (n, 2)), written in place as is ``state``, the splitmix64
# generator's writable uint64 array of one word; ``packed`` is a bitboard.board_array
MCTS_CHILDREN: int
def mcts_set_root(positions: np.ndarray, links: np.ndarray, tallies: np.ndarray,
                  cur: int | np.uint64, mask: int | np.uint64, packed: np.ndarray) -> None: ...
def mcts_search(positions: np.ndarray, links: np.ndarray, tallies: np.ndarray, count: int,
                iterations: int, c: float, immediate_win: bool, state: np.ndarray,
                packed: np.ndarray) -> tuple[int, int]: ...
def mcts_kernels(allowed: str) -> None: ...
def mcts_playout_results(cur: int | np.uint64, mask: int | np.uint64, games: int,
                         immediate_win: bool, state: np.ndarray,
                         packed: np.ndarray) -> np.ndarray: ...

# endings.hpp
def game_endings(columns: np.ndarray, offsets: np.ndarray, rows: int, cols: int,
                 connect: int) -> np.ndarray: ...

# games.hpp: the fused game loop for players of kinds RANDOM, IMMEDIATE_WIN, NEGAMAX, MCTS and
# SOLVER, the solver adjudicating at ``adjudicate`` discs when ``solver`` is given and it is not
# negative; the outcome arrays (games.new_outcomes' fields), the search arrays and the MCTS
# trees (mcts.new_tree's) are written in place
def play_games(seeds: np.ndarray, starts: np.ndarray, firsts: np.ndarray,
               adjudicate: int | np.integer[Any],
               packed: np.ndarray, settings: np.ndarray, reals: np.ndarray,
               negamax_a: tuple[np.ndarray, ...] | None,
               negamax_b: tuple[np.ndarray, ...] | None,
               tree_a: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               tree_b: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               solver: tuple[Any, ...] | None, winners: np.ndarray, endings: np.ndarray,
               plies: np.ndarray, moves: np.ndarray, cycles: np.ndarray, nodes: np.ndarray,
               turns: np.ndarray) -> None: ...
def counter() -> int: ...

# row_text.hpp: ``out`` (uint8) and ``moves_at`` (int64) are written in place
def fused_rows(games: np.ndarray, pairs: np.ndarray, seeds: np.ndarray, agents: int,
               firsts: np.ndarray, openings: np.ndarray, results: np.ndarray,
               terminations: np.ndarray, words: np.ndarray, starts: np.ndarray,
               moves: np.ndarray, plies: np.ndarray, micros: np.ndarray, nodes: np.ndarray,
               turns: np.ndarray, out: np.ndarray, moves_at: np.ndarray) -> int: ...
def move_hashes(text: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                firsts: np.ndarray) -> np.ndarray: ...

# vector.hpp: ``packed`` begins with a board_array (step_boards: a negamax.search_array); the
# boards, outputs and ``state`` (one uint64) are written in place
def step_boards(packed: np.ndarray, kind: int, depth: int, first: int, terms: np.ndarray,
                lines: np.ndarray, points: np.ndarray, tt: np.ndarray, stats: np.ndarray,
                stack: np.ndarray, state: np.ndarray, cur: np.ndarray, mask: np.ndarray,
                actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                illegal: np.ndarray, replies: np.ndarray, openings: np.ndarray) -> None: ...
def observe(packed: np.ndarray, cur: np.ndarray, mask: np.ndarray, planes: np.ndarray,
            legal: np.ndarray) -> None: ...

# solver.hpp: ``packed`` is a bitboard.board_array, ``tt`` a solver.new_table, ``scratch`` a
# solver.new_scratch, ``stats`` a solver.new_stats (written in place), ``busy`` a power-of-two
# uint64 array shared by the threads of one window; ``books`` a solver.Books
SOLVER_NO_SCORE: int
def solve(cur: int | np.uint64, mask: int | np.uint64, weak: bool, packed: np.ndarray,
          tt: np.ndarray, scratch: np.ndarray, stats: np.ndarray,
          books: tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]) -> int: ...
def column_scores(cur: int | np.uint64, mask: int | np.uint64, packed: np.ndarray,
                  tt: np.ndarray, scratch: np.ndarray, stats: np.ndarray,
                  books: tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]
                  ) -> np.ndarray: ...
def probe(cur: int | np.uint64, mask: int | np.uint64, middle: int, split: int,
          packed: np.ndarray, tt: np.ndarray, busy: np.ndarray, scratch: np.ndarray,
          stats: np.ndarray,
          books: tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]) -> int: ...
def solve_timed(currents: np.ndarray, masks: np.ndarray, packed: np.ndarray, tt: np.ndarray,
                scratch: np.ndarray, stats: np.ndarray,
                books: tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray],
                scores: np.ndarray, nodes: np.ndarray, ticks: np.ndarray) -> None: ...
def next_probe(low: int, high: int) -> int: ...
