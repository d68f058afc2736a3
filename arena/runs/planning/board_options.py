"""The board's options, declared once: ``--rows``, ``--cols`` and ``--connect`` of every
command on a board, the keys ``rows``, ``cols`` and ``connect`` of experiment files, together
``RunRequest.rules``. Apart from the run's other options (``request.REQUEST_OPTIONS``) so that
a command that only needs a board loads nothing of a run."""

from __future__ import annotations

from arena.rules.board import DEFAULT_RULES
from arena.system.options import Option, whole

BOARD_OPTIONS: tuple[Option, ...] = (
    Option("rows", ("--rows",), "Board rows.", whole(), DEFAULT_RULES.rows, show_default=True,
           field="rules"),
    Option("cols", ("--cols",), "Board columns (at most 9; columns x (rows + 1) <= 64).",
           whole(), DEFAULT_RULES.cols, show_default=True, field="rules"),
    Option("connect", ("--connect",), "Discs in a row that win (3 to max(rows, cols)).",
           whole(), DEFAULT_RULES.connect, show_default=True, field="rules"),
)
"""The board's options (``RunRequest.rules``), its default ``DEFAULT_RULES``."""
