"""Monte Carlo tree search (UCT) on uint64 bitboards, with random playouts.

The tree lives in three arrays that grow with it, one row per node (node 0 is the root):

- ``positions`` (uint64): the node's position (``cur``, ``mask``, as in the package
  docstring) and ``untried``, the cells of the moves not expanded yet;
- ``links`` (int32): the parent (-1 for the root), the status (``ONGOING``; ``WON``: the
  move into the node completed a line; ``FULL``: it filled the board), then the child of each
  column (-1 until expanded);
- ``tallies`` (float64): the visits and the total reward, counted for the player who moved
  into the node (1 a win, 0.5 a draw, 0 a loss).

Randomness comes from a splitmix64 generator whose uint64 state is kept in a one-element
array, so that a search run in several batches plays exactly as one run in a single batch.

``set_root``, ``search`` and ``playout_results``, which the agent calls, are the compiled
core's (``arena/search/core/mcts.hpp``): draw for draw the numba kernels here, the same
trees, node counts, playouts and choices, with the GIL released while they search; a
malformed tree (a link outside its nodes, which numba would follow to ``links[-1]``) raises
ValueError. The numba versions, ``set_root_jit`` and ``search_jit`` (and the functions they
inline: ``playout``, ``random_cell``, ``_next``), stay for the one numba kernel that still
calls them inside compiled code, the fused game loop's ``games.play_games_jit``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from arena.search.kernels.bitboard import (
    ONE,
    Int,
    Tables,
    playable,
    popcount,
    unpack,
    winning_cells,
)
from arena.search.kernels.native import core

CUR, MASK, UNTRIED = range(3)  # columns of ``positions``
PARENT, STATUS, CHILDREN = range(3)  # columns of ``links``; children from CHILDREN on
VISITS, REWARD = range(2)  # columns of ``tallies``
ONGOING, WON, FULL = range(3)
GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)
MIX_1 = np.uint64(0xBF58_476D_1CE4_E5B9)
MIX_2 = np.uint64(0x94D0_49BB_1331_11EB)
Tree = tuple[np.ndarray, np.ndarray, np.ndarray]  # positions, links, tallies


def new_tree(capacity: int, cols: int) -> Tree:
    """Empty tree arrays for ``capacity`` nodes on a board of ``cols`` columns."""
    positions = np.zeros((capacity, 3), dtype=np.uint64)
    links = np.full((capacity, CHILDREN + cols), -1, dtype=np.int32)
    tallies = np.zeros((capacity, 2), dtype=np.float64)
    return positions, links, tallies


def grown(tree: Tree, capacity: int) -> Tree:
    """The tree arrays copied into arrays of ``capacity`` rows (new rows as ``new_tree``)."""
    bigger = new_tree(capacity, tree[1].shape[1] - CHILDREN)
    for old, new in zip(tree, bigger, strict=True):
        new[:len(old)] = old
    return bigger


@njit(cache=True, inline="always")
def _next(state: np.ndarray) -> np.uint64:
    """The next 64 random bits of the splitmix64 generator ``state``."""
    state[0] += GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * MIX_1
    z = (z ^ (z >> np.uint64(27))) * MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def random_cell(cells: np.uint64, state: np.ndarray) -> np.uint64:
    """One of the set bits of ``cells`` (not empty), uniformly at random."""
    k = ((_next(state) >> np.uint64(32)) * np.uint64(popcount(cells))) >> np.uint64(32)
    for _ in range(k):
        cells &= cells - ONE
    return cells & (~cells + ONE)


@njit(cache=True)
def playout(cur: np.uint64, mask: np.uint64, t: Tables, immediate_win: bool,
            state: np.ndarray) -> float:
    """The result of a random game from a position that is not over, for its side to move.

    Each move is a uniformly random legal column; with ``immediate_win`` a side that can
    complete a line does.
    """
    side = 0  # 0 while the side to move at the start is moving
    while True:
        moves = playable(mask, t)
        if not moves:
            return 0.5
        wins = winning_cells(cur, mask, t) & moves
        cell = wins & (~wins + ONE) if immediate_win and wins else random_cell(moves, state)
        if cell & wins:
            return 1.0 if side == 0 else 0.0
        mask |= cell
        cur = (cur | cell) ^ mask
        side ^= 1


@njit(cache=True)
def set_root_jit(positions: np.ndarray, links: np.ndarray, tallies: np.ndarray, cur: np.uint64,
             mask: np.uint64, packed: np.ndarray) -> None:
    """Make node 0 the root for a position that is not over."""
    t = unpack(packed)
    positions[0, CUR] = cur
    positions[0, MASK] = mask
    positions[0, UNTRIED] = playable(mask, t)
    links[0, :] = -1
    links[0, STATUS] = ONGOING
    tallies[0, :] = 0.0


@njit(cache=True, inline="always")
def _best_child(links: np.ndarray, tallies: np.ndarray, node: int, cols: Int,
                c: float) -> int:
    """The child of ``node`` with the highest upper confidence bound (UCB1)."""
    scale = c * np.sqrt(np.log(tallies[node, VISITS]))
    best, best_bound = -1, -1.0
    for col in range(cols):
        child = links[node, CHILDREN + col]
        if child < 0:
            continue
        visits = tallies[child, VISITS]
        bound = tallies[child, REWARD] / visits + scale / np.sqrt(visits)
        if bound > best_bound:
            best, best_bound = child, bound
    return best


@njit(cache=True)
def search_jit(positions: np.ndarray, links: np.ndarray, tallies: np.ndarray, count: int,
           iterations: int, c: float, immediate_win: bool, state: np.ndarray,
           packed: np.ndarray) -> tuple[int, int]:
    """Run ``iterations`` of UCT on the tree of ``count`` nodes: (the new node count, the
    iterations run), fewer than asked when the arrays are full.

    An iteration descends by UCB1 through fully expanded nodes, expands one untried move
    (chosen at random), plays a random game from the new node (see ``playout``) unless its
    move ended the game, and adds the result to every node on the way back to the root.
    """
    t = unpack(packed)
    for done in range(iterations):
        node = 0
        while links[node, STATUS] == ONGOING and not positions[node, UNTRIED]:
            node = _best_child(links, tallies, node, t.cols, c)
        if links[node, STATUS] == ONGOING:
            if count == positions.shape[0]:
                return count, done
            node_cur, node_mask = positions[node, CUR], positions[node, MASK]
            cell = random_cell(positions[node, UNTRIED], state)
            positions[node, UNTRIED] &= ~cell
            child = count
            count += 1
            mask = node_mask | cell
            positions[child, CUR] = (node_cur | cell) ^ mask
            positions[child, MASK] = mask
            links[child, :] = -1
            links[child, PARENT] = node
            if cell & winning_cells(node_cur, node_mask, t):
                links[child, STATUS] = WON
            elif mask == t.board:
                links[child, STATUS] = FULL
            else:
                links[child, STATUS] = ONGOING
                positions[child, UNTRIED] = playable(mask, t)
            column = popcount(cell - ONE) // np.int64(t.height)
            links[node, CHILDREN + column] = child
            node = child
        status = links[node, STATUS]
        if status == WON:
            reward = 1.0
        elif status == FULL:
            reward = 0.5
        else:  # the playout's result is for the side to move: the other player
            reward = 1.0 - playout(positions[node, CUR], positions[node, MASK], t,
                                   immediate_win, state)
        while node >= 0:
            tallies[node, VISITS] += 1.0
            tallies[node, REWARD] += reward
            reward = 1.0 - reward
            node = links[node, PARENT]
    return count, iterations


set_root = core.mcts_set_root
search = core.mcts_search
playout_results = core.mcts_playout_results
