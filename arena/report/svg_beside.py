"""report.html's SVG charts drawn by a forked child while this process saves the chart files,
so that a report's two kinds of drawing share two cores.

Where the platform cannot fork, or the child fails, nothing is handed back and the page's
SVGs are drawn in this process afterwards, as they would be without the child: the child
only ever saves time.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Collection, Mapping
from contextlib import suppress

from matplotlib.figure import Figure

from arena.report.inline_svg import figure_svg
from arena.report.style import laid_out

__all__ = ["svgs_beside"]

class PageSvgs:
    """The SVG elements a child draws for report.html, by kind: ``result()`` waits for them
    (empty if there is no child or it failed); ``close()`` ends a child not waited for."""

    def __init__(self, pid: int | None = None, read: int | None = None,
                 kinds: Collection[str] = ()) -> None:
        self._pid, self._read, self._kinds = pid, read, set(kinds)

    def result(self) -> dict[str, str]:
        if self._pid is None or self._read is None:
            return {}
        with os.fdopen(self._read, "rb") as pipe:
            self._read = None
            data = pipe.read()
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        try:
            drawn = json.loads(data) if status == 0 else {}
        except ValueError:
            return {}
        return {kind: text for kind, text in drawn.items() if kind in self._kinds}

    def close(self) -> None:
        if self._read is not None:
            os.close(self._read)
            self._read = None
        if self._pid is not None:
            with suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = None


def svgs_beside(figures: Mapping[str, Figure], dpi: float | None) -> PageSvgs:
    """Start drawing each figure as an inline ``<svg>`` element (``figure_svg``, ids
    prefixed by its kind), laid out at ``dpi`` as the saved files are, in a forked child."""
    if not figures or not hasattr(os, "fork"):
        return PageSvgs()
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return PageSvgs()
    if pid == 0:  # the child: draw, hand the text over, and leave without any clean-up
        status = 1
        try:
            os.close(read)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
            drawn = {}
            for kind, figure in figures.items():
                with laid_out(figure, dpi):
                    drawn[kind] = figure_svg(figure, kind, laid_out=True)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(json.dumps(drawn).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return PageSvgs(pid, read, figures)
