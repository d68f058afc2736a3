"""Telling the user's Ctrl-C apart from an agent that raises KeyboardInterrupt itself.

While ``watch_interrupts()`` is active (in the main thread), SIGINT sets a flag before it
raises KeyboardInterrupt as usual; a KeyboardInterrupt with the flag unset came from an
agent, which forfeits its game for it. Worker processes ignore SIGINT altogether
(``ignore_interrupts``): their parent decides what a Ctrl-C means.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_state = {"watching": False, "requested": False}


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    _state["requested"] = True
    raise KeyboardInterrupt


@contextmanager
def watch_interrupts() -> Iterator[None]:
    """Record SIGINTs while the block runs (only in the main thread; elsewhere, no effect)."""
    if threading.current_thread() is not threading.main_thread() or _state["watching"]:
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_sigint)
    _state.update(watching=True, requested=False)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _state["watching"] = False


def ignore_interrupts() -> None:
    """In a worker: ignore SIGINT (from the main thread), and take every KeyboardInterrupt
    for one an agent raised."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _state.update(watching=True, requested=False)


def from_user(error: BaseException) -> bool:
    """True if ``error`` is the user's interruption (a real SIGINT, or unknown because no
    watch is active), False for a KeyboardInterrupt an agent raised."""
    if not isinstance(error, KeyboardInterrupt):
        return False
    return _state["requested"] or not _state["watching"]


@contextmanager
def inherited_sigint_ignored() -> Iterator[None]:
    """Processes started inside the block ignore SIGINT (an ignored signal stays ignored
    across fork and exec); this one handles it as before once the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
