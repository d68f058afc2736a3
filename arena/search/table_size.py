"""The size of the solver's transposition table: its default and minimum, and the checks of
a size asked for (``--table-mb``), without the kernels: a command checks its options before it
loads the kernels, and may never need them."""

from __future__ import annotations

import math

from arena.rules.errors import ArenaError
from arena.system.processes import physical_memory

DEFAULT_TABLE_MB = 64
MIN_TABLE_BITS = 21
"""log2 of the fewest rows a table may have: the kernel's ``MIN_TABLE_BITS``
(``arena.search.kernels.solver``, which this module does not import; a test checks they agree)."""
MIN_TABLE_MB = 8 << MIN_TABLE_BITS >> 20  # 16 MB
MEMORY_SHARE = 2
"""A table may take at most 1 / MEMORY_SHARE of the machine's memory (per process)."""


class TableSizeError(ArenaError):
    """A transposition table size the solver cannot have: below its minimum, or more than
    the machine's memory allows."""


def max_table_mb() -> float | None:
    """The largest table (megabytes) one process may ask for: half the machine's memory
    (None where the system does not say how much it has)."""
    memory = physical_memory()
    return None if memory is None else memory / MEMORY_SHARE / (1 << 20)


def table_bits(table_mb: float) -> int:
    """log2 of the most 8-byte rows that fit in ``table_mb`` megabytes (at least the minimum,
    at most ``max_table_mb``); TableSizeError otherwise."""
    if not table_mb >= MIN_TABLE_MB:
        raise TableSizeError(f"the solver's table needs at least {MIN_TABLE_MB} MB, got "
                             f"{table_mb:g}")
    most = max_table_mb()
    if most is not None and table_mb > most:
        raise TableSizeError(
            f"a solver table of {table_mb:.0f} MB (--table-mb) is more than this machine holds: "
            f"at most {most:.0f} MB, half of its {most * MEMORY_SHARE:.0f} MB of memory")
    return int(math.log2(table_mb * (1 << 20) / 8))
