"""The one style of every chart: fonts and lines for print, figure widths of a paper's one
and two columns, labels wrapped to fit, and saving a figure in the requested formats.

Chart builders return a ``matplotlib.figure.Figure`` made under ``styled``; ``save`` writes
it as PNG, SVG and/or PDF. Text is 8 pt (7 pt for the smallest notes), which stays legible
when a figure is printed at its own width.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec

import matplotlib
import numpy as np
import numpy.typing as npt
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine
from matplotlib.ticker import LogFormatterSciNotation

from arena.report.palette import CATEGORIES, INK
from arena.system.files import FILE_MODE

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["ONE_COLUMN", "STYLE", "TWO_COLUMN", "VECTOR", "TimeUnit", "figure", "laid_out",
           "log_axis", "save", "styled", "time_unit", "wrap"]

ONE_COLUMN = 3.4
"""Inches: a figure one column of a two-column paper wide."""
TWO_COLUMN = 7.0
"""Inches: a figure across both columns (or one column of a one-column page)."""
SMALL = 7
"""Points: annotations beside marks."""

STYLE: dict[RcKeyType, Any] = {
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.titleweight": "bold",
    "axes.labelsize": 8,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "figure.titlesize": 9,
    "figure.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "text.color": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.prop_cycle": cycler(color=list(CATEGORIES)),
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.5,
    "lines.linewidth": 1.2,
    "lines.markersize": 4.5,
    "legend.frameon": False,
    "legend.fontsize": 7.5,
    "svg.fonttype": "none",  # text stays text in SVG: searchable, editable
    "pdf.fonttype": 42,  # TrueType in PDF, as journals ask
}

P = ParamSpec("P")


def styled(build: Callable[P, Figure]) -> Callable[P, Figure]:
    """Build the figure under the charts' style."""

    @functools.wraps(build)
    def with_style(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with matplotlib.rc_context(STYLE):
            return build(*args, **kwargs)

    return with_style


def figure(height: float, width: float = TWO_COLUMN) -> Figure:
    """A figure of ``width`` x ``height`` inches laid out so that nothing overflows it."""
    return Figure(figsize=(width, height), layout="constrained")


_SUPERSCRIPTS = str.maketrans("0123456789-−.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻·")


PLAIN = (1e-3, 1e5)
"""Tick values a log axis writes as plain decimals (``0.02``, ``300``, ``10,000``); powers of
ten outside."""


class PlainLogFormatter(LogFormatterSciNotation):
    """matplotlib's labels of a log axis as plain text: decimals between ``PLAIN``'s bounds
    (``0.01``, ``3``, ``1,000``), else powers of ten with Unicode superscripts (``10⁻⁴``,
    ``2×10⁶``) instead of mathtext, whose parser's first use costs about half a second."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        text = str(super().__call__(x, pos))
        if not text.startswith("$"):
            return text
        if PLAIN[0] <= abs(x) < PLAIN[1]:
            return f"{x:,.6g}".replace("-", "\N{MINUS SIGN}")
        text = text.removeprefix("$\\mathdefault{").removesuffix("}$").replace("\\times", "×")
        text = re.sub(r"\^\{([^}]*)\}", lambda m: m[1].translate(_SUPERSCRIPTS), text)
        return text.replace("-", "\N{MINUS SIGN}")


def log_axis(ax: Axes, which: str = "x") -> None:
    """Put ``ax``'s ``which`` axis (x or y) on a log scale, labelled in plain text."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    axis.set_major_formatter(PlainLogFormatter())  # as the log scale's own formatters
    axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False))


class TimeUnit(NamedTuple):
    """A unit times read best in: its factor from milliseconds, its symbol and its name."""

    factor: float
    symbol: str
    name: str


def time_unit(ms: npt.ArrayLike) -> TimeUnit:
    """The unit that times of ``ms`` milliseconds read best in: microseconds when every one
    is below a millisecond (0.0089 ms reads 8.9 µs), else milliseconds."""
    values = np.asarray(ms, dtype=float)
    values = values[np.isfinite(values)]
    if len(values) and values.max() < 1.0:
        return TimeUnit(1000.0, "µs", "microseconds")
    return TimeUnit(1.0, "ms", "milliseconds")


def wrap(text: str, width: int) -> str:
    """``text`` in lines of at most ``width`` characters, broken after spaces, commas, plus
    signs and colons (a word longer than a line is broken at the line's end): never cut."""
    lines = [""]
    for piece in re.findall(r"[^ ,+:]+[ ,+:]*|[ ,+:]+", text):
        while len(piece.rstrip()) > width:  # a word wider than a line: broken, nothing lost
            if lines[-1]:
                lines.append("")
            lines[-1], piece = piece[:width], piece[width:]
            lines.append("")
        if lines[-1] and len(lines[-1] + piece.rstrip()) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(line.rstrip() for line in lines if line.strip())


VECTOR = ("svg", "pdf")
"""Formats whose text is measured in points without hinting, whatever the resolution: one
layout serves them all (and the SVG of a chart inside a page). PNG's text is measured in
hinted pixels at its resolution, a few percent wider or narrower."""


def save(chart: Figure, stem: Path, formats: Sequence[str] = ("png",), dpi: int = 150
         ) -> list[Path]:
    """Write ``chart`` as ``stem.FORMAT`` for each format (png, svg, pdf), each atomically;
    the paths written, in the order of ``formats``. ``dpi`` sets the PNG's pixels per inch.
    Each file is drawn from a layout made with its own format's text measures (``laid_out``):
    once for the PNG, once for the vector formats together."""
    written: dict[str, Path] = {}
    raster = [kind for kind in formats if kind not in VECTOR]
    for group in (raster, [kind for kind in formats if kind in VECTOR]):
        if group:
            with laid_out(chart, group[0], dpi):
                written.update((kind, _write(chart, stem, kind, dpi)) for kind in group)
    return [written[kind] for kind in formats]


def _write(chart: Figure, stem: Path, kind: str, dpi: int) -> Path:
    """Write ``chart`` as ``stem.KIND`` atomically (as it is laid out); the path."""
    path = stem.with_name(f"{stem.name}.{kind}")
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        with matplotlib.rc_context(STYLE):  # SVG and PDF font settings apply when saving
            chart.savefig(name, dpi=dpi, format=kind, metadata=_metadata(kind))
        os.chmod(name, FILE_MODE)
        os.replace(name, path)
    finally:
        Path(name).unlink(missing_ok=True)
    return path


@contextlib.contextmanager
def laid_out(chart: Figure, kind: str = "svg", dpi: float | None = None) -> Iterator[Figure]:
    """``chart`` laid out by its layout engine once for format ``kind``, its text measured
    as that format's renderer measures it (PNG's at ``dpi``, default the figure's own; SVG
    and PDF in points), then kept as it is while drawn inside the block (its engine back
    afterwards). Inside another ``laid_out`` block of the same chart, the outer layout
    stands."""
    engine = chart.get_layout_engine()
    if engine is None or isinstance(engine, PlaceHolderLayoutEngine):
        yield chart
        return
    canvas, own_dpi = chart.canvas, chart.get_dpi()
    try:
        if kind in VECTOR:
            FigureCanvasSVG(chart)  # its renderer measures text as the PDF's does, in points
        else:
            chart.set_dpi(dpi or own_dpi)
        with matplotlib.rc_context(STYLE):
            chart.draw_without_rendering()
    finally:
        chart.set_canvas(canvas)
        chart.set_dpi(own_dpi)
    chart.set_layout_engine(None)  # the axes stay where the layout put them, and savefig
    # draws once (with an engine, even a placeholder, it draws the figure once more first)
    try:
        yield chart
    finally:
        chart.set_layout_engine(engine)


def _metadata(kind: str) -> dict[str, Any]:
    """No creation date in vector files: the same run gives the same bytes."""
    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(kind, {})
