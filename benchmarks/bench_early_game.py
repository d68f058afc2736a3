"""The early game of 6 x 7 on the surfaces built on the solver, this code against a checkout
from before the 12-ply database (not a test).

    PYTHONPATH=. python benchmarks/bench_early_game.py analyze --before DIR [-n GAMES]
    PYTHONPATH=. python benchmarks/bench_early_game.py dataset [--before DIR] [-n GAMES]
    PYTHONPATH=. python benchmarks/bench_early_game.py positions [--before DIR] [-n POSITIONS]

``analyze``: a run of GAMES games (default 1000) of ``negamax:depth=4`` against itself on
6 x 7 is played once, with this code. Then ``--rounds`` times (default 1), the order turning
round from one round to the next, three copies of it are analysed by ``arena analyze COPY
--jobs J``, each a whole process: DIR's code with its default (from ply 12), this code with
its default (every ply) and this code with ``--from-ply 12``. Printed: the seconds of each
(median over the rounds) and the moves it graded.

``dataset``: ``arena dataset -n GAMES --plies A-B --jobs J --seed 1`` (default 300 games, as
the README's rate), this code with plies 1-42 and 17-42 and, with ``--before``, DIR's with
plies 17-42, in turn; printed: the positions (rows, and distinct ones) and the labelling
rate the command prints, rows a second.

``positions``: the solver, one thread, in a fresh process of this code (and, with
``--before``, of DIR's code, ``--rounds`` rounds alternating which goes first), on POSITIONS
(default 1000) random positions of each phase (``random:1-11``, ``random:12-16``,
``random:17-30``, drawn as ``arena accuracy`` draws them), each from an empty table: the
win/draw/loss search (what adjudication and ``arena analyze`` ask) and the score of every
column (the solver agent, hints, ``arena show --scores``, ``arena accuracy``, ``arena
dataset``); printed: the median, 99th percentile and largest milliseconds (with
``--before``: of the round with the smaller total, for each checkout) and the ratio of the
totals, DIR's / this code's.

Before timing, each checkout analyses a few games once, so that its caches are filled (numba's
compiled kernels, for a checkout that uses numba). Every command runs from an empty folder with an
empty cache directory (no opening book), on ``--jobs`` processes (default 2). The machine's load
average is printed before and after: on a shared machine compare the figures of one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from checkouts import child_output, clean_environment, compare_checkouts, python_for

ROOT = Path(__file__).resolve().parent.parent
ARENA = "from arena.cli import main; main()"
AGENT = "negamax:depth=4"
RATE = re.compile(r"Wrote .*: (\d+) positions .* labelled in ([\d.]+) s \(([\d,]+)/s\)")


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def arena(checkout: Path, scratch: Path, *args: str) -> tuple[str, float]:
    """Run ``arena ARGS`` with ``checkout``'s code, from an empty folder, with the cache
    directory ``scratch/cache``; its output and wall-clock seconds."""
    environment = clean_environment(CONNECT_FOUR_ARENA_CACHE=str(scratch / "cache"))
    with tempfile.TemporaryDirectory(dir=scratch) as empty:
        began = time.perf_counter()
        done = subprocess.run([python_for(checkout), "-c", ARENA, *args], env=environment,
                              check=True, cwd=empty, capture_output=True, text=True)
        return done.stdout, time.perf_counter() - began


def play(scratch: Path, games: int, name: str) -> Path:
    """A run of ``games`` games of ``AGENT`` against itself on 6 x 7, played by this code."""
    run = scratch / name
    arena(ROOT, scratch, "match", AGENT, AGENT, "-n", str(games), "--jobs", "2", "--quiet",
          "--no-report", "--out", str(run))
    return run


def fresh_copy(run: Path, name: str) -> Path:
    """A copy of ``run`` without its analysis."""
    copy = run.parent / name
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("analysis.csv", "blunders.csv"))
    return copy


def graded_moves(run: Path) -> int:
    """The moves graded by the analysis of ``run``."""
    import pandas as pd

    analysis = pd.read_csv(run / "analysis.csv")
    return int((analysis["moves_a"] + analysis["moves_b"]).sum())


def analyze(before: Path, games: int, jobs: int, rounds: int, scratch: Path) -> None:
    """Time ``arena analyze`` of one run three ways (see the module docstring)."""
    ways = {"before, default (from ply 12)": (before, ()),
            "after, default (every ply)": (ROOT, ()),
            "after, --from-ply 12": (ROOT, ("--from-ply", "12"))}
    warm = play(scratch, 4, "warm")
    for checkout in (before, ROOT):
        arena(checkout, scratch, "analyze", str(fresh_copy(warm, "warm-copy")), "-q",
              "--jobs", str(jobs))
    run = play(scratch, games, "run")
    seconds: dict[str, list[float]] = {way: [] for way in ways}
    moves: dict[str, int] = {}
    for round_ in range(rounds):
        order = list(ways) if round_ % 2 == 0 else list(reversed(ways))
        for way in order:
            checkout, extra = ways[way]
            copy = fresh_copy(run, "copy")
            _, wall = arena(checkout, scratch, "analyze", str(copy), "-q", "--jobs",
                            str(jobs), *extra)
            seconds[way].append(wall)
            moves[way] = graded_moves(copy)
    print(f"arena analyze of {games} games of {AGENT} against itself on 6 x 7, --jobs {jobs}, "
          f"median of {rounds} round(s); before = {before}")
    for way in ways:
        wall = statistics.median(seconds[way])
        print(f"{way:32} {wall:8.1f} s  {moves[way]:>8,} moves graded  "
              f"{moves[way] / wall:8,.0f} moves/s")


def dataset(before: Path | None, games: int, jobs: int, scratch: Path) -> None:
    """Label ``arena dataset`` positions three ways (see the module docstring)."""
    ways = [("after", ROOT, "1-42"), ("after", ROOT, "17-42")]
    if before is not None:
        ways.append(("before", before, "17-42"))
        warm = play(scratch, 4, "warm")
        arena(before, scratch, "analyze", str(fresh_copy(warm, "warm-copy")), "-q")
    print(f"arena dataset -n {games} --jobs {jobs} --seed 1 on 6 x 7"
          + (f"; before = {before}" if before else ""))
    for side, checkout, plies in ways:
        out = scratch / f"{side}-{plies}.npz"
        output, wall = arena(checkout, scratch, "dataset", "-n", str(games), "--plies", plies,
                             "--jobs", str(jobs), "--seed", "1", "--force", "--out", str(out))
        found = RATE.search(output)
        assert found is not None, output
        rows, labelling, rate = int(found[1]), float(found[2]), found[3]
        with np.load(out) as data:
            distinct = int((~data["duplicate"]).sum())
        print(f"{side:6} plies {plies:5}  {rows:>7,} positions ({distinct:,} distinct)  "
              f"labelled in {labelling:7.1f} s: {rate}/s  (command {wall:.1f} s)")


PHASES = ("random:1-11", "random:12-16", "random:17-30")
WAYS = ("win/draw/loss", "every column")
POSITIONS = """
import json, sys, time
from arena.analysis.position_sets import load_position_set
from arena.rules.board import Rules
from arena.search.solver import Solver
count, phases = int(sys.argv[1]), sys.argv[2:]
rules = Rules()
solver = Solver(threads=1)
solver.column_scores(load_position_set("random:20", rules, 1).positions[0])  # load all
times = {}
for spec in phases:
    times[spec] = {"win/draw/loss": [], "every column": []}
    for position in load_position_set(spec, rules, count, seed=1).positions:
        for way, call in (("win/draw/loss", lambda p: solver.solve(p, weak=True)),
                          ("every column", solver.column_scores)):
            solver.clear()
            began = time.perf_counter()
            call(position)
            times[spec][way].append(1000 * (time.perf_counter() - began))
print(json.dumps(times))
"""


def positions(before: Path | None, count: int, rounds: int) -> None:
    """Time the solver on random positions of each phase (see the module docstring)."""
    checkouts = [ROOT] + ([before] if before else [])
    results: dict[Path, list[dict]] = {checkout: [] for checkout in checkouts}
    for round_ in range(rounds if before else 1):
        for checkout in checkouts if round_ % 2 == 0 else checkouts[::-1]:
            results[checkout].append(json.loads(child_output(checkout, POSITIONS, count,
                                                             *PHASES)))
    print(f"the solver on {count} random positions a phase, one thread, each from an empty "
          "table: milliseconds, median / 99th percentile / largest"
          + (f"; before = {before}" if before else ""))
    for spec in PHASES:
        for way in WAYS:
            best = {checkout: min((result[spec][way] for result in results[checkout]), key=sum)
                    for checkout in checkouts}
            line = f"{spec:13} {way:14}"
            for checkout, t in best.items():
                name = "this" if checkout == ROOT else "before"
                line += (f"  {name}: {np.median(t):6.1f} / {np.percentile(t, 99):6.0f} / "
                         f"{max(t):6.0f}")
            if before:
                line += f"  before / this: {sum(best[before]) / sum(best[ROOT]):.2f}x"
            print(line)


def main() -> None:
    """Run the benchmark named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", choices=["analyze", "dataset", "positions"])
    parser.add_argument("--before", type=Path, help="a checkout from before the database")
    parser.add_argument("-n", "--games", type=int,
                        help="games (default 1000; dataset 300), positions a phase (1000)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of each command")
    parser.add_argument("--rounds", type=int, default=1,
                        help="analyze, positions with --before: rounds")
    args = parser.parse_args()
    before = args.before.resolve() if args.before else None
    compare_checkouts(ROOT, *([before] if before else []))
    print(f"load average {load()}")
    with tempfile.TemporaryDirectory(prefix="bench-early-") as folder:
        scratch = Path(folder)
        if args.which == "analyze":
            if before is None:
                parser.error("analyze needs --before DIR")
            analyze(before, args.games or 1000, args.jobs, args.rounds, scratch)
        elif args.which == "dataset":
            dataset(before, args.games or 300, args.jobs, scratch)
        else:
            positions(before, args.games or 1000, args.rounds)
    print(f"load average {load()}")


if __name__ == "__main__":
    main()
