"""The charts' sizes that docs/how-to/reports.md states are those of the files: the width of
each PDF's MediaBox and the sizes of its text (the ``Tf`` operators of its content streams)
lie in the ranges of the page's table, and every chart a tournament, an SPRT and an accuracy
run write has its row there."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest

from tests.helpers.cli import arena
from tests.helpers.paths import ROOT

PAGE = ROOT / "docs" / "how-to" / "reports.md"
POINTS_PER_INCH = 72


Span = tuple[float, float]


def span(cell: str, unit: str) -> Span:
    """The range a table's cell starts with: ``7.0 in``, or ``5.05 to 7.0 in (...)``."""
    match = re.match(rf"([\d.]+)(?: to ([\d.]+))? {unit}\b", cell)
    assert match is not None, cell
    low, high = match.groups()
    return float(low), float(high or low)


def documented() -> dict[str, tuple[Span, Span]]:
    """Chart kind -> (its width's range in inches, its text's range in points), as the page's
    table gives them."""
    found: dict[str, tuple[Span, Span]] = {}
    for row in re.findall(r"^\| (`.*) \|$", PAGE.read_text(encoding="utf-8"), re.MULTILINE):
        kinds, width, text = (cell.strip() for cell in row.split(" | "))
        for kind in re.findall(r"`([\w-]+)`", kinds.split(" (")[0]):
            found[kind] = (span(width, "in"), span(text, "pt"))
    return found


def measured(pdf: Path) -> tuple[float, list[float]]:
    """The width of ``pdf``'s page in inches and the sizes of its text in points."""
    data = pdf.read_bytes()
    box = re.search(rb"/MediaBox\s*\[\s*([-\d.\s]+)\]", data)
    assert box is not None, pdf
    left, _, right, _ = (float(n) for n in box.group(1).split())
    sizes: list[float] = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.DOTALL):
        try:
            content = zlib.decompress(stream)
        except zlib.error:
            continue  # a font file, not a page's content
        sizes += [float(n) for n in re.findall(rb"/F\d+\s+([\d.]+)\s+Tf", content)]
    return (right - left) / POINTS_PER_INCH, sizes


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The PDF charts of a four-agent tournament, an SPRT and an accuracy run."""
    out = tmp_path_factory.mktemp("sizes")
    for args in (("tournament", "random", "immediate-win", "negamax:depth=1",
                  "negamax:depth=2", "-n", "2", "--quiet"),
                 ("sprt", "immediate-win", "random", "--elo0", "0", "--elo1", "200",
                  "--max-games", "40", "--quiet"),
                 ("accuracy", "negamax:depth=1", "random", "--positions", "10")):
        code, output = arena(*args, "-j", "1", "--format", "pdf", "--out", str(out / args[0]))
        assert code == 0, output
    return sorted(out.glob("*/*.pdf"))


@pytest.mark.slow
def test_every_written_chart_has_the_size_the_docs_give(written: list[Path]) -> None:
    table = documented()
    kinds = {pdf.stem for pdf in written}
    assert {"ratings", "crosstable", "elo-cost", "wtl", "cost", "length", "depth", "sprt",
            "accuracy"} <= kinds
    for pdf in written:
        assert pdf.stem in table, f"{pdf.name} has no row in {PAGE.name}"
        (narrowest, widest), (smallest, largest) = table[pdf.stem]
        width, sizes = measured(pdf)
        assert narrowest - 0.01 <= width <= widest + 0.01, (pdf.name, width)
        assert sizes and smallest <= min(sizes) and max(sizes) <= largest, (pdf.name, sizes)


def test_the_table_is_read_as_written() -> None:
    table = documented()
    assert table["wtl"] == ((7.0, 7.0), (7.0, 9.0))
    assert table["crosstable"] == ((5.05, 7.0), (5.5, 9.0))
    assert table["accuracy"] == ((2.4, 7.0), (7.0, 9.0))
