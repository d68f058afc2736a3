"""The documentation's tables of results, its chart gallery and its colour check, made from
the committed reference results in results/ so that they cannot go stale (not a test).

    python benchmarks/readme_figures.py [--run] [--check]

Every block of the docs' pages (docs/**/*.md) between ``<!-- results: NAME -->`` and
``<!-- /results -->`` is written here, from files only: the MCTS ratings (results/mcts/),
seed 002's table and what its rules cost (results/seed-table/), the blunders and best moves by
phase of an analysed match (results/readme/analysed/), the colour distances of the chart palette
(arena.report.vision) and the gallery of every chart kind (those of a run's report from the
registry, ``arena.report.chart_kinds.CHART_KINDS``), shown from the runs' own PNG files (a
Swiss tournament's standings from results/readme/swiss/, played by ``--run`` too).
tests/integration/test_readme_figures.py fails when a number in the docs differs from
those files.

``--run`` first runs the experiments again (experiments/mcts.toml, seed-table.toml and
readme.toml, then `arena analyze --best-moves` and `arena accuracy` for the analysis
charts): runs are deterministic, so finished runs are only reported again, with this code's
charts, and a missing one is played to the same games. ``--check`` writes nothing and exits 1 when a
block of the docs is not what the results give.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

import matplotlib
import pandas as pd
from matplotlib.colors import to_rgb

from arena.protocol.labels import table_labels
from arena.report.best_moves import best_move_lines, load_best_moves
from arena.report.blunders import blunder_section
from arena.report.chart_kinds import CHART_KINDS
from arena.report.markdown import markdown_table
from arena.report.palette import DRAW, LOSS, SCORE_MAP, WIN
from arena.report.vision import DEFICIENCIES, delta_e, lightness, simulate, to_lab
from arena.stats.elo import homogeneity

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- results: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /results -->)",
                   re.DOTALL)
"""A generated block of a page: its opening comment, its text, its closing comment."""
DOCS = ROOT / "docs"
GALLERY_PAGE = Path("docs/explanation/charts.md")
"""The page that shows the chart gallery: its images are linked relative to it."""

MCTS = Path("results/mcts/round-robin")
SEED_TABLE = Path("results/seed-table")
ANALYSED = Path("results/readme/analysed")
SPRT = Path("results/readme/positional-vs-threats")
ACCURACY = Path("results/readme/accuracy")
SWISS = Path("results/readme/swiss")

ACCURACY_COMMAND = ("accuracy", "random", "negamax:depth=2", "negamax:depth=4",
                    "negamax:depth=4,heuristic=threats+positional", "--set", "random:17-24",
                    "--set", "random:25-34", "--positions", "200", "--out", str(ACCURACY), "-q")
SWISS_COMMAND = ("tournament", "random", "immediate-win", "negamax:depth=2", "negamax:depth=3",
                 "negamax:depth=4", "-n", "20", "--swiss", "3", "--out", str(SWISS), "-q")
RUNS = (("run", "experiments/mcts.toml", "-q"), ("run", "experiments/seed-table.toml", "-q"),
        ("run", "experiments/readme.toml", "-q"), ("analyze", str(ANALYSED), "--best-moves"),
        ("report", str(ANALYSED)), ACCURACY_COMMAND, SWISS_COMMAND)
"""The commands behind every figure, in order (``--run``)."""

SEED_ROWS = {
    "random-vs-random": "random vs random *",
    "negamax-d1-vs-random": "depth 1 vs random *",
    "negamax-d2-vs-random": "depth 2 vs random *",
    "negamax-d3-vs-random": "depth 3 vs random *",
    "negamax-d4-vs-random": "depth 4 vs random *",
    "threats-vs-none": "threats vs none",
    "positional-vs-none": "positional vs none",
    "positional-threats-vs-none": "positional, threats vs none",
    "full-vs-positional-threats": "live, stacked, threats, positional vs positional, threats",
}
"""Seed 002's rows in its own words, by the seed-table entry that replays each."""
COST_ROWS = {
    "cost-minimax-rows": "rows 1-5: flat wins, ties to the right, no heuristic",
    "cost-none": "rows 6-9 baseline: ties to the left, no heuristic",
    "cost-threats": "`threats`, cleared always, with the clearing bug",
    "cost-positional": "`positional`",
    "cost-positional-threats": "`threats*10+positional`, with the clearing bug",
    "cost-full": "the full heuristic, with the live-threat bug",
}
"""The seed's rules played against the modern search, by seed-table entry."""

EXAMPLES = {
    "wtl": (ANALYSED / "wtl.png", "Wins, draws and losses per pairing, with A's score"),
    "length": (ANALYSED / "length.png",
               "Game length by result, and each agent's score moving first and second"),
    "cost": (MCTS / "cost.png", "Milliseconds per move (the median game's, its 95% interval "
                                "and 90th percentile) and mean nodes per move"),
    "ratings": (MCTS / "ratings.png", "The rating ladder"),
    "elo-cost": (MCTS / "elo-cost.png",
                 "Elo against the median game's milliseconds per move, with the trade-off "
                 "front"),
    "crosstable": (MCTS / "crosstable.png", "The crosstable"),
    "depth": (MCTS / "depth.png", "Strength against a parameter: search depth"),
    "sweep-PARAMETER": (MCTS / "sweep-iterations.png",
                        "Strength against a parameter: MCTS iterations, on a log scale"),
    "sprt": (SPRT / "sprt.png", "An SPRT's log-likelihood ratio and its bounds"),
    "standings": (SWISS / "standings.png",
                  "A Swiss tournament's standings after each round (`--swiss 3`)"),
    "blunders": (ANALYSED / "blunders.png",
                 "Accuracy against perfect play by phase (after `arena analyze`)"),
    "best-moves": (ANALYSED / "best-moves.png",
                   "Best moves by phase (after `arena analyze --best-moves`)"),
}
"""A committed example of each kind of chart of a run's report (``CHART_KINDS``), by kind:
its PNG and a caption, in the gallery's order."""
OTHER_CHARTS = (
    ("accuracy_chart", ACCURACY / "accuracy.png",
     "Accuracy against cost per move (`arena accuracy`)"),
    ("comparison_chart", SEED_TABLE / "comparison.png",
     "An experiment's results beside their published reference"),
)
"""The charts drawn outside a run's report: the function that draws each, its committed PNG
and a caption."""


def gallery() -> list[tuple[str, Path, str]]:
    """Every chart kind: the function that draws it, the committed PNG and a caption; a run's
    report's kinds are those of the registry, each shown from its example (a kind without
    one is an error), then the other charts."""
    kinds = {entry.kind: entry for entry in CHART_KINDS}
    missing, unknown = sorted(set(kinds) - set(EXAMPLES)), sorted(set(EXAMPLES) - set(kinds))
    if missing or unknown:
        raise SystemExit(f"chart kinds without an example in the gallery: {missing}; "
                         f"examples of no chart kind: {unknown} (see EXAMPLES)")
    return [(kinds[kind].builder.__name__, path, caption)
            for kind, (path, caption) in EXAMPLES.items()] + list(OTHER_CHARTS)


# --------------------------------------------------------------------------- numbers


def signed(value: float) -> str:
    """A whole number with its sign, 0 without one."""
    whole = round(value)
    return f"{whole:+d}" if whole else "0"


def elo_with_interval(rating: float, low: float, high: float) -> str:
    """``+1157 [+1043, +1356]``; the anchor of a rating (no interval) reads ``0 (anchor)``."""
    if low == high == rating == 0:
        return "0 (anchor)"
    return f"{signed(rating)} [{signed(low)}, {signed(high)}]"


def wtl(counts: Sequence[int]) -> str:
    """Counts in the seeds' ``[W, T, L]``."""
    return "[" + ", ".join(str(int(count)) for count in counts) + "]"


def p_value(p: float) -> str:
    """Two significant digits, as the docs quote them."""
    return f"{p:.2g}"


# --------------------------------------------------------------------------- blocks


def mcts_ratings(root: Path) -> str:
    """The MCTS round robin's ratings: spec, Elo with its bootstrap interval, score."""
    ratings = pd.read_csv(root / MCTS / "ratings.csv")
    rows = [(f"`{r['agent']}`", elo_with_interval(r["rating"], r["low"], r["high"]),
             f"{r['score']:.1%}") for r in ratings.to_dict("records")]
    return markdown_table(("agent", "Elo [95% bootstrap interval]", "score"), rows)


def _counts(summary: Path) -> tuple[int, int, int]:
    row = pd.read_csv(summary).iloc[0]
    return int(row["wins"]), int(row["draws"]), int(row["losses"])


def seed_table(root: Path) -> str:
    """Seed 002's rows beside ours under the seed's rules, with the chi-square test's p."""
    experiment = tomllib.loads((root / "experiments/seed-table.toml").read_text())
    references = {m["name"]: m["reference"] for m in experiment["match"] if "reference" in m}
    rows = []
    for name, row in SEED_ROWS.items():
        ours, reference = _counts(root / SEED_TABLE / name / "summary.csv"), references[name]
        rows.append((row, wtl(reference), wtl(ours), p_value(homogeneity(ours, reference).p)))
    games = {sum(_counts(root / SEED_TABLE / name / "summary.csv")) for name in SEED_ROWS}
    ours_header = f"ours, seed's rules ({', '.join(f'{g:,}' for g in sorted(games))} games)"
    return markdown_table(("row", "seed 002", ours_header, "p"), rows)


def seed_cost(root: Path) -> str:
    """Each seed-rules agent against the modern search with the same heuristic, in Elo."""
    rows = []
    for name, rules in COST_ROWS.items():
        r = pd.read_csv(root / SEED_TABLE / name / "summary.csv").iloc[0]
        rows.append((rules, f"`{r['agent_b']}`",
                     elo_with_interval(r["elo"], r["elo_low"], r["elo_high"])))
    return markdown_table(("seed's rules (depth 4)", "against the modern search",
                           "Elo [95% interval]"), rows)


def _analysed_labels(run: Path) -> dict[str, str]:
    """The names of the analysed match's agents, as its report.md shows them."""
    summary = pd.read_csv(run / "summary.csv")
    return table_labels([*summary["agent_a"], *summary["agent_b"]])


def _table_of(lines: list[str]) -> str:
    """The Markdown table among a section's lines."""
    return "\n".join(line for line in lines if line.startswith("|"))


def blunders(root: Path) -> str:
    """The analysed match's blunders per agent and phase, as its report.md shows them."""
    run = root / ANALYSED
    section = blunder_section(run, _analysed_labels(run))
    if section is None:
        raise SystemExit(f"{run} has not been analysed: run `arena analyze {run}`")
    return _table_of(section[0])


def best_moves(root: Path) -> str:
    """The analysed match's best moves per agent and phase, as its report.md shows them."""
    run = root / ANALYSED
    found = load_best_moves(run)
    if found is None:
        raise SystemExit(f"{run} has no moves.csv: run `arena analyze {run} --best-moves`")
    return _table_of(best_move_lines(found, _analysed_labels(run)))


def colour_pairs() -> list[tuple[str, tuple[float, ...], tuple[float, ...]]]:
    """The colours a chart must keep apart: win, draw and loss, the crosstable's ends, and
    (for comparison) the green and red the charts used before."""
    ends = matplotlib.colormaps[SCORE_MAP]([0.0, 1.0])[:, :3]
    return [("win / draw", to_rgb(WIN), to_rgb(DRAW)),
            ("win / loss", to_rgb(WIN), to_rgb(LOSS)),
            ("draw / loss", to_rgb(DRAW), to_rgb(LOSS)),
            ("crosstable 0% / 100%", tuple(ends[0]), tuple(ends[1])),
            ("before: green / red win and loss", to_rgb("#59a14f"), to_rgb("#e15759"))]


def colour_distance(one: Sequence[float], other: Sequence[float], vision: str | None) -> float:
    """CIEDE2000 distance of two colours, as seen with ``vision`` (None: normal vision)."""
    seen = [one, other] if vision is None else [simulate(one, vision), simulate(other, vision)]
    return delta_e(to_lab(seen[0]), to_lab(seen[1]))


def colour_check(root: Path) -> str:
    """CIEDE2000 distances under normal vision, deuteranopia and protanopia, and the
    lightness difference a greyscale print keeps."""
    del root  # from the palette, not from a run
    rows = [(name, *(f"{colour_distance(one, other, vision):.1f}"
                     for vision in (None, *DEFICIENCIES)),
             f"{abs(lightness(one) - lightness(other)):.1f}")
            for name, one, other in colour_pairs()]
    return markdown_table(("colours", "normal vision", *DEFICIENCIES, "greyscale (ΔL*)"), rows)


def chart_gallery(root: Path) -> str:
    """Every chart kind, shown from a committed run's PNG, with its caption."""
    lines = []
    for _, path, caption in gallery():
        if not (root / path).is_file():
            raise SystemExit(f"{path} is missing: run `python benchmarks/readme_figures.py --run`")
        link = "../" * (len(GALLERY_PAGE.parts) - 2) + path.as_posix()
        lines += [f"**{caption}** (`{path}`)", "", f"![{caption}]({link})", ""]
    return "\n".join(lines[:-1])


BLOCKS: dict[str, Callable[[Path], str]] = {
    "mcts-ratings": mcts_ratings,
    "seed-table": seed_table,
    "seed-cost": seed_cost,
    "blunders": blunders,
    "best-moves": best_moves,
    "colour-check": colour_check,
    "chart-gallery": chart_gallery,
}
"""Every generated block of the docs, by name."""


# --------------------------------------------------------------------------- the docs


def readme_blocks(text: str) -> dict[str, str]:
    """A page's generated blocks by name, their text without the comments."""
    return {m["name"]: m["body"] for m in BLOCK.finditer(text)}


def pages(root: Path = ROOT) -> dict[Path, str]:
    """Every page of the docs that holds a generated block, with its text."""
    texts = {path: path.read_text() for path in sorted((root / "docs").rglob("*.md"))}
    return {path: text for path, text in texts.items() if BLOCK.search(text)}


def docs_blocks(root: Path = ROOT) -> dict[str, str]:
    """Every generated block of the docs by name (a name used twice is an error)."""
    found: dict[str, str] = {}
    for path, text in pages(root).items():
        for name, body in readme_blocks(text).items():
            if name in found:
                raise SystemExit(f"block {name} is in more than one page ({path} too)")
            found[name] = body
    return found


def render(root: Path = ROOT) -> dict[str, str]:
    """Every block as the results in ``root`` give it."""
    return {name: make(root) + "\n" for name, make in BLOCKS.items()}


def updated(text: str, blocks: dict[str, str]) -> str:
    """A page's text with each of its blocks replaced; a block that nothing makes is an
    error."""
    unknown = sorted(set(readme_blocks(text)) - set(blocks))
    if unknown:
        raise SystemExit(f"unknown blocks: {unknown}")
    return BLOCK.sub(lambda m: m[1] + blocks[m["name"]] + m[4], text)


def run_experiments(root: Path) -> None:
    """Play (or resume, or only report again) every run the figures come from."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    for args in RUNS:
        print("arena", " ".join(args), flush=True)
        subprocess.run([sys.executable, "-c", "from arena.cli import main; main()", *args],
                       cwd=root, env=env, check=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true",
                        help="run the experiments first (finished runs are only reported again)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a block of docs/ differs from the results")
    options = parser.parse_args(argv)
    if options.run:
        run_experiments(ROOT)
    missing = sorted(set(BLOCKS) - set(docs_blocks(ROOT)))
    if missing:
        raise SystemExit(f"blocks in no page of docs/: {missing}")
    rendered, stale = render(ROOT), []
    for page, text in pages(ROOT).items():
        new = updated(text, rendered)
        stale += [name for name, body in readme_blocks(text).items()
                  if readme_blocks(new)[name] != body]
        if new != text and not options.check:
            page.write_text(new)
    if options.check:
        print("stale blocks: " + ", ".join(stale) if stale else "the docs are up to date")
        return 1 if stale else 0
    print(f"docs/: {len(BLOCKS)} blocks written", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
