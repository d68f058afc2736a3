"""The README's first command, whole, against the agents' think time: this code against
another checkout, in one run with alternating rounds (not a test).

    python benchmarks/bench_command.py BEFORE_DIR [-n GAMES] [--rounds R]

Each round, for BEFORE_DIR (e.g. a worktree of a749f67) and then this checkout, in fresh
processes of that checkout as pip builds it (``benchmarks/checkouts.py``), whose cwd is an
empty directory:

- ``report``: ``write_report(DIR)`` alone on a copy of a finished ``--no-report`` run (the
  call's seconds, as ``bench_report.py`` times it);
- ``command``: ``arena match negamax:depth=4,heuristic=threats+positional negamax:depth=4 -n
  GAMES -q`` into a new directory, report included (the whole process);
- ``no report``: the same with ``--no-report``;
- ``again``: the first command once more on its finished directory.

Printed: the medians, the think time (the agents' seconds per move summed over the games, as
games.csv records them, median over the commands), each command's ratio to it, and the ratios
after/before. One untimed command per checkout first fills its caches (numba's, where it has numba).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

HERE = Path(__file__).resolve().parent.parent
AGENTS = ("negamax:depth=4,heuristic=threats+positional", "negamax:depth=4")
ARENA = "from arena.cli import main; main()"
REPORT = """
import json, sys, time
from pathlib import Path
from arena.report.run_page import write_report
start = time.perf_counter()
write_report(Path(sys.argv[1]))
print(json.dumps(time.perf_counter() - start))
"""
MEASURES = ("report", "command", "no report", "again")


def _run(checkout: Path, cwd: Path, code: str, *args: str) -> tuple[float, str]:
    """Seconds of a fresh Python running ``code`` with ``checkout``'s arena, and its output."""
    env = clean_environment()
    start = time.perf_counter()
    done = subprocess.run([python_for(checkout), "-c", code, *args], env=env, cwd=cwd, check=True,
                          capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout


def think_seconds(run: Path) -> float:
    """The agents' think time of a run: both sides' seconds summed over games.csv."""
    with (run / "games.csv").open(newline="") as file:
        return sum(float(row["time_a"]) + float(row["time_b"]) for row in csv.DictReader(file))


def one_round(checkout: Path, scratch: Path, games: int, pristine: Path) -> dict[str, float]:
    """The four measures of one checkout, and the think time of its first command."""
    match = ["match", *AGENTS, "-n", str(games), "-q"]
    copy = scratch / "report-run"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(pristine, copy)
    _, out = _run(checkout, scratch, REPORT, str(copy))
    times = {"report": float(json.loads(out.strip().splitlines()[-1]))}
    for name, extra in (("command", []), ("no report", ["--no-report"])):
        run = scratch / name.replace(" ", "-")
        shutil.rmtree(run, ignore_errors=True)
        times[name], _ = _run(checkout, scratch, ARENA, *match, *extra, "--out", str(run))
    times["think"] = think_seconds(scratch / "command")
    times["again"], _ = _run(checkout, scratch, ARENA, *match, "--out", str(scratch / "command"))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("-n", "--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sides = {"before": args.before.resolve(), "after": HERE}
    compare_checkouts(*sides.values())
    rows: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    with tempfile.TemporaryDirectory(prefix="bench-command-") as scratch_dir:
        scratch = Path(scratch_dir)
        pristine = scratch / "pristine"
        _run(HERE, scratch, ARENA, "match", *AGENTS, "-n", str(args.games), "-q",
             "--no-report", "--out", str(pristine))
        for checkout in sides.values():  # the caches filled, untimed
            _run(checkout, scratch, ARENA, "match", *AGENTS, "-n", "2", "-q", "--out",
                 str(scratch / "warm" / checkout.name))
        for _ in range(args.rounds):
            for side, checkout in sides.items():
                rows[side].append(one_round(checkout, scratch, args.games, pristine))
    medians = {side: {key: statistics.median(r[key] for r in side_rows)
                      for key in (*MEASURES, "think")} for side, side_rows in rows.items()}
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"medians of {args.rounds} alternating rounds, {args.games} games")
    for side, m in medians.items():
        think = m["think"]
        print(f"{side:<7} " + ", ".join(f"{key} {m[key]:.2f} s" for key in MEASURES)
              + f", think {think:.2f} s")
        print(f"{'':<7} command / think {m['command'] / think:.2f}x, no report / think "
              f"{m['no report'] / think:.2f}x, report alone {m['report'] / think:.2f}x think")
    print("after/before: " + ", ".join(
        f"{key} {medians['after'][key] / medians['before'][key]:.2f}" for key in MEASURES))


if __name__ == "__main__":
    main()
