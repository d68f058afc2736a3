"""Telling the user's Ctrl-C apart from an agent that raises KeyboardInterrupt itself.

While ``watch_interrupts()`` is active (in the main thread), SIGINT sets a flag before it
raises KeyboardInterrupt as usual; a KeyboardInterrupt with the flag unset came from an
agent, which forfeits its game for it. SIGTERM (what ``timeout``, Slurm, ``docker stop`` and
systemd send) is taken the same way, so that a command ends as cleanly for it as for a Ctrl-C:
finished work kept, its run directory unlocked. Worker processes ignore SIGINT altogether
(``ignore_interrupts``): their parent decides what a Ctrl-C means.
Inside ``finish_on_interrupt`` the first SIGINT only asks the caller to stop after the work in
progress; a second one, or a SIGTERM, raises as usual.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_state: dict[str, object] = {"watching": False, "requested": False, "first": None}

HELD = (signal.SIGINT, signal.SIGTERM)
"""The signals that interrupt a command."""


class Stopped(KeyboardInterrupt):
    """The user's first Ctrl-C stopped the work once what was in progress had finished."""


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    first = _state["first"]
    if signum == signal.SIGINT and callable(first):
        _state["first"] = None  # the next one stops at once
        first()
        return
    _state["requested"] = True
    raise KeyboardInterrupt


@contextmanager
def finish_on_interrupt(first: Callable[[], None]) -> Iterator[None]:
    """Inside ``watch_interrupts``: the first SIGINT while the block runs calls ``first``
    (from the signal handler, in the main thread) instead of raising KeyboardInterrupt, so
    that the caller stops after the work in progress; a second one raises as usual. Outside a
    watch, or in another thread, no effect."""
    if not _state["watching"] or threading.current_thread() is not threading.main_thread():
        yield
        return
    _state["first"] = first
    try:
        yield
    finally:
        _state["first"] = None


@contextmanager
def watch_interrupts() -> Iterator[None]:
    """Record SIGINTs and SIGTERMs while the block runs, each raising KeyboardInterrupt (only
    in the main thread; elsewhere, or nested in a watch, no effect)."""
    if threading.current_thread() is not threading.main_thread() or _state["watching"]:
        yield
        return
    previous = {number: signal.signal(number, _on_interrupt) for number in HELD}
    _state.update(watching=True, requested=False)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        _state["watching"] = False


def ignore_interrupts() -> None:
    """In a worker: ignore SIGINT (from the main thread), and take every KeyboardInterrupt
    for one an agent raised."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _state.update(watching=True, requested=False, first=None)


def from_user(error: BaseException) -> bool:
    """True if ``error`` is the user's interruption (a real SIGINT, or unknown because no
    watch is active), False for a KeyboardInterrupt an agent raised."""
    if not isinstance(error, KeyboardInterrupt):
        return False
    return bool(_state["requested"]) or not _state["watching"]


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT and SIGTERM held while the block runs, then received by this thread, with its
    former handlers, when the block ends.

    Threads and processes started inside the block never receive them: the signals are blocked
    in this thread, which new threads inherit and new processes keep across fork and exec (the
    caller decides for them), so every later one reaches this thread at once, never a helper
    thread that leaves it waiting. One sent meanwhile is not lost, wherever it lands: blocked,
    it stays pending until the block ends; taken by a thread that existed before the block and
    does not block it (numpy's native threads, say), it is recorded by a handler and raised
    again at the end. (Ignoring the signals instead would lose one taken by such a thread.)
    In the main thread only; elsewhere, no effect."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    previous = {number: signal.signal(number, hold) for number in HELD}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a pending one comes now
        for signum in dict.fromkeys(received):
            signal.raise_signal(signum)
