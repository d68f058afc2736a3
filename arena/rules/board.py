"""The rules of Connect Four on any board size, and the immutable Position.

A position is two integers used as bitboards, in the layout of the standard solvers: column
``c`` owns bits ``c*(rows+1)`` to ``c*(rows+1) + rows - 1`` (bottom to top) and one empty
sentinel bit above them, so that shifted line tests never wrap from one column into the next.
``current`` holds the discs of the side to move, ``mask`` all discs.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import cache, cached_property

from arena.rules.errors import IllegalMoveError, InvalidRulesError, MalformedInputError

MAX_COLUMNS = 9
PLAIN_DISCS = (".", "X", "O")
"""How the plain text drawing shows an empty cell, player 1 and player 2."""
BITBOARD_BITS = 64


@dataclass(frozen=True)
class Rules:
    """Board size and the number of discs in a row that wins (default 6 x 7, connect 4)."""

    rows: int = 6
    cols: int = 7
    connect: int = 4

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "connect"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRulesError(f"{name} must be a whole number, got {value!r}")
        if self.rows < 1 or not 1 <= self.cols <= MAX_COLUMNS:
            raise InvalidRulesError(
                f"board {self.rows} x {self.cols}: need at least 1 row and 1 to "
                f"{MAX_COLUMNS} columns"
            )
        if self.cols * (self.rows + 1) > BITBOARD_BITS:
            raise InvalidRulesError(
                f"board {self.rows} x {self.cols} does not fit a 64-bit bitboard: "
                f"columns x (rows + 1) = {self.cols * (self.rows + 1)} > {BITBOARD_BITS}"
            )
        if not 3 <= self.connect <= max(self.rows, self.cols):
            raise InvalidRulesError(
                f"connect {self.connect} on a {self.rows} x {self.cols} board: need "
                f"3 <= connect <= {max(self.rows, self.cols)}"
            )

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols} connect {self.connect}"

    @property
    def height(self) -> int:
        """Bits per column: the rows plus the sentinel bit."""
        return self.rows + 1

    @cached_property
    def geometry(self) -> Geometry:
        """The precomputed masks and win lines of this board."""
        return _geometry(self)

    def cell_bit(self, col: int, row: int) -> int:
        """The bit of the cell in column ``col`` and row ``row`` (row 0 = bottom)."""
        return 1 << (col * self.height + row)


DEFAULT_RULES = Rules()


@dataclass(frozen=True)
class Geometry:
    """Masks derived once per board size: bottom row, board cells, columns, win lines."""

    rules: Rules
    bottom: int
    board: int
    column_bottoms: tuple[int, ...]
    column_tops: tuple[int, ...]
    columns: tuple[int, ...]
    directions: tuple[int, ...]
    lines: tuple[int, ...]

    @cached_property
    def line_shifts(self) -> tuple[tuple[tuple[int, ...], int], ...]:
        """Per direction: the shifts that double a run, and the final shift."""
        connect = self.rules.connect
        length = 1
        doublings = []
        while 2 * length <= connect:
            doublings.append(length)
            length *= 2
        if length == connect:  # a power of two: the last doubling becomes the final shift
            length //= 2
            doublings.pop()
        return tuple((tuple(d * step for d in doublings), (connect - length) * step)
                     for step in self.directions)

    @cached_property
    def lines_through_cell(self) -> dict[int, int]:
        """For every cell bit, the number of win lines that pass through it."""
        counts = {}
        for col in range(self.rules.cols):
            for row in range(self.rules.rows):
                bit = self.rules.cell_bit(col, row)
                counts[bit] = sum(1 for line in self.lines if line & bit)
        return counts


@cache
def _geometry(rules: Rules) -> Geometry:
    height = rules.height
    column_bottoms = tuple(1 << (c * height) for c in range(rules.cols))
    full_column = (1 << rules.rows) - 1
    columns = tuple(full_column << (c * height) for c in range(rules.cols))
    board = sum(columns)
    directions = (1, height, height - 1, height + 1)
    lines = []
    for col in range(rules.cols):
        for row in range(rules.rows):
            for dc, dr in ((0, 1), (1, 0), (1, -1), (1, 1)):
                end_col, end_row = col + dc * (rules.connect - 1), row + dr * (rules.connect - 1)
                if 0 <= end_col < rules.cols and 0 <= end_row < rules.rows:
                    lines.append(
                        sum(rules.cell_bit(col + dc * i, row + dr * i)
                            for i in range(rules.connect))
                    )
    return Geometry(
        rules=rules,
        bottom=sum(column_bottoms),
        board=board,
        column_bottoms=column_bottoms,
        column_tops=tuple(1 << (c * height + rules.rows - 1) for c in range(rules.cols)),
        columns=columns,
        directions=directions,
        lines=tuple(lines),
    )


def has_line(stones: int, rules: Rules) -> bool:
    """True if ``stones`` holds ``connect`` discs in a row in any direction."""
    for doublings, rest in rules.geometry.line_shifts:
        # run has bit x set when x starts a run of 1, 2, 4, ... discs; the last shift
        # overlaps two runs to cover a connect that is not a power of two.
        run = stones
        for shift in doublings:
            run &= run >> shift
        if run & (run >> rest):
            return True
    return False


def threat_cells(stones: int, mask: int, rules: Rules) -> int:
    """The empty cells that would give ``stones`` a line of ``connect`` if filled."""
    geometry = rules.geometry
    k = rules.connect
    cells = 0
    for step in geometry.directions:
        # below[j]: cells x with stones at x - step ... x - j*step; above[j] likewise upwards.
        below, above = [-1], [-1]
        for i in range(1, k):
            below.append(below[-1] & (stones << (i * step)))
            above.append(above[-1] & (stones >> (i * step)))
        for gap in range(k):
            cells |= below[gap] & above[k - 1 - gap]
    return cells & geometry.board & ~mask


def _column_index(col: object) -> int | None:
    """``col`` as a plain int (Python and numpy integers), or None if it is not one."""
    if isinstance(col, bool):
        return None
    try:
        return operator.index(col)  # type: ignore[arg-type]
    except TypeError:
        return None


def _bits_to_columns(bits: int, rules: Rules) -> list[int]:
    return [c for c, column in enumerate(rules.geometry.columns) if bits & column]


@dataclass(frozen=True)
class Position:
    """An immutable game position; ``play`` returns a new one.

    Players are numbered 1 (moves first) and 2. ``won`` is True when the player who moved
    last completed a line; positions are built by ``Position.empty``, ``play`` and the
    converters in ``arena.rules.notation``, which keep it right.
    """

    rules: Rules
    current: int
    mask: int
    won: bool = field(default=False, compare=False)

    @classmethod
    def empty(cls, rules: Rules = DEFAULT_RULES) -> Position:
        """The empty board."""
        return cls(rules, 0, 0)

    @property
    def plies(self) -> int:
        """Number of discs on the board."""
        return self.mask.bit_count()

    @property
    def side_to_move(self) -> int:
        """1 if the first player is to move, else 2."""
        return 1 + self.plies % 2

    @property
    def winner(self) -> int | None:
        """The player who has a line, or None."""
        return 3 - self.side_to_move if self.won else None

    @property
    def is_full(self) -> bool:
        """True when no empty cell is left."""
        return self.mask == self.rules.geometry.board

    @property
    def is_draw(self) -> bool:
        """True when the board is full and nobody has a line."""
        return self.is_full and not self.won

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.won or self.is_full

    def stones(self, player: int) -> int:
        """The bitboard of player 1 or player 2."""
        if player == self.side_to_move:
            return self.current
        return self.current ^ self.mask

    def can_play(self, col: int) -> bool:
        """True if a disc may be dropped in column ``col`` now."""
        index = _column_index(col)
        return (
            index is not None
            and 0 <= index < self.rules.cols
            and not self.is_terminal
            and not self.mask & self.rules.geometry.column_tops[index]
        )

    def legal_moves(self) -> list[int]:
        """The columns that may be played, left to right (none when the game is over)."""
        if self.won:
            return []
        tops = self.rules.geometry.column_tops
        return [c for c in range(self.rules.cols) if not self.mask & tops[c]]

    def play(self, col: int) -> Position:
        """The position after the side to move drops a disc in column ``col`` (0-based).

        Errors name columns as move strings do (1 = leftmost), the index ``col`` beside."""
        rules = self.rules
        index = _column_index(col)
        if index is None or not 0 <= index < rules.cols:
            raise MalformedInputError(
                f"{col!r} is not a column index: expected a whole number from 0 to "
                f"{rules.cols - 1} (columns 1 to {rules.cols}) in position {self.describe()}"
            )
        col = index
        if self.is_terminal:
            outcome = "won" if self.won else "drawn"
            raise IllegalMoveError(
                f"column {col + 1} (index {col}) cannot be played: the game is already "
                f"{outcome} in position {self.describe()}"
            )
        geometry = rules.geometry
        if self.mask & geometry.column_tops[col]:
            raise IllegalMoveError(
                f"column {col + 1} (index {col}) is full in position {self.describe()}"
            )
        mask = self.mask | (self.mask + geometry.column_bottoms[col])
        mover = self.current | (mask ^ self.mask)
        return Position(rules, mover ^ mask, mask, has_line(mover, rules))

    def playable_cells(self) -> int:
        """The cell each non-full column would receive next, as one bitboard."""
        geometry = self.rules.geometry
        return (self.mask + geometry.bottom) & geometry.board

    def winning_moves(self, player: int | None = None) -> list[int]:
        """Columns where ``player`` (default: the side to move) would complete a line now."""
        if player not in (None, 1, 2):
            raise MalformedInputError(f"player must be 1 or 2, got {player!r}")
        if self.is_terminal:
            return []
        stones = self.stones(player or self.side_to_move)
        cells = threat_cells(stones, self.mask, self.rules) & self.playable_cells()
        return _bits_to_columns(cells, self.rules)

    def winning_cells(self) -> list[tuple[int, int]]:
        """The (column, row) cells of every completed line of the winner; empty if none."""
        if not self.won:
            return []
        rules, stones = self.rules, self.current ^ self.mask  # the last mover won
        cells = 0
        for line in rules.geometry.lines:
            if line & stones == line:
                cells |= line
        return [(c, r) for c in range(rules.cols) for r in range(rules.rows)
                if cells & rules.cell_bit(c, r)]

    def key(self) -> int:
        """An integer unique to this position on its board (discs of both players)."""
        return self.current + self.mask

    def mirror(self) -> Position:
        """The position reflected left to right."""
        height, cols = self.rules.height, self.rules.cols
        column_bits = (1 << height) - 1

        def reflect(bits: int) -> int:
            return sum(((bits >> (c * height)) & column_bits) << ((cols - 1 - c) * height)
                       for c in range(cols))

        return Position(self.rules, reflect(self.current), reflect(self.mask), self.won)

    def cell(self, col: int, row: int) -> int:
        """0 for an empty cell, else the player (1 or 2) whose disc is there."""
        bit = self.rules.cell_bit(col, row)
        if not self.mask & bit:
            return 0
        return self.side_to_move if self.current & bit else 3 - self.side_to_move

    def describe(self) -> str:
        """A one-line description: board size, discs and side to move."""
        rows = "/".join(
            "".join(".xo"[self.cell(c, r)] for c in range(self.rules.cols))
            for r in reversed(range(self.rules.rows))
        )
        return f"[{self.rules}, rows top to bottom {rows}, player {self.side_to_move} to move]"

    def __str__(self) -> str:
        """The board in plain text: column numbers above, X for player 1, O for player 2."""
        cols = self.rules.cols
        lines = [" ".join(str(c + 1) for c in range(cols))]
        for row in reversed(range(self.rules.rows)):
            lines.append(" ".join(PLAIN_DISCS[self.cell(c, row)] for c in range(cols)))
        return "\n".join(lines)
