"""Many boards stepped in one call: the kernel of the vectorized environment (``arena.envs``).

Every board is two uint64 bitboards (``cur``, ``mask``, as in the package docstring) with the
learner to move. A step plays the learner's column on every board, then the opponent's reply
(unless the game ended or there is no opponent), and starts a new game on every board whose
game ended (auto-reset), the opponent moving first there when the draw says so.

Opponents (``kind``): ``RANDOM`` (a uniformly random legal column), ``IMMEDIATE_WIN`` (a
winning column when there is one, else a random one), ``NEGAMAX`` (the negamax agent's search
``depth`` plies deep, ties broken at random) and ``SELF_PLAY`` (no opponent: each step is one
move of the side to move, and the next observation is the other side's). Randomness comes
from one splitmix64 stream (``state``), so a seeded environment repeats itself.

Rewards are the learner's (self-play: the mover's): +1 a win, -1 a loss or an illegal column
(which ends the game, the board unchanged), 0 otherwise.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.kernels.bitboard import (
    ONE,
    ZERO,
    Int,
    Tables,
    column_cells,
    has_line,
    playable,
    popcount,
    unpack,
    winning_cells,
)
from arena.search.kernels.negamax import score_root

RANDOM, IMMEDIATE_WIN, NEGAMAX, SELF_PLAY = range(4)
LEARNER_FIRST, OPPONENT_FIRST, EITHER_FIRST = range(3)
NONE = -1  # no column (in ``replies`` and ``openings``)
GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)


@njit(cache=True, inline="always")
def _random_below(state: np.ndarray, n: int) -> np.int64:
    """A uniform whole number from 0 to ``n - 1`` (splitmix64, then a multiply-shift)."""
    state[0] += GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58_476D_1CE4_E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D0_49BB_1331_11EB)
    z ^= z >> np.uint64(31)
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _nth_column(cells: np.uint64, index: Int, t: Tables) -> int:
    """The column of the ``index``-th (from the left, 0-based) of the one-per-column ``cells``."""
    for c in range(t.cols):
        if cells & column_cells(t, c):
            if index == 0:
                return c
            index -= 1
    return NONE


@njit(cache=True, inline="always")
def _random_of(cells: np.uint64, t: Tables, state: np.ndarray) -> int:
    """A random column among the one-per-column ``cells`` (not empty)."""
    return _nth_column(cells, _random_below(state, popcount(cells)), t)


@njit(cache=True)
def _best_column(scores: np.ndarray, state: np.ndarray) -> int:
    """A best-scoring column of ``root_scores``' array, ties broken at random."""
    best = scores.max()
    ties = 0
    for score in scores:
        ties += score == best
    pick = _random_below(state, ties)
    for c in range(scores.shape[0]):
        if scores[c] == best:
            if pick == 0:
                return c
            pick -= 1
    return NONE


@njit(cache=True)
def opponent_column(cur: np.uint64, mask: np.uint64, kind: int, depth: int,
                    packed: np.ndarray, terms: np.ndarray, lines: np.ndarray,
                    points: np.ndarray, tt: np.ndarray, stats: np.ndarray, stack: np.ndarray,
                    state: np.ndarray) -> int:
    """The opponent's column in a position it is to move in (not over, not full)."""
    t = unpack(packed)
    moves = playable(mask, t)
    if kind == NEGAMAX:
        scores = np.empty(t.cols, dtype=np.int64)
        score_root(scores, cur, mask, depth, packed, terms, lines, points, tt, stats, stack,
                   True)
        return _best_column(scores, state)
    if kind == IMMEDIATE_WIN:
        wins = winning_cells(cur, mask, t) & moves
        if wins:
            return _random_of(wins, t, state)
    return _random_of(moves, t, state)


@njit(cache=True, inline="always")
def _drop(cur: np.uint64, mask: np.uint64, column: int,
          t: Tables) -> tuple[np.uint64, np.uint64, bool]:
    """Play ``column`` (legal): the next side's ``cur``, the new mask, and whether it won."""
    new_mask = mask | (mask + (ONE << (np.uint64(column) * t.height)))
    mover = cur | (new_mask ^ mask)
    return mover ^ new_mask, new_mask, has_line(mover, t)


@njit(cache=True)
def step_boards(packed: np.ndarray, kind: int, depth: int, first: int, terms: np.ndarray,
                lines: np.ndarray, points: np.ndarray, tt: np.ndarray, stats: np.ndarray,
                stack: np.ndarray, state: np.ndarray, cur: np.ndarray, mask: np.ndarray,
                actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                illegal: np.ndarray, replies: np.ndarray, openings: np.ndarray) -> None:
    """Step every board: the learner plays ``actions[i]``, the opponent replies, a finished
    game starts again. Writes ``rewards``, ``terminated``, ``illegal`` (the learner's column
    could not be played), ``replies`` (the opponent's column in the game just played, NONE if
    it did not move) and ``openings`` (the opponent's first column of a new game, NONE if the
    learner moves first or no game started)."""
    t = unpack(packed)
    for i in range(cur.shape[0]):
        c, m, action = cur[i], mask[i], actions[i]
        replies[i] = openings[i] = NONE
        rewards[i] = 0.0
        done = False
        legal = 0 <= action < t.cols and playable(m, t) & column_cells(t, action) != ZERO
        illegal[i] = not legal
        if not legal:
            rewards[i] = -1.0
            done = True
        else:
            c, m, won = _drop(c, m, action, t)
            if won:
                rewards[i] = 1.0
                done = True
            elif m == t.board:
                done = True
            elif kind != SELF_PLAY:
                reply = opponent_column(c, m, kind, depth, packed, terms, lines, points, tt,
                                        stats, stack, state)
                replies[i] = reply
                c, m, won = _drop(c, m, reply, t)
                if won:
                    rewards[i] = -1.0
                    done = True
                elif m == t.board:
                    done = True
        terminated[i] = done
        if done:
            c = m = ZERO
            if kind != SELF_PLAY and (first == OPPONENT_FIRST
                                      or (first == EITHER_FIRST and _random_below(state, 2))):
                opening = opponent_column(c, m, kind, depth, packed, terms, lines, points, tt,
                                          stats, stack, state)
                openings[i] = opening
                c, m, _ = _drop(c, m, opening, t)
        cur[i], mask[i] = c, m


@njit(cache=True)
def observe(packed: np.ndarray, cur: np.ndarray, mask: np.ndarray, planes: np.ndarray,
            legal: np.ndarray) -> None:
    """Write every board's planes (``planes[i, 0]``: the discs of the side to move,
    ``planes[i, 1]``: the other side's; row 0 the top row, as boards are drawn) and its legal
    columns (``legal[i, c]``)."""
    t = unpack(packed)
    rows = np.int64(t.height) - 1
    for i in range(cur.shape[0]):
        own, theirs = cur[i], cur[i] ^ mask[i]
        open_cells = playable(mask[i], t)
        for col in range(t.cols):
            base = np.uint64(col) * t.height
            legal[i, col] = (open_cells >> base) & ((ONE << np.uint64(rows)) - ONE) != ZERO
            for row in range(rows):
                bit = base + np.uint64(row)
                planes[i, 0, rows - 1 - row, col] = (own >> bit) & ONE
                planes[i, 1, rows - 1 - row, col] = (theirs >> bit) & ONE
