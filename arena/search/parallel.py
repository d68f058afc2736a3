"""Several threads on one position: the solver's null-window searches, different windows at once.

The exact score is found by null-window searches: each tells whether the score is above or
at most a ``middle``, and narrows the bounds ``[low, high]`` until they meet. With several
threads, each searches a different window between the current bounds at the same time; what
one finds narrows the bounds for all, and a thread whose window no longer lies between them
is stopped and takes another. The first window is the one-thread search's own; each further
thread takes, of the windows that would come next whichever way the running ones end, the
one nearest 0 (where most scores lie).

All threads read and write the solver's one transposition table (the kernels release the
GIL). Sharing it is safe: a table row is one 8-byte word that names its position, and what it
holds is a fact about that position (a bound of its score), so a row one thread overwrites, or
reads while another writes its bucket, is at worst a lost fact, never a wrong one; so each
window's answer is a true bound and the score found is exact, whatever the timing. A thread
has its own move slots and node counter (a ``Lane``); a search whose node counter is past its
limit stops at once and stores nothing more, so a thread is stopped by lowering its limit.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from arena.search.kernels import solver as kernels

NO_LIMIT = np.iinfo(np.int64).max
STOP = -1  # a node limit that every search has passed


class Lane(NamedTuple):
    """One thread's move slots (``kernels.new_scratch``) and node counter
    (``kernels.new_stats``)."""

    scratch: np.ndarray
    stats: np.ndarray


def new_lanes(count: int, cells: int) -> list[Lane]:
    """``count`` lanes for a board of ``cells`` cells."""
    return [Lane(kernels.new_scratch(cells), kernels.new_stats()) for _ in range(count)]


def next_window(low: int, high: int, running: list[int]) -> int | None:
    """The window (its ``middle``) to search next when the score lies in ``[low, high]``
    and the windows ``running`` are being searched (None if every window between the
    bounds is): the one-thread search's next window, else the nearest one beside it not
    yet searched, above first. Two threads thus end on the last two windows together."""
    if low >= high:
        return None
    anchor = int(kernels.next_probe(low, high))
    for distance in range(high - low):
        for middle in (anchor + distance, anchor - distance):
            if low <= middle < high and middle not in running:
                return middle
    return None


class _Search:
    """The bounds of one position's score and the windows being searched, shared by the
    threads (under ``lock``)."""

    def __init__(self, low: int, high: int, lanes: list[Lane]):
        self.low = low
        self.high = high
        self.lanes = lanes
        self.running: dict[int, int] = {}  # lane -> middle of its window
        self.nodes = 0
        self.changed = threading.Condition()

    def take(self, lane: int) -> int | None:
        """The window for ``lane`` to search next, None once the score is known; waits
        while every useful window is being searched. The caller holds ``changed``."""
        while self.low < self.high:
            middle = next_window(self.low, self.high, list(self.running.values()))
            if middle is not None:
                stats = self.lanes[lane].stats
                stats[kernels.NODES] = 0
                stats[kernels.LIMIT] = NO_LIMIT
                self.running[lane] = middle
                return middle
            self.changed.wait()
        return None

    def finish(self, lane: int, score: int) -> None:
        """Narrow the bounds by what ``lane``'s window found (unless it was stopped) and
        stop the windows that no longer lie between them. The caller holds ``changed``."""
        middle = self.running.pop(lane)
        stats = self.lanes[lane].stats
        self.nodes += int(stats[kernels.NODES])
        if stats[kernels.NODES] <= stats[kernels.LIMIT]:
            if score <= middle:
                self.high = min(self.high, score)
            else:
                self.low = max(self.low, score)
            for other, window in self.running.items():
                if not self.low <= window < self.high:
                    self.lanes[other].stats[kernels.LIMIT] = STOP
        self.changed.notify_all()


def solve_in_lanes(current: int, mask: int, low: int, high: int, lanes: list[Lane],
                   arguments: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
                   ) -> tuple[int, int]:
    """The exact score of a position, known to lie in ``[low, high]``, that the side to move
    cannot win at once on a board that is not full, searched by one thread per lane; and the
    nodes searched in all. ``arguments``: the kernels' board array, table, book keys, book
    scores and book depth."""
    packed, table, book_keys, book_scores, book_depth = arguments
    search = _Search(low, high, lanes)
    cur, board = np.uint64(current), np.uint64(mask)

    def run(lane: int) -> None:
        scratch, stats = lanes[lane]
        while True:
            with search.changed:
                middle = search.take(lane)
            if middle is None:
                return
            score = kernels.probe(cur, board, middle, packed, table, scratch, stats, book_keys,
                                  book_scores, book_depth)
            with search.changed:
                search.finish(lane, int(score))

    threads = [threading.Thread(target=run, args=(lane,), daemon=True, name=f"solver-{lane}")
               for lane in range(len(lanes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return search.low, search.nodes
