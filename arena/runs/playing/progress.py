"""Progress bars: of runs (in a terminal on stderr, in Jupyter as tqdm's notebook bar), and of
the commands that work through positions or games."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any, Self

from arena.stats.tally import Tally


def in_notebook() -> bool:
    """True in a Jupyter kernel, where tqdm draws its bar as a notebook widget (the test of
    ``tqdm.autonotebook``, without importing IPython)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def seen() -> bool:
    """Whether a run's bar would be seen: stderr is a terminal, or the bar is a notebook
    widget (stderr written to a file or a pipe gets no bar)."""
    return (sys.stderr is not None and sys.stderr.isatty()) or in_notebook()


class ProgressBar:
    """A progress bar (tqdm's, a notebook widget in Jupyter, else on stderr when it is a
    terminal): games done, games per second, time left, and the wins, ties and losses of
    agent A in the games played by this call."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.tally = Tally()
        self.finished = 0
        self._bar: Any = None

    def start(self, total: int, finished: int) -> None:
        """Open the bar at the games already played."""
        self.finished = finished
        if self.enabled and seen():
            from tqdm.auto import tqdm  # imported only for a bar shown

            self._bar = tqdm(total=total, initial=finished, unit="game", file=sys.stderr,
                             dynamic_ncols=True, smoothing=0.1)

    def advance(self, games: int, tally: Tally) -> None:
        """Count ``games`` finished games, with agent A's ``tally`` of them."""
        self.tally += tally
        self.finished += games
        if self._bar is not None:
            self._bar.set_postfix_str(self.wtl_text(), refresh=False)
            self._bar.update(games)

    def stopping(self) -> None:
        """Say at once, on stderr, that the run stops after the games in progress (called from
        a signal handler: a terminal's stderr is written past Python's buffers, which a write
        under way may hold)."""
        line = "arena: stopping after the games in progress (Ctrl-C again to stop at once)\n"
        if self._bar is not None:
            line = "\n" + line  # below the bar
        stream = sys.stderr
        direct = stream is sys.__stderr__
        if direct:
            with suppress(AttributeError, OSError, ValueError):
                os.write(stream.fileno(), line.encode())
                return
        stream.write(line)
        stream.flush()

    def wtl_text(self) -> str:
        """Agent A's wins, draws and losses so far, as the bar shows them."""
        return "W/D/L {}/{}/{}".format(*self.tally.wtl)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.close()


class TournamentProgressBar(ProgressBar):
    """The match's progress bar without A's wins, ties and losses, which mean nothing summed
    over the pairings of a tournament."""

    def advance(self, games: int, tally: Tally) -> None:
        """Count ``games`` finished games."""
        self.finished += games
        if self._bar is not None:
            self._bar.update(games)


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
