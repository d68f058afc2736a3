"""Several threads on one position: the solver's null-window searches, different windows at once
and one window split between threads.

The exact score is found by null-window searches: each tells whether the score is above or
at most a ``middle``, and narrows the bounds ``[low, high]`` until they meet. With several
threads, each searches a different window between the current bounds at the same time; what
one finds narrows the bounds for all, and a thread whose window no longer lies between them
is stopped and takes another. The first window is the one-thread search's own; a further
thread takes the nearest one beside it, so that two threads end on the last two windows
(the score and the one below) together. Given several positions (the children of a
position, for the score of each column), an idle thread takes the next one-thread window
of the first position that has one free, and only then a window beside a running one. A
thread left with no free window joins a running one, and the threads on one window split its
tree between them (``kernels.probe``, after ABDADA): at every node far enough from the end of
the game, each move but the first is marked busy while a thread searches it, and a thread
that comes to a move another one has marked leaves it until its other moves are done, by
when the table mostly holds its bound. Each window has marks of its own: a thread does not
put off a move for a thread that searches another window, whose bound would not answer its
own. The first thread to finish the window stops the others.

Each thread's search runs in the compiled core (``kernels.probe``,
``arena/search/core/solver.hpp``), which releases the GIL while it searches, so the threads run
at once. All threads read and write the solver's one transposition table: the core reads and
writes its rows, the busy marks and the node limit whole, with relaxed atomics. Sharing it is
safe: a table row is one 8-byte word that names its position, and what it holds is a fact about
that position (a bound of its score), so a row one thread overwrites, or reads while another
writes its bucket, is at worst a lost fact, never a wrong one; so each window's answer is a true
bound and the score found is exact, whatever the timing. The busy marks only change the order in
which a thread tries its moves, never what it finds. A thread has its own move slots and node
counter (a ``Lane``); a search whose node counter is past its limit stops at once and stores
nothing more, so a thread is stopped by lowering its limit.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from arena.search.kernels import solver as kernels

NO_LIMIT = np.iinfo(np.int64).max
STOP = -1  # a node limit that every search has passed
SPLIT_EMPTIES = 12  # the nodes with at least this many empty cells share their moves
BUSY_BITS = 14  # a window's busy marks: 2**14 rows, many more than its threads mark at once


class Lane(NamedTuple):
    """One thread's move slots (``kernels.new_scratch``) and node counter
    (``kernels.new_stats``)."""

    scratch: np.ndarray
    stats: np.ndarray


STATS_STRIDE = 16  # int64s between two lanes' node counters: never one cache line


def new_lanes(count: int, cells: int) -> list[Lane]:
    """``count`` lanes for a board of ``cells`` cells (their node counters, written at every
    node, on cache lines of their own)."""
    counters = np.zeros((count, STATS_STRIDE), dtype=np.int64)
    counters[:, : len(kernels.new_stats())] = kernels.new_stats()
    return [Lane(kernels.new_scratch(cells), counters[lane, : len(kernels.new_stats())])
            for lane in range(count)]


def windows(low: int, high: int) -> list[int]:
    """The windows (their ``middle``) between the bounds ``[low, high]`` in the order
    threads take them: the one-thread search's next window, then the nearest ones beside
    it, the one above first."""
    if low >= high:
        return []
    anchor = int(kernels.next_probe(low, high))
    order = sorted(range(low, high), key=lambda m: (abs(m - anchor), m < anchor))
    return order


class Task(NamedTuple):
    """A position to solve: its two bitboards and known bounds of its score. The side to
    move must not be able to win at once, and the board must not be full."""

    current: int
    mask: int
    low: int
    high: int


class _Search:
    """The bounds of each task's score and the windows being searched, shared by the
    threads (under ``changed``)."""

    def __init__(self, tasks: list[Task], lanes: list[Lane]):
        self.lows = [task.low for task in tasks]
        self.highs = [task.high for task in tasks]
        self.lanes = lanes
        self.running: dict[int, tuple[int, int]] = {}  # lane -> task, middle of its window
        self.marks: dict[tuple[int, int], np.ndarray] = {}  # the busy marks of each window
        self.nodes = 0
        self.abandoned = False
        self.changed = threading.Condition()

    def _pick(self) -> tuple[int, int] | None:
        """The task and window to search next: a free one, else the running one with the
        fewest threads (None once every score is known)."""
        best: tuple[int, int, int] | None = None  # rank, task, middle
        for task, (low, high) in enumerate(zip(self.lows, self.highs, strict=True)):
            busy = {m for t, m in self.running.values() if t == task}
            for rank, middle in enumerate(windows(low, high)):
                if middle not in busy:
                    if best is None or rank < best[0]:
                        best = rank, task, middle
                    break
        if best is None and self.running:
            shared = list(self.running.values())
            return min(shared, key=shared.count)
        return None if best is None else best[1:]

    def take(self, lane: int) -> tuple[int, int] | None:
        """The task and window for ``lane`` to search next, None once every score is known;
        a thread with no free window joins a running one. The caller holds ``changed``."""
        while not self.abandoned and any(
                low < high for low, high in zip(self.lows, self.highs, strict=True)):
            pick = self._pick()
            if pick is not None:
                stats = self.lanes[lane].stats
                stats[kernels.NODES] = 0
                stats[kernels.LIMIT] = NO_LIMIT
                self.running[lane] = pick
                if pick not in self.marks:
                    self.marks[pick] = np.zeros(1 << BUSY_BITS, dtype=np.uint64)
                return pick
            self.changed.wait()
        return None

    def finish(self, lane: int, score: int) -> None:
        """Narrow the task's bounds by what ``lane``'s window found (unless it was stopped)
        and stop the windows that no longer lie between them. The caller holds
        ``changed``."""
        task, middle = self.running.pop(lane)
        if (task, middle) not in self.running.values():  # no thread searches it any more
            del self.marks[task, middle]
        stats = self.lanes[lane].stats
        self.nodes += int(stats[kernels.NODES])
        if stats[kernels.NODES] <= stats[kernels.LIMIT]:
            if score <= middle:
                self.highs[task] = min(self.highs[task], score)
            else:
                self.lows[task] = max(self.lows[task], score)
            for other, (searched, window) in self.running.items():
                if searched == task and not self.lows[task] <= window < self.highs[task]:
                    self.lanes[other].stats[kernels.LIMIT] = STOP
        self.changed.notify_all()

    def abandon(self) -> None:
        """Stop every thread now (the caller was interrupted). The caller holds
        ``changed``."""
        self.abandoned = True
        for lane in self.running:
            self.lanes[lane].stats[kernels.LIMIT] = STOP
        self.changed.notify_all()


def solve_in_lanes(tasks: list[Task], lanes: list[Lane],
                   arguments: tuple[np.ndarray, np.ndarray, kernels.Books]
                   ) -> tuple[list[int], int]:
    """The exact score of every task, searched by one thread per lane, and the nodes
    searched in all. ``arguments``: the kernels' board array, table and books."""
    packed, table, books = arguments
    search = _Search(tasks, lanes)
    errors: list[Exception] = []

    def run(lane: int) -> None:
        scratch, stats = lanes[lane]
        while True:
            with search.changed:
                pick = search.take(lane)
                if pick is None:
                    return
                busy = search.marks[pick]
            task = tasks[pick[0]]
            try:
                score = kernels.probe(np.uint64(task.current), np.uint64(task.mask), pick[1],
                                      SPLIT_EMPTIES, packed, table, busy, scratch, stats,
                                      books)
            except Exception as error:  # noqa: BLE001 - raised by the caller; the rest stop
                errors.append(error)
                with search.changed:
                    search.abandon()
                return
            with search.changed:
                search.finish(lane, int(score))

    threads = [threading.Thread(target=run, args=(lane,), daemon=True, name=f"solver-{lane}")
               for lane in range(len(lanes))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:  # Ctrl-C: the threads stop too, before the error goes on
        with search.changed:
            search.abandon()
        for thread in threads:
            thread.join()
        raise
    if errors:
        raise errors[0]
    return search.lows, search.nodes
