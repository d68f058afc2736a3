"""Perft against known answers (the ``arena perft`` command: tests/cli/test_perft_cli.py)."""

from __future__ import annotations

import pytest

from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.rules.perft import perft

# 6 x 7 connect 4 from the empty board, depths 0 to 7 (depth 8 lives in benchmarks/).
STANDARD_PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536]

# 3 rows x 2 columns, connect 3, counted by hand: 2 columns of 3 cells.
# Depths 1-3: no column fills, 2**d. Depth 4: 8 sequences of 3, of which 2 filled a column
# (AAA, BBB), so 6 * 2 + 2 * 1 = 14. Depth 5: 4-move sequences split 2+2 (6 of them, 2
# moves each) or 3+1 / 1+3 (4 + 4, 1 move each) = 20. Depth 6: the 20 five-move sequences
# split 3+2 / 2+3, and only ABABA and BABAB are won (player 1 fills a column), so 18.
# Depth 7: the board is full.
SMALL_PERFT = [1, 2, 4, 8, 14, 20, 18, 0]


@pytest.mark.parametrize("depth", range(len(STANDARD_PERFT)))
def test_standard_board(depth: int) -> None:
    assert perft(Position.empty(), depth) == STANDARD_PERFT[depth]


def test_small_board_counted_by_hand() -> None:
    start = Position.empty(Rules(rows=3, cols=2, connect=3))
    assert [perft(start, depth) for depth in range(len(SMALL_PERFT))] == SMALL_PERFT


def test_single_column_never_wins() -> None:
    start = Position.empty(Rules(rows=5, cols=1, connect=3))
    assert [perft(start, depth) for depth in range(7)] == [1, 1, 1, 1, 1, 1, 0]


def test_won_position_has_no_moves() -> None:
    won = from_moves("1212121")
    assert perft(won, 0) == 1
    assert [perft(won, depth) for depth in (1, 2, 3)] == [0, 0, 0]


def test_perft_counts_wins_as_leaves() -> None:
    # Player 1 to move can win in column 1; that line ends there, the other 6 go on.
    threat = from_moves("121212")
    assert perft(threat, 1) == 7
    assert perft(threat, 2) == 6 * 7


def test_progress_is_told_of_each_first_move() -> None:
    told: list[int] = []
    assert perft(from_moves("4444"), 3, told.append) == perft(from_moves("4444"), 3)
    assert told == [1] * 7
    told.clear()
    perft(from_moves("444444"), 2, told.append)  # column 4 is full: six first moves
    assert told == [1] * 6
