"""MCTS in the compiled core (``arena/search/core/mcts.hpp``, the Python-facing
``mcts.set_root``, ``search`` and ``playout_results``): draw for draw a plain-Python reference
(tests/helpers/mcts_reference.py), the same trees, node counts, iterations, playouts and
generator states (and numba's, as test_kernel_answers recorded them), on several boards,
positions, seeds, iteration counts, exploration constants and rollouts, in one call or in
batches, and in trees that fill up, with each of the compiled kernels (for BMI2's pdep, the
common boards, any board, any CPU). Trees and arrays that would make it read or write outside
them are refused."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.search.kernels import _core, mcts
from arena.search.kernels.bitboard import board_array
from tests.helpers import mcts_reference as reference
from tests.helpers.gil import others_ran_during
from tests.helpers.positions import EXTREME_RULES, random_positions

U = np.uint64
BOARDS = (Rules(), Rules(5, 6, 4), Rules(7, 8, 4), Rules(4, 4, 3), Rules(5, 6, 3),
          Rules(7, 8, 5), Rules(4, 5, 4), *EXTREME_RULES)
Tree = tuple[np.ndarray, np.ndarray, np.ndarray]
# the compiled kernels a call may take (the machine's fastest by default), each tried here
KERNELS = ("any", "no-pdep", "generic", "portable")


@pytest.fixture(params=KERNELS)
def kernels(request: pytest.FixtureRequest) -> object:
    _core.mcts_kernels(request.param)
    yield request.param
    _core.mcts_kernels("any")


class allowed:  # a context manager named as a function
    """The compiled kernels the calls in the block may take."""

    def __init__(self, kernels: str) -> None:
        self.kernels = kernels

    def __enter__(self) -> None:
        _core.mcts_kernels(self.kernels)

    def __exit__(self, *_: object) -> None:
        _core.mcts_kernels("any")


def position_on(rules: Rules, moves: list[int]) -> Position:
    """The position after ``moves`` (each taken modulo the legal ones), stopped before a
    move that would end the game."""
    position = Position.empty(rules)
    for move in moves:
        legal = position.legal_moves()
        child = position.play(legal[move % len(legal)])
        if child.is_terminal:
            break
        position = child
    return position


def rooted(position: Position, capacity: int) -> Tree:
    tree = mcts.new_tree(capacity, position.rules.cols)
    mcts.set_root(*tree, U(position.current), U(position.mask), board_array(position.rules))
    return tree


def board_of(rules: Rules) -> reference.Board:
    return reference.Board(rules.rows, rules.cols, rules.connect)


def same_trees(a: Tree, b: Tree) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), moves=st.lists(st.integers(0, 8), max_size=40),
       seed=st.integers(0, 2**64 - 1), iterations=st.integers(0, 400),
       c=st.sampled_from([0.0, 0.3, 1.4, 2.0, 7.5]), immediate_win=st.booleans(),
       spare=st.integers(-300, 50), kernels=st.sampled_from(KERNELS))
def test_the_compiled_search_is_the_reference_search(board: Rules, moves: list[int], seed: int,
                                                     iterations: int, c: float,
                                                     immediate_win: bool, spare: int,
                                                     kernels: str) -> None:
    # spare < 0: a tree with less room than the iterations need, which fills up
    position = position_on(board, moves)
    packed = board_array(board)
    capacity = max(1, iterations + 1 + spare)
    core_tree, expected_tree = rooted(position, capacity), rooted(position, capacity)
    core_state, rng = np.array([seed], dtype=U), reference.SplitMix64(seed)
    with allowed(kernels):
        got = mcts.search(*core_tree, 1, iterations, c, immediate_win, core_state, packed)
    expected = reference.search(board_of(board), expected_tree, 1, iterations, c, immediate_win,
                                rng)
    assert got == expected
    assert all(type(value) is int for value in got)
    assert same_trees(core_tree, expected_tree) and int(core_state[0]) == rng.state
    if capacity < iterations + 1:  # full: fewer iterations run, unless terminal leaves
        assert got[0] <= capacity and (got[0] < capacity or got[1] <= iterations)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), moves=st.lists(st.integers(0, 8), max_size=30),
       seed=st.integers(0, 2**64 - 1), batches=st.lists(st.integers(0, 90), min_size=1,
                                                        max_size=6),
       c=st.sampled_from([0.5, 1.4]), immediate_win=st.booleans())
def test_a_search_in_batches_is_one_search(board: Rules, moves: list[int], seed: int,
                                           batches: list[int], c: float,
                                           immediate_win: bool) -> None:
    position = position_on(board, moves)
    packed = board_array(board)
    total = sum(batches)
    whole, split = rooted(position, total + 1), rooted(position, total + 1)
    whole_state, split_state = np.array([seed], dtype=U), np.array([seed], dtype=U)
    count, done = mcts.search(*whole, 1, total, c, immediate_win, whole_state, packed)
    split_count, split_done = 1, 0
    for size in batches:
        split_count, ran = mcts.search(*split, split_count, size, c, immediate_win,
                                       split_state, packed)
        split_done += ran
    assert (split_count, split_done) == (count, done) == (count, total)
    assert same_trees(whole, split) and whole_state[0] == split_state[0]


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 6, 4), Rules(7, 8, 4), Rules(4, 4, 3)])
def test_a_full_tree_runs_fewer_iterations(rules: Rules) -> None:
    position = Position.empty(rules)
    for capacity in (1, 2, 9, 50):
        tree = rooted(position, capacity)
        state = np.array([5], dtype=U)
        count, done = mcts.search(*tree, 1, 200, 1.4, False, state, board_array(rules))
        assert count == capacity and done < 200
        # a second call on the full tree runs nothing more, and draws nothing
        drawn = int(state[0])
        assert mcts.search(*tree, count, 10, 1.4, False, state, board_array(rules)) in (
            (capacity, 0), (capacity, 10))
        rng = reference.SplitMix64(5)
        assert (count, done) == reference.search(board_of(rules), rooted(position, capacity), 1,
                                                 200, 1.4, False, rng)
        assert drawn == rng.state
    # the root's children all expanded with one node each past it: done counts them
    tree = rooted(position, 1 + rules.cols)
    count, done = mcts.search(*tree, 1, 100, 1.4, False, np.array([1], dtype=U),
                              board_array(rules))
    assert count == 1 + rules.cols and done >= rules.cols
    assert sorted(tree[1][0, mcts.CHILDREN:].tolist()) == list(range(1, 1 + rules.cols))


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 6, 4), Rules(7, 8, 4), Rules(4, 4, 3),
                                   Rules(5, 6, 3), Rules(6, 9, 4)])
def test_the_search_grows_the_reference_tree(rules: Rules, kernels: str) -> None:
    board = reference.Board(rules.rows, rules.cols, rules.connect)
    packed = board_array(rules)
    for index, position in enumerate([Position.empty(rules), *random_positions(rules, 3, 4)]):
        for immediate_win in (False, True):
            seed = 1000 * index + immediate_win
            tree, expected = rooted(position, 121), rooted(position, 121)
            state = np.array([seed], dtype=U)
            rng = reference.SplitMix64(seed)
            got = mcts.search(*tree, 1, 120, 1.4, immediate_win, state, packed)
            assert got == reference.search(board, expected, 1, 120, 1.4, immediate_win, rng)
            assert same_trees(tree, expected) and int(state[0]) == rng.state


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 6, 4), Rules(7, 8, 4), Rules(4, 4, 3),
                                   Rules(7, 8, 5), Rules(1, 9, 3), Rules(63, 1, 3)])
def test_playouts_are_the_reference_playouts(rules: Rules, kernels: str) -> None:
    board = reference.Board(rules.rows, rules.cols, rules.connect)
    for index, position in enumerate([Position.empty(rules), *random_positions(rules, 2, 9)]):
        for immediate_win in (False, True):
            seed = 77 * index + immediate_win
            state = np.array([seed], dtype=U)
            counts = mcts.playout_results(U(position.current), U(position.mask), 150,
                                          immediate_win, state, board_array(rules))
            rng = reference.SplitMix64(seed)
            assert counts.dtype == np.int64
            assert counts.tolist() == reference.playout_results(
                board, position.current, position.mask, 150, immediate_win, rng)
            assert int(state[0]) == rng.state


@settings(max_examples=80, deadline=None)
@given(board=st.sampled_from(BOARDS), moves=st.lists(st.integers(0, 8), max_size=40),
       seed=st.integers(0, 2**64 - 1), games=st.integers(0, 600), immediate_win=st.booleans(),
       kernels=st.sampled_from(KERNELS))
def test_playouts_are_the_reference_playouts_anywhere(board: Rules, moves: list[int], seed: int,
                                                      games: int, immediate_win: bool,
                                                      kernels: str) -> None:
    position = position_on(board, moves)
    cur, mask, packed = U(position.current), U(position.mask), board_array(board)
    state, rng = np.array([seed], dtype=U), reference.SplitMix64(seed)
    with allowed(kernels):
        counts = mcts.playout_results(cur, mask, games, immediate_win, state, packed)
    expected = reference.playout_results(board_of(board), position.current, position.mask,
                                         games, immediate_win, rng)
    assert counts.tolist() == expected and int(state[0]) == rng.state
    assert counts.sum() == games


def test_set_root_resets_row_0_whole_to_the_position() -> None:
    for rules in BOARDS:
        for position in random_positions(rules, 2, 3):
            tree = mcts.new_tree(3, rules.cols)
            for array in tree:  # a used tree
                array[...] = 7
            mcts.set_root(*tree, U(position.current), U(position.mask), board_array(rules))
            positions, links, tallies = tree
            assert positions[0].tolist() == [position.current, position.mask,
                                             board_of(rules).playable(position.mask)]
            assert links[0].tolist() == [-1, mcts.ONGOING] + [-1] * rules.cols
            assert tallies[0].tolist() == [0.0, 0.0]
            assert (positions[1:] == 7).all() and (tallies[1:] == 7).all()


def test_bad_arrays_are_refused() -> None:
    rules, packed = Rules(), board_array(Rules())
    positions, links, tallies = mcts.new_tree(20, 7)
    state = np.array([1], dtype=U)
    mcts.set_root(positions, links, tallies, U(0), U(0), packed)
    search = mcts.search
    good = (positions, links, tallies)
    for bad in ((positions.astype(np.int64), links, tallies),
                (positions, links.astype(np.int64), tallies),
                (positions, links, tallies.astype(np.float32)),
                (positions[:, :2].copy(), links, tallies),
                (positions, links, tallies[:, :1].copy()),
                (positions.T.copy().T, links, tallies),  # not C-contiguous
                (positions, np.asfortranarray(links), tallies)):
        with pytest.raises(TypeError):  # a copy would not be written back: never converted
            search(*bad, 1, 5, 1.4, False, state, packed)
    with pytest.raises(ValueError, match="2 \\+ cols"):
        search(positions, links[:, :8].copy(), tallies, 1, 5, 1.4, False, state, packed)
    with pytest.raises(ValueError, match="2 \\+ cols"):  # a tree of another board
        search(*mcts.new_tree(20, 6), 1, 5, 1.4, False, state, packed)
    with pytest.raises(ValueError, match="a row per node"):
        search(positions, links[:10].copy(), tallies, 1, 5, 1.4, False, state, packed)
    with pytest.raises(ValueError, match="room for a node"):
        search(*mcts.new_tree(0, 7), 1, 5, 1.4, False, state, packed)
    for count in (0, -1, 21, 1 << 40):
        with pytest.raises(ValueError, match=f"count {count} is not from 1"):
            search(*good, count, 5, 1.4, False, state, packed)
    with pytest.raises(ValueError, match="iterations"):
        search(*good, 1, -1, 1.4, False, state, packed)
    for c in (float("nan"), float("inf")):
        with pytest.raises(ValueError, match="finite"):
            search(*good, 1, 5, c, False, state, packed)
    for bad_state in (np.array([1], dtype=np.int64), np.array([1, 2], dtype=U),
                      np.array(1, dtype=U)):
        with pytest.raises(TypeError):
            search(*good, 1, 5, 1.4, False, bad_state, packed)
    frozen = state.copy()
    frozen.flags.writeable = False
    with pytest.raises(TypeError):
        search(*good, 1, 5, 1.4, False, frozen, packed)
    with pytest.raises(TypeError):
        search(*good, 1, 5, 1.4, False, state, packed[:10])
    with pytest.raises(TypeError):
        mcts.playout_results(U(0), U(0), 5, False, frozen, packed)
    with pytest.raises(ValueError, match="games"):
        mcts.playout_results(U(0), U(0), -1, False, state, packed)
    # positions that are not of the board: off it, cur outside mask, a disc over a hole
    for cur, mask in ((0, 1 << 6), (1, 0), (0, 0b10), (0, 1 << 63)):
        with pytest.raises(ValueError, match="not one of the board's"):
            mcts.set_root(*good, U(cur), U(mask), packed)
        with pytest.raises(ValueError, match="not one of the board's"):
            mcts.playout_results(U(cur), U(mask), 5, False, state, packed)
    assert rules.cols == 7 and int(state[0]) == 1  # nothing refused drew a number
    with pytest.raises(ValueError, match="kernels must be"):
        _core.mcts_kernels("fastest")


def grown_tree() -> tuple[Tree, int]:
    """A 6 x 7 tree searched 60 iterations, its root fully expanded."""
    tree = rooted(Position.empty(Rules()), 200)
    count, _ = mcts.search(*tree, 1, 60, 1.4, False, np.array([3], dtype=U),
                           board_array(Rules()))
    assert tree[0][0, mcts.UNTRIED] == 0
    return tree, count


@pytest.mark.parametrize(("spoil", "message"), [
    # a search that followed these links would read outside the arrays, or wrap -1 to the
    # last row
    (lambda tree, count: tree[1].__setitem__((0, mcts.CHILDREN + 3), count), "child link"),
    (lambda tree, count: tree[1].__setitem__((0, mcts.CHILDREN + 3), 1 << 30), "child link"),
    (lambda tree, count: tree[1].__setitem__((0, mcts.CHILDREN + 3), 0), "child link"),
    (lambda tree, count: tree[1].__setitem__((0, slice(mcts.CHILDREN, None)), -1),
     "no child with a bound above -1"),
    (lambda tree, count: tree[2].__setitem__((slice(1, None), mcts.VISITS), np.nan),
     "no child with a bound above -1"),
    (lambda tree, count: tree[1].__setitem__((slice(1, None), mcts.PARENT), 1 << 20),
     "parent link"),
    (lambda tree, count: tree[1].__setitem__((slice(1, None), mcts.PARENT), 5),
     "parent link"),
    (lambda tree, count: tree[0].__setitem__((slice(0, None), mcts.UNTRIED), U(1 << 6)),
     "off the board"),
    (lambda tree, count: tree[0].__setitem__((slice(1, None), mcts.MASK), U(1 << 63)),
     "off the board"),
])
def test_malformed_trees_are_refused_not_read_past(spoil: Callable[[Tree, int], None],
                                                  message: str) -> None:
    tree, count = grown_tree()
    spoil(tree, count)
    with pytest.raises(ValueError, match=message):
        mcts.search(*tree, count, 200, 1.4, False, np.array([4], dtype=U),
                    board_array(Rules()))


def test_a_negative_c_that_rules_out_every_child_is_refused() -> None:
    # the best child stays -1 when every bound is below -1: links[-1] would be read
    tree, count = grown_tree()
    with pytest.raises(ValueError, match="no child with a bound above -1"):
        mcts.search(*tree, count, 200, -50.0, False, np.array([4], dtype=U),
                    board_array(Rules()))


def test_the_search_lets_other_threads_run() -> None:
    packed = board_array(Rules())

    def search_and_playouts() -> None:
        tree = rooted(Position.empty(Rules()), 200_001)
        mcts.search(*tree, 1, 200_000, 1.4, False, np.array([1], dtype=U), packed)
        mcts.playout_results(U(0), U(0), 200_000, False, np.array([1], dtype=U), packed)

    assert others_ran_during(search_and_playouts)
