"""Games a ladder placement takes to reach its target width: the nearest anchors against a round
robin with every anchor, and whether placements with different seeds agree.

    PYTHONPATH=. python benchmarks/bench_placement.py [SPEC ...] [--seeds 1 2] [--target 30]

The anchors are fixed from the committed 5x6 reference run (results/ladder/reference-5x6)
into a ladder in a temporary directory. For each agent and seed, alternating the two ways,
one placement with the nearest-anchor rule and one that plays every anchor each step (the
same games per step in all), each on a fresh copy of the anchored ladder (so no placement
sees another's games). Printed per placement: games played, rating and 95% interval; per
agent: the ratio of games (every anchor / nearest anchors) and whether the placements'
intervals all overlap.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from arena.competitions.ladder.anchors import fix_anchors
from arena.competitions.ladder.placement import DEFAULT_BATCH, Placement, place
from arena.competitions.ladder.store import open_ladder
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest

REFERENCE = Path(__file__).resolve().parent.parent / "results" / "ladder" / "reference-5x6"
DEFAULT_SPECS = ("negamax:depth=3", "mcts:iterations=200")


def one(anchored: Path, work: Path, spec: str, seed: int, strategy: str, target: float,
        jobs: int) -> Placement:
    """One placement of ``spec`` on a fresh copy of the anchored ladder."""
    work.mkdir(parents=True, exist_ok=True)
    db = work / f"{strategy}-{seed}.sqlite"
    shutil.copy(anchored, db)
    request = RunRequest(rules=Rules(rows=5, cols=6), seed=seed, jobs=jobs, progress=False)
    with open_ladder(db) as ladder:
        return place(ladder, spec, request, work / f"{strategy}-{seed}", target=target,
                     batch=DEFAULT_BATCH, strategy=strategy)  # type: ignore[arg-type]


def main() -> None:
    """Place each agent with both rules and every seed, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=DEFAULT_SPECS, metavar="SPEC")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--target", type=float, default=30.0)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        anchored = work / "anchored.sqlite"
        with open_ladder(anchored) as ladder:
            fix_anchors(ladder, str(REFERENCE))
        print(f"target ± {options.target:g} Elo at 95%, {DEFAULT_BATCH} games per step\n")
        print(f"{'agent':<26}{'rule':<9}{'seed':>5}{'games':>7}  rating [95% interval]")
        for spec in options.specs:
            games: dict[str, list[int]] = {"nearest": [], "every": []}
            intervals = []
            for seed in options.seeds:
                for strategy in ("nearest", "every"):
                    done = one(anchored, work / spec.replace(":", "_"), spec, seed, strategy,
                               options.target, options.jobs)
                    estimate = done.estimate
                    assert estimate is not None
                    games[strategy].append(done.games)
                    intervals.append((estimate.low, estimate.high))
                    print(f"{spec:<26}{strategy:<9}{seed:>5}{done.games:>7}  "
                          f"{estimate.rating:+.0f} [{estimate.low:+.0f}, {estimate.high:+.0f}]")
            ratio = sum(games["every"]) / sum(games["nearest"])
            overlap = max(low for low, _ in intervals) <= min(high for _, high in intervals)
            print(f"{spec}: every anchor / nearest anchors = {ratio:.2f} x the games; "
                  f"intervals {'all overlap' if overlap else 'do NOT all overlap'}\n")


if __name__ == "__main__":
    main()
