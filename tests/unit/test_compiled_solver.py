"""The exact solver in the compiled core (``arena/search/core/solver.hpp``, the Python-facing
``kernels.solver.solve / column_scores / probe / next_probe``): exact scores against BitBully
on late 6 x 7 positions and against the plain-Python exhaustive negamax of
``tests/helpers/brute_force_oracle.py`` on 5 x 6, 4 x 5 and 4 x 4; weak solves of the right
sign; the node budget; the published database on 12-disc positions; the opening book; probes
split between two threads on one table; and the refusal of arrays and positions a search
would go wrong on. Its scores and node counts are numba's as test_kernel_answers recorded
them."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.search.book import book_key, book_of
from arena.search.database import RULES as DATABASE_RULES
from arena.search.database import Database, database_for
from arena.search.kernels import _core, bitboard
from arena.search.kernels import solver as kernels
from arena.search.parallel import BUSY_BITS, SPLIT_EMPTIES
from arena.search.solver import Solver
from arena.search.table_size import MIN_TABLE_MB
from tests.helpers.brute_force_oracle import BruteForceOracle

U = np.uint64
SMALL_BOARDS = {Rules(5, 6, 4): 14, Rules(4, 5, 4): 6, Rules(4, 4, 4): 0}
"""Small boards and the fewest discs of a position the oracle solves there in a moment."""


class Pair:
    """A board's kernel arguments: its table, scratch and stats."""

    def __init__(self, rules: Rules, books: kernels.Books | None = None) -> None:
        self.rules = rules
        self.packed = bitboard.board_array(rules)
        self.books = books if books is not None else kernels.no_books()
        cells = rules.rows * rules.cols
        self.core = (kernels.new_table(kernels.MIN_TABLE_BITS), kernels.new_scratch(cells),
                     kernels.new_stats())

    def clear(self, limit: int | None = None) -> None:
        table, _, stats = self.core
        table.fill(0)
        stats[kernels.NODES] = 0
        stats[kernels.LIMIT] = np.iinfo(np.int64).max if limit is None else limit

    def solve(self, position: Position, weak: bool = False, limit: int | None = None
              ) -> tuple[int, int]:
        """The score and nodes of a search from an empty table, asserted to be the same
        searched again (the same table rows too)."""
        found = []
        for _ in range(2):
            self.clear(limit)
            cur, mask = U(position.current), U(position.mask)
            table, scratch, stats = self.core
            score = kernels.solve(cur, mask, weak, self.packed, table, scratch, stats,
                                  self.books)
            found.append((int(score), int(stats[kernels.NODES]), hash(table.tobytes())))
        assert found[0] == found[1], position.describe()
        return found[0][0], found[0][1]

    def column_scores(self, position: Position) -> dict[int, int]:
        self.clear()
        cur, mask = U(position.current), U(position.mask)
        scores = kernels.column_scores(cur, mask, self.packed, *self.core, self.books)
        assert scores.dtype == np.int64
        return {c: int(s) for c, s in enumerate(scores.tolist()) if s != kernels.NO_SCORE}


PAIRS: dict[Rules, Pair] = {}


def pair(rules: Rules) -> Pair:
    if rules not in PAIRS:
        PAIRS[rules] = Pair(rules)
    return PAIRS[rules]


def position_after(rules: Rules, moves: list[int]) -> tuple[Position, list[int]] | None:
    """The position after ``moves`` (each taken modulo the legal columns) and the columns
    played, or None if the game ended."""
    position, columns = Position.empty(rules), []
    for move in moves:
        legal = position.legal_moves()
        columns.append(legal[move % len(legal)])
        position = position.play(columns[-1])
        if position.is_terminal:
            return None
    return position, columns


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


# --- exact scores ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bitbully() -> tuple[Any, Any]:
    """BitBully (the dev extra) with its default book, and its Board."""
    bitbully = pytest.importorskip("bitbully")
    return bitbully.BitBully(), bitbully.Board


@pytest.mark.bitbully
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.integers(0, 6), min_size=26, max_size=38))
def test_late_6x7_positions_score_as_bitbully_scores(moves: list[int],
                                                      bitbully: tuple[Any, Any]) -> None:
    found = position_after(Rules(), moves)
    if found is None:
        return
    position, columns = found
    theirs, board = bitbully
    expected = theirs.score_all_moves(board.from_moves(columns))
    assert pair(Rules()).column_scores(position) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(sorted(SMALL_BOARDS, key=str)), data=st.data())
def test_small_boards_score_as_the_exhaustive_search(board: Rules, data: st.DataObject) -> None:
    cells = board.rows * board.cols
    moves = data.draw(st.lists(st.integers(0, board.cols - 1), min_size=SMALL_BOARDS[board],
                               max_size=cells - 1))
    found = position_after(board, moves)
    if found is None:
        return
    position, _ = found
    expected = BruteForceOracle().column_scores(position)
    assert pair(board).column_scores(position) == expected
    strong, _ = pair(board).solve(position)
    assert strong == max(expected.values())
    weak, _ = pair(board).solve(position, weak=True)
    assert sign(weak) == sign(strong)


def test_a_weak_solve_is_cheaper_than_a_strong_one_and_of_its_sign() -> None:
    position = Position.empty(Rules(4, 5, 4))
    strong, strong_nodes = pair(position.rules).solve(position)
    weak, weak_nodes = pair(position.rules).solve(position, weak=True)
    assert sign(weak) == sign(strong) and weak_nodes < strong_nodes


def test_the_solver_class_answers_through_the_core() -> None:
    position = position_after(Rules(5, 6, 4), [2, 3, 2, 3, 1, 4, 0, 0, 5, 5, 1, 1, 2, 3])
    assert position is not None
    solver = Solver(MIN_TABLE_MB)
    scores = solver.column_scores(position[0])
    assert scores == BruteForceOracle().column_scores(position[0])
    assert solver.solve(position[0]) == max(scores.values())


# --- the node budget ------------------------------------------------------------------------


def test_a_node_budget_stops_the_search_one_node_past_it() -> None:
    position = Position.empty(Rules(4, 5, 4))
    board = pair(position.rules)
    _, nodes = board.solve(position)
    for limit in (0, 1, 7, nodes // 3, nodes - 1):
        score, counted = board.solve(position, limit=limit)
        assert (score, counted) == (0, limit + 1)
    assert board.solve(position, limit=nodes)[1] == nodes  # enough: the full search
    solver = Solver(MIN_TABLE_MB)
    assert solver.solve(position, max_nodes=nodes // 2) is None
    assert solver.column_scores(position, max_nodes=nodes // 2) is None


# --- books ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def database() -> Database:
    found = database_for(DATABASE_RULES)
    if found is None:
        pytest.skip("the published database is turned off")
    return found


def database_books(database: Database) -> kernels.Books:
    return kernels.no_books()._replace(database=database.records,
                                       database_index=database.index)


def test_12_disc_positions_are_looked_up_in_the_database(database: Database) -> None:
    board = Pair(Rules(), database_books(database))
    rng = np.random.default_rng(12)
    for index in rng.choice(len(database), 30, replace=False):
        position, score = database.entry(int(index))
        for image in (position, position.mirror()):
            found, nodes = board.solve(image)
            assert found == score and nodes <= 3, image.describe()


def test_the_columns_of_11_disc_positions_are_the_databases(database: Database) -> None:
    board = Pair(Rules(), database_books(database))
    rng = np.random.default_rng(11)
    checked = 0
    while checked < 10:
        found = position_after(Rules(), rng.integers(0, 7, 11).tolist())
        if found is None:
            continue
        position = found[0]
        win = (42 + 1 - 11) // 2
        expected = {}
        for column in position.legal_moves():
            child = position.play(column)
            known = database.score(child)
            expected[column] = win if child.won else -(win - 1 if known is None else known)
        assert board.column_scores(position) == expected, position.describe()
        checked += 1


def test_the_opening_book_answers_its_positions() -> None:
    rules = Rules(4, 4, 4)
    oracle = BruteForceOracle()
    empty = Position.empty(rules)
    scores = {book_key(empty): max(oracle.column_scores(empty).values())}
    for column in empty.legal_moves():
        child = empty.play(column)
        scores[book_key(child)] = max(oracle.column_scores(child).values())
    book = book_of(rules, 1, scores)
    with_book = Pair(rules, kernels.Books(book.keys, book.scores, book.depth,
                                          kernels.EMPTY_DATABASE, np.zeros(1, dtype=np.int32)))
    score, nodes = with_book.solve(empty)
    assert score == scores[book_key(empty)] and nodes <= 3  # the root, from the book
    assert with_book.column_scores(empty) == oracle.column_scores(empty)
    # a book's score is taken as it is: a made-up one comes back
    made_up = book_of(rules, 0, {book_key(empty): 3})
    lying = Pair(rules, kernels.Books(made_up.keys, made_up.scores, made_up.depth,
                                      kernels.EMPTY_DATABASE, np.zeros(1, dtype=np.int32)))
    assert lying.solve(empty)[0] == 3


# --- threads --------------------------------------------------------------------------------


def test_probes_split_between_two_threads_on_one_table_give_true_bounds() -> None:
    rules = Rules(5, 6, 4)
    found = position_after(rules, [2, 3, 2, 3, 1, 4])
    assert found is not None
    position = found[0]
    true = pair(rules).solve(position)[0]
    packed = bitboard.board_array(rules)
    table = kernels.new_table(kernels.MIN_TABLE_BITS)
    busy = np.zeros(1 << BUSY_BITS, dtype=np.uint64)
    cells = rules.rows * rules.cols
    results: dict[int, int] = {}
    nodes: dict[int, int] = {}
    start = threading.Barrier(2)

    def run(lane: int, middle: int) -> None:
        scratch, stats = kernels.new_scratch(cells), kernels.new_stats()
        start.wait()
        results[lane] = int(kernels.probe(U(position.current), U(position.mask), middle,
                                          SPLIT_EMPTIES, packed, table, busy, scratch, stats,
                                          kernels.no_books()))
        nodes[lane] = int(stats[kernels.NODES])

    for middles in ((true, true), (true - 1, true), (0, 0)):
        threads = [threading.Thread(target=run, args=(lane, middle))
                   for lane, middle in enumerate(middles)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for lane, middle in enumerate(middles):
            score = results[lane]
            assert (true <= score) if score <= middle else (true >= score), (middle, score)
            assert nodes[lane] > 0
        assert not busy.any()  # every mark taken back
    solver = Solver(MIN_TABLE_MB, threads=2)
    assert solver.solve(position) == true
    assert solver.column_scores(position) == pair(rules).column_scores(position)


def _next_probe(low: int, high: int) -> int:
    """The documented window: halfway, moved to half of the bound on 0's side when that is
    nearer 0 (halves rounded towards zero)."""
    middle = low + (high - low) // 2
    half_low = int(low / 2)
    if middle <= 0 and half_low < middle:
        return half_low
    if middle >= 0 and high // 2 > middle:
        return high // 2
    return middle


def test_next_probe_probes_near_0_first() -> None:
    for low in range(-25, 25):
        for high in range(low + 1, 26):
            middle = kernels.next_probe(low, high)
            assert middle == _next_probe(low, high)
            assert low <= middle < high  # a window that splits [low, high]


# --- refusals -------------------------------------------------------------------------------


def arguments(rules: Rules | None = None) -> list[Any]:
    rules = rules or Rules()
    cells = rules.rows * rules.cols
    return [bitboard.board_array(rules), kernels.new_table(kernels.MIN_TABLE_BITS),
            kernels.new_scratch(cells), kernels.new_stats(), kernels.no_books()]


EMPTY = Position.empty(Rules())


def refused(error: type[Exception], changed: dict[int, object],
            position: Position = EMPTY) -> None:
    given_arguments = arguments(position.rules)
    for index, value in changed.items():
        given_arguments[index] = value
    cur, mask = U(position.current), U(position.mask)
    packed, table, scratch, stats, books = given_arguments
    with pytest.raises(error):
        kernels.solve(cur, mask, False, packed, table, scratch, stats, books)
    with pytest.raises(error):
        kernels.column_scores(cur, mask, packed, table, scratch, stats, books)
    with pytest.raises(error):
        kernels.probe(cur, mask, 0, 0, packed, table, np.zeros(4, dtype=np.uint64), scratch,
                      stats, books)


def test_tables_that_are_not_a_power_of_two_or_too_small_are_refused() -> None:
    refused(ValueError, {1: np.zeros((1 << kernels.MIN_TABLE_BITS) + 2, dtype=np.uint64)})
    refused(ValueError, {1: np.zeros(1 << (kernels.MIN_TABLE_BITS - 1), dtype=np.uint64)})
    refused(TypeError, {1: np.zeros(1 << kernels.MIN_TABLE_BITS, dtype=np.int64)})
    refused(TypeError, {1: np.zeros((1 << kernels.MIN_TABLE_BITS, 2), dtype=np.uint64)})


def test_a_scratch_too_short_for_the_board_is_refused() -> None:
    refused(ValueError, {2: kernels.new_scratch(20)})
    refused(ValueError, {2: kernels.new_scratch(0)})
    refused(TypeError, {2: kernels.new_scratch(42).astype(np.int32)})


def test_stats_of_the_wrong_shape_or_dtype_are_refused() -> None:
    refused(TypeError, {3: np.zeros(3, dtype=np.int64)})
    refused(TypeError, {3: np.zeros(1, dtype=np.int64)})
    refused(TypeError, {3: np.zeros(2, dtype=np.float64)})


def test_a_board_too_big_or_not_a_board_is_refused() -> None:
    wide = _core.board_tables(4, 12, 4)  # 60 bits, but more columns than a search holds
    refused(ValueError, {0: wide})
    broken = bitboard.board_array(Rules()).copy()
    broken[4] = 70  # a column of 70 bits
    refused(ValueError, {0: broken})


def test_books_of_the_wrong_kind_are_refused() -> None:
    books = kernels.no_books()
    refused(ValueError, {4: books._replace(scores=np.zeros(3, dtype=np.int8))})
    refused(TypeError, {4: books._replace(keys=np.zeros(0, dtype=np.int64))})
    refused(ValueError, {4: books._replace(database=np.zeros(10, dtype=np.uint8))})
    refused(TypeError, {4: (books.keys, books.scores)})


def test_positions_that_are_over_or_not_positions_are_refused() -> None:
    won = position_after(Rules(), [0, 1, 0, 1, 0, 1])
    assert won is not None
    over = won[0].play(0)
    assert over.is_terminal
    refused(ValueError, {}, over)
    full = Position.empty(Rules(1, 3, 3)).play(0).play(1).play(2)
    assert full.is_full
    refused(ValueError, {}, full)
    packed, table, scratch, stats, books = arguments()
    floating = U(1 << 1)  # a disc in the second row of an empty column
    with pytest.raises(ValueError):
        kernels.solve(floating, floating, False, packed, table, scratch, stats, books)
    with pytest.raises(ValueError):
        kernels.solve(U(1), U(0), False, packed, table, scratch, stats, books)


def test_a_probe_of_a_position_won_at_once_is_refused() -> None:
    found = position_after(Rules(), [0, 1, 0, 1, 0, 1])
    assert found is not None and found[0].winning_moves()
    packed, table, scratch, stats, books = arguments()
    with pytest.raises(ValueError):
        kernels.probe(U(found[0].current), U(found[0].mask), 0, 0, packed, table,
                      np.zeros(4, dtype=np.uint64), scratch, stats, books)
    with pytest.raises(ValueError):  # busy rows not a power of two
        kernels.probe(U(0), U(0), 0, 0, packed, table, np.zeros(3, dtype=np.uint64), scratch,
                      stats, books)


def test_a_search_lets_other_python_threads_run() -> None:
    rules = Rules(5, 6, 4)  # the empty board: about 3 M nodes, a few tenths of a second
    packed, table, scratch, stats, books = arguments(rules)
    done = threading.Event()
    found: list[int] = []

    def search() -> None:
        found.append(int(kernels.solve(U(0), U(0), False, packed, table, scratch, stats,
                                       books)))
        done.set()

    thread = threading.Thread(target=search)
    began = last = time.perf_counter()
    thread.start()
    longest = 0.0  # the longest this thread waited between two turns
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    thread.join()
    took = time.perf_counter() - began
    assert found == [0] and stats[kernels.NODES] > 1_000_000
    assert longest < took / 2, (longest, took)  # holding the GIL, it would wait it all
