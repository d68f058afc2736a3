"""The docs' figures equal the committed results they come from: every number of their
generated tables is read back and compared with results/ (or with the colour check's own
computation), and every chart kind is shown from a committed PNG."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import pytest
from matplotlib.image import imread

from arena.report import analysis_charts, charts, experiment_page
from arena.report.chart_kinds import CHART_KINDS
from arena.stats.elo import homogeneity

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_figures",
                                                  ROOT / "benchmarks" / "readme_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("readme_figures", module)
    spec.loader.exec_module(module)
    return module


figures = _script()
BLOCKS = figures.docs_blocks(ROOT)


def table(name: str) -> list[list[str]]:
    """The rows of the docs' generated table ``name`` (header and rule left out)."""
    lines = [line for line in BLOCKS[name].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def numbers(text: str) -> list[float]:
    """The numbers in ``text``, signs included (``+1157 [+1043, +1356]``, ``[4236, 0, 764]``)."""
    return [float(n) for n in re.findall(r"[+-]?\d+(?:\.\d+)?", text.replace(",", " "))]


def counts(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.slow
def test_every_block_is_what_the_results_give() -> None:
    """The docs as the script writes them from results/ now: a stale number fails here."""
    assert set(BLOCKS) == set(figures.BLOCKS)
    rendered = figures.render(ROOT)
    stale = [name for name in BLOCKS if BLOCKS[name] != rendered[name]]
    assert not stale, f"stale blocks in docs/ {stale}: run python benchmarks/readme_figures.py"


def test_the_mcts_ratings_are_those_of_ratings_csv() -> None:
    ratings = pd.read_csv(ROOT / figures.MCTS / "ratings.csv")
    rows = table("mcts-ratings")
    assert [row[0].strip("`") for row in rows] == ratings["agent"].tolist()
    for row, rating in zip(rows, ratings.to_dict("records"), strict=True):
        elo = numbers(row[1])
        if rating["rating"] == 0 and rating["low"] == rating["high"] == 0:
            assert row[1] == "0 (anchor)"
        else:
            assert elo == [round(rating[k]) for k in ("rating", "low", "high")]
        assert float(row[2].rstrip("%")) == pytest.approx(100 * rating["score"], abs=0.05)
    assert rows[0][0] == "`mcts:iterations=10000`" and rows[0][1].startswith("+1157 ")


def test_the_seed_table_is_the_committed_runs_beside_the_seed() -> None:
    experiment = tomllib.loads((ROOT / "experiments/seed-table.toml").read_text())
    references = [m for m in experiment["match"] if "reference" in m]
    rows = table("seed-table")
    assert len(rows) == len(references) == 9
    for row, entry in zip(rows, references, strict=True):
        summary = pd.read_csv(ROOT / figures.SEED_TABLE / entry["name"] / "summary.csv").iloc[0]
        ours = [int(summary[k]) for k in ("wins", "draws", "losses")]
        assert counts(row[1]) == entry["reference"] and counts(row[2]) == ours
        p = homogeneity(ours, entry["reference"]).p
        assert float(row[3]) == pytest.approx(p, rel=0.05, abs=5e-4)
    assert rows[-1][1:] == ["[399, 244, 357]", "[2279, 1090, 1631]", "0.0042"]


def test_the_cost_of_the_seed_rules_is_each_run_s_elo() -> None:
    rows = table("seed-cost")
    assert len(rows) == len(figures.COST_ROWS)
    for row, name in zip(rows, figures.COST_ROWS, strict=True):
        summary = pd.read_csv(ROOT / figures.SEED_TABLE / name / "summary.csv").iloc[0]
        assert row[1] == f"`{summary['agent_b']}`"
        assert numbers(row[2]) == [round(summary[k]) for k in ("elo", "elo_low", "elo_high")]


def test_the_blunder_table_counts_blunders_csv() -> None:
    """Each agent's blunders and moves, counted in the analysis files by hand."""
    run = ROOT / figures.ANALYSED
    blunders = pd.read_csv(run / "blunders.csv")
    games = pd.read_csv(run / "games.csv", dtype={"moves": str, "opening": str})
    rows = {row[0]: row for row in table("blunders")}
    assert set(rows) == {"minimax d4", "negamax d4 threats+positional"}
    assert counts(rows["minimax d4"][3])[-1] == 132 and rows["minimax d4"][1] == "1206"
    side = blunders["agent"].value_counts()
    (from_ply,) = set(pd.read_csv(run / "analysis.csv")["from_ply"])
    for label, spec in (("minimax d4", "minimax"),
                        ("negamax d4 threats+positional", "negamax:heuristic=threats+positional")):
        assert counts(rows[label][3])[-1] == side[spec]
        moves = sum(_moves_graded(g, spec, from_ply) for g in games.itertuples())
        assert int(rows[label][1]) == moves


def test_the_best_move_table_counts_moves_csv() -> None:
    """Each agent's best moves and moves graded, counted in moves.csv by hand."""
    run = ROOT / figures.ANALYSED
    moves = pd.read_csv(run / "moves.csv")
    rows = {row[0]: row for row in table("best-moves")}
    blunder_rows = {row[0]: row for row in table("blunders")}
    for label, spec in (("minimax d4", "minimax"),
                        ("negamax d4 threats+positional", "negamax:heuristic=threats+positional")):
        mine = moves[moves["agent"] == spec]
        assert int(rows[label][1]) == len(mine) == int(blunder_rows[label][1])
        assert counts(rows[label][2])[-1] == mine["best"].sum()
        assert numbers(rows[label][2])[0] == pytest.approx(100 * mine["best"].mean(), abs=0.05)


def _moves_graded(game: Any, spec: str, from_ply: int) -> int:
    """Moves ``spec`` played in ``game`` (a games.csv row) from ply ``from_ply`` on (the
    analysis' --from-ply), after the opening."""
    moves = game.moves if isinstance(game.moves, str) else ""
    opening = game.opening if isinstance(game.opening, str) else ""
    first = game.agent_a if game.first == "a" else game.agent_b
    mine = 0 if first == spec else 1
    return len([ply for ply in range(max(from_ply, len(opening)), len(moves))
                if ply % 2 == mine])


def test_the_colour_check_is_vision_s() -> None:
    """Every distance as arena.report.vision computes it, and the palette's pairs above the
    test_palette thresholds (20 apart, 15 L*) where the old green and red were not."""
    rows = table("colour-check")
    pairs = figures.colour_pairs()
    assert [row[0] for row in rows] == [name for name, _, _ in pairs]
    for row, (name, one, other) in zip(rows, pairs, strict=True):
        shown = [float(cell) for cell in row[1:]]
        expected = [figures.colour_distance(one, other, vision)
                    for vision in (None, "deuteranopia", "protanopia")]
        assert shown[:3] == pytest.approx(expected, abs=0.051)
        if not name.startswith("before"):
            assert min(shown[:3]) >= 20 and shown[3] >= 15
    assert float(rows[-1][2]) < 2  # the old green and red, to a reader with deuteranopia


def _chart_builders() -> set[str]:
    """Every function that draws a chart: the registry's, the report's, the analysis', the
    experiment's."""
    names = {entry.builder.__name__ for entry in CHART_KINDS}
    names |= {name for name in charts.__all__ if name.endswith("_chart")}
    for module in (analysis_charts, experiment_page):
        names |= {name.lstrip("_") for name, _ in inspect.getmembers(module, inspect.isfunction)
                  if name.endswith("_chart") and _.__module__ == module.__name__}
    return names


def test_the_gallery_shows_every_chart_kind_from_a_committed_png() -> None:
    """Every kind of the registry and every other chart function, each from its PNG."""
    gallery = figures.gallery()
    assert {builder for builder, _, _ in gallery} == _chart_builders()
    assert set(figures.EXAMPLES) == {entry.kind for entry in CHART_KINDS}
    shown = [link.removeprefix("../") for link in
             re.findall(r"!\[[^\]]*\]\(([^)]+)\)", BLOCKS["chart-gallery"])]
    assert shown == [path.as_posix() for _, path, _ in gallery]
    for path in shown:
        image = imread(ROOT / path)
        assert 200 <= image.shape[1] <= 1000 and image.shape[0] >= 150  # one or two columns
        assert (ROOT / path).stat().st_size < 250_000
