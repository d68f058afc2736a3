"""A plain text table for the benchmark scripts' output."""

from __future__ import annotations

from collections.abc import Sequence


def aligned(rows: Sequence[Sequence[str]]) -> str:
    """The rows as lines of columns two spaces apart: the first column to the left, the
    others to the right, each as wide as its widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                               for i, (cell, width) in enumerate(zip(row, widths, strict=True)))
                     for row in rows)
