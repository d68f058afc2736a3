"""Perft against known answers, and the ``arena perft`` command."""

from __future__ import annotations

import pytest

from arena.cli.perft import perft_command
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.rules.perft import perft
from tests.helpers.cli import invoke

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


@pytest.mark.parametrize(("args", "count"), [
    (["4"], 2401),
    (["0"], 1),
    (["1", "--moves", "4455"], 7),
    (["2", "--moves", "1212121"], 0),
    (["5", "--rows", "3", "--cols", "2", "--connect", "3"], 20),
])
def test_perft_command(args: list[str], count: int) -> None:
    result = invoke(*args, command=perft_command)
    assert result.exit_code == 0, result.output
    depth = args[0]
    assert result.stdout == f"perft {depth}: {count}\n"
    assert "leaves/s" in result.stderr


@pytest.mark.parametrize(("args", "shown"), [
    (["3", "--moves", "48a"], "'48a'"),
    (["3", "--moves", "1111111"], "'1111111', move 7"),
    (["3", "--cols", "10"], "6 x 10"),
    (["-1"], "-1"),
    (["many"], "many"),
])
def test_perft_command_bad_input(args: list[str], shown: str) -> None:
    result = invoke("perft", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("arena: error: ") and result.stderr.count("\n") == 1
    assert shown in result.stderr
