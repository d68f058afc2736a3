"""The compiled core of arena.search.kernels (C++17 and nanobind): the types of its functions.

Sources in arena/search/core/ (module.cpp binds them); see arena.search.kernels.native.
"""

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

# games.hpp: the fused game loop for players of kinds RANDOM, IMMEDIATE_WIN, NEGAMAX and MCTS;
# the outcome arrays (games.new_outcomes' fields), the negamax arrays and the MCTS trees
# (mcts.new_tree's) are written in place
def play_games(seeds: np.ndarray, starts: np.ndarray, firsts: np.ndarray, packed: np.ndarray,
               settings: np.ndarray, reals: np.ndarray, negamax_a: tuple[np.ndarray, ...] | None,
               negamax_b: tuple[np.ndarray, ...] | None,
               tree_a: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
               tree_b: tuple[np.ndarray, np.ndarray, np.ndarray] | None, winners: np.ndarray,
               endings: np.ndarray, plies: np.ndarray, moves: np.ndarray, cycles: np.ndarray,
               nodes: np.ndarray, turns: np.ndarray) -> None: ...
def counter() -> int: ...

# row_text.hpp: ``out`` (uint8) and ``moves_at`` (int64) are written in place
def fused_rows(games: np.ndarray, pairs: np.ndarray, seeds: np.ndarray, agents: int,
               firsts: np.ndarray, openings: np.ndarray, results: np.ndarray,
               terminations: np.ndarray, words: np.ndarray, starts: np.ndarray,
               moves: np.ndarray, plies: np.ndarray, micros: np.ndarray, nodes: np.ndarray,
               turns: np.ndarray, out: np.ndarray, moves_at: np.ndarray) -> int: ...
def move_hashes(text: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                firsts: np.ndarray) -> np.ndarray: ...

