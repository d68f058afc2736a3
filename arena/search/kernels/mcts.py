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

The search runs in the compiled core (``arena/search/core/mcts.hpp``), the GIL released while
it searches; a malformed tree (a link outside its nodes) raises ValueError.
"""

from __future__ import annotations

import numpy as np

from arena.search.kernels.native import core

CUR, MASK, UNTRIED = range(3)  # columns of ``positions``
PARENT, STATUS, CHILDREN = range(3)  # columns of ``links``; children from CHILDREN on
VISITS, REWARD = range(2)  # columns of ``tallies``
ONGOING, WON, FULL = range(3)
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


set_root = core.mcts_set_root
"""``set_root(positions, links, tallies, cur, mask, packed)``: make node 0 the root for a
position that is not over (``packed``: the board's ``board_array``)."""
search = core.mcts_search
"""``search(positions, links, tallies, count, iterations, c, immediate_win, state, packed)``:
run ``iterations`` of UCT on the tree of ``count`` nodes, the splitmix64 ``state`` (one uint64)
drawn from in place: (the new node count, the iterations run), fewer than asked when the
arrays are full. An iteration descends by UCB1 through fully expanded nodes, expands one
untried move at random, plays a random game from the new node (with ``immediate_win`` a side
that can complete a line does) unless its move ended the game, and adds the result to every
node on the way back to the root."""
playout_results = core.mcts_playout_results
"""``playout_results(cur, mask, games, immediate_win, state, packed)``: the wins, draws and
losses of the side to move in ``games`` random playouts from a position."""
