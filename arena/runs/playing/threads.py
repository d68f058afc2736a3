"""Threads of a process that play hosted games at once (``--concurrency N``): N threads kept
for every batch, each taking the next game of the batches handed to it in turn, so that none
idles at a batch's end while another batch waits."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")

Job = Callable[[int], T]
"""A game to play, given the number of the thread that plays it (whose hosts it uses)."""


class Handover(Generic[T]):
    """The games of one batch handed to the threads: their results in the batch's order, None
    for a game that did not start (``stop()`` was true, or an earlier game failed)."""

    def __init__(self, jobs: Sequence[Job[T]], stop: Callable[[], bool] | None):
        self.jobs = jobs
        self.results: list[T | None] = [None] * len(jobs)
        self.stop = stop
        self.stopped = False
        self.failure: BaseException | None = None
        self._left = len(jobs)
        self._done = threading.Event()
        if not jobs:
            self._done.set()

    def wait(self, seconds: float) -> bool:
        """Whether every game has ended (or will not start), waiting up to ``seconds``."""
        return self._done.wait(seconds)

    def play(self, index: int, number: int, lock: threading.Lock) -> None:
        """Play game ``index`` in thread ``number`` unless the batch stopped or failed."""
        with lock:
            skip = self.failure is not None or self.stopped
            if not skip and self.stop is not None and self.stop():
                self.stopped = skip = True
        if not skip:
            try:
                self.results[index] = self.jobs[index](number)
            except BaseException as error:  # noqa: BLE001 - raised again by the batch's player
                with lock:
                    self.failure = self.failure or error
        self.end(lock)

    def end(self, lock: threading.Lock) -> None:
        """Count one game as ended (played or not)."""
        with lock:
            self._left -= 1
            if not self._left:
                self._done.set()


class GameThreads(Generic[T]):
    """``count`` threads playing the games of every batch handed to them, in the order
    handed; they end with ``close``."""

    def __init__(self, count: int):
        self.count = count
        self._queue: deque[tuple[Handover[T], int]] = deque()
        self._ready = threading.Condition()
        self._lock = threading.Lock()
        self._closing = False
        self._threads = [threading.Thread(target=self._work, args=(number,), daemon=True,
                                          name=f"game-{number}") for number in range(count)]
        for thread in self._threads:
            thread.start()

    def hand(self, jobs: Sequence[Job[T]], stop: Callable[[], bool] | None = None
             ) -> Handover[T]:
        """Queue a batch's games; no game starts once ``stop()`` is true."""
        handover = Handover(jobs, stop)
        with self._ready:
            self._queue.extend((handover, index) for index in range(len(jobs)))
            self._ready.notify_all()
        return handover

    def close(self) -> None:
        """Start no more games; return when the games being played have ended."""
        with self._ready:
            self._closing = True
            for handover, _ in self._queue:
                handover.end(self._lock)
            self._queue.clear()
            self._ready.notify_all()
        for thread in self._threads:
            thread.join()

    def _work(self, number: int) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closing:
                    self._ready.wait()
                if self._closing:
                    return
                handover, index = self._queue.popleft()
            handover.play(index, number, self._lock)
