"""The time to write a run's report, this checkout against another (not a test).

    PYTHONPATH=. python benchmarks/bench_report.py --before ../main [-n 1000] [--rounds 5]

Plays one match (default ``negamax:depth=4`` against ``random``, 1000 games, no report) with
this checkout, then writes its report ``--rounds`` times with each checkout, alternating
(before, after, before, ...), each in a new Python process: printed, per checkout, the
median seconds of ``write_report`` itself and of the whole process (imports included), and
the ratio after / before of each. This checkout writes report.html and report-games.html
besides the charts and report.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORT = """
import json, sys, time
start = time.perf_counter()
from arena.report.run_page import write_report
loaded = time.perf_counter()
write_report(sys.argv[1])
print(json.dumps(time.perf_counter() - loaded))
"""


def report_seconds(checkout: Path, run: Path) -> tuple[float, float]:
    """(write_report's seconds, the whole process's) with the arena of ``checkout``."""
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", REPORT, str(run)], check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(checkout)}).stdout
    return json.loads(out), time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("-n", "--games", type=int, default=1000)
    parser.add_argument("--agents", nargs=2, default=["negamax:depth=4", "random"])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    checkouts = {"before": args.before.resolve(), "after": ROOT}
    with tempfile.TemporaryDirectory(prefix="bench-report-") as work:
        run = Path(work) / "run"
        subprocess.run([sys.executable, "-c", "from arena.cli import main; main()", "match",
                        *args.agents, "-n", str(args.games), "--out", str(run), "--quiet",
                        "--no-report"], check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
        for _ in range(args.rounds):
            for name, checkout in checkouts.items():
                times[name].append(report_seconds(checkout, run))
    print(f"{' vs '.join(args.agents)}, {args.games} games, {args.rounds} rounds alternating")
    medians = {name: [statistics.median(t[i] for t in rows) for i in (0, 1)]
               for name, rows in times.items()}
    for name, (report, process) in medians.items():
        print(f"{name:7} write_report {report:6.2f} s   process {process:6.2f} s"
              f"   ({checkouts[name]})")
    print(f"ratio after/before: write_report {medians['after'][0] / medians['before'][0]:.2f}, "
          f"process {medians['after'][1] / medians['before'][1]:.2f}")


if __name__ == "__main__":
    main()
