"""The solver with several threads on one position: the published scores, the same column
scores as one thread, windows taken and stopped as the bounds narrow, threads splitting one
window, one thread's search unchanged, and --threads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.analysis.scored_positions import load_set
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.search.kernels import solver as kernels
from arena.search.kernels.bitboard import board_array
from arena.search.parallel import (
    BUSY_BITS,
    SPLIT_EMPTIES,
    STOP,
    Task,
    _Search,
    new_lanes,
    solve_in_lanes,
    windows,
)
from arena.search.solver import Solver
from arena.search.table_size import MIN_TABLE_MB
from arena.system.processes import available_cores
from tests.helpers.cli import invoke

# The search itself is under test: the 6 x 7 database would answer these positions.
pytestmark = pytest.mark.usefixtures("without_database")

# Hard-ish positions of Test_L1_R3 (begin, hard) that one thread solves in well under a second.
SHORT_L1_R3 = (1, 2, 5, 9)


@pytest.fixture(scope="module")
def two_threads() -> Solver:
    return Solver(MIN_TABLE_MB, threads=2)


@pytest.mark.parametrize(("name", "count"), [("Test_L2_R1", 300), ("Test_L1_R1", 150),
                                             ("Test_L2_R2", 40), ("Test_L1_R2", 5)])
def test_two_threads_give_the_published_scores(two_threads: Solver, name: str,
                                               count: int) -> None:
    wrong = [(entry.moves, entry.score, two_threads.solve(entry.position))
             for entry in load_set(name, limit=count)
             if two_threads.solve(entry.position) != entry.score]
    assert wrong == []


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_on_hard_opening_positions_from_an_empty_table(threads: int) -> None:
    entries = load_set("Test_L1_R3")
    for index in SHORT_L1_R3:
        solver = Solver(MIN_TABLE_MB, threads=threads)
        assert solver.solve(entries[index].position) == entries[index].score
        assert solver.nodes > 1000  # searched, by every thread (no table, no book)


def test_column_scores_and_best_moves_are_those_of_one_thread() -> None:
    one, two = Solver(MIN_TABLE_MB), Solver(MIN_TABLE_MB, threads=2)
    entries = [*load_set("Test_L2_R1", limit=60), *load_set("Test_L1_R2", limit=3)]
    for entry in entries:
        expected = one.column_scores(entry.position)
        assert expected is not None and max(expected.values()) == entry.score
        assert two.column_scores(entry.position) == expected, entry.moves
        two.clear()  # the next answer from an empty table again


def test_late_positions_and_immediate_wins() -> None:
    # Endgames (full columns, children that fill the board or let the opponent win at once).
    one, two = Solver(MIN_TABLE_MB), Solver(MIN_TABLE_MB, threads=2)
    for entry in load_set("Test_L3_R1", limit=100):
        assert two.column_scores(entry.position) == one.column_scores(entry.position)
    assert two.solve(from_moves("121212")) == 18  # player 1 wins with its 4th disc


def test_a_weak_solve_with_threads_gets_the_sign_right(two_threads: Solver) -> None:
    for entry in load_set("Test_L1_R1", limit=100):
        score = two_threads.solve(entry.position, weak=True)
        assert score is not None and (score > 0) - (score < 0) == (
            (entry.score > 0) - (entry.score < 0)), entry.moves


def test_a_node_budget_is_one_thread_s_budget() -> None:
    one, two = Solver(MIN_TABLE_MB), Solver(MIN_TABLE_MB, threads=2)
    for entry in load_set("Test_L2_R2", limit=10):
        assert two.solve(entry.position, max_nodes=500) == one.solve(entry.position,
                                                                      max_nodes=500)
        assert two.nodes == one.nodes


def test_other_boards_and_symmetric_positions() -> None:
    # Symmetric positions: a column takes the score of its mirror image's column.
    for rules, score in ((Rules(4, 5), 0), (Rules(5, 4), 0), (Rules(4, 6), -1)):
        for moves in ("", "3", "33"):
            position = from_moves(moves, rules)
            one = Solver(MIN_TABLE_MB).column_scores(position)
            assert Solver(MIN_TABLE_MB, threads=2).column_scores(position) == one
        empty = from_moves("", rules)
        assert Solver(MIN_TABLE_MB, threads=2).solve(empty) == score


def test_windows_start_with_the_one_thread_window_then_its_neighbours() -> None:
    assert windows(-18, 19)[:3] == [-9, -8, -10]
    assert windows(0, 4) == [2, 3, 1, 0]
    assert windows(3, 4) == [3]
    assert windows(3, 3) == []


def test_a_window_outside_the_new_bounds_is_stopped() -> None:
    search = _Search([Task(0, 0, -3, 4)], new_lanes(2, 42))
    with search.changed:
        assert search.take(0) == (0, -1) and search.take(1) == (0, 0)
        search.lanes[0].stats[kernels.NODES] = 10
        search.finish(0, 2)  # the score is above -1: at least 2, so window 0 is useless
        assert (search.lows, search.highs) == ([2], [4])
        assert search.lanes[1].stats[kernels.LIMIT] == STOP
        search.finish(1, -5)  # what a stopped window returns is not a bound
        assert (search.lows, search.highs) == ([2], [4]) and search.nodes == 10
        assert search.take(1) == (0, 3)


def test_a_thread_with_no_window_of_its_own_joins_one() -> None:
    search = _Search([Task(0, 0, 3, 4)], new_lanes(2, 42))  # one window left: 3
    with search.changed:
        assert search.take(0) == (0, 3)
        assert search.take(1) == (0, 3)  # the two split the window
        search.lanes[1].stats[kernels.NODES] = 10
        search.finish(1, 4)  # the score is above 3: 4, and the first thread is stopped
        assert (search.lows, search.highs) == ([4], [4])
        assert search.lanes[0].stats[kernels.LIMIT] == STOP
        assert search.take(1) is None


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_on_one_window_find_its_bound(threads: int) -> None:
    # One window left (the score is low or low + 1): every thread searches it, splitting it.
    solver = Solver(MIN_TABLE_MB)
    for entry in load_set("Test_L1_R3")[1:3]:
        position = entry.position
        packed, table, _, _, books = solver.arguments(position)
        for low in (entry.score - 1, entry.score):
            solver.clear()
            lanes = new_lanes(threads, 42)
            (found,), nodes = solve_in_lanes([Task(position.current, position.mask, low,
                                                   low + 1)], lanes,
                                             (packed, table, books))
            assert found == entry.score, (entry.moves, low)
            assert nodes > 1000
            assert all(lane.stats[kernels.NODES] > 0 for lane in lanes)  # each took a share


def probe(position: Position, middle: int, table: np.ndarray, busy: np.ndarray,
          stats: np.ndarray) -> int:
    """One window of ``position`` searched with the split on, from an empty table."""
    table.fill(0)
    stats[kernels.NODES] = 0
    return int(kernels.probe(np.uint64(position.current), np.uint64(position.mask), middle,
                             SPLIT_EMPTIES, board_array(position.rules), table, busy,
                             kernels.new_scratch(42), stats, kernels.no_books()))


def busy_row(position: Position) -> int:
    """The row of ``position``'s busy mark."""
    key = position.current + position.mask
    return (key * int(kernels.HASH_MULTIPLIER) % (1 << 64)) >> (64 - BUSY_BITS)


def test_a_move_another_thread_marked_busy_is_searched_last() -> None:
    entry = load_set("Test_L1_R3")[5]  # no forced move: every move is searched
    position = entry.position
    table = kernels.new_table(kernels.MIN_TABLE_BITS)
    busy = np.zeros(1 << BUSY_BITS, dtype=np.uint64)
    stats = kernels.new_stats()
    # Alone, a thread leaves no mark behind.
    assert probe(position, entry.score, table, busy, stats) <= entry.score
    nodes = {int(stats[kernels.NODES])}
    assert not busy.any()
    # One move of the root marked by "another thread": it is searched after the others
    # (unless it comes first), which changes what the table holds when, so the nodes; the
    # bounds found are true all the same.
    for column in position.legal_moves():
        child = position.play(column)
        row = busy_row(child)
        busy[row] = np.uint64(child.current) + np.uint64(child.mask)
        assert probe(position, entry.score, table, busy, stats) <= entry.score
        nodes.add(int(stats[kernels.NODES]))
        assert probe(position, entry.score - 1, table, busy, stats) > entry.score - 1
        assert busy[row] == np.uint64(child.current) + np.uint64(child.mask)  # not its own
        busy[row] = 0
        assert not busy.any()  # its own marks are cleared
    assert len(nodes) > 2


def test_one_thread_searches_as_before() -> None:
    # The node counts of the single-threaded search before the split existed (16 MB table).
    entries = [*load_set("Test_L1_R3", limit=3)[1:], *load_set("Test_L2_R2", limit=3)]
    nodes = []
    for entry in entries:
        solver = Solver(MIN_TABLE_MB)
        assert solver.solve(entry.position) == entry.score
        nodes.append(solver.nodes)
    assert nodes == [5766876, 3217622, 282133, 178634, 115178]


def test_each_window_has_busy_marks_of_its_own() -> None:
    search = _Search([Task(0, 0, 2, 4)], new_lanes(3, 42))  # windows 3, then 2
    with search.changed:
        assert search.take(0) == (0, 3) and search.take(1) == (0, 2)
        assert search.marks[0, 3] is not search.marks[0, 2]  # no deferring to the other
        shared = search.marks[0, 3]
        assert search.take(2) == (0, 3)  # joins the first: the two share its marks
        search.finish(0, 3)  # the score is at most 3: window 3 is done, the third stopped
        assert search.marks[0, 3] is shared  # until the third thread has left it
        search.finish(2, 0)
        assert list(search.marks) == [(0, 2)]


def test_an_abandoned_search_stops_its_threads() -> None:
    search = _Search([Task(0, 0, -3, 4)], new_lanes(2, 42))
    with search.changed:
        assert search.take(0) == (0, -1)
        search.abandon()
        assert search.lanes[0].stats[kernels.LIMIT] == STOP
        assert search.take(1) is None


def test_an_error_in_a_thread_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> int:
        raise RuntimeError("kernel failed")

    monkeypatch.setattr(kernels, "probe", broken)
    with pytest.raises(RuntimeError, match="kernel failed"):
        Solver(MIN_TABLE_MB, threads=2).solve(load_set("Test_L2_R2", limit=1)[0].position)


def test_the_threads_option() -> None:
    moves = load_set("Test_L2_R2", limit=1)[0].moves
    one = invoke("solve", moves, "--threads", "1", "--table-mb", "16")
    two = invoke("solve", moves, "--threads", "2", "--table-mb", "16")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout and "best " in two.stdout
    assert "(1 thread)" in one.stderr and "(2 threads)" in two.stderr
    plural = "s" * (available_cores() > 1)
    assert f"({available_cores()} thread{plural})" in invoke("solve", moves).stderr
    bad = invoke("solve", moves, "--threads", "0")
    assert bad.exit_code == 2 and "--threads" in bad.stderr


def test_a_book_built_with_threads(tmp_path: Path) -> None:
    result = invoke("book", "--rows", "4", "--cols", "5", "--depth", "2", "--jobs", "1",
                    "--threads", "2", "--cache", str(tmp_path), "--table-mb", "16")
    assert result.exit_code == 0, result.output
    solved = invoke("solve", "", "--rows", "4", "--cols", "5", "--cache", str(tmp_path),
                    "--threads", "2")
    assert solved.stdout.splitlines()[3].split() == ["score", "-1", "0", "0", "0", "-1"]
