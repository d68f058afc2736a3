"""The compiled kernels against the pure-Python rules, and the heuristics on hand-checked boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules, has_line, threat_cells
from arena.rules.notation import from_moves, to_array
from arena.search.heuristics import (
    HEURISTIC_LIMIT,
    PROJECT_THREAT_RULES,
    STACKED_SCORE,
    WIN_SCORE,
    ThreatRules,
    centre_first,
    parse_heuristic,
    positional_weights,
    terms_array,
    window_points,
)
from arena.search.kernels import bitboard as kernels
from arena.search.kernels import evaluation
from tests.helpers.positions import position_of

STANDARD = Rules()
U = np.uint64


def evaluate(position: Position, heuristic: str, ply: int = 0, win_step: int = 1,
             rules: ThreatRules = PROJECT_THREAT_RULES) -> int:
    """The kernel's heuristic value of ``position`` for the side to move."""
    terms = terms_array(parse_heuristic(heuristic), rules)
    windows = evaluation.board_windows(position.rules)
    return int(evaluation.evaluate(U(position.current), U(position.mask), ply, win_step,
                                   kernels.board_array(position.rules), terms, *windows))


# --- rules -----------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.from_type(Position))
def test_kernels_agree_with_the_python_rules(position: Position) -> None:
    rules = position.rules
    tables = kernels.board_array(rules)
    mask = position.mask
    for player in (1, 2):
        stones = position.stones(player)
        assert kernels.has_line(U(stones), tables) == has_line(stones, rules)
        assert int(kernels.winning_cells(U(stones), U(mask), tables)) == threat_cells(
            stones, mask, rules)
    assert int(kernels.playable(U(mask), tables)) == position.playable_cells()
    if not position.won:
        assert list(kernels.legal_columns(U(mask), tables)) == position.legal_moves()


def test_line_tests_do_not_wrap_on_a_full_64_bit_board() -> None:
    rules = Rules(rows=7, cols=8, connect=4)  # the last column's sentinel is bit 63
    tables = kernels.board_array(rules)
    top_right = rules.cell_bit(7, 6)
    three_below = sum(rules.cell_bit(7, r) for r in (3, 4, 5))
    mask = sum(rules.cell_bit(7, r) for r in range(6))
    assert int(kernels.winning_cells(U(three_below), U(mask), tables)) == top_right
    three_left = sum(rules.cell_bit(c, 6) for c in (4, 5, 6))
    assert int(kernels.winning_cells(U(three_left), U(three_left), tables)) & top_right
    assert kernels.has_line(U(three_left | top_right), tables)


def test_centre_first_order() -> None:
    assert centre_first(7) == (3, 2, 4, 1, 5, 0, 6)
    assert centre_first(8) == (4, 3, 5, 2, 6, 1, 7, 0)
    assert centre_first(1) == (0,)


# --- heuristics ------------------------------------------------------------------------


def test_positional_weights_are_the_seed_table_times_ten() -> None:
    seed_table = [  # seed 002, top row first
        [3, 4, 5, 7, 5, 4, 3],
        [4, 6, 8, 10, 8, 6, 4],
        [5, 8, 11, 13, 11, 8, 5],
        [5, 8, 11, 13, 11, 8, 5],
        [4, 6, 8, 10, 8, 6, 4],
        [3, 4, 5, 7, 5, 4, 3],
    ]
    assert positional_weights(STANDARD).tolist() == seed_table[::-1]


def test_positional_weights_on_a_small_board() -> None:
    # 1 x 4, connect 3: two horizontal lines, cells 0..3 lie on 1, 2, 2, 1 of them.
    assert positional_weights(Rules(rows=1, cols=4, connect=3)).tolist() == [[1, 2, 2, 1]]


def test_positional_evaluation() -> None:
    assert evaluate(from_moves("4"), "positional") == -7  # the opponent's centre disc
    assert evaluate(from_moves("44"), "positional") == 7 - 10
    assert evaluate(from_moves("44"), "positional*3") == 3 * (7 - 10)


def test_threat_evaluation() -> None:
    position = position_of([
        ".......",
        ".......",
        ".......",
        ".......",
        "o......",
        "xxx.oo.",
    ])
    # x to move threatens (3, 0); o threatens nothing.
    assert evaluate(position, "threats") == 1
    assert evaluate(position, "threats*5") == 5
    assert evaluate(position, "live-threats", ply=2) == WIN_SCORE - 3


def test_live_threats_win_for_the_side_to_move() -> None:
    position = from_moves("4455")  # x to move; x threatens nothing playable yet
    assert evaluate(position, "live-threats", ply=2) == 0
    position = from_moves("445566")  # x to move with playable threats at 3 and 7
    assert evaluate(position, "live-threats", ply=2) == WIN_SCORE - 3


def test_two_playable_opponent_threats_lose() -> None:
    # o to move; x threatens columns 3 and 7 on the bottom row, o the cells above them.
    position = from_moves("4455661")
    assert evaluate(position, "live-threats", ply=1) == -(WIN_SCORE - 3)
    assert evaluate(position, "threats") == 2 - 2


STACKED_BELOW_NOTHING = [  # o to move; x threatens (3, 1) and (3, 2), o threatens (3, 0)
    ".......",
    ".......",
    ".......",
    "xxx....",
    "xxx..oo",
    "ooo..ox",
]
STACKED_BELOW_A_THREAT = [  # x to move; o also threatens (3, 3), above x's pair
    ".......",
    ".......",
    "ooo....",
    "xxx....",
    "xxx...o",
    "ooo...x",
]


def test_a_stacked_pair_is_decisive() -> None:
    position = position_of(STACKED_BELOW_NOTHING)
    assert position.side_to_move == 2
    assert evaluate(position, "stacked-threats") == -STACKED_SCORE
    assert evaluate(position, "stacked-threats*2") == -2 * STACKED_SCORE
    assert evaluate(position, "stacked-threats*1000") == -HEURISTIC_LIMIT  # clamped
    assert evaluate(position, "threats") == 1 - 2
    assert evaluate(position, "stacked-threats+threats") == -STACKED_SCORE + 1 - 2
    assert evaluate(position, "live-threats", ply=3) == WIN_SCORE - 4  # o plays (3, 0)


def test_threats_above_a_stacked_pair_are_not_counted() -> None:
    position = position_of(STACKED_BELOW_A_THREAT)
    assert position.side_to_move == 1
    assert evaluate(position, "threats") == 2 - 2
    assert evaluate(position, "stacked-threats+threats") == STACKED_SCORE + 2 - 1
    assert evaluate(position, "live-threats") == 0  # o has a single playable threat


def test_window_points_follow_the_seeds() -> None:
    points = window_points(4)
    assert points[4, 0] == 100
    assert points[3, 0] == 5
    assert points[2, 0] == 2
    assert points[0, 3] == -4
    assert points[1, 3] == 0  # no empty cell left
    assert points[2, 1] == 0


def test_window_evaluation_is_the_root_players_score() -> None:
    rules = Rules(rows=1, cols=4, connect=3)
    own, other = rules.cell_bit(1, 0) | rules.cell_bit(2, 0), 0
    tables, windows = kernels.board_array(rules), evaluation.board_windows(rules)
    terms = terms_array(parse_heuristic("window"))
    # Windows [0, 1, 2] and [1, 2, 3]: two own discs and one empty cell, 5 points each,
    # and 3 for the disc in the centre column (4 // 2 = 2).
    assert evaluation.evaluate(U(own), U(own | other), 0, 1, tables, terms, *windows) == 13
    # One ply below the root the opponent is to move: minus the root player's score.
    assert evaluation.evaluate(U(other), U(own | other), 1, 1, tables, terms, *windows) == -13
    # The opponent's own score differs (-4 per window): it is not what is returned.
    assert evaluation.evaluate(U(other), U(own | other), 0, 1, tables, terms, *windows) == -8


def test_window_evaluation_matches_minimax() -> None:
    from connect_four_agents import minimax
    rng = np.random.default_rng(5)
    for rules in (STANDARD, Rules(rows=5, cols=6, connect=3), Rules(rows=7, cols=8, connect=5)):
        position = Position.empty(rules)
        while not position.is_terminal:
            root = position.side_to_move
            expected = minimax.window_score(to_array(position), rules, root)
            assert evaluate(position, "window", ply=0) == expected
            position = position.play(int(rng.choice(position.legal_moves())))
            if not position.is_terminal:
                expected = minimax.window_score(to_array(position), rules, root)
                assert evaluate(position, "window", ply=1) == -expected


def test_no_heuristic_is_zero() -> None:
    assert evaluate(from_moves("4455"), "none") == 0


# --- seed 002's threat rules -------------------------------------------------------------

SEED_SCORING = ThreatRules(seed_scoring=True)
ALWAYS = ThreatRules(clearing="always")
ALWAYS_WITH_BUG = ThreatRules(clearing="always", seed_clearing_bug=True)

# o to move. Both players threaten (3, 1) and (3, 2): a stacked pair each, in one column;
# x also threatens (3, 3) above it and (0, 3), (2, 3) to the left; o threatens (5, 3) and
# (6, 3), in later columns.
SHARED_PAIR = [
    ".......",
    ".......",
    ".......",
    "xxx.ooo",
    "xxx.ooo",
    "xoxoxox",
]


def test_threats_above_a_pair_are_cleared_only_beside_stacked_threats_by_default() -> None:
    position = position_of(SHARED_PAIR)
    assert position.side_to_move == 2
    assert evaluate(position, "threats") == 4 - 5
    # clearing=always drops x's (3, 3), above the lowest pair of column 3
    assert evaluate(position, "threats", rules=ALWAYS) == 4 - 4


def test_the_seeds_clearing_bug_wipes_every_later_column() -> None:
    position = position_of(SHARED_PAIR)
    # column 3's pair tops out at bit 3 * 7 + 2: o's (5, 3) and (6, 3) are wiped as well,
    # x's (0, 3) and (2, 3), in earlier columns, stay
    assert evaluate(position, "threats", rules=ALWAYS_WITH_BUG) == 2 - 4
    # the bug only changes how clearing is done, not when: nothing is cleared by default
    assert evaluate(position, "threats", rules=ThreatRules(seed_clearing_bug=True)) == 4 - 5


def test_stacked_pairs_score_per_pair_and_player_with_seed_scoring() -> None:
    position = position_of(SHARED_PAIR)
    # the project: the lowest pair of column 3 is the side to move's (it is o's too)
    assert evaluate(position, "stacked-threats") == STACKED_SCORE
    # the seed: one pair each after clearing (x's second pair, (3, 2)-(3, 3), is cleared)
    assert evaluate(position, "stacked-threats*50", rules=SEED_SCORING) == 50 * (1 - 1)
    assert evaluate(position_of(STACKED_BELOW_NOTHING), "stacked-threats*50",
                    rules=SEED_SCORING) == -50
    assert evaluate(position_of(STACKED_BELOW_NOTHING), "stacked-threats*50+threats*10",
                    rules=SEED_SCORING) == -50 + 10 * (1 - 2)


def test_seed_scoring_loses_to_two_live_threats_one_ply_sooner() -> None:
    position = from_moves("4455661")  # o to move; x threatens columns 3 and 7, both playable
    assert evaluate(position, "live-threats", ply=1) == -(WIN_SCORE - 3)
    assert evaluate(position, "live-threats", ply=1, rules=SEED_SCORING) == -(WIN_SCORE - 2)
    winning = from_moves("445566")  # x to move with playable threats: a win either way
    assert evaluate(winning, "live-threats", ply=2, rules=SEED_SCORING) == WIN_SCORE - 3


def test_flat_win_scoring_scores_live_threats_at_win_score() -> None:
    assert evaluate(from_moves("445566"), "live-threats", ply=2, win_step=0) == WIN_SCORE
    assert evaluate(from_moves("4455661"), "live-threats", ply=1, win_step=0) == -WIN_SCORE


def test_the_seeds_live_threat_bug_ignores_the_bottom_left_cell() -> None:
    bug = ThreatRules(seed_live_bug=True)
    left = position_of([".......", ".......", ".......", ".......", ".......", ".xxxooo"])
    assert left.side_to_move == 1  # x's only threat is (0, 0), playable
    assert evaluate(left, "live-threats") == WIN_SCORE - 1
    assert evaluate(left, "live-threats", rules=bug) == 0
    right = position_of([".......", ".......", ".......", ".......", ".......", "oooxxx."])
    assert right.side_to_move == 1  # x's only threat is (6, 0), playable
    assert evaluate(right, "live-threats", rules=bug) == WIN_SCORE - 1


def test_the_seeds_clearing_bug_comes_before_live_threats() -> None:
    # o to move with a playable threat at (6, 3); x's pair (0, 1)-(0, 2) is the lowest
    position = position_of([
        ".......",
        ".......",
        ".......",
        ".xxx..o",
        ".xxx.xo",
        ".ooxooo",
    ])
    assert position.side_to_move == 2
    assert evaluate(position, "live-threats", rules=ALWAYS) == WIN_SCORE - 1
    assert evaluate(position, "live-threats", rules=ALWAYS_WITH_BUG) == 0
