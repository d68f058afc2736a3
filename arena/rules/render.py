"""Text drawings of a position: X for player 1 and O for player 2, in colour on terminals.

The symbols alone tell the players apart, so a board reads in logs, in files and on
terminals without colour; colour (red X, yellow O on a blue board, the winning line on
green) is added where the terminal shows it. The disc of the last move, when given, is
marked with brackets, ``[X]``, in both.
"""

from __future__ import annotations

import os
import sys

from arena.rules.board import Position

RESET = "\033[0m"
FRAME = "\033[1;37;44m"  # bold white on blue: the board and its column numbers
COLOURED_DISCS = (
    "\033[37;44m \u00b7 ",  # empty cell: a dot on blue
    "\033[1;91;44m X ",  # player 1: bright red X
    "\033[1;93;44m O ",  # player 2: bright yellow O
)
WINNING_BACKGROUND = "42"  # green behind the discs of the winning line


def top_row(position: Position, col: int) -> int:
    """The row of the highest disc in column ``col`` (0 is the bottom row), which has one."""
    return max(row for row in range(position.rules.rows) if position.cell(col, row))


def render_plain(position: Position, last: int | None = None) -> str:
    """The board in plain text: column numbers above, X for player 1, O for player 2; with
    ``last`` (the column of the last move) its disc in brackets, every line one space in."""
    lines = str(position).splitlines()
    if last is None:
        return "\n".join(lines)
    marked = position.rules.rows - top_row(position, last)  # lines[0] holds the numbers
    padded = [f" {line} " for line in lines]
    line = padded[marked]
    padded[marked] = line[:2 * last] + "[" + line[2 * last + 1] + "]" + line[2 * last + 3:]
    return "\n".join(line.rstrip() for line in padded)


def render_coloured(position: Position, last: int | None = None) -> str:
    """The board with ANSI colours and column numbers above; the winning line on green, the
    disc of ``last`` (the column of the last move, when given) in brackets."""
    rules = position.rules
    winning = set(position.winning_cells())
    marked = None if last is None else (last, top_row(position, last))
    header = FRAME + "".join(f" {c + 1} " for c in range(rules.cols)) + RESET
    lines = [header]
    for row in reversed(range(rules.rows)):
        cells = []
        for col in range(rules.cols):
            cell = COLOURED_DISCS[position.cell(col, row)]
            if (col, row) in winning:
                cell = cell.replace(";44m", f";{WINNING_BACKGROUND}m")
            if (col, row) == marked:
                cell = f"{cell[:-3]}[{cell[-2]}]"
            cells.append(cell)
        lines.append("".join(cells) + RESET)
    return "\n".join(lines)


def stdout_has_colour() -> bool:
    """True when standard output is a terminal that shows colour (no NO_COLOR, no dumb TERM)."""
    return (sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


def render_for_stdout(position: Position, last: int | None = None) -> str:
    """The coloured board when standard output shows colour, else the plain one (``last``:
    the column of the last move, whose disc is marked)."""
    return (render_coloured(position, last) if stdout_has_colour()
            else render_plain(position, last))
