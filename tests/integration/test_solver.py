"""The exact solver against known answers: Pons' benchmark sets with their published scores,
and a plain brute force on small boards."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena.analysis.scored_positions import load_set
from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError
from arena.rules.notation import from_moves
from arena.search.kernels import solver as kernels
from arena.search.oracle import next_disc_scores
from arena.search.solver import Solver, SolverOracle, column_scores, solve
from arena.search.table_size import MIN_TABLE_BITS, MIN_TABLE_MB, table_bits

# Every set in full, with the 6 x 7 database (the two slowest with --all); a sample of the
# early sets by the search alone (the rest is a benchmark: benchmarks/bench_solver.py --full).
FULL_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L1_R3", "Test_L2_R2", "Test_L1_R2")
SLOW_SETS = ("Test_L2_R2", "Test_L1_R2")
SAMPLES = {"Test_L1_R2": 20, "Test_L1_R3": 2}


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow)
                                  if name in SLOW_SETS else name for name in FULL_SETS])
def test_every_position_of_the_set_gets_its_published_score(solver: Solver, name: str) -> None:
    wrong = [(entry.moves, entry.score, solver.solve(entry.position))
             for entry in load_set(name) if solver.solve(entry.position) != entry.score]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.usefixtures("without_database")
@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_sample_of_the_early_sets_by_the_search_alone(name: str) -> None:
    solver = Solver()
    for entry in load_set(name, limit=SAMPLES[name]):
        assert solver.solve(entry.position) == entry.score, entry.moves


def brute_force(rules: Rules) -> Callable[[Position], int]:
    """Exact scores by plain memoised negamax over every move (no pruning, no tricks)."""
    cells = rules.rows * rules.cols

    @cache
    def score(current: int, mask: int) -> int:
        position = Position(rules, current, mask)
        values = []
        for column in position.legal_moves():
            after = position.play(column)
            if after.won:
                values.append((cells + 1 - position.plies) // 2)
            elif after.is_full:
                values.append(0)
            else:
                values.append(-score(after.current, after.mask))
        return max(values)

    return lambda position: score(position.current, position.mask)


def every_position(rules: Rules) -> list[Position]:
    """Every position of a board that is reachable and not over."""
    seen = {Position.empty(rules)}
    frontier = list(seen)
    while frontier:
        later = []
        for position in frontier:
            for column in position.legal_moves():
                after = position.play(column)
                if not after.is_terminal and after not in seen:
                    seen.add(after)
                    later.append(after)
        frontier = later
    return list(seen)


@pytest.mark.parametrize("rules", [Rules(3, 4, 3), Rules(4, 3, 3),
                                   pytest.param(Rules(4, 4, 3), marks=pytest.mark.slow),
                                   pytest.param(Rules(3, 5, 3), marks=pytest.mark.slow),
                                   Rules(1, 9, 3), Rules(6, 2, 3)], ids=str)
def test_every_position_of_a_small_board_matches_brute_force(rules: Rules) -> None:
    exact = brute_force(rules)
    solver = Solver(MIN_TABLE_MB)
    for position in every_position(rules):
        assert solver.solve(position) == exact(position), position.describe()


@pytest.mark.parametrize(("rules", "score"), [(Rules(4, 4, 4), 0), (Rules(4, 5, 4), 0),
                                              (Rules(5, 4, 4), 0), (Rules(3, 5, 3), 4)], ids=str)
def test_empty_boards_against_brute_force_values(rules: Rules, score: int) -> None:
    """The values of the empty boards, computed once by ``brute_force`` (4 x 5 takes 30 s)."""
    assert Solver(MIN_TABLE_MB).solve(Position.empty(rules)) == score


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_late_positions_of_any_board_match_brute_force(data: st.DataObject) -> None:
    """Random positions with at most 10 empty cells, on boards up to the 64-bit ones,
    reached by random moves that complete no line (on some boards few games get there)."""
    rules = data.draw(st.from_type(Rules))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    cells = rules.rows * rules.cols
    for _ in range(100):
        position = Position.empty(rules)
        while cells - position.plies > 10:
            safe = [c for c in position.legal_moves() if not position.play(c).won]
            if not safe:
                break
            position = position.play(safe[int(rng.integers(len(safe)))])
        if cells - position.plies <= 10 and not position.is_terminal:
            break
    assume(cells - position.plies <= 10 and not position.is_terminal)
    assert Solver(MIN_TABLE_MB).solve(position) == brute_force(rules)(position)


@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R1"])
def test_a_weak_solve_gets_the_sign_right(name: str) -> None:
    solver = Solver(MIN_TABLE_MB)
    for entry in load_set(name, limit=300):
        score = solver.solve(entry.position, weak=True)
        assert score is not None and np.sign(score) == np.sign(entry.score), entry.moves


def test_mirror_images_score_alike(solver: Solver) -> None:
    for entry in load_set("Test_L1_R1", limit=200):
        assert solver.solve(entry.position.mirror()) == entry.score, entry.moves
    for entry in load_set("Test_L2_R1", limit=100):
        image = entry.position.mirror()
        scores = solver.column_scores(entry.position)
        assert scores is not None
        cols = entry.position.rules.cols
        assert solver.column_scores(image) == {cols - 1 - c: s for c, s in scores.items()}


def test_column_scores_are_minus_the_scores_after_each_move(solver: Solver) -> None:
    for entry in load_set("Test_L2_R1", limit=100):
        scores = solver.column_scores(entry.position)
        assert scores is not None
        assert list(scores) == entry.position.legal_moves()
        assert max(scores.values()) == entry.score
        for column, score in scores.items():
            after = entry.position.play(column)
            if after.won:
                assert score == (42 + 1 - entry.position.plies) // 2
            else:
                assert score == -solver.solve(after)


def test_the_process_wide_functions() -> None:
    entry = load_set("Test_L2_R1", limit=1)[0]
    assert solve(entry.position) == entry.score
    assert max(column_scores(entry.position).values()) == entry.score
    with pytest.raises(IllegalMoveError, match="already over"):
        solve(from_moves("4545454"))


def test_a_search_over_its_node_budget_gives_none_and_leaves_the_table_sound() -> None:
    solver = Solver(MIN_TABLE_MB)
    entries = load_set("Test_L2_R2", limit=30)
    for entry in entries:
        assert solver.solve(entry.position, max_nodes=50) is None or solver.nodes <= 50
        assert solver.column_scores(entry.position, max_nodes=50) is None or solver.nodes <= 50
    for entry in entries:
        assert solver.solve(entry.position) == entry.score, entry.moves


def test_one_solver_moves_between_boards() -> None:
    solver = Solver(MIN_TABLE_MB)
    small = Rules(4, 4, 3)
    exact = brute_force(small)
    entries = load_set("Test_L3_R1", limit=20)
    for entry, position in zip(entries, every_position(small), strict=False):
        assert solver.solve(entry.position) == entry.score
        assert solver.solve(position) == exact(position)


def test_table_sizes() -> None:
    assert table_bits(64) == 23
    assert table_bits(100) == 23
    assert MIN_TABLE_MB == 16 and table_bits(MIN_TABLE_MB) == 21
    assert MIN_TABLE_BITS == kernels.MIN_TABLE_BITS  # the size checks agree with the kernel
    with pytest.raises(ValueError, match="at least 16 MB"):
        table_bits(8)


def test_the_oracle_answers_threads_one_at_a_time() -> None:
    entries = load_set("Test_L2_R1", limit=40)
    oracle = SolverOracle()
    with ThreadPoolExecutor(4) as threads:
        answers = list(threads.map(lambda e: oracle.column_scores(e.position), entries))
    assert [max(scores.values()) for scores in answers] == [e.score for e in entries]


def test_scores_decided_by_the_next_disc_are_the_solvers(solver: Solver) -> None:
    # every position of seeded random games on three boards; where the next disc decides every
    # column, arena solve answers without the solver, and must answer as it does
    rng = random.Random(20)
    answered = filled = 0
    for rules in (Rules(), Rules(rows=4, cols=5, connect=3), Rules(rows=4, cols=4, connect=4)):
        for _ in range(300):
            position = Position.empty(rules)
            while not position.is_terminal:
                scores = next_disc_scores(position)
                if scores is not None:
                    assert scores == solver.column_scores(position), position.describe()
                    answered += 1
                    filled += position.plies == rules.rows * rules.cols - 1 and 0 in scores.values()
                position = position.play(rng.choice(position.legal_moves()))
    assert answered > 300 and filled > 0  # the draws of a last disc among them
    assert next_disc_scores(from_moves("4455")) is None  # a search is needed
