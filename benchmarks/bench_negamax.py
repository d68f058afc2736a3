"""The negamax speed targets of issue 3, checked with arena.analysis.bench (not a test).

    PYTHONPATH=. python benchmarks/bench_negamax.py [--out FILE.csv]

Runs the negamax rows of the default `arena bench` plan and the fresh-process row, prints
the table, then PASS or FAIL per target; the exit status is 1 if any target fails:

- heuristic=none, depth 10, on the `pons` set (Test_L2_R1): >= 5,000,000 nodes per second;
- heuristic=positional+threats, same set: >= 2,000,000 nodes per second;
- depth 4, every heuristic, on the `games` set: median <= 1 ms per move;
- a fresh process makes its first negamax move within 2 seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from arena.analysis.bench import (
    FRESH_PROCESS,
    BenchRow,
    format_table,
    make_plan,
    run_bench,
    write_csv,
)

NODES_PER_SECOND = {
    "negamax:depth=10,heuristic=none": 5_000_000,
    "negamax:depth=10,heuristic=positional+threats": 2_000_000,
}
DEPTH_4_MS = 1.0
FRESH_PROCESS_MS = 2000.0


def verdicts(rows: list[BenchRow]) -> list[tuple[bool, str]]:
    """(passed, description) for every target."""
    results = []
    for row in rows:
        if row.agent in NODES_PER_SECOND:
            target = NODES_PER_SECOND[row.agent]
            measured = row.nodes_per_second or 0.0
            results.append((measured >= target,
                            f"{row.agent}: {measured:,.0f} nodes/s (target >= {target:,})"))
        elif row.set == FRESH_PROCESS:
            results.append((row.ms_per_move <= FRESH_PROCESS_MS,
                            f"fresh process, first move of {row.agent}: "
                            f"{row.ms_per_move:,.0f} ms (target <= {FRESH_PROCESS_MS:,.0f})"))
        elif row.agent.startswith("negamax:depth=4"):
            results.append((row.ms_per_move <= DEPTH_4_MS,
                            f"{row.agent}: median {row.ms_per_move:.3f} ms per move "
                            f"(target <= {DEPTH_4_MS})"))
    return results


def main() -> int:
    """Measure, print the table and the verdicts; 1 if a target fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the table to this CSV file")
    options = parser.parse_args()
    plan = [row for row in make_plan() if row.spec.startswith("negamax")]
    rows = run_bench(plan, progress=lambda message: print(message, file=sys.stderr))
    print(format_table(rows))
    if options.out:
        write_csv(rows, options.out)
    print()
    results = verdicts(rows)
    for passed, description in results:
        print(f"{'PASS' if passed else 'FAIL'}  {description}")
    return 0 if all(passed for passed, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
