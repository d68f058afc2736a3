"""The time to write a two-agent match's report, this code against another checkout (not a
test).

    python benchmarks/bench_report.py BEFORE_DIR [-n GAMES] [--rounds R]

A match of GAMES games (default 1000) of negamax:heuristic=threats+positional against
negamax is played once, with this code, without a report. Then, R times (default 5) and
alternating, a fresh Python process of BEFORE_DIR (e.g. a worktree of the base commit) and
one of this checkout, each as pip builds it (``benchmarks/checkouts.py``), each write the
run's report (``write_report(DIR)``: the PNG charts and report.md, and report.html where the
checkout writes it). Printed: the seconds of the call and of the whole
process (imports included), median of each, and the ratio after/before.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

HERE = Path(__file__).resolve().parent.parent
TIMED = """
import json, sys, time
from pathlib import Path
from arena.report.run_page import write_report
start = time.perf_counter()
write_report(Path(sys.argv[1]))
print(json.dumps(time.perf_counter() - start))
"""


def timed_report(checkout: Path, run: Path) -> tuple[float, float]:
    """Seconds of write_report and of the whole process, with ``checkout``'s code."""
    env = clean_environment()
    start = time.perf_counter()
    done = subprocess.run([python_for(checkout), "-c", TIMED, str(run)], env=env, check=True,
                          capture_output=True, text=True, cwd=checkout)
    return float(json.loads(done.stdout.strip().splitlines()[-1])), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("-n", "--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    compare_checkouts(args.before, HERE)
    with tempfile.TemporaryDirectory(prefix="bench-report-") as scratch:
        run = Path(scratch) / "run"
        subprocess.run([sys.executable, "-c", "from arena.cli import main; main()", "match",
                        "negamax:depth=4,heuristic=threats+positional", "negamax:depth=4",
                        "-n", str(args.games), "-q", "--no-report", "--out", str(run)],
                       check=True, capture_output=True)
        times: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            times["before"].append(timed_report(args.before.resolve(), run))
            times["after"].append(timed_report(HERE, run))
    medians = {side: (statistics.median(t[0] for t in rows), statistics.median(t[1] for t in rows))
               for side, rows in times.items()}
    for side, (call, process) in medians.items():
        print(f"{side:<7} write_report {call:.3f} s, whole process {process:.3f} s "
              f"(median of {args.rounds})")
    print(f"ratio after/before: write_report {medians['after'][0] / medians['before'][0]:.2f}, "
          f"process {medians['after'][1] / medians['before'][1]:.2f}")


if __name__ == "__main__":
    main()
