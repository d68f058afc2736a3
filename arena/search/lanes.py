"""Several threads on one solver's table: positions searched at once, each by a lane.

The solver's kernels release the GIL, so threads search in parallel. A lane is one thread's
own scratch and node counter; all lanes read and write the solver's one transposition table.
Sharing it is safe: a table row is one 8-byte word that names its position, and what it holds
is a fact about that position (a bound of its score), so a row one thread overwrites, or
reads while another writes its bucket, is at worst a lost fact, never a wrong one. A search
that is stopped stores nothing more (the kernels return before storing once past their node
limit), so a lane is stopped by lowering its limit.

``race`` gives each lane the next position nobody searches yet; when none is left, an idle
lane joins a position still being searched (the same search, helped by what the other lane
stores: lazy SMP), and the first lane to finish a position stops the others on it. Positions
that are not ``needed`` only fill the table for the needed ones: once every needed position
is solved, the lanes still on the others are stopped.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from arena.search.kernels import solver as kernels

NO_LIMIT = np.iinfo(np.int64).max
STOP = -1  # a node limit that every search has passed


class Task(NamedTuple):
    """A position to solve: its two bitboards, and whether its score is wanted."""

    current: int
    mask: int
    needed: bool = True


class Lane(NamedTuple):
    """One thread's scratch space and node counter (``kernels.new_stats``)."""

    scratch: np.ndarray
    stats: np.ndarray


def new_lanes(count: int, cells: int) -> list[Lane]:
    """``count`` lanes for a board of ``cells`` cells."""
    return [Lane(kernels.new_scratch(cells), kernels.new_stats()) for _ in range(count)]


@dataclass
class _Race:
    tasks: list[Task]
    scores: dict[int, int] = field(default_factory=dict)
    started: set[int] = field(default_factory=set)
    workers: dict[int, set[int]] = field(default_factory=dict)  # task -> lanes searching it
    nodes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def done(self) -> bool:
        return all(i in self.scores for i, task in enumerate(self.tasks) if task.needed)

    def pick(self) -> int | None:
        """The next task for an idle lane (the caller holds the lock)."""
        if self.done():
            return None
        for i in range(len(self.tasks)):
            if i not in self.started:
                return i
        open_tasks = [i for i, task in enumerate(self.tasks) if task.needed
                      and i not in self.scores]
        return min(open_tasks, key=lambda i: len(self.workers.get(i, ())), default=None)


def race(tasks: list[Task], lanes: list[Lane], arguments: tuple[np.ndarray, np.ndarray,
         np.ndarray, np.ndarray, int]) -> tuple[dict[int, int], int]:
    """The exact score of every needed task (by index) and the nodes searched in all, with
    one thread per lane; ``arguments`` are the kernels' board array, table, book keys, book
    scores and book depth."""
    packed, table, book_keys, book_scores, book_depth = arguments
    state = _Race(tasks)

    def run(number: int, lane: Lane) -> None:
        while True:
            with state.lock:
                pick = state.pick()
                if pick is None:
                    return
                state.started.add(pick)
                state.workers.setdefault(pick, set()).add(number)
                lane.stats[kernels.NODES] = 0
                lane.stats[kernels.LIMIT] = NO_LIMIT
            task = tasks[pick]
            score = kernels.solve(np.uint64(task.current), np.uint64(task.mask), False, packed,
                                  table, lane.scratch, lane.stats, book_keys, book_scores,
                                  book_depth)
            with state.lock:
                state.workers[pick].discard(number)
                state.nodes += int(lane.stats[kernels.NODES])
                if lane.stats[kernels.NODES] <= lane.stats[kernels.LIMIT]:
                    state.scores.setdefault(pick, int(score))
                    _stop(state.workers[pick], lanes)
                if state.done():
                    for searching in state.workers.values():
                        _stop(searching, lanes)

    threads = [threading.Thread(target=run, args=(number, lane), daemon=True,
                                name=f"solver-lane-{number}")
               for number, lane in enumerate(lanes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {i: s for i, s in state.scores.items() if tasks[i].needed}, state.nodes


def _stop(numbers: set[int], lanes: list[Lane]) -> None:
    for number in numbers:
        lanes[number].stats[kernels.LIMIT] = STOP
