"""The charts' colours, read back from rendered charts, stay apart for readers with
deuteranopia or protanopia and on a greyscale print; the simulation and the colour distance
are checked against published values and a peer's tool.

Thresholds: a CIEDE2000 difference of about 1 is the smallest seen between large patches side
by side; for marks the size of a chart's bars and points it takes several times that
(Szafir 2018, "Modeling Color Difference for Visualization Design", IEEE TVCG 24(1): about 5
to 10 for small marks). Colours that must be told apart at a glance, and named apart in a
legend, are asked for 20 (twice the small-mark figure). A greyscale print keeps only
lightness: win, draw and loss must differ by 15 L* (three times the small-mark figure, on
the same scale), and the crosstable's ends by 50.
"""

from __future__ import annotations

from itertools import combinations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure

from arena.report.charts import crosstable_chart, wtl_chart
from arena.report.vision import DEFICIENCIES, delta_e, lightness, simulate, to_lab

APART = 20.0
"""CIEDE2000 difference two colours of a chart keep under every simulated vision."""
GREY_APART = 15.0
"""L* difference of win, draw and loss on a greyscale print."""
ENDS_GREY_APART = 50.0
"""L* difference of the crosstable's 0% and 100% cells on a greyscale print."""


def rendered(fig: Figure) -> np.ndarray:
    """The figure drawn as RGB in [0, 1], rows from the top."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba(), dtype=float)[..., :3] / 255.0


def pixel(image: np.ndarray, fig: Figure, x: float, y: float) -> np.ndarray:
    """The rendered colour at display point (x, y) (origin at the bottom left)."""
    return image[image.shape[0] - 1 - round(y), round(x)]


def wtl_colours() -> dict[str, np.ndarray]:
    """Win, draw and loss as a rendered W/D/L chart shows them (one pairing, a third each)."""
    pairing = pd.DataFrame([{"agent_a": "a", "agent_b": "b", "games": 3, "wins": 1, "draws": 1,
                             "losses": 1, "score": 0.5, "score_low": 0.5, "score_high": 0.5,
                             "interval": "wilson"}])
    fig = wtl_chart(pairing, {"a": "a", "b": "b"})
    image = rendered(fig)
    ax = fig.axes[0]
    colours = {}
    for name, patch in zip(("win", "draw", "loss"), ax.patches, strict=False):
        box = patch.get_window_extent()
        colours[name] = pixel(image, fig, box.x0 + 0.25 * box.width, box.y0 + 0.8 * box.height)
    return colours


def crosstable_ends() -> tuple[np.ndarray, np.ndarray]:
    """The rendered colours of a 0% cell and a 100% cell of the crosstable."""
    points = pd.DataFrame([[0.0, 0.0], [4.0, 0.0]], index=["a", "b"], columns=["a", "b"])
    games = pd.DataFrame([[0, 4], [4, 0]], index=["a", "b"], columns=["a", "b"])
    fig = crosstable_chart(points, games, {"a": "a", "b": "b"})
    image = rendered(fig)
    ax = fig.axes[0]
    corner = ax.transData.transform([(1 - 0.4, 0 - 0.4), (0 - 0.4, 1 - 0.4)])  # off the text
    return pixel(image, fig, *corner[0]), pixel(image, fig, *corner[1])


def distance(one: np.ndarray, other: np.ndarray, vision: str | None) -> float:
    if vision is not None:
        one, other = simulate(one, vision), simulate(other, vision)
    return delta_e(to_lab(one), to_lab(other))


@pytest.fixture(scope="module")
def colours() -> dict[str, np.ndarray]:
    return wtl_colours()


def test_the_chart_renders_the_palette(colours: dict[str, np.ndarray]) -> None:
    from arena.report.palette import DRAW, LOSS, WIN

    for name, colour in (("win", WIN), ("draw", DRAW), ("loss", LOSS)):
        assert colours[name] == pytest.approx(to_rgb(colour), abs=1.5 / 255)


@pytest.mark.parametrize("vision", [None, *DEFICIENCIES])
def test_win_draw_and_loss_stay_apart(colours: dict[str, np.ndarray], vision: str | None
                                      ) -> None:
    for one, other in combinations(colours, 2):
        assert distance(colours[one], colours[other], vision) >= APART, (one, other, vision)


def test_win_draw_and_loss_differ_in_greyscale(colours: dict[str, np.ndarray]) -> None:
    for one, other in combinations(colours, 2):
        assert abs(lightness(colours[one]) - lightness(colours[other])) >= GREY_APART


@pytest.mark.parametrize("vision", [None, *DEFICIENCIES])
def test_the_crosstable_ends_stay_apart(vision: str | None) -> None:
    low, high = crosstable_ends()
    assert distance(low, high, vision) >= APART
    assert lightness(high) - lightness(low) >= ENDS_GREY_APART


def test_the_old_colours_fail_the_check() -> None:
    """The check tells: the old green and red, and RdYlGn's ends, look alike to a reader
    with deuteranopia (the issue measured 0.9)."""
    green, red = to_rgb("#59a14f"), to_rgb("#e15759")
    assert distance(np.array(green), np.array(red), "deuteranopia") < 2
    ends = matplotlib.colormaps["RdYlGn"]([0.0, 1.0])[:, :3]
    assert distance(ends[0], ends[1], "deuteranopia") < APART


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula", Table 1:
    # pairs 1, 7, 13, 17 and 25.
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_test_data(lab1: tuple[float, ...],
                                                  lab2: tuple[float, ...], expected: float
                                                  ) -> None:
    assert delta_e(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_cielab_of_known_colours() -> None:
    """sRGB white, black and red in CIELAB (D65), as colour references give them."""
    assert to_lab((1, 1, 1)) == pytest.approx((100, 0, 0), abs=0.01)
    assert to_lab((0, 0, 0)) == pytest.approx((0, 0, 0), abs=0.01)
    assert to_lab((1, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.01)


@pytest.mark.parametrize("deficiency", ["deuteranopia", "protanopia"])
def test_simulation_matches_colorspacious(deficiency: str) -> None:
    """colorspacious (Smith and van der Walt) applies the same Machado et al. matrices, at
    severity 100, to linear sRGB."""
    colorspacious = pytest.importorskip("colorspacious", reason="needs the dev extra")
    space = {"name": "sRGB1+CVD", "cvd_type": deficiency.replace("opia", "omaly"),
             "severity": 100}
    for colour in ("#0072B2", "#E69F00", "#DDDDDD", "#59a14f", "#e15759", "#336699"):
        theirs = np.clip(colorspacious.cspace_convert(to_rgb(colour), space, "sRGB1"), 0, 1)
        assert simulate(to_rgb(colour), deficiency) == pytest.approx(theirs, abs=2e-3)
