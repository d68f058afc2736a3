"""MCTS's kernels in plain Python, written from their documented rules and not from the
kernels' code: the splitmix64 generator, the uniform pick of a set bit, random playouts and
the UCT search on mcts.new_tree's arrays. The compiled core must draw the same numbers, play
the same playouts and grow the same trees (tests/unit/test_compiled_mcts.py); this reference
stays a fact to test against once numba is gone.

Positions are plain Python integers in the bitboard layout of arena.rules.board (column c owns
bits c * (rows + 1) upwards, bottom first); whether a move completes a line is found by
walking the board's coordinates, not with shifted bitboards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MASK_64 = (1 << 64) - 1
GOLDEN, MIX_1, MIX_2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


class SplitMix64:
    """Steele, Lea and Flood's splitmix64: the state advances by the golden gamma, and each
    output is the new state through two xor-shift-multiply rounds and a last xor-shift."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK_64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK_64
        z = self.state
        z = ((z ^ (z >> 30)) * MIX_1) & MASK_64
        z = ((z ^ (z >> 27)) * MIX_2) & MASK_64
        return z ^ (z >> 31)

    def pick(self, cells: int) -> int:
        """A set bit of ``cells``: the k-th lowest, k = floor(high 32 bits * count / 2**32)."""
        bits = [1 << i for i in range(64) if cells >> i & 1]
        return bits[((self.next() >> 32) * len(bits)) >> 32]


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    connect: int

    @property
    def height(self) -> int:
        return self.rows + 1

    def bit(self, col: int, row: int) -> int:
        return 1 << (col * self.height + row)

    def playable(self, mask: int) -> int:
        """The lowest empty cell of each column that is not full."""
        cells = 0
        for col in range(self.cols):
            for row in range(self.rows):
                if not mask & self.bit(col, row):
                    cells |= self.bit(col, row)
                    break
        return cells

    def full(self, mask: int) -> bool:
        return self.playable(mask) == 0

    def completes(self, stones: int, cell: int) -> bool:
        """Whether a disc on ``cell`` gives ``stones`` ``connect`` in a row through it."""
        index = cell.bit_length() - 1
        col, row = divmod(index, self.height)
        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < self.cols and 0 <= r < self.rows and stones & self.bit(c, r):
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= self.connect:
                return True
        return False

    def winning_moves(self, cur: int, mask: int) -> int:
        moves = self.playable(mask)
        return sum(cell for cell in bits_of(moves) if self.completes(cur, cell))


def bits_of(cells: int) -> list[int]:
    return [1 << i for i in range(64) if cells >> i & 1]


def playout(board: Board, cur: int, mask: int, immediate_win: bool, rng: SplitMix64) -> float:
    """A random game from a position for its side to move: 1 a win, 0.5 a draw, 0 a loss.
    Each side plays a uniformly random legal column; with ``immediate_win`` a side that can
    complete a line does (its lowest winning cell), without drawing."""
    mover_is_first = True
    while True:
        moves = board.playable(mask)
        if not moves:
            return 0.5
        if immediate_win and board.winning_moves(cur, mask):
            return 1.0 if mover_is_first else 0.0
        cell = rng.pick(moves)
        if board.completes(cur, cell):
            return 1.0 if mover_is_first else 0.0
        mask |= cell
        cur = (cur | cell) ^ mask
        mover_is_first = not mover_is_first


def playout_results(board: Board, cur: int, mask: int, games: int, immediate_win: bool,
                    rng: SplitMix64) -> list[int]:
    counts = [0, 0, 0]
    for _ in range(games):
        counts[{1.0: 0, 0.5: 1, 0.0: 2}[playout(board, cur, mask, immediate_win, rng)]] += 1
    return counts


def search(board: Board, tree: tuple[np.ndarray, np.ndarray, np.ndarray], count: int,
           iterations: int, c: float, immediate_win: bool,
           rng: SplitMix64) -> tuple[int, int]:
    """UCT on mcts.new_tree's arrays (positions: cur, mask, untried; links: parent, status,
    children; tallies: visits, reward for the player who moved into the node), as
    arena.search.kernels.mcts documents it: (the node count, the iterations run)."""
    positions, links, tallies = tree
    ongoing, won, full = 0, 1, 2
    for done in range(iterations):
        node = 0
        while links[node, 1] == ongoing and not int(positions[node, 2]):
            scale = c * math.sqrt(math.log(tallies[node, 0]))
            best, best_bound = -1, -1.0
            for col in range(board.cols):
                child = int(links[node, 2 + col])
                if child >= 0:
                    visits = float(tallies[child, 0])
                    bound = float(tallies[child, 1]) / visits + scale / math.sqrt(visits)
                    if bound > best_bound:
                        best, best_bound = child, bound
            node = best
        if links[node, 1] == ongoing:
            if count == len(positions):
                return count, done
            cur, mask = int(positions[node, 0]), int(positions[node, 1])
            cell = rng.pick(int(positions[node, 2]))
            positions[node, 2] = int(positions[node, 2]) & ~cell & MASK_64
            child, count = count, count + 1
            child_mask = mask | cell
            positions[child] = [(cur | cell) ^ child_mask, child_mask, 0]
            links[child, :] = -1
            links[child, 0] = node
            if board.completes(cur, cell):
                links[child, 1] = won
            elif board.full(child_mask):
                links[child, 1] = full
            else:
                links[child, 1] = ongoing
                positions[child, 2] = board.playable(child_mask)
            links[node, 2 + (cell.bit_length() - 1) // board.height] = child
            node = child
        status = links[node, 1]
        if status == won:
            reward = 1.0
        elif status == full:
            reward = 0.5
        else:
            reward = 1.0 - playout(board, int(positions[node, 0]), int(positions[node, 1]),
                                   immediate_win, rng)
        while node >= 0:
            tallies[node, 0] += 1.0
            tallies[node, 1] += reward
            reward = 1.0 - reward
            node = int(links[node, 0])
    return count, iterations
