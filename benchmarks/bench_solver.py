"""The solver's speed beside Pascal Pons' C++ solver, on the same positions, in one run.

    PYTHONPATH=. python benchmarks/bench_solver.py --pons /path/to/c4solver [--out FILE.csv]
    PYTHONPATH=. python benchmarks/bench_solver.py --full        # the slow sets in full

Pons' solver is not part of this project: fetch its public source
(github.com/PascalPons/connect4), check out a commit whose ``main.cpp`` prints nodes and
microseconds per position (5e8f0b8, May 2019, is the last one; the newest prints only the
score) and build it with ``make c4solver``. It runs in an empty temporary directory, so that
it finds no opening book.

Ours is measured twice, the compiled core's search (``_core.solve_timed``) and numba's
(``solve_jit``, which the fused game loop still calls), side by side in this one process, in
alternating order round by round; the table's "core speed-up" is numba's time over the core's.
The solvers get the same positions set by set, alternating (C++ first) for ``--rounds``
rounds of which each keeps its fastest (the machine may be shared), and start every
position from an empty transposition table, as Pons' bulk mode does: it clears its table
(2**24 + 9 rows of 5 bytes, 80 MB) before each position, untimed, then times ``solve()``
alone. Ours gets the largest table that fits in as many bytes (64 MB) and the same loop in
a numba kernel (``bulk_solve``) and in C++ (``solve_timed``): clear the table, read the
processor's cycle counter, solve, read it again; the counter's rate is taken against the
wall clock. (Calling the solver from Python adds about 0.6 microseconds per position, more
when the caches are cold.) Every score is checked against the set's.

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
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from arena.analysis.scored_positions import ScoredPosition, load_set
from arena.search.database import DATABASE_ENV, OFF
from arena.search.kernels import solver as kernels
from arena.search.kernels.native import core
from arena.search.solver import Solver
from benchmarks.text_table import aligned

DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2:50")
FULL_SETS = ("Test_L1_R2", "Test_L1_R3")
PONS_TABLE_MB = 80
SOLVERS = ("numba", "core")
"""Our two searches, measured in the same process one after the other, in alternating order."""


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


@intrinsic
def _cycle_counter(typingctx: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        function = builder.module.declare_intrinsic(
            "llvm.readcyclecounter", (), ir.FunctionType(ir.IntType(64), ()))
        return builder.call(function, ())

    return types.int64(), codegen


cycle_counter = cast(Callable[[], int], _cycle_counter)


@njit
def bulk_solve(currents: np.ndarray, masks: np.ndarray, packed: np.ndarray, tt: np.ndarray,
               scratch: np.ndarray, stats: np.ndarray, books: kernels.Books
               ) -> tuple[np.ndarray, ...]:
    """Pons' bulk mode: per position, clear the table, then time ``solve`` alone (in
    cycle-counter ticks). Returns scores, nodes and ticks."""
    count = currents.shape[0]
    scores = np.zeros(count, dtype=np.int64)
    nodes = np.zeros(count, dtype=np.int64)
    ticks = np.zeros(count, dtype=np.int64)
    for i in range(count):
        tt[:] = 0
        stats[kernels.NODES] = 0
        start = cycle_counter()
        scores[i] = kernels.solve_jit(currents[i], masks[i], False, packed, tt, scratch,
                                      stats, books)
        ticks[i] = cycle_counter() - start
        nodes[i] = stats[kernels.NODES]
    return scores, nodes, ticks


def ticks_per_second() -> float:
    """The rate of the cycle counter, against the wall clock."""
    start_ticks, start = cycle_counter_now(), time.perf_counter()
    time.sleep(0.2)
    return (cycle_counter_now() - start_ticks) / (time.perf_counter() - start)


@njit
def cycle_counter_now() -> int:
    """The cycle counter, read from Python."""
    return cycle_counter()


def time_ours(solver: Solver, entries: list[ScoredPosition], label: str,
              tick_rate: float, kind: str = "numba") -> Timing:
    """Solve every position from an empty table; time the kernel alone, as Pons does:
    numba's search (``kind`` "numba", bulk_solve) or the compiled core's ("core",
    ``_core.solve_timed``, the same loop in C++)."""
    arguments = solver.arguments(entries[0].position)
    currents = np.array([entry.position.current for entry in entries], dtype=np.uint64)
    masks = np.array([entry.position.mask for entry in entries], dtype=np.uint64)
    if kind == "core":
        scores, nodes, ticks = (np.zeros(len(entries), dtype=np.int64) for _ in range(3))
        core.solve_timed(currents, masks, *arguments, scores, nodes, ticks)
    else:
        scores, nodes, ticks = bulk_solve(currents, masks, *arguments)
    seconds = ticks.sum() / tick_rate
    wrong = sum(int(score) != entry.score for score, entry in zip(scores, entries, strict=True))
    count = len(entries)
    return Timing(kind, label, count, wrong, 1e6 * seconds / count, nodes.sum() / count,
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
    """A table with one line per set: the three solvers, the core's speed-up over numba (numba
    time / core time) and the ratios of ours to C++ (time, nodes)."""
    by_set: dict[str, dict[str, Timing]] = {}
    for timing in timings:
        by_set.setdefault(timing.set, {})[timing.solver] = timing
    header = ("set", "positions", "C++ us", "numba us", "core us", "core speed-up",
              "core / C++ time", "C++ nodes", "our nodes", "node ratio", "C++ Mn/s",
              "numba Mn/s", "core Mn/s", "wrong")
    rows = [header]
    for label, group in by_set.items():
        numba, ours, theirs = group["numba"], group["core"], group.get("pons-c++")
        rows.append((
            label, str(ours.positions),
            f"{theirs.mean_us:,.1f}" if theirs else "",
            f"{numba.mean_us:,.1f}", f"{ours.mean_us:,.1f}",
            f"{numba.mean_us / ours.mean_us:.2f}",
            f"{ours.mean_us / theirs.mean_us:.2f}" if theirs else "",
            f"{theirs.mean_nodes:,.0f}" if theirs else "",
            f"{ours.mean_nodes:,.0f}" + ("" if numba.mean_nodes == ours.mean_nodes
                                         else f" (numba {numba.mean_nodes:,.0f})"),
            f"{ours.mean_nodes / theirs.mean_nodes:.2f}" if theirs else "",
            f"{theirs.mnodes_per_second:.2f}" if theirs else "",
            f"{numba.mnodes_per_second:.2f}", f"{ours.mnodes_per_second:.2f}",
            f"{numba.wrong} / {ours.wrong}" + (f" / {theirs.wrong}" if theirs else ""),
        ))
    return aligned(rows)


def main() -> int:
    """Measure set by set, print the table; 1 if any score is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", type=Path, help="a built c4solver (see above)")
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
    solver = Solver(options.table_mb)
    for kind in SOLVERS:
        time_ours(solver, load_set("Test_L3_R1", limit=1), "warm-up", 1.0, kind)  # compile
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
            mine = {kind: time_ours(solver, entries, spec, tick_rate, kind)
                    for kind in (SOLVERS if round_number % 2 == 0 else SOLVERS[::-1])}
            rounds.extend(mine.values())
            print(f"  round {round_number + 1}: core speed-up "
                  f"{mine['numba'].mean_us / mine['core'].mean_us:.2f}", file=sys.stderr)
        for name in dict.fromkeys(timing.solver for timing in rounds):
            timings.append(min((timing for timing in rounds if timing.solver == name),
                               key=lambda timing: timing.mean_us))
    print(format_rows(timings))
    if options.out:
        with options.out.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Timing)])
            writer.writeheader()
            writer.writerows(asdict(timing) for timing in timings)
    return 1 if any(timing.wrong for timing in timings) else 0


if __name__ == "__main__":
    sys.exit(main())
