"""Several processes writing to one ladder at once: does any game go missing?

    PYTHONPATH=. python benchmarks/bench_ladder_writers.py [--processes 8] [--games 200]

Plays one small match per process (random against immediate-win on 5 x 6, ``--games`` games,
its own seed), then starts every process at once, each running ``arena ladder add`` of its
own run and of the first run (which every process adds), then refitting. Prints the games
expected and found, the runs and fits recorded, and how long the writers took together.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.competitions.ladder.store import open_ladder
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    """Run the writers and print what the ladder holds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--games", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        runs = []
        for index in range(options.processes):
            request = RunRequest(rules=Rules(rows=5, cols=6), seed=index + 1, jobs=1,
                                 progress=False)
            plan = request.match_plan("random", "immediate-win", options.games)
            run_games(plan, work / f"run{index}", request)
            runs.append(work / f"run{index}")
        db = work / "ladder.sqlite"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        started = time.perf_counter()
        children = [subprocess.Popen(
            [sys.executable, "-c", "from arena.cli import main; main()", "ladder", "add",
             str(run), str(runs[0]), "--db", str(db)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for run in runs]
        errors = [child.communicate()[1] for child in children]
        elapsed = time.perf_counter() - started
        failed = [error for child, error in zip(children, errors, strict=True)
                  if child.returncode]
        with open_ladder(db) as ladder:
            games, played_runs, fits = ladder.connection.execute(
                "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM runs), "
                "(SELECT count(*) FROM fits)").fetchone()
        expected = options.processes * options.games
        print(f"{options.processes} processes at once, each adding its own run of "
              f"{options.games} games and the first run, then refitting")
        print(f"games expected {expected}, in the ladder {games}, lost {expected - games}; "
              f"runs {played_runs}; fits {fits}; failed processes {len(failed)}; "
              f"{elapsed:.1f} s for all the writers")
        for error in failed:
            print(error.strip())


if __name__ == "__main__":
    main()
