"""Where the README's first command spends its time, phase by phase (not a test).

    python benchmarks/command_phases.py [-n GAMES] [--rounds R]

Runs ``arena match negamax:depth=4,heuristic=threats+positional negamax:depth=4 -n GAMES -q`` into a
new directory, with ``--no-report`` and without, ``R`` times each alternating, each in a fresh
Python process whose cwd is an empty directory. The process marks the wall clock when it starts,
when the ``match`` command's code is imported, and when the runner starts and ends building and
warming the agents (``resolve_agents``: the kernels loaded, and for a checkout that uses numba,
numba's import and start-up), playing (``_play``), and writing the run (``run_games``), and when the
report is written (``finish_run``); this process marks when it started the child and when the child
ended. Printed: the median seconds of each phase, the agents' think time (games.csv's ``time_a +
time_b`` summed), and the whole process over the think time.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment

HERE = Path(__file__).resolve().parent.parent
AGENTS = ("negamax:depth=4,heuristic=threats+positional", "negamax:depth=4")
CHILD = """
import json, sys, time
marks = [("start", time.time())]
def mark(name):
    marks.append((name, time.time()))
def marked(module, name, before=None, after=None):
    function = getattr(module, name)
    def wrapper(*args, **kwargs):
        if before:
            mark(before)
        try:
            return function(*args, **kwargs)
        finally:
            if after:
                mark(after)
    setattr(module, name, wrapper)
import arena.cli.match as command
from arena.cli import main
import arena.runs.playing.runner as runner
mark("imported")
marked(runner, "resolve_agents", "planned", "agents")
marked(runner, "_play", None, "games")
marked(command, "run_games", None, "written")
marked(command, "finish_run", None, "report")
marks_file = sys.argv.pop(1)
try:
    main()  # on the process's command line, as the arena command runs
except SystemExit as end:
    if end.code:
        raise
finally:
    mark("done")
    with open(marks_file, "w") as file:
        json.dump(marks, file)
"""
PHASES = (
    ("python", "start", "the interpreter starts (this process's Popen to the child's first line)"),
    ("imports", "imported", "arena.cli and the match command's modules (click, numpy, arena)"),
    ("plan", "planned", "options parsed, the plan and the run directory"),
    ("agents", "agents", "agents built and warmed: the kernels loaded"),
    ("games", "games", "the games played (fused loop), rows appended to games.csv"),
    ("written", "written", "games.csv in order, summary.csv, meta.json"),
    ("report", "report", "the report (charts and pages; in a child prepared beforehand)"),
    ("exit", "exit", "the table printed, the report child let go, the interpreter's exit"),
)


def one_command(scratch: Path, no_report: bool, games: int) -> dict[str, float]:
    """The seconds of each phase of one command, and its agents' think time."""
    run = scratch / ("no-report" if no_report else "report")
    marks_file = scratch / "marks.json"
    args = ["match", *AGENTS, "-n", str(games), "-q", "--out", str(run)]
    if no_report:
        args.append("--no-report")
    env = clean_environment()
    began = time.time()
    subprocess.run([sys.executable, "-c", CHILD, str(marks_file), *args], env=env, cwd=scratch,
                   check=True, capture_output=True)
    ended = time.time()
    marks = dict(json.loads(marks_file.read_text()))
    marks["exit"] = ended
    marks.setdefault("report", marks["written"])
    seconds, last = {}, began
    for name, key, _ in PHASES:
        seconds[name] = marks[key] - last
        last = marks[key]
    seconds["whole"] = ended - began
    with (run / "games.csv").open(newline="") as file:
        seconds["think"] = sum(float(row["time_a"]) + float(row["time_b"])
                               for row in csv.DictReader(file))
    for path in sorted(run.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    run.rmdir()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rows: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="command-phases-") as scratch_dir:
        scratch = Path(scratch_dir)
        one_command(scratch, True, 2)  # the caches filled, untimed
        for _ in range(args.rounds):
            for no_report in (True, False):
                rows[no_report].append(one_command(scratch, no_report, args.games))
    medians = {no_report: {key: statistics.median(row[key] for row in side)
                           for key in side[0]} for no_report, side in rows.items()}
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"medians of {args.rounds} alternating rounds, {args.games} games")
    print(f"{'phase':<9}{'--no-report':>12}{'report':>9}  what")
    for name, _, what in PHASES:
        print(f"{name:<9}{medians[True][name]:>11.3f}s{medians[False][name]:>8.3f}s  {what}")
    for key in ("whole", "think"):
        print(f"{key:<9}{medians[True][key]:>11.3f}s{medians[False][key]:>8.3f}s")
    print(f"{'/ think':<9}{medians[True]['whole'] / medians[True]['think']:>11.2f}x"
          f"{medians[False]['whole'] / medians[False]['think']:>8.2f}x")


if __name__ == "__main__":
    main()
