"""Signals held while a dask cluster starts (arena.system.interrupts): none is lost."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.system.interrupts import finish_on_interrupt, interrupts_held, watch_interrupts

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def shared_pending(signum: int) -> bool:
    """Whether ``signum`` waits in this process's queue of signals for any thread."""
    status = Path("/proc/self/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("ShdPnd:"))
    return bool(int(line.split()[1], 16) >> (signum - 1) & 1)


def test_a_ctrl_c_taken_by_another_thread_while_held_comes_when_the_hold_ends() -> None:
    done = threading.Event()
    other = threading.Thread(target=done.wait)  # it does not block SIGINT: it may take one
    other.start()
    try:
        with pytest.raises(KeyboardInterrupt), watch_interrupts():
            with interrupts_held():
                os.kill(os.getpid(), signal.SIGINT)  # this thread blocks it: the other takes it
                deadline = time.monotonic() + 30
                while shared_pending(signal.SIGINT) and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert not shared_pending(signal.SIGINT)
            pytest.fail("the Ctrl-C was lost")  # pragma: no cover
    finally:
        done.set()
        other.join()


def test_a_ctrl_c_while_held_waits_for_the_end_of_the_hold() -> None:
    reached = []
    with pytest.raises(KeyboardInterrupt), watch_interrupts(), interrupts_held():
        signal.raise_signal(signal.SIGINT)  # to this thread, which blocks it
        reached.append("the rest of the block")
    assert reached == ["the rest of the block"]


def test_the_first_ctrl_c_asks_to_finish_and_a_second_one_stops() -> None:
    asked: list[str] = []
    with pytest.raises(KeyboardInterrupt), watch_interrupts(), \
            finish_on_interrupt(lambda: asked.append("finish")):
        signal.raise_signal(signal.SIGINT)
        assert asked == ["finish"]  # no KeyboardInterrupt: the work in progress goes on
        signal.raise_signal(signal.SIGINT)
        pytest.fail("the second Ctrl-C did not stop")  # pragma: no cover
    assert asked == ["finish"]


def test_outside_the_block_a_ctrl_c_stops_at_once() -> None:
    with watch_interrupts():
        with finish_on_interrupt(lambda: pytest.fail("asked to finish")):
            pass
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
