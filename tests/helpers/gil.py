"""Whether a call releases the GIL: a Python thread counts while it runs."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable


def others_ran_during(call: Callable[[], object], tries: int = 15) -> bool:
    """True if a Python thread counted while ``call`` ran. The switch interval is set longer
    than the call, so a held GIL would keep the thread from counting; the call is tried again
    while the thread was not yet scheduled."""
    count, started, stop = [0], threading.Event(), threading.Event()

    def counting() -> None:
        started.set()
        while not stop.is_set():
            count[0] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    thread = threading.Thread(target=counting)
    try:
        thread.start()
        started.wait()
        for _ in range(tries):
            before = count[0]
            call()
            if count[0] > before:
                return True
        return False
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
