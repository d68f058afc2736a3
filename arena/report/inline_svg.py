"""A matplotlib figure as SVG text to put inside an HTML page: no XML prolog or metadata,
no fixed size (it scales to its container, never below its printed size), text kept as
text, and ids prefixed so that several charts can share one page."""

from __future__ import annotations

import io
import re

import matplotlib
from matplotlib.figure import Figure

from arena.report.style import laid_out

_ID = re.compile(r'\bid="([^"]+)"')
PX_PER_POINT = 96 / 72
"""CSS pixels per point: a chart is never drawn smaller than its printed size."""


def figure_svg(figure: Figure, prefix: str) -> str:
    """``figure`` as an ``<svg>`` element whose ids all start with ``prefix``, laid out as
    its SVG file is (``style.laid_out``; inside such a block, with that layout)."""
    buffer = io.StringIO()
    with laid_out(figure, "svg"), matplotlib.rc_context({"svg.fonttype": "none",
                                                         "svg.hashsalt": prefix}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return svg_element(buffer.getvalue(), prefix)


def svg_element(text: str, prefix: str) -> str:
    """An SVG file's ``text`` as an ``<svg>`` element to put in a page (as ``figure_svg``
    makes it): the chart saved as SVG already is not drawn again."""
    text = text[text.index("<svg"):]  # the XML declaration and DOCTYPE have no place in HTML
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.DOTALL)
    ids = set(_ID.findall(text))
    text = re.sub(r'(\bid="|url\(#|href="#)([^")]+)',
                  lambda m: m[1] + (f"{prefix}-{m[2]}" if m[2] in ids else m[2]), text)
    return re.sub(r'<svg([^>]*?) width="([\d.]+)pt" height="[^"]*"',
                  lambda m: f'<svg{m[1]} class="chart" role="img" '
                            f'style="min-width: {float(m[2]) * PX_PER_POINT:.0f}px"', text, count=1)
