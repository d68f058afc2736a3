"""The solver's speed beside Pascal Pons' C++ solver and another checkout, in one run.

    PYTHONPATH=. python benchmarks/bench_solver.py --pons /path/to/c4solver [--out FILE.csv]
    PYTHONPATH=. python benchmarks/bench_solver.py --full        # the slow sets in full
    PYTHONPATH=. python benchmarks/bench_solver.py --base DIR    # and DIR's public solve

Pons' solver is not part of this project: fetch its public source
(github.com/PascalPons/connect4), check out a commit whose ``main.cpp`` prints nodes and
microseconds per position (5e8f0b8, May 2019, is the last one; the newest prints only the
score) and build it with ``make c4solver``. It runs in an empty temporary directory, so that
it finds no opening book.

The solvers get the same positions set by set, alternating (C++ first) for ``--rounds``
rounds of which each keeps its fastest (the machine may be shared), and start every
position from an empty transposition table, as Pons' bulk mode does: it clears its table
(2**24 + 9 rows of 5 bytes, 80 MB) before each position, untimed, then times ``solve()``
alone. Ours gets the largest table that fits in as many bytes (64 MB) and the same loop in
the compiled core (``_core.solve_timed``): clear the table, read the processor's cycle
counter, solve, read it again; the counter's rate is taken against the wall clock. (Calling
the solver from Python adds about 0.6 microseconds per position, more when the caches are
cold.) Every score is checked against the set's.

With ``--base DIR`` (another checkout, say the commit before a change) each round also times
the public call ``arena.search.kernels.solver.solve`` on every position of the set, from an
empty table each (cleared untimed), in a fresh process of each checkout's own Python (built
as pip builds it: ``benchmarks/checkouts.py``), warmed on one position first, the two
checkouts alternating which goes first; the time includes the call from Python, the same in
both. The second table gives each checkout's fastest round and the ratio base / this.

Default sets: Test_L3_R1, Test_L2_R1, Test_L2_R2, Test_L1_R1 and the first 50 positions of
Test_L1_R2; ``--full`` runs Test_L1_R2 and Test_L1_R3 in full instead (hours).
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from arena.analysis.scored_positions import ScoredPosition, load_set
from arena.search.database import DATABASE_ENV, OFF
from arena.search.kernels.native import core
from arena.search.solver import Solver
from benchmarks.checkouts import ROOT, child_output, compare_checkouts
from benchmarks.text_table import aligned

DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2:50")
FULL_SETS = ("Test_L1_R2", "Test_L1_R3")
PONS_TABLE_MB = 80
@dataclass(frozen=True)
class Timing:
    """One solver on one set."""

    solver: str
    set: str
    positions: int
    wrong: int
    mean_us: float
    mean_nodes: float
    mnodes_per_second: float


def parse_set_argument(text: str) -> tuple[str, int | None]:
    """``NAME`` or ``NAME:N`` (the first N positions)."""
    name, _, count = text.partition(":")
    return name, int(count) if count else None


def ticks_per_second() -> float:
    """The rate of the cycle counter ``solve_timed`` reads, against the wall clock."""
    start_ticks, start = core.counter(), time.perf_counter()
    time.sleep(0.2)
    return (core.counter() - start_ticks) / (time.perf_counter() - start)


CHILD = """
import os, sys, time
import numpy as np
from arena.analysis.scored_positions import load_set
from arena.search.database import DATABASE_ENV, OFF
from arena.search.kernels import solver as kernels
from arena.search.solver import Solver
os.environ[DATABASE_ENV] = OFF
name, count, table_mb = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
entries = load_set(name, limit=count or None)
solver = Solver(table_mb)
arguments = solver.arguments(entries[0].position)
table, stats = arguments[1], arguments[3]

def solve(entry):
    table[:] = 0
    stats[kernels.NODES] = 0
    position = entry.position
    cur, mask = np.uint64(position.current), np.uint64(position.mask)
    began = time.perf_counter_ns()
    score = kernels.solve(cur, mask, False, *arguments)
    return time.perf_counter_ns() - began, int(score), int(stats[kernels.NODES])

solve(entries[0])  # warm
took = nodes = wrong = 0
for entry in entries:
    ns, score, searched = solve(entry)
    took, nodes, wrong = took + ns, nodes + searched, wrong + (score != entry.score)
print(len(entries), wrong, took / 1e3 / len(entries), nodes / len(entries), nodes / took * 1e3)
"""


def time_checkout(checkout: Path, name: str, count: int | None, label: str,
                  table_mb: float) -> Timing:
    """The public ``solve`` of ``checkout`` on the set, timed from Python, in a fresh process."""
    words = child_output(checkout, CHILD, name, count or 0, table_mb).split()
    positions, wrong = int(words[0]), int(words[1])
    mean_us, mean_nodes, mnodes = (float(word) for word in words[2:])
    return Timing(str(checkout), label, positions, wrong, mean_us, mean_nodes, mnodes)


def time_ours(solver: Solver, entries: list[ScoredPosition], label: str,
              tick_rate: float) -> Timing:
    """Solve every position from an empty table; time the kernel alone, as Pons does
    (``_core.solve_timed``)."""
    arguments = solver.arguments(entries[0].position)
    currents = np.array([entry.position.current for entry in entries], dtype=np.uint64)
    masks = np.array([entry.position.mask for entry in entries], dtype=np.uint64)
    scores, nodes, ticks = (np.zeros(len(entries), dtype=np.int64) for _ in range(3))
    core.solve_timed(currents, masks, *arguments, scores, nodes, ticks)
    seconds = ticks.sum() / tick_rate
    wrong = sum(int(score) != entry.score for score, entry in zip(scores, entries, strict=True))
    count = len(entries)
    return Timing("core", label, count, wrong, 1e6 * seconds / count, nodes.sum() / count,
                  nodes.sum() / seconds / 1e6)


def time_pons(program: Path, entries: list[ScoredPosition], label: str) -> Timing:
    """Run Pons' bulk mode on the positions; read its score, nodes and microseconds."""
    text = "".join(entry.moves + "\n" for entry in entries)
    with tempfile.TemporaryDirectory() as empty:
        done = subprocess.run([str(program.resolve())], input=text, capture_output=True,
                              text=True, cwd=empty, check=True)
    lines = done.stdout.splitlines()
    if len(lines) != len(entries) or any(len(line.split()) != 4 for line in lines):
        sys.exit(f"bench_solver: {program} did not print 'moves score nodes microseconds' "
                 "for every position; build a commit whose main.cpp prints them (5e8f0b8)")
    micros = nodes = wrong = 0
    for entry, line in zip(entries, lines, strict=True):
        _, score, node_count, us = line.split()
        wrong += int(score) != entry.score
        nodes += int(node_count)
        micros += int(us)
    count = len(entries)
    return Timing("pons-c++", label, count, wrong, micros / count, nodes / count,
                  nodes / max(micros, 1))


def format_rows(timings: list[Timing]) -> str:
    """A table with one line per set: ours and C++, and the ratios of ours to C++ (time,
    nodes)."""
    by_set: dict[str, dict[str, Timing]] = {}
    for timing in timings:
        by_set.setdefault(timing.set, {})[timing.solver] = timing
    header = ("set", "positions", "C++ us", "core us", "core / C++ time", "C++ nodes",
              "our nodes", "node ratio", "C++ Mn/s", "core Mn/s", "wrong")
    rows = [header]
    for label, group in by_set.items():
        ours, theirs = group["core"], group.get("pons-c++")
        rows.append((
            label, str(ours.positions),
            f"{theirs.mean_us:,.1f}" if theirs else "", f"{ours.mean_us:,.1f}",
            f"{ours.mean_us / theirs.mean_us:.2f}" if theirs else "",
            f"{theirs.mean_nodes:,.0f}" if theirs else "", f"{ours.mean_nodes:,.0f}",
            f"{ours.mean_nodes / theirs.mean_nodes:.2f}" if theirs else "",
            f"{theirs.mnodes_per_second:.2f}" if theirs else "",
            f"{ours.mnodes_per_second:.2f}",
            f"{ours.wrong}" + (f" / {theirs.wrong}" if theirs else ""),
        ))
    return aligned(rows)


def format_checkouts(timings: list[Timing], base: Path) -> str:
    """A table with one line per set: the public ``solve`` of this checkout and of ``base``
    (fastest rounds) and the ratio base time / this time."""
    by_set: dict[str, dict[str, Timing]] = {}
    for timing in timings:
        by_set.setdefault(timing.set, {})[timing.solver] = timing
    rows = [("set", "positions", "this us", "base us", "base / this", "this nodes",
             "base nodes", "this Mn/s", "base Mn/s", "wrong")]
    for label, group in by_set.items():
        if str(base) not in group:
            continue
        this, other = group[str(ROOT)], group[str(base)]
        rows.append((label, str(this.positions), f"{this.mean_us:,.1f}",
                     f"{other.mean_us:,.1f}", f"{other.mean_us / this.mean_us:.2f}",
                     f"{this.mean_nodes:,.0f}", f"{other.mean_nodes:,.0f}",
                     f"{this.mnodes_per_second:.2f}", f"{other.mnodes_per_second:.2f}",
                     f"{this.wrong} / {other.wrong}"))
    return aligned(rows)


def main() -> int:
    """Measure set by set, print the tables; 1 if any score is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", type=Path, help="a built c4solver (see above)")
    parser.add_argument("--base", type=Path, help="a checkout to compare the public solve with")
    parser.add_argument("--full", action="store_true",
                        help="Test_L1_R2 and Test_L1_R3 in full instead of the default sets")
    parser.add_argument("--sets", nargs="+", metavar="NAME[:N]",
                        help="other sets (shipped names or files), optionally their first N")
    parser.add_argument("--rounds", type=int, default=3,
                        help="measure each set this many times per solver, alternating, and "
                             "keep each solver's fastest round (default 3)")
    parser.add_argument("--table-mb", type=float, default=64.0,
                        help="our table size (default 64, the most that fits in Pons' 80 MB)")
    parser.add_argument("--out", type=Path, help="also write the timings to this CSV file")
    options = parser.parse_args()
    os.environ[DATABASE_ENV] = OFF  # the search itself is measured (Pons' solver has no book)
    if options.pons is not None and not options.pons.is_file():
        parser.error(f"--pons {options.pons}: no such file")
    base = options.base.resolve() if options.base else None
    checkouts = [ROOT, base] if base else []
    if base:
        compare_checkouts(*checkouts)
    solver = Solver(options.table_mb)
    time_ours(solver, load_set("Test_L3_R1", limit=1), "warm-up", 1.0)
    tick_rate = ticks_per_second()
    timings = []
    for spec in options.sets or (FULL_SETS if options.full else DEFAULT_SETS):
        name, count = parse_set_argument(spec)
        entries = load_set(name, limit=count)
        print(f"{spec}: {len(entries)} positions", file=sys.stderr)
        rounds: list[Timing] = []
        for round_number in range(options.rounds):
            if options.pons is not None:
                rounds.append(time_pons(options.pons, entries, spec))
            rounds.append(time_ours(solver, entries, spec, tick_rate))
            mine = {str(checkout): time_checkout(checkout, name, count, spec, options.table_mb)
                    for checkout in (checkouts if round_number % 2 == 0 else checkouts[::-1])}
            rounds.extend(mine.values())
            if base:
                print(f"  round {round_number + 1}: base / this "
                      f"{mine[str(base)].mean_us / mine[str(ROOT)].mean_us:.2f}",
                      file=sys.stderr)
        for solver_name in dict.fromkeys(timing.solver for timing in rounds):
            timings.append(min((timing for timing in rounds if timing.solver == solver_name),
                               key=lambda timing: timing.mean_us))
    print(format_rows(timings))
    if base:
        print(f"\nthe public solve from Python, this checkout against {base}:")
        print(format_checkouts(timings, base))
    if options.out:
        with options.out.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Timing)])
            writer.writeheader()
            writer.writerows(asdict(timing) for timing in timings)
    return 1 if any(timing.wrong for timing in timings) else 0


if __name__ == "__main__":
    sys.exit(main())
