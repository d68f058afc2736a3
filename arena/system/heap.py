"""The C heap's free pages handed back to the system.

A run sorts and summarises games.csv in the process that then waits for its report: the
memory that work freed stays in glibc's heap, counted in the process's resident size (about
80 MB after a million games) unless it is trimmed.
"""

from __future__ import annotations

import ctypes
import sys


def release_free_memory() -> None:
    """Return the heap's free pages to the system (glibc's ``malloc_trim``); elsewhere, or
    under another C library, nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # musl and other libraries have no malloc_trim
        return
    trim(0)
