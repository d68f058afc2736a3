"""Where things are in the window, in pixels: the hover strip, the board, hints, status, buttons.

From top to bottom: a strip where the person's disc follows the mouse, the board, a strip
of hint scores (only with an oracle), the status line and a row of buttons. Cells shrink so
that every board the project supports fits on a screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.rules.board import Rules

MAX_CELL = 88
MIN_CELL = 10
MAX_BOARD_WIDTH = 720
MAX_BOARD_HEIGHT = 640
MIN_WIDTH = 480
LINE = 36  # height of the status line and of the button row
MARGIN = 8
BUTTON_LABELS = {"undo": "Undo (U)", "new": "New game (N)", "hints": "Hints (H)"}

Box = tuple[int, int, int, int]  # left, top, width, height


@dataclass(frozen=True)
class Layout:
    """The pixel geometry of the window for one board; ``hints`` reserves the hint strip."""

    rules: Rules
    cell: int
    hints: bool = False

    @classmethod
    def fit(cls, rules: Rules, hints: bool = False) -> Layout:
        """The layout with the largest cells that keep the board within its bounds."""
        cell = min(MAX_CELL, MAX_BOARD_WIDTH // rules.cols,
                   MAX_BOARD_HEIGHT // (rules.rows + 1))
        return cls(rules, max(MIN_CELL, cell), hints)

    @property
    def board_width(self) -> int:
        """Width of the board in pixels."""
        return self.rules.cols * self.cell

    @property
    def width(self) -> int:
        """Width of the window."""
        return max(MIN_WIDTH, self.board_width + 2 * MARGIN)

    @property
    def board_left(self) -> int:
        """x of the board's left edge (the board is centred)."""
        return (self.width - self.board_width) // 2

    @property
    def board_top(self) -> int:
        """y of the board's top edge, below the hover strip."""
        return self.cell

    @property
    def hint_top(self) -> int:
        """y of the hint strip, just below the board."""
        return self.board_top + self.rules.rows * self.cell

    @property
    def hint_height(self) -> int:
        """Height of the hint strip (0 without an oracle)."""
        return max(LINE, self.cell // 2) if self.hints else 0

    @property
    def status_top(self) -> int:
        """y of the status line."""
        return self.hint_top + self.hint_height + MARGIN // 2

    @property
    def height(self) -> int:
        """Height of the window."""
        return self.status_top + 2 * LINE + MARGIN

    @property
    def radius(self) -> int:
        """Radius of a disc."""
        return max(3, self.cell * 21 // 50)

    def column_at(self, x: int) -> int | None:
        """The column under the x coordinate, or None beside the board."""
        if not self.board_left <= x < self.board_left + self.board_width:
            return None
        return (x - self.board_left) // self.cell

    def column_centre_x(self, column: int) -> int:
        """x of the centre of a column."""
        return self.board_left + column * self.cell + self.cell // 2

    def cell_centre(self, column: int, row: int) -> tuple[int, int]:
        """The centre of a cell (row 0 = bottom)."""
        top = self.board_top + (self.rules.rows - 1 - row) * self.cell
        return self.column_centre_x(column), top + self.cell // 2

    def hover_centre(self, column: int) -> tuple[int, int]:
        """Where the person's disc hangs above a column."""
        return self.column_centre_x(column), self.cell // 2

    def hint_centre(self, column: int) -> tuple[int, int]:
        """Where a column's hint score is written."""
        return self.column_centre_x(column), self.hint_top + self.hint_height // 2

    def in_play_area(self, y: int) -> bool:
        """True for a y in the hover strip or on the board, where a click drops a disc."""
        return 0 <= y < self.hint_top

    def buttons(self) -> dict[str, Box]:
        """The boxes of the buttons, left to right, in the row under the status line."""
        names = [name for name in BUTTON_LABELS if name != "hints" or self.hints]
        width = (self.width - MARGIN * (len(names) + 1)) // len(names)
        top = self.status_top + LINE
        return {name: (MARGIN + index * (width + MARGIN), top, width, LINE - 4)
                for index, name in enumerate(names)}

    def button_at(self, x: int, y: int) -> str | None:
        """The button under a point, or None."""
        for name, (left, top, width, height) in self.buttons().items():
            if left <= x < left + width and top <= y < top + height:
                return name
        return None
