"""Text drawings of a position: X for player 1 and O for player 2, in colour on terminals.

The symbols alone tell the players apart, so a board reads in logs, in files and on
terminals without colour; colour (red X, yellow O on a blue board, the winning line on
green) is added where the terminal shows it.
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


def render_plain(position: Position) -> str:
    """The board in plain text: column numbers above, X for player 1, O for player 2."""
    return str(position)


def render_coloured(position: Position) -> str:
    """The board with ANSI colours and column numbers above; the winning line on green."""
    rules = position.rules
    winning = set(position.winning_cells())
    header = FRAME + "".join(f" {c + 1} " for c in range(rules.cols)) + RESET
    lines = [header]
    for row in reversed(range(rules.rows)):
        cells = []
        for col in range(rules.cols):
            cell = COLOURED_DISCS[position.cell(col, row)]
            if (col, row) in winning:
                cell = cell.replace(";44m", f";{WINNING_BACKGROUND}m")
            cells.append(cell)
        lines.append("".join(cells) + RESET)
    return "\n".join(lines)


def stdout_has_colour() -> bool:
    """True when standard output is a terminal that shows colour (no NO_COLOR, no dumb TERM)."""
    return (sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb")


def render_for_stdout(position: Position) -> str:
    """The coloured board when standard output shows colour, else the plain one."""
    return render_coloured(position) if stdout_has_colour() else render_plain(position)
