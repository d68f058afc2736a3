"""The rules engine against a naive referee, on random games over every allowed board size."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError, InvalidRulesError, MalformedInputError
from arena.rules.notation import from_moves

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (column step, row step)

Grid = tuple[tuple[int, ...], ...]


class Referee:
    """Connect Four on a plain list of rows (row 0 = bottom), written without bitboards."""

    def __init__(self, rules: Rules) -> None:
        self.rows, self.cols, self.connect = rules.rows, rules.cols, rules.connect
        self.grid = [[0] * self.cols for _ in range(self.rows)]
        self.plies = 0
        self.winner: int | None = None

    def to_move(self) -> int:
        """1 after an even number of moves, else 2."""
        return 1 if self.plies % 2 == 0 else 2

    def drop_row(self, col: int) -> int | None:
        """The lowest empty row of ``col``, or None when the column is full."""
        for row in range(self.rows):
            if self.grid[row][col] == 0:
                return row
        return None

    def is_full(self) -> bool:
        """True when every cell holds a disc."""
        return all(self.drop_row(col) is None for col in range(self.cols))

    def is_over(self) -> bool:
        """True after a win or on a full board."""
        return self.winner is not None or self.is_full()

    def legal(self) -> list[int]:
        """The columns that can take a disc while the game goes on."""
        if self.is_over():
            return []
        return [col for col in range(self.cols) if self.drop_row(col) is not None]

    def run(self, col: int, row: int, step: tuple[int, int], player: int) -> int:
        """How many of ``player``'s discs follow (col, row) in direction ``step``."""
        count = 0
        col, row = col + step[0], row + step[1]
        while 0 <= col < self.cols and 0 <= row < self.rows and self.grid[row][col] == player:
            count += 1
            col, row = col + step[0], row + step[1]
        return count

    def completes_line(self, col: int, row: int, player: int) -> bool:
        """True if a disc of ``player`` at (col, row) would be part of a line of ``connect``."""
        for dc, dr in DIRECTIONS:
            ahead = self.run(col, row, (dc, dr), player)
            behind = self.run(col, row, (-dc, -dr), player)
            if 1 + ahead + behind >= self.connect:
                return True
        return False

    def winning_columns(self, player: int) -> list[int]:
        """The columns where ``player`` would complete a line with the next disc."""
        if self.is_over():
            return []
        return [col for col in range(self.cols)
                if (row := self.drop_row(col)) is not None
                and self.completes_line(col, row, player)]

    def play(self, col: int) -> None:
        """Drop a disc of the side to move in ``col``."""
        row = self.drop_row(col)
        assert row is not None and not self.is_over()
        player = self.to_move()
        self.grid[row][col] = player
        self.plies += 1
        if self.completes_line(col, row, player):
            self.winner = player

    def players_with_a_line(self) -> set[int]:
        """Every player owning a line anywhere, by scanning every cell and direction."""
        found = set()
        for row in range(self.rows):
            for col in range(self.cols):
                player = self.grid[row][col]
                for dc, dr in DIRECTIONS:
                    if player and self.run(col, row, (dc, dr), player) >= self.connect - 1:
                        found.add(player)
        return found

    def snapshot(self) -> Grid:
        """The grid as an immutable value."""
        return tuple(tuple(row) for row in self.grid)


def cells(position: Position) -> Grid:
    """The engine's board as rows of 0/1/2, row 0 = bottom."""
    rules = position.rules
    return tuple(tuple(position.cell(col, row) for col in range(rules.cols))
                 for row in range(rules.rows))


def flipped(grid: Grid) -> Grid:
    """The grid reflected left to right."""
    return tuple(row[::-1] for row in grid)


def assert_agrees(position: Position, referee: Referee, grid: Grid) -> None:
    """Every rule-level query of ``position`` matches the referee, whose board is ``grid``."""
    assert cells(position) == grid
    assert position.plies == referee.plies
    assert position.side_to_move == referee.to_move()
    assert position.legal_moves() == referee.legal()
    playable = [c for c in range(-1, position.rules.cols + 1) if position.can_play(c)]
    assert playable == referee.legal()
    assert position.winner == referee.winner
    assert position.is_draw == (referee.is_full() and referee.winner is None)
    assert position.is_terminal == referee.is_over()
    assert position.winning_moves() == referee.winning_columns(referee.to_move())
    for player in (1, 2):
        assert position.winning_moves(player) == referee.winning_columns(player)


def assert_mirror(position: Position, grid: Grid) -> None:
    """The mirror image is the reflected board with the same outcome; mirroring twice is a no-op."""
    image = position.mirror()
    cols = position.rules.cols
    assert image.mirror() == position
    assert cells(image) == flipped(grid)
    assert image.winner == position.winner
    assert image.is_terminal == position.is_terminal
    assert image.legal_moves() == sorted(cols - 1 - c for c in position.legal_moves())
    assert image.winning_moves() == sorted(cols - 1 - c for c in position.winning_moves())


def assert_keys_name_boards(boards: dict[Position, Grid]) -> None:
    """Equal keys exactly for equal boards; equality and hashing follow the board."""
    key_to_board: dict[int, Grid] = {}
    for position, grid in boards.items():
        assert key_to_board.setdefault(position.key(), grid) == grid
    assert len(key_to_board) == len(set(boards.values())) == len(boards)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(rules=st.from_type(Rules), data=st.data())
def test_random_games_agree_with_the_referee(rules: Rules, data: st.DataObject) -> None:
    """At every ply of a random game: moves, outcome, threats, mirror and keys are right."""
    position, referee = Position.empty(rules), Referee(rules)
    boards: dict[Position, Grid] = {}
    while True:
        grid = referee.snapshot()
        assert_agrees(position, referee, grid)
        assert_mirror(position, grid)
        boards[position] = grid
        boards[position.mirror()] = flipped(grid)
        if position.is_terminal:
            break
        col = data.draw(st.sampled_from(position.legal_moves()), label="column")
        position = position.play(col)
        referee.play(col)
    assert referee.players_with_a_line() == ({referee.winner} if referee.winner else set())
    event("won" if referee.winner else "drawn")
    assert_keys_name_boards(boards)


def test_positions_are_values() -> None:
    """Positions reached by different move orders are equal, hash alike and share a key."""
    a, b = from_moves("1234"), from_moves("3214")
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert a is not b
    assert len({a, b, from_moves("1243")}) == 2
    assert Position.empty().play(3).play(4) == from_moves("45")
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]


def test_str_draws_the_board() -> None:
    """The plain drawing: column numbers, then rows top to bottom, X first player, O second."""
    expected = "\n".join([
        "1 2 3 4 5 6 7",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . O . . .",
        ". . O X X . .",
    ])
    assert str(from_moves("4453")) == expected


def test_hand_checked_outcomes() -> None:
    """A vertical win, a diagonal win, a blocked threat and a drawn tiny board."""
    vertical = from_moves("1212121")
    assert vertical.winner == 1 and vertical.is_terminal and vertical.legal_moves() == []
    diagonal = from_moves("12234334544")  # player 1: a1 b2 c3 d4
    assert diagonal.winner == 1
    threat = from_moves("121212")
    assert threat.winning_moves() == [0] and threat.winning_moves(2) == [1]
    tiny = Rules(rows=1, cols=3, connect=3)
    drawn = from_moves("123", tiny)
    assert drawn.is_draw and drawn.winner is None and drawn.legal_moves() == []


@pytest.mark.parametrize(("rows", "cols", "connect"), [
    (6, 10, 4),  # too many columns
    (8, 8, 4),  # 8 x 9 = 72 bits
    (0, 7, 4),
    (6, 0, 4),
    (6, 7, 2),
    (6, 7, 8),  # longer than the board
    (2, 2, 3),
])
def test_rules_outside_the_allowed_space_are_refused(rows: int, cols: int, connect: int) -> None:
    with pytest.raises(InvalidRulesError, match=rf"{rows} x {cols}|connect {connect}"):
        Rules(rows=rows, cols=cols, connect=connect)


@pytest.mark.parametrize("value", [True, 6.0, "6"])
def test_rules_need_whole_numbers(value: object) -> None:
    with pytest.raises(InvalidRulesError, match="rows must be a whole number"):
        Rules(rows=value)  # type: ignore[arg-type]


def test_error_classes_are_value_errors() -> None:
    assert issubclass(MalformedInputError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(MalformedInputError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, MalformedInputError)


@pytest.mark.parametrize(("column", "shown"), [
    (7, "7 is not a column index: expected a whole number from 0 to 6 (columns 1 to 7)"),
    (-1, "-1 is not a column index"), ("3", "'3' is not a column index"),
    (True, "True is not a column index")])
def test_columns_out_of_range_are_malformed(column: object, shown: str) -> None:
    position = from_moves("44")
    with pytest.raises(MalformedInputError) as caught:
        position.play(column)  # type: ignore[arg-type]
    assert shown in str(caught.value)
    assert position.describe() in str(caught.value)


def test_full_column_is_illegal() -> None:
    position = from_moves("111111")
    with pytest.raises(IllegalMoveError, match=r"^column 1 \(index 0\) is full") as caught:
        position.play(0)
    assert position.describe() in str(caught.value)


@pytest.mark.parametrize(("moves", "rules", "outcome"), [
    ("1212121", Rules(), "won"),
    ("123", Rules(rows=1, cols=3, connect=3), "drawn"),
])
def test_no_move_after_the_game_is_over(moves: str, rules: Rules, outcome: str) -> None:
    position = from_moves(moves, rules)
    with pytest.raises(IllegalMoveError, match=rf"^column 2 \(index 1\) cannot be played: "
                                               rf"the game is already {outcome}") as caught:
        position.play(1)
    assert position.describe() in str(caught.value)


def test_numpy_integer_columns_are_accepted() -> None:
    assert Position.empty().play(np.int64(3)) == from_moves("4")  # type: ignore[arg-type]
