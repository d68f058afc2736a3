"""The garbage collector around the import of a large library (matplotlib, pandas).

Such a library makes hundreds of thousands of objects that live as long as the process, and
every full collection walks them all: the report's imports triggered one of 0.1 s or more.
``uncollected`` holds the collector off while they are made, then freezes every object so far
(``gc.freeze``) out of the reach of later collections.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def uncollected() -> Iterator[None]:
    """No collection in the block; at its end, every object so far frozen, and the collector
    as it was found."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        gc.freeze()
