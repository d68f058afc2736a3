"""Progress bars of the commands that work through positions or games."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(total: int, label: str, enabled: bool, unit: str = "position",
                 initial: int = 0) -> Iterator[Callable[[int], None]]:
    """A tqdm bar on stderr with the time left (on a terminal and when enabled); yields the
    function that advances it."""
    if not enabled or not sys.stderr.isatty():
        yield lambda done: None
        return
    from tqdm import tqdm

    with tqdm(total=total, initial=initial, desc=label, unit=unit, file=sys.stderr,
              dynamic_ncols=True, smoothing=0.1) as bar:

        def advance(done: int) -> None:
            bar.update(done)

        yield advance
