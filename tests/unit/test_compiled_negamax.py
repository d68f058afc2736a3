"""The compiled negamax search (``arena/search/core/negamax.hpp``, the Python-facing
``negamax.root_scores``) on every heuristic and its seed variants, several depths, boards and
settings: the best score the same with a table of any size or none and with or without every
tie searched, the same search twice the same scores and nodes, a node limit that stops it,
generations that wrap, bad arrays refused, other threads running meanwhile. Its scores and
node counts are numba's (test_kernel_answers) and minimax's (test_negamax)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.search.heuristics import ThreatRules, centre_first, parse_heuristic, terms_array
from arena.search.kernels import bitboard, evaluation
from arena.search.kernels import negamax as kernels
from tests.helpers.gil import others_ran_during
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
    """One agent's search arrays, with ``search_array``'s settings."""

    def __init__(self, rules: Rules, heuristic: str, threat_rules: ThreatRules, depth: int,
                 table_bits: int, order: tuple[int, ...], win_step: int, ordering: bool,
                 full_board_evaluation: bool, soonest_win: int) -> None:
        windows = evaluation.board_windows(rules)
        self.cols = rules.cols
        self.inputs = (kernels.search_array(bitboard.board_array(rules), order, win_step,
                                            ordering, full_board_evaluation, soonest_win),
                       terms_array(parse_heuristic(heuristic), threat_rules),
                       windows.lines, windows.points)
        self.core = (kernels.new_table(table_bits), kernels.new_stats(), kernels.new_stack(depth))

    def set_node_limit(self, limit: int) -> None:
        self.core[1][kernels.NODE_LIMIT] = limit

    def search(self, position: Position, depth: int, all_ties: bool) -> np.ndarray:
        """The root scores of ``position``, NO_SCORE exactly on its full columns."""
        scores = kernels.root_scores(U(position.current), U(position.mask), depth,
                                     *self.inputs, *self.core, all_ties)
        assert scores.dtype == np.int64
        legal = position.legal_moves()
        assert [c for c in range(self.cols) if scores[c] != kernels.NO_SCORE] == legal or \
            self.core[1][kernels.ABORTED]
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
       threat_rules=st.sampled_from(THREAT_RULES), depth=st.integers(1, 5),
       table_bits=st.sampled_from([1, 3, 10]), left_to_right=st.booleans(),
       win_step=st.sampled_from([0, 1]), ordering=st.booleans(),
       full_board_evaluation=st.booleans(), soonest_win=st.sampled_from([2, 3]),
       moves=st.lists(st.integers(0, 8), max_size=60), picks=st.lists(st.integers(0, 60),
                                                                      min_size=1, max_size=4))
def test_the_best_score_is_the_same_with_any_table_and_either_tie_rule(
        board: Rules, heuristic: str, threat_rules: ThreatRules, depth: int, table_bits: int,
        left_to_right: bool, win_step: int, ordering: bool, full_board_evaluation: bool,
        soonest_win: int, moves: list[int], picks: list[int]) -> None:
    order = tuple(range(board.cols)) if left_to_right else centre_first(board.cols)
    settings_ = (order, win_step, ordering, full_board_evaluation, soonest_win)
    tabled = Searcher(board, heuristic, threat_rules, depth, table_bits, *settings_)
    untabled = Searcher(board, heuristic, threat_rules, depth, 0, *settings_)
    line = positions_of(board, moves)
    for pick in picks:  # searches in a row share the table across generations
        position = line[pick % len(line)]
        every_tie = tabled.search(position, depth, True)
        assert untabled.search(position, depth, True).max() == every_tie.max()
        assert tabled.search(position, depth, False).max() == every_tie.max()
        once, twice = (Searcher(board, heuristic, threat_rules, depth, table_bits, *settings_)
                       for _ in range(2))
        assert once.search(position, depth, True).tolist() == \
            twice.search(position, depth, True).tolist()
        assert once.core[1].tolist() == twice.core[1].tolist()  # the same nodes


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
            full = searcher.search(position, depth, True)
            nodes = int(searcher.core[1][kernels.NODES])
            searcher.set_node_limit(max(1, nodes // 2))  # this search again: it stops
            searcher.search(position, depth, True)
            assert searcher.core[1][kernels.ABORTED] == (nodes > 1)
            assert searcher.core[1][kernels.NODES] <= max(1, nodes // 2) + 1
            searcher.set_node_limit(kernels.NO_NODE_LIMIT)
            assert searcher.search(position, depth, False).max() == full.max()


def test_the_table_is_cleared_when_its_generations_wrap() -> None:
    searcher = Searcher(Rules(), "threats", ThreatRules(), 6, 10, centre_first(7), 1, True,
                        False, 3)
    position = random_positions(Rules(), 1, seed=3)[0]
    first = searcher.search(position, 6, True)
    assert searcher.core[0].any()
    searcher.core[1][kernels.GENERATION] = kernels.GENERATIONS - 1
    assert searcher.search(position, 6, True).tolist() == first.tolist()
    assert searcher.core[1][kernels.GENERATION] == 1


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
    searcher = Searcher(Rules(), "none", ThreatRules(), 14, 16, centre_first(7), 1, True, False,
                        3)
    assert others_ran_during(lambda: kernels.root_scores(U(0), U(0), 14, *searcher.inputs,
                                                         *searcher.core, True))
    assert searcher.core[1][kernels.NODES] > 100_000
