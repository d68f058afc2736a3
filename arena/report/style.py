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
from typing import TYPE_CHECKING, Any, ParamSpec

import matplotlib
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine
from matplotlib.ticker import LogFormatterSciNotation

from arena.report.palette import CATEGORIES, INK
from arena.system.files import FILE_MODE

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["ONE_COLUMN", "STYLE", "TWO_COLUMN", "figure", "laid_out", "log_axis", "save", "styled",
           "wrap"]

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


class PlainLogFormatter(LogFormatterSciNotation):
    """matplotlib's labels of a log axis (``10²``, ``2×10⁻¹``) as plain text with Unicode
    superscripts instead of mathtext: the same figures, without the mathtext parser, whose
    first use costs about half a second."""

    def __call__(self, x: float, pos: int | None = None) -> str:
        text = str(super().__call__(x, pos))
        if not text.startswith("$"):
            return text
        text = text.removeprefix("$\\mathdefault{").removesuffix("}$").replace("\\times", "×")
        text = re.sub(r"\^\{([^}]*)\}", lambda m: m[1].translate(_SUPERSCRIPTS), text)
        return text.replace("-", "\N{MINUS SIGN}")


def log_axis(ax: Axes, which: str = "x") -> None:
    """Put ``ax``'s ``which`` axis (x or y) on a log scale, labelled in plain text."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    axis.set_major_formatter(PlainLogFormatter())  # as the log scale's own formatters
    axis.set_minor_formatter(PlainLogFormatter(labelOnlyBase=False))


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


def save(chart: Figure, stem: Path, formats: Sequence[str] = ("png",), dpi: int = 150
         ) -> list[Path]:
    """Write ``chart`` as ``stem.FORMAT`` for each format (png, svg, pdf), each atomically;
    the paths written. ``dpi`` sets the PNG's pixels per inch. The layout is computed once,
    for every format (matplotlib would compute it twice per file)."""
    written = []
    with laid_out(chart, dpi if "png" in formats else None):
        for kind in formats:
            path = stem.with_name(f"{stem.name}.{kind}")
            handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                            suffix=".tmp")
            os.close(handle)
            try:
                with matplotlib.rc_context(STYLE):  # SVG and PDF font settings apply when saving
                    chart.savefig(name, dpi=dpi, format=kind, metadata=_metadata(kind))
                os.chmod(name, FILE_MODE)
                os.replace(name, path)
            finally:
                Path(name).unlink(missing_ok=True)
            written.append(path)
    return written


@contextlib.contextmanager
def laid_out(chart: Figure, dpi: float | None = None) -> Iterator[Figure]:
    """``chart`` laid out by its layout engine once (at ``dpi``, the PNG's, where text
    sizes round to pixels; else at the figure's), then kept as it is while drawn inside
    the block (its engine back afterwards)."""
    engine = chart.get_layout_engine()
    if engine is None or isinstance(engine, PlaceHolderLayoutEngine):
        yield chart
        return
    own_dpi = chart.get_dpi()
    try:
        chart.set_dpi(dpi or own_dpi)
        with matplotlib.rc_context(STYLE):
            chart.draw_without_rendering()
    finally:
        chart.set_dpi(own_dpi)
    chart.set_layout_engine("none")  # the axes stay where the layout put them
    try:
        yield chart
    finally:
        chart.set_layout_engine(engine)


def _metadata(kind: str) -> dict[str, Any]:
    """No creation date in vector files: the same run gives the same bytes."""
    return {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(kind, {})
