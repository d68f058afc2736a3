"""The compiled vector step (``vector.hpp``) against the plain-Python step of
``tests/helpers/vector_reference.py``: the same boards, rewards, replies, openings and draws of
the splitmix64 state, for every opponent on several boards; the observations against the
documented planes; the arrays it refuses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.search.heuristics import centre_first, parse_heuristic, terms_array
from arena.search.kernels import negamax, vector
from arena.search.kernels.bitboard import board_array
from arena.search.kernels.evaluation import board_windows
from tests.helpers.vector_reference import MASK64, Opponent, SplitMix, step

BOARDS = [Rules(), Rules(rows=5, cols=6), Rules(rows=4, cols=5, connect=3),
          Rules(rows=7, cols=8), Rules(rows=3, cols=3, connect=3)]
KINDS = [vector.RANDOM, vector.IMMEDIATE_WIN, vector.NEGAMAX, vector.SELF_PLAY]
FIRSTS = [vector.LEARNER_FIRST, vector.OPPONENT_FIRST, vector.EITHER_FIRST]


def search_arrays(rules: Rules, depth: int) -> tuple[np.ndarray, ...]:
    windows = board_windows(rules)
    return (negamax.search_array(board_array(rules), centre_first(rules.cols)),
            terms_array(parse_heuristic("none")), windows.lines, windows.points,
            negamax.new_table(10), negamax.new_stats(), negamax.new_stack(max(depth, 1)))


class Batch:
    """The arrays of one step_boards call over ``positions``."""

    def __init__(self, positions: list[Position]):
        n = len(positions)
        self.cur = np.array([p.current for p in positions], dtype=np.uint64)
        self.mask = np.array([p.mask for p in positions], dtype=np.uint64)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.illegal = np.zeros(n, dtype=np.bool_)
        self.replies = np.zeros(n, dtype=np.int64)
        self.openings = np.zeros(n, dtype=np.int64)

    def outputs(self) -> tuple[np.ndarray, ...]:
        return (self.rewards, self.terminated, self.illegal, self.replies, self.openings)


def random_position(rules: Rules, rng: np.random.Generator) -> Position:
    """A position that is not over, after a random number of random moves."""
    while True:
        position = Position.empty(rules)
        for _ in range(rng.integers(0, rules.rows * rules.cols)):
            position = position.play(int(rng.choice(position.legal_moves())))
            if position.is_terminal:
                break
        if not position.is_terminal:
            return position


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(BOARDS), kind=st.sampled_from(KINDS), depth=st.integers(1, 3),
       first=st.sampled_from(FIRSTS), seed=st.integers(0, MASK64), game_seed=st.integers(0, 999),
       steps=st.integers(1, 6))
def test_the_compiled_step_plays_as_the_reference(board: Rules, kind: int, depth: int,
                                                  first: int, seed: int, game_seed: int,
                                                  steps: int) -> None:
    rng = np.random.default_rng(game_seed)
    positions = [random_position(board, rng) for _ in range(12)]
    arrays = search_arrays(board, depth)
    reference = Opponent(kind, depth, search_arrays(board, depth))
    state, draws = np.array([seed], dtype=np.uint64), SplitMix(seed)
    for _ in range(steps):
        actions = rng.integers(-1, board.cols + 1, len(positions))
        batch = Batch(positions)
        vector.step_boards(arrays[0], kind, depth, first, *arrays[1:], state, batch.cur,
                           batch.mask, actions, *batch.outputs())
        expected = [step(p, int(a), reference, first, draws)
                    for p, a in zip(positions, actions, strict=True)]
        positions = [e[0] for e in expected]
        assert batch.cur.tolist() == [p.current for p in positions]
        assert batch.mask.tolist() == [p.mask for p in positions]
        for got, want in zip(batch.outputs(), zip(*(e[1:] for e in expected), strict=True),
                             strict=True):
            assert got.tolist() == list(want)
        assert int(state[0]) == draws.state


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_observations_are_the_documented_planes(rules: Rules) -> None:
    rng = np.random.default_rng(5)
    positions = [random_position(rules, rng) for _ in range(40)]
    cur = np.array([p.current for p in positions], dtype=np.uint64)
    mask = np.array([p.mask for p in positions], dtype=np.uint64)
    planes = np.full((len(positions), 2, rules.rows, rules.cols), 9, dtype=np.int8)
    legal = np.zeros((len(positions), rules.cols), dtype=np.bool_)
    vector.observe(board_array(rules), cur, mask, planes, legal)
    for i, position in enumerate(positions):
        for col in range(rules.cols):
            assert legal[i, col] == position.can_play(col)
            for row in range(rules.rows):
                owner = position.cell(col, row)
                mover = position.side_to_move
                assert planes[i, 0, rules.rows - 1 - row, col] == (owner == mover)
                assert planes[i, 1, rules.rows - 1 - row, col] == (owner not in (0, mover))


def call_step(**changes: object) -> None:
    rules = Rules()
    arrays = dict(zip(("packed", "terms", "lines", "points", "tt", "stats", "stack"),
                      search_arrays(rules, 2), strict=True))
    batch = Batch([Position.empty(rules)] * 4)
    args: dict[str, object] = {
        **arrays, "kind": vector.NEGAMAX, "depth": 2, "first": vector.EITHER_FIRST,
        "state": np.zeros(1, dtype=np.uint64), "cur": batch.cur, "mask": batch.mask,
        "actions": np.zeros(4, dtype=np.int64), "rewards": batch.rewards,
        "terminated": batch.terminated, "illegal": batch.illegal, "replies": batch.replies,
        "openings": batch.openings}
    args.update(changes)
    vector.step_boards(**args)


def test_a_well_formed_call_steps() -> None:
    call_step()


@pytest.mark.parametrize(("changes", "error"), [
    ({"kind": 4}, ValueError), ({"kind": -1}, ValueError), ({"first": 3}, ValueError),
    ({"depth": 3}, ValueError),  # deeper than the stack
    ({"depth": 0}, ValueError),
    ({"mask": np.zeros(3, dtype=np.uint64)}, ValueError),
    ({"actions": np.zeros(5, dtype=np.int64)}, ValueError),
    ({"openings": np.zeros(2, dtype=np.int64)}, ValueError),
    ({"rewards": np.zeros(4, dtype=np.float64)}, TypeError),  # would be written to a copy
    ({"cur": np.zeros(4, dtype=np.int64)}, TypeError),
    ({"state": np.zeros(2, dtype=np.uint64)}, TypeError),
    ({"tt": np.zeros((1000, 2), dtype=np.int64)}, ValueError),  # rows not a power of two
    ({"points": np.zeros(3, dtype=np.int64)}, ValueError),
    ({"packed": np.zeros(board_array(Rules()).size + 5, dtype=np.uint64)}, ValueError),
])
def test_bad_step_arrays_are_refused(changes: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        call_step(**changes)


@pytest.mark.parametrize("shape", [(3, 2, 6, 7), (4, 2, 7, 6), (4, 1, 6, 7), (4, 2, 6, 8)])
def test_planes_of_another_shape_are_refused(shape: tuple[int, ...]) -> None:
    rules = Rules()
    boards = np.zeros(4, dtype=np.uint64)
    legal = np.zeros((4, 7), dtype=np.bool_)
    with pytest.raises(ValueError, match="planes must have shape"):
        vector.observe(board_array(rules), boards, boards, np.zeros(shape, dtype=np.int8), legal)


def test_legal_masks_and_boards_of_another_shape_are_refused() -> None:
    rules = Rules()
    boards = np.zeros(4, dtype=np.uint64)
    planes = np.zeros((4, 2, 6, 7), dtype=np.int8)
    with pytest.raises(ValueError, match="legal must have shape"):
        vector.observe(board_array(rules), boards, boards, planes, np.zeros((4, 6), dtype=bool))
    with pytest.raises(TypeError):
        vector.observe(board_array(rules), boards, boards, planes.astype(np.int16),
                       np.zeros((4, 7), dtype=bool))
    with pytest.raises(ValueError, match="board"):
        vector.observe(np.zeros(30, dtype=np.uint64), boards, boards, planes,
                       np.zeros((4, 7), dtype=bool))
