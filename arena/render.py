"""Text drawings of a position: plain for logs and files, coloured for terminals."""

from __future__ import annotations

import sys

from arena.board import Position

PLAIN_DISCS = (".", "X", "O")
RESET = "\033[0m"
FRAME = "\033[1;37;44m"  # bold white on blue: the board and its column numbers
COLOURED_DISCS = (
    "\033[34;44m \u25cf ",  # empty cell: blue on blue
    "\033[1;31;44m \u25cf ",  # player 1: red
    "\033[1;33;44m \u25cf ",  # player 2: yellow
)


def render_plain(position: Position) -> str:
    """The board in plain text: column numbers above, X for player 1, O for player 2."""
    rules = position.rules
    lines = [" ".join(str(c + 1) for c in range(rules.cols))]
    for row in reversed(range(rules.rows)):
        lines.append(" ".join(PLAIN_DISCS[position.cell(c, row)] for c in range(rules.cols)))
    return "\n".join(lines)


def render_coloured(position: Position) -> str:
    """The board with ANSI colours (red player 1, yellow player 2) and column numbers above."""
    rules = position.rules
    header = FRAME + "".join(f" {c + 1} " for c in range(rules.cols)) + RESET
    lines = [header]
    for row in reversed(range(rules.rows)):
        cells = "".join(COLOURED_DISCS[position.cell(c, row)] for c in range(rules.cols))
        lines.append(cells + RESET)
    return "\n".join(lines)


def render_for_stdout(position: Position) -> str:
    """The coloured board when standard output is a terminal, else the plain one."""
    return render_coloured(position) if sys.stdout.isatty() else render_plain(position)
