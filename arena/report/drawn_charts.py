"""A report's charts drawn on two cores: a forked child saves the files of every other chart
and draws its SVG for report.html, while this process does the same for the others. Each
chart is laid out as its formats measure text: for its PNG, for its vector files, for its
page SVG.

Where the platform cannot fork, or the child fails, this process draws the child's charts
too, afterwards, as it would without the child: the child only ever saves time.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from arena.report.inline_svg import figure_svg
from arena.report.style import save

__all__ = ["DrawnCharts", "draw_charts"]


@dataclass(frozen=True)
class DrawnCharts:
    """The chart files saved (in the order of the charts, then of the formats) and the SVG
    element of each chart for report.html, by kind (none for a chart saved as SVG: the page
    reads its file)."""

    written: list[Path]
    svgs: dict[str, str]


Drawing = tuple[list[str], str | None]
"""One chart drawn: the paths of its files and its page SVG."""


def draw_chart(kind: str, figure: Figure, stem: Path, formats: Sequence[str],
               dpi: int) -> Drawing:
    """Save ``figure`` as ``stem.FORMAT`` for each format (``style.save``) and, unless one
    is SVG, draw its page SVG (laid out as an SVG file would be)."""
    paths = [str(path) for path in save(figure, stem, formats, dpi)]
    return paths, None if "svg" in formats else figure_svg(figure, kind)


def draw_charts(figures: Mapping[str, Figure], stem: Callable[[str], Path],
                formats: Sequence[str], dpi: int) -> DrawnCharts:
    """Save every figure (``stem(kind)`` names its files) and draw its page SVG, every
    other one in a forked child (``draw_chart``)."""
    kinds = list(figures)
    theirs = kinds[1::2]
    child = _Child.start({kind: (figures[kind], stem(kind)) for kind in theirs}, formats, dpi)
    try:
        drawn = {kind: draw_chart(kind, figures[kind], stem(kind), formats, dpi)
                 for kind in kinds if kind not in theirs}
        drawn.update(child.result() if child is not None else {})
    finally:
        if child is not None:
            child.close()
    for kind in kinds:  # the child's: had it failed, or not started (no fork)
        if kind not in drawn:
            drawn[kind] = draw_chart(kind, figures[kind], stem(kind), formats, dpi)
    return DrawnCharts([Path(path) for kind in kinds for path in drawn[kind][0]],
                       {kind: svg for kind in kinds if (svg := drawn[kind][1]) is not None})


class _Child:
    """A forked child drawing some charts; ``result()`` waits for what it drew (empty if it
    failed), ``close()`` ends it if it was not waited for."""

    def __init__(self, pid: int, read: int) -> None:
        self._pid: int | None = pid
        self._read: int | None = read

    @classmethod
    def start(cls, charts: Mapping[str, tuple[Figure, Path]], formats: Sequence[str],
              dpi: int) -> _Child | None:
        """The child drawing ``charts`` (kind: figure and stem), or None when there is
        nothing to draw or no fork."""
        if not charts or not hasattr(os, "fork"):
            return None
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return None
        if pid == 0:  # the child: draw, hand the results over, leave without any clean-up
            status = 1
            try:
                os.close(read)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's
                drawn = {kind: draw_chart(kind, figure, stem, formats, dpi)
                         for kind, (figure, stem) in charts.items()}
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(json.dumps(drawn).encode())
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        return cls(pid, read)

    def result(self) -> dict[str, Drawing]:
        assert self._pid is not None and self._read is not None
        with os.fdopen(self._read, "rb") as pipe:
            self._read = None
            data = pipe.read()
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        try:
            drawn = json.loads(data) if status == 0 else {}
        except ValueError:
            return {}
        return {kind: (paths, svg) for kind, (paths, svg) in drawn.items()}

    def close(self) -> None:
        if self._read is not None:
            os.close(self._read)
            self._read = None
        if self._pid is not None:
            with suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = None
