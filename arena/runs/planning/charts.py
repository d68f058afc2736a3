"""How a run's report writes its charts: the formats (a bitmap and two vector formats) and
the PNG's pixels per inch, checked once here for the commands, the API, experiment files and
the report (a value of the run request: ``RunRequest.charts``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.runs.planning.plan import MatchSetupError

CHART_FORMATS = ("png", "svg", "pdf")
"""The formats charts are written in: a bitmap, and two vector formats for papers."""
DEFAULT_DPI = 120
"""Pixels per inch of a PNG chart (a two-column chart is then 840 pixels wide)."""
MAX_DPI = 1200


def parse_formats(text: str | Sequence[str]) -> tuple[str, ...]:
    """``png,svg,pdf`` (or a list of them) as a tuple of formats, checked: at least one, each
    known, none twice."""
    items = text.split(",") if isinstance(text, str) else list(text)
    formats = tuple(str(item).strip().lower() for item in items)
    unknown = [f for f in formats if f not in CHART_FORMATS]
    if not formats or unknown or len(set(formats)) != len(formats):
        raise MatchSetupError(f"chart format {','.join(map(str, items))!r}: expected one or more "
                              f"of {', '.join(CHART_FORMATS)}, comma-separated, each once")
    return formats


@dataclass(frozen=True)
class ChartOptions:
    """How charts are written: their formats and the PNG's pixels per inch."""

    formats: tuple[str, ...] = ("png",)
    dpi: int = DEFAULT_DPI

    def __post_init__(self) -> None:
        object.__setattr__(self, "formats", parse_formats(self.formats))
        if isinstance(self.dpi, bool) or not isinstance(self.dpi, int) or not (
                10 <= self.dpi <= MAX_DPI):
            raise MatchSetupError(f"--dpi {self.dpi!r}: expected a whole number from 10 to "
                                  f"{MAX_DPI}")
