"""Move strings, numpy arrays and Kaggle flat boards: round trips, hand-checked boards, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError, InvalidPositionError, MalformedInputError
from arena.rules.notation import (
    format_moves,
    from_array,
    from_flat,
    from_moves,
    parse_moves,
    play_moves,
    to_array,
    to_flat,
    to_moves,
)

# Rows bottom to top, as to_array gives them: "4455" then "3" (player 1 to move after 4455).
BOARD_4455 = [
    [0, 0, 0, 1, 1, 0, 0],
    [0, 0, 0, 2, 2, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
]


def same_position(a: Position, b: Position) -> bool:
    """Equal discs, board and outcome (``won`` takes no part in ==)."""
    return a == b and a.won == b.won


@settings(max_examples=150, deadline=None)
@given(st.from_type(Position))
def test_move_string_round_trip(position: Position) -> None:
    moves = to_moves(position)
    assert len(moves) == position.plies
    assert same_position(from_moves(moves, position.rules), position)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=50))
def test_from_moves_replays_as_one_play_a_move(columns: list[int]) -> None:
    # from_moves replays on bitboards alone; one Position.play a move is the reference,
    # errors (a full column, a move after a win) and won positions included
    text = format_moves(columns)
    try:
        expected: Position | str = play_moves(Position.empty(), columns, text)
    except IllegalMoveError as error:
        expected = str(error)
    try:
        got: Position | str = from_moves(text)
    except IllegalMoveError as error:
        got = str(error)
    assert got == expected
    if isinstance(got, Position) and isinstance(expected, Position):
        assert got.won == expected.won


@settings(max_examples=150, deadline=None)
@given(st.from_type(Position))
def test_array_and_flat_round_trips(position: Position) -> None:
    rules = position.rules
    array = to_array(position)
    assert array.shape == (rules.rows, rules.cols) and array.dtype == np.int8
    assert same_position(from_array(array, connect=rules.connect), position)
    flat = to_flat(position)
    assert flat == [int(v) for v in array[::-1].ravel()]
    assert same_position(from_flat(flat, rules), position)


@given(st.lists(st.integers(0, 8), max_size=30))
def test_format_and_parse_are_inverse(columns: list[int]) -> None:
    text = format_moves(columns)
    assert len(text) == len(columns)
    assert parse_moves(text, Rules(rows=6, cols=9)) == columns


def test_hand_checked_array_and_flat() -> None:
    position = from_moves("4455")
    assert to_array(position).tolist() == BOARD_4455
    flat = to_flat(position)
    assert len(flat) == 42
    assert flat[35:] == [0, 0, 0, 1, 1, 0, 0]  # Kaggle row 5 is the bottom row
    assert flat[28:35] == [0, 0, 0, 2, 2, 0, 0]
    assert sum(flat[:28]) == 0
    assert from_array(BOARD_4455) == position
    assert from_array(np.array(BOARD_4455)).side_to_move == 1


def test_parse_moves_hand_checked() -> None:
    assert parse_moves("4455") == [3, 3, 4, 4]
    assert parse_moves("") == []
    assert format_moves([0, 6, 3]) == "174"
    assert to_moves(Position.empty()) == ""


def test_won_array_is_won_by_the_last_mover() -> None:
    array = np.zeros((6, 7), dtype=int)
    array[0, :4] = 1
    array[1, :3] = 2
    position = from_array(array)
    assert position.winner == 1 and position.is_terminal
    assert to_moves(position)[-1] == "4"  # only the disc in column 4 can have been last


def empty_board(rows: int = 6, cols: int = 7) -> np.ndarray:
    return np.zeros((rows, cols), dtype=int)


def floating() -> np.ndarray:
    board = empty_board()
    board[1, 2] = 1
    return board


def two_more_for_player_one() -> np.ndarray:
    board = empty_board()
    board[0, :2] = 1
    return board


def more_for_player_two() -> np.ndarray:
    board = empty_board()
    board[0, 0] = 2
    return board


def two_winners() -> np.ndarray:
    board = empty_board()
    board[0, :4] = 1
    board[:4, 6] = 2
    return board


def winner_moved_first() -> np.ndarray:
    """Player 1 has four in a row, but player 2 has as many discs, so moved after the win."""
    board = empty_board()
    board[0, :4] = 1
    board[0, 4:] = 2
    board[1, 0] = 2
    return board


def continued_after_win() -> np.ndarray:
    """Player 1 moved last, but its only top disc (column 7) is not part of its line."""
    board = empty_board()
    board[:4, 0] = 1
    board[0, 6] = 1
    board[4, 0] = 2
    board[0, 1:4] = 2
    return board


@pytest.mark.parametrize(("board", "message"), [
    (floating(), "column 3 has a floating disc"),
    (two_more_for_player_one(), "player 1 has 2 discs and player 2 has 0"),
    (more_for_player_two(), "player 1 has 0 discs and player 2 has 1"),
    (two_winners(), "both players"),
    (winner_moved_first(), "player 1 has 4 in a row but the other player moved after"),
    (continued_after_win(), "no legal game reaches"),
])
def test_impossible_arrays_are_refused(board: np.ndarray, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        from_array(board)
    with pytest.raises(InvalidPositionError, match=message):
        from_flat(board[::-1].ravel().tolist())


@pytest.mark.parametrize(("board", "error", "message"), [
    (np.full((6, 7), 3), MalformedInputError, r"only 0, 1 and 2, found \[3\]"),
    (np.full((6, 7), -1), MalformedInputError, r"found \[-1\]"),
    (np.zeros(42), MalformedInputError, r"must be 2-D, got shape \(42,\)"),
    (np.zeros((2, 6, 7)), MalformedInputError, "must be 2-D"),
    (np.zeros((6, 10)), ValueError, "6 x 10"),
])
def test_malformed_arrays_are_refused(board: np.ndarray, error: type[Exception],
                                      message: str) -> None:
    with pytest.raises(error, match=message):
        from_array(board)


def test_flat_board_of_wrong_length() -> None:
    with pytest.raises(MalformedInputError, match="flat board has 41 cells, expected 42"):
        from_flat([0] * 41)


@pytest.mark.parametrize(("text", "shown"), [
    ("44a5", "character 3 ('a')"),
    ("408", "character 2 ('0')"),
    ("48", "character 2 ('8')"),
    ("4 5", "character 2 (' ')"),
    ("-1", "character 1 ('-')"),
])
def test_malformed_move_strings(text: str, shown: str) -> None:
    with pytest.raises(MalformedInputError) as caught:
        from_moves(text)
    assert repr(text) in str(caught.value) and shown in str(caught.value)


def test_move_digits_follow_the_board_width() -> None:
    assert parse_moves("9", Rules(rows=6, cols=9)) == [8]
    with pytest.raises(MalformedInputError, match="not a column 1 to 5"):
        parse_moves("6", Rules(rows=4, cols=5, connect=3))


@pytest.mark.parametrize(("text", "shown"), [
    ("1111111", "move 7: column 1 (index 0) is full"),
    ("12121213", "move 8: column 3 (index 2) cannot be played: the game is already won"),
])
def test_illegal_move_strings(text: str, shown: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        from_moves(text)
    assert repr(text) in str(caught.value) and shown in str(caught.value)


def test_unicode_digits_are_malformed() -> None:
    with pytest.raises(MalformedInputError):
        from_moves("4\u00b2")


def test_string_arrays_are_malformed() -> None:
    with pytest.raises(MalformedInputError):
        from_array(np.full((6, 7), "x"))
