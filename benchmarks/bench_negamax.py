"""The negamax speed targets of issue 3, checked with arena.analysis.bench (not a test).

    PYTHONPATH=. python benchmarks/bench_negamax.py [--out FILE.csv]

Runs the negamax rows of the default `arena bench` plan and the fresh-process row, prints
the table, then PASS or FAIL per target; the exit status is 1 if any target fails:

- heuristic=none, depth 10, on the `pons` set (Test_L2_R1): >= 5,000,000 nodes per second;
- heuristic=positional+threats, same set: >= 2,000,000 nodes per second;
- depth 4, every heuristic, on the `games` set: median <= 1 ms per move;
- a fresh process makes its first negamax move within 2 seconds.

    PYTHONPATH=. python benchmarks/bench_negamax.py --base DIR [--rounds 3] [--quick]

With ``--base DIR`` (another checkout, say the commit before a change) the same negamax rows
run instead ``--rounds`` times in fresh processes of each checkout's own Python (built as pip
builds it: ``benchmarks/checkouts.py``), the two alternating which goes first; printed per
row: the median nodes a second and milliseconds per move of each, and the ratio this / base
of the medians (of nodes a second; of moves a second for rows without nodes).
"""

from __future__ import annotations

import argparse
import json
import statistics
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
from benchmarks.checkouts import ROOT, child_output, compare_checkouts

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


CHILD = """
import json, sys
from arena.analysis.bench import make_plan, run_bench
plan = [row for row in make_plan(quick=sys.argv[1] == "1") if row.spec.startswith("negamax")]
rows = run_bench(plan, fresh_process=False)
print(json.dumps([[row.agent, row.set, row.nodes_per_second, row.ms_per_move] for row in rows]))
"""


def against_base(base: Path, rounds: int, quick: bool) -> int:
    """The negamax rows in alternating fresh processes of this checkout and ``base``."""
    checkouts = [ROOT, base.resolve()]
    compare_checkouts(*checkouts)
    results: dict[Path, list[list]] = {checkout: [] for checkout in checkouts}
    for round_ in range(rounds):
        for checkout in checkouts if round_ % 2 == 0 else checkouts[::-1]:
            results[checkout].append(json.loads(child_output(checkout, CHILD, int(quick))))
        print(f"round {round_ + 1} of {rounds} done", file=sys.stderr)
    print(f"{'row':<52} {'this nodes/s':>13} {'base nodes/s':>13} {'this ms':>8} "
          f"{'base ms':>8} {'this/base':>9}")
    for index, (agent, position_set, _, _) in enumerate(results[ROOT][0]):
        medians = {}
        for checkout in checkouts:
            rows = [result[index] for result in results[checkout]]
            nodes = [row[2] for row in rows if row[2]]
            medians[checkout] = (statistics.median(nodes) if nodes else None,
                                 statistics.median(row[3] for row in rows))
        (this_nodes, this_ms), (base_nodes, base_ms) = medians[ROOT], medians[checkouts[1]]
        ratio = this_nodes / base_nodes if this_nodes and base_nodes else base_ms / this_ms
        print(f"{agent + ' on ' + position_set:<52} {this_nodes or 0:>13,.0f} "
              f"{base_nodes or 0:>13,.0f} {this_ms:>8.3f} {base_ms:>8.3f} {ratio:>8.2f}x")
    return 0


def main() -> int:
    """Measure, print the table and the verdicts; 1 if a target fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the table to this CSV file")
    parser.add_argument("--base", type=Path, help="a checkout to compare with, alternating")
    parser.add_argument("--rounds", type=int, default=3, help="rounds with --base")
    parser.add_argument("--quick", action="store_true",
                        help="with --base: a few positions per row, each timed once")
    options = parser.parse_args()
    if options.base:
        return against_base(options.base, options.rounds, options.quick)
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
