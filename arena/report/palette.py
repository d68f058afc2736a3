"""The colours of every chart and of the window's hints, safe for colour-blind readers.

Categories come from the Okabe-Ito palette (Okabe and Ito 2008, "Color Universal Design"):
win, draw and loss are blue, light grey and orange, which stay apart under deuteranopia and
protanopia and differ in lightness on a greyscale print (tests/unit/test_palette.py checks
the rendered charts). The crosstable's map is cividis (Nuñez, Anderton and Renslow 2018),
made to read the same with and without red-green deficiency, and monotonic in lightness.
No matplotlib here: the pygame window imports it too.
"""

from __future__ import annotations

__all__ = ["CATEGORIES", "DRAW", "INK", "LOSS", "SCORE_MAP", "WIN", "rgb255"]

BLACK = "#000000"
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
"""The eight colours of Okabe and Ito."""

WIN, DRAW, LOSS = BLUE, "#DDDDDD", ORANGE
"""Agent A's wins, draws and losses."""
FIRST, SECOND = BLUE, VERMILLION
"""The first and the second player."""
INK = "#222222"
"""Text, points and reference lines."""
CATEGORIES = (BLUE, ORANGE, BLUISH_GREEN, VERMILLION, REDDISH_PURPLE, SKY_BLUE, YELLOW, BLACK)
"""The colour cycle of lines and points, one per agent or family."""
SCORE_MAP = "cividis"
"""The crosstable's colour map, from a score of 0% (dark blue) to 100% (light yellow)."""


def rgb255(colour: str) -> tuple[int, int, int]:
    """``#RRGGBB`` as a tuple of 0-255 components (for pygame)."""
    value = colour.lstrip("#")
    red, green, blue = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return red, green, blue
