"""The time one piece of work has taken, on a terminal: for a command that waits on what it
cannot count (a search), apart from the progress bars of runs (``progress``), so that such a
command (``arena solve``) loads none of their statistics."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def elapsed_line(label: str, enabled: bool = True) -> Iterator[None]:
    """``LABEL 00:12`` on stderr from the block's first second on, redrawn twice a second and
    erased at its end (on a terminal and when enabled): the progress of work that cannot be
    counted, such as one search (the compiled kernels release the GIL to the thread that
    draws it)."""
    if not enabled or not sys.stderr.isatty():
        yield
        return
    from tqdm import tqdm

    done = threading.Event()
    with tqdm(desc=label, bar_format="{desc} {elapsed}", file=sys.stderr, leave=False,
              delay=1) as line:

        def tick() -> None:
            while not done.wait(0.5):
                line.update(0)  # drawn once the delay has passed

        ticker = threading.Thread(target=tick, daemon=True, name="arena elapsed")
        ticker.start()
        try:
            yield
        finally:
            done.set()
            ticker.join()
