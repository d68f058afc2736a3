"""The line a person at a terminal sees when numba compiles the kernels: the first command
after an install compiles for about a minute, and would print nothing meanwhile.

numba announces every compilation it does (``numba:compile`` events: a kernel that is not in
its cache yet); a kernel loaded from the cache announces nothing, so a run with every kernel
cached prints no line. The first announcement of one of the arena's kernels in a process
prints ``NOTICE`` on stderr when stderr is a terminal (output read by a program, a pipe or a
file, never gets it), above any progress bar.
"""

from __future__ import annotations

import sys

from numba.core import event

NOTICE = "arena: compiling the search kernels, once per install: about a minute"
KIND = "numba:compile"


class FirstCompilation(event.Listener):
    """Prints ``NOTICE`` at the first compilation of a kernel of ``package`` in this process,
    when stderr is a terminal."""

    def __init__(self, package: str):
        self.package = package
        self.told = False

    def on_start(self, event: event.Event) -> None:
        if self.told:
            return
        function = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        if not getattr(function, "__module__", "").startswith(f"{self.package}."):
            return  # the user's own numba code, or numba's internals
        self.told = True
        if sys.stderr is not None and sys.stderr.isatty():
            from tqdm import tqdm  # writes the line above the bars this process draws
            tqdm.write(NOTICE, file=sys.stderr)

    def on_end(self, event: event.Event) -> None:
        """Nothing: the line is printed when a compilation starts."""


def tell_the_terminal_when_compiling(package: str) -> None:
    """Watch this process's compilations for the first of a kernel of ``package``."""
    event.register(KIND, FirstCompilation(package))
