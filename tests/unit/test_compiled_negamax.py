"""The compiled negamax search (``arena/search/core/negamax.hpp``, the Python-facing
``negamax.root_scores``) is node for node the numba search the fused loop still calls
(``negamax.score_root``): the same scores, node counts, table rows, generations and stops at a
node limit, on every heuristic and its seed variants, several depths, boards and settings."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.search.heuristics import ThreatRules, centre_first, parse_heuristic, terms_array
from arena.search.kernels import _core, bitboard, evaluation
from arena.search.kernels import negamax as kernels
from tests.helpers.positions import EXTREME_RULES, random_positions

U = np.uint64
BOARDS = (Rules(), Rules(5, 6, 4), Rules(5, 6, 3), Rules(7, 8, 5), Rules(4, 5, 4), Rules(6, 7, 5),
          *EXTREME_RULES)
HEURISTICS = ("none", "positional", "threats", "window", "live-threats", "stacked-threats",
              "threats*3+positional", "live-threats+stacked-threats+threats*10+positional",
              "window*2+live-threats", "stacked-threats*1000+threats")
THREAT_RULES = (ThreatRules(), ThreatRules("always"), ThreatRules(seed_scoring=True),
                ThreatRules("always", True, True, True), ThreatRules(seed_clearing_bug=True),
                ThreatRules(seed_live_bug=True))


class Searcher:
    """One agent's search arrays twice over, the numba kernel's and the core's, with
    ``search_array``'s settings."""

    def __init__(self, rules: Rules, heuristic: str, threat_rules: ThreatRules, depth: int,
                 table_bits: int, order: tuple[int, ...], win_step: int, ordering: bool,
                 full_board_evaluation: bool, soonest_win: int) -> None:
        windows = evaluation.board_windows(rules)
        self.cols = rules.cols
        self.inputs = (kernels.search_array(bitboard.board_array(rules), order, win_step,
                                            ordering, full_board_evaluation, soonest_win),
                       terms_array(parse_heuristic(heuristic), threat_rules),
                       windows.lines, windows.points)
        self.jit = (kernels.new_table(table_bits), kernels.new_stats(), kernels.new_stack(depth))
        self.core = tuple(array.copy() for array in self.jit)

    def set_node_limit(self, limit: int) -> None:
        self.jit[1][kernels.NODE_LIMIT] = self.core[1][kernels.NODE_LIMIT] = limit

    def compare(self, position: Position, depth: int, all_ties: bool) -> np.ndarray:
        """Search ``position`` with both; assert they agree in everything; the scores."""
        cur, mask = U(position.current), U(position.mask)
        expected = np.empty(self.cols, dtype=np.int64)
        kernels.score_root(expected, cur, mask, depth, *self.inputs, *self.jit, all_ties)
        scores = kernels.root_scores(cur, mask, depth, *self.inputs, *self.core, all_ties)
        where = f"{position.describe()} at depth {depth}"
        assert scores.dtype == np.int64 and scores.tolist() == expected.tolist(), where
        assert self.core[1].tolist() == self.jit[1].tolist(), where  # nodes, aborted, ...
        assert np.array_equal(self.core[0], self.jit[0]), where  # the table, row for row
        return scores


def positions_of(rules: Rules, moves: list[int]) -> list[Position]:
    """The non-terminal positions along ``moves`` (each taken modulo the legal ones)."""
    position, found = Position.empty(rules), [Position.empty(rules)]
    for move in moves:
        legal = position.legal_moves()
        position = position.play(legal[move % len(legal)])
        if position.is_terminal:
            break
        found.append(position)
    return found


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=st.sampled_from(BOARDS), heuristic=st.sampled_from(HEURISTICS),
       threat_rules=st.sampled_from(THREAT_RULES), depth=st.integers(1, 6),
       table_bits=st.sampled_from([0, 1, 3, 10]), left_to_right=st.booleans(),
       win_step=st.sampled_from([0, 1]), ordering=st.booleans(),
       full_board_evaluation=st.booleans(), soonest_win=st.sampled_from([2, 3]),
       all_ties=st.booleans(), node_limit=st.sampled_from([None, 1, 2, 7, 40, 300]),
       moves=st.lists(st.integers(0, 8), max_size=60), picks=st.lists(st.integers(0, 60),
                                                                      min_size=1, max_size=4))
def test_the_compiled_search_is_the_numba_search(
        board: Rules, heuristic: str, threat_rules: ThreatRules, depth: int, table_bits: int,
        left_to_right: bool, win_step: int, ordering: bool, full_board_evaluation: bool,
        soonest_win: int, all_ties: bool, node_limit: int | None, moves: list[int],
        picks: list[int]) -> None:
    order = tuple(range(board.cols)) if left_to_right else centre_first(board.cols)
    searcher = Searcher(board, heuristic, threat_rules, depth, table_bits, order, win_step,
                        ordering, full_board_evaluation, soonest_win)
    if node_limit is not None:
        searcher.set_node_limit(node_limit)
    line = positions_of(board, moves)
    for pick in picks:  # searches in a row share the table across generations
        searcher.compare(line[pick % len(line)], depth, all_ties)


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 6, 4), Rules(5, 6, 3), Rules(7, 8, 4)],
                         ids=str)
@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_the_same_search_on_random_positions_at_several_depths(rules: Rules,
                                                               heuristic: str) -> None:
    """Deeper searches than the property test's, with and without a node limit."""
    for depth in (1, 3, 5, 7):
        searcher = Searcher(rules, heuristic, ThreatRules(), depth, 12, centre_first(rules.cols),
                            1, True, False, 3)
        for position in random_positions(rules, 8, seed=depth):
            full = searcher.compare(position, depth, True)
            nodes = int(searcher.core[1][kernels.NODES])
            searcher.set_node_limit(max(1, nodes // 2))  # this search again: it stops
            searcher.compare(position, depth, True)
            assert searcher.core[1][kernels.ABORTED] == (nodes > 1)
            searcher.set_node_limit(kernels.NO_NODE_LIMIT)
            assert searcher.compare(position, depth, False).max() == full.max()


def test_the_table_is_cleared_when_its_generations_wrap() -> None:
    searcher = Searcher(Rules(), "threats", ThreatRules(), 6, 10, centre_first(7), 1, True,
                        False, 3)
    position = random_positions(Rules(), 1, seed=3)[0]
    searcher.compare(position, 6, True)
    searcher.jit[1][kernels.GENERATION] = searcher.core[1][kernels.GENERATION] = \
        kernels.GENERATIONS - 1
    searcher.compare(position, 6, True)
    assert searcher.core[1][kernels.GENERATION] == 1


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_the_compiled_evaluation_is_the_numba_one(rules: Rules) -> None:
    packed, tables = bitboard.board_array(rules), bitboard.board_tables(rules)
    windows = evaluation.board_windows(rules)
    for position in [Position.empty(rules), *random_positions(rules, 15, seed=rules.rows)]:
        cur, mask = U(position.current), U(position.mask)
        for heuristic in HEURISTICS:
            for threat_rules in THREAT_RULES:
                terms = terms_array(parse_heuristic(heuristic), threat_rules)
                for ply, win_step in ((0, 1), (1, 1), (4, 0)):
                    assert _core.evaluate(cur, mask, ply, win_step, packed, terms,
                                          *windows) == evaluation.evaluate(
                        cur, mask, ply, win_step, tables, terms, *windows), heuristic


def test_bad_arrays_are_refused_not_read_past() -> None:
    searcher = Searcher(Rules(), "none", ThreatRules(), 4, 4, centre_first(7), 1, True, False,
                        3)
    table, stats, stack = searcher.core
    with pytest.raises(ValueError, match="depth 5"):
        kernels.root_scores(U(0), U(0), 5, *searcher.inputs, table, stats, stack, True)
    with pytest.raises(ValueError, match="power of two"):
        kernels.root_scores(U(0), U(0), 4, *searcher.inputs, table[:3], stats, stack, True)
    with pytest.raises(TypeError):  # a copy would not be written back: never converted
        kernels.root_scores(U(0), U(0), 4, *searcher.inputs, table, stats.astype(np.int32),
                            stack, True)


def test_the_search_lets_other_threads_run() -> None:
    """The GIL is released while the core searches: a Python thread counts meanwhile. The
    switch interval is longer than a search, so a held GIL would keep it from counting; the
    search is tried again while the thread was not yet scheduled."""
    searcher = Searcher(Rules(), "none", ThreatRules(), 14, 16, centre_first(7), 1, True, False,
                        3)
    count, started, stop = [0], threading.Event(), threading.Event()

    def counting() -> None:
        started.set()
        while not stop.is_set():
            count[0] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    thread = threading.Thread(target=counting)
    try:
        thread.start()
        started.wait()
        for _ in range(15):
            before = count[0]
            kernels.root_scores(U(0), U(0), 14, *searcher.inputs, *searcher.core, True)
            if count[0] > before:
                break
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert searcher.core[1][kernels.NODES] > 100_000
    assert count[0] > before
