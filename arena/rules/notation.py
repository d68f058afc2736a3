"""Conversions between positions and move strings, numpy arrays and Kaggle flat boards.

Move strings are digits with ``1`` = leftmost column; arrays hold 0 (empty), 1 (first
player) and 2 (second player) with row 0 at the bottom; Kaggle ConnectX boards are flat
row-major lists with row 0 at the top. numpy is imported by the conversions to and from
arrays, not with this module (``arena solve`` of a position decided by the next disc needs
none).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from arena.rules.board import DEFAULT_RULES, Position, Rules, has_line
from arena.rules.errors import IllegalMoveError, InvalidPositionError, MalformedInputError

if TYPE_CHECKING:
    import numpy as np

ORD_ONE = ord("1")


def parse_moves(text: str, rules: Rules = DEFAULT_RULES) -> list[int]:
    """The 0-based columns of a move string such as ``"4453"``."""
    columns = [ord(char) - ORD_ONE for char in text]
    limit = min(rules.cols, 9)  # the digits 1 to 9, as many as the board has columns
    if columns and not 0 <= min(columns) <= max(columns) < limit:
        index = next(i for i, col in enumerate(columns) if not 0 <= col < limit)
        raise MalformedInputError(
            f"move string {text!r}: character {index + 1} ({text[index]!r}) is not a column "
            f"1 to {rules.cols}"
        )
    return columns


def format_moves(columns: Iterable[int]) -> str:
    """The move string of a sequence of 0-based columns."""
    return "".join(str(col + 1) for col in columns)


def play_moves(position: Position, columns: Sequence[int], text: str = "") -> Position:
    """Play the columns in order; an illegal one is reported with its place in ``text``."""
    for index, col in enumerate(columns):
        try:
            position = position.play(col)
        except IllegalMoveError as error:
            shown = text or format_moves(columns)
            raise IllegalMoveError(f"move string {shown!r}, move {index + 1}: {error}") from None
    return position


def from_moves(text: str, rules: Rules = DEFAULT_RULES) -> Position:
    """The position reached by playing a move string from the empty board.

    The moves are played on the two bitboards alone, a few times faster than one Position
    a move (``arena solve`` reads a thousand positions in milliseconds): discs stay where
    they fall, so a string that lets nobody complete a line by its end never did so before.
    A full column or a line met on the way is left to ``play_moves``, which says which move
    it was.
    """
    columns = parse_moves(text, rules)
    tops, bottoms = rules.geometry.column_tops, rules.geometry.column_bottoms
    current = mask = 0  # the discs of the side to move, all discs
    for col in columns:
        if mask & tops[col]:
            break
        current ^= mask
        mask |= mask + bottoms[col]
    else:
        if not has_line(current, rules) and not has_line(current ^ mask, rules):
            return Position(rules, current, mask)
    return play_moves(Position.empty(rules), columns, text)


def to_moves(position: Position) -> str:
    """A move string that reaches ``position`` from the empty board (one of possibly many).

    Works backwards, lifting a top disc of the player who moved last, and never passes
    through a position where the game was already won.
    """
    rules = position.rules
    path: list[int] = []
    dead_ends: set[int] = set()

    def unwind(current: int, mask: int) -> bool:
        if not mask:
            return True
        key = current + mask
        if key in dead_ends:
            return False
        mover = current ^ mask  # the player who moved last
        for col, column_bits in enumerate(rules.geometry.columns):
            top = mask & column_bits
            if not top:
                continue
            top_bit = 1 << (top.bit_length() - 1)
            if not top_bit & mover:
                continue
            earlier_mover = current  # the side that moved before the last move
            earlier_mask = mask ^ top_bit
            if has_line(earlier_mover, rules):
                continue
            if unwind(mover ^ top_bit, earlier_mask):
                path.append(col)
                return True
        dead_ends.add(key)
        return False

    if not unwind(position.current, position.mask):
        raise InvalidPositionError(f"no legal game reaches position {position.describe()}")
    return format_moves(path)


def to_array(position: Position) -> np.ndarray:
    """A rows x cols int8 array: 0 empty, 1 first player, 2 second player, row 0 at the bottom."""
    import numpy as np

    rules = position.rules
    board = np.zeros((rules.rows, rules.cols), dtype=np.int8)
    for col in range(rules.cols):
        for row in range(rules.rows):
            board[row, col] = position.cell(col, row)
    return board


def from_array(board: np.ndarray | Sequence[Sequence[int]], connect: int = 4) -> Position:
    """The position drawn by a 2-D array (row 0 = bottom); impossible boards are refused."""
    import numpy as np

    array = np.asarray(board)
    if array.ndim != 2:
        raise MalformedInputError(f"board array must be 2-D, got shape {array.shape}")
    rules = Rules(rows=array.shape[0], cols=array.shape[1], connect=connect)
    if array.dtype.kind not in "biuf" or (array.size and not np.isin(array, (0, 1, 2)).all()):
        bad = [v for v in np.unique(array).tolist() if v not in (0, 1, 2)]
        raise MalformedInputError(f"board array may hold only 0, 1 and 2, found {bad[:5]}")
    first = second = 0
    for col in range(rules.cols):
        column = array[:, col]
        filled = int(np.count_nonzero(column))
        if (column[:filled] == 0).any():  # a gap below a disc
            raise InvalidPositionError(f"board array: column {col + 1} has a floating disc")
        for row in range(filled):
            bit = rules.cell_bit(col, row)
            if column[row] == 1:
                first |= bit
            else:
                second |= bit
    return _position_from_players(first, second, rules, "board array")


def to_flat(position: Position) -> list[int]:
    """The Kaggle ConnectX board: a row-major list with row 0 at the top, marks 1 and 2."""
    import numpy as np

    return [int(v) for v in np.flipud(to_array(position)).ravel()]


def from_flat(board: Sequence[int], rules: Rules = DEFAULT_RULES) -> Position:
    """The position of a Kaggle ConnectX flat board (row 0 at the top)."""
    if len(board) != rules.rows * rules.cols:
        raise MalformedInputError(
            f"flat board has {len(board)} cells, expected {rules.rows * rules.cols} "
            f"for a {rules.rows} x {rules.cols} board"
        )
    import numpy as np

    grid = np.flipud(np.asarray(board).reshape(rules.rows, rules.cols))
    return from_array(grid, connect=rules.connect)


def _position_from_players(first: int, second: int, rules: Rules, source: str) -> Position:
    """Check that the discs of both players can arise in a legal game, and build the position."""
    count_first, count_second = first.bit_count(), second.bit_count()
    if count_first - count_second not in (0, 1):
        raise InvalidPositionError(
            f"{source}: player 1 has {count_first} discs and player 2 has {count_second}; "
            "player 1 moves first, so it must have as many or one more"
        )
    first_won, second_won = has_line(first, rules), has_line(second, rules)
    if first_won and second_won:
        raise InvalidPositionError(f"{source}: both players have {rules.connect} in a row")
    mask = first | second
    side_to_move_stones = first if count_first == count_second else second
    position = Position(rules, side_to_move_stones, mask, first_won or second_won)
    last_mover_won = has_line(side_to_move_stones ^ mask, rules)
    if (first_won or second_won) and not last_mover_won:
        raise InvalidPositionError(
            f"{source}: player {1 if first_won else 2} has {rules.connect} in a row but "
            "the other player moved after that"
        )
    to_moves(position)  # raises when no legal order of moves reaches these discs
    return position
