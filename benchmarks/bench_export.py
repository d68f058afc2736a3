"""Kaggle submissions written by `arena export kaggle`, measured (not a test).

    PYTHONPATH=. python benchmarks/bench_export.py cold [SPEC ...]
    PYTHONPATH=. python benchmarks/bench_export.py depth [SECONDS ...] [--spec SPEC]
    PYTHONPATH=. python benchmarks/bench_export.py evaluate [SPEC ...] [-n N] [--opponent NAME]

``cold``: each SPEC is exported, then a new Python process loads the file as Kaggle does
(its last callable) and plays the first move on the empty 6 x 7 board with Kaggle's default
configuration (actTimeout 2 s), five times; printed: the wall-clock seconds from starting
the process to its exit, and the seconds from loading the file to the move (what Kaggle
times), median and worst. Target: under 2 s.

``depth``: the exported search (default ``negamax-id:heuristic=threats+positional``) plays
every third position of the ``games`` set of ``arena bench`` (71 positions, opening to
endgame, as ``bench_deepening.py``) with each time per move (default 0.1, 1 and 2 s, so
deadlines of 80% of them); printed: the depth it finished (median, quartiles, range) and the
seconds used.

``evaluate``: each SPEC is exported and plays ``kaggle_environments.evaluate("connectx",
...)`` against Kaggle's built-in agent (default ``negamax``), N episodes in each seat
(default 50), the two seats in two processes at once; printed: wins, draws and losses
(rewards 1, 0, -1; None: an error or a timeout) per seat, and the win rate. Needs the
``kaggle`` extra.
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

import numpy as np

from arena.analysis.bench import game_positions
from arena.kaggle import template as kaggle_agent
from arena.kaggle.submission import submission_settings, write_submission

DEFAULT_SPECS = ("negamax:depth=6,heuristic=threats+positional",
                 "negamax-id:heuristic=threats+positional", "mcts:time=2")
COLD_RUNS = 5
FIRST_MOVE = """
import json, sys, time
start = time.perf_counter()
namespace = {}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), namespace)
agent = [value for value in namespace.values() if callable(value)][-1]
column = agent({"board": [0] * 42, "mark": 1, "step": 0, "remainingOverageTime": 60},
               {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2, "timeout": 2})
print(json.dumps([column, time.perf_counter() - start]))
"""
EVALUATE = """
import json, sys
from kaggle_environments import evaluate
path, opponent, seat, episodes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
agents = [path, opponent] if seat == 0 else [opponent, path]
rewards = evaluate("connectx", agents, num_episodes=episodes)
print(json.dumps([episode[seat] for episode in rewards]))
"""


def cold(specs: list[str], folder: Path) -> None:
    """Print the first move's time from a fresh process for each spec."""
    print("spec                                         process s (median, worst)  "
          "load + move s (median, worst)")
    for spec in specs:
        path = folder / "main.py"
        write_submission(spec, path, force=True)
        walls, moves = [], []
        for _ in range(COLD_RUNS):
            began = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", FIRST_MOVE, str(path)], check=True,
                                 capture_output=True, text=True).stdout
            walls.append(time.perf_counter() - began)
            moves.append(json.loads(out)[1])
        print(f"{spec:44} {statistics.median(walls):7.3f} {max(walls):7.3f}"
              f"{statistics.median(moves):19.3f} {max(moves):7.3f}")


def depth(limits: list[float], spec: str) -> None:
    """Print the depth the exported search finishes within each time per move."""
    settings = submission_settings(spec)
    board = kaggle_agent.make_board(6, 7, 4)
    positions = game_positions()[::3]
    print(f"{settings.spec} (exported), {len(positions)} positions, deadline "
          f"{kaggle_agent.TIME_SHARE:.0%} of the time per move")
    print("time s  depth median [q1, q3] (min-max)  seconds median  worst")
    for limit in limits:
        search = kaggle_agent.Negamax(board, settings)
        depths, seconds = [], []
        for position in positions:
            began = time.perf_counter()
            deadline = began + kaggle_agent.TIME_SHARE * limit
            _, reached = search.deepening(position.current, position.mask, deadline)
            seconds.append(time.perf_counter() - began)
            depths.append(reached)
        d = np.array(depths)
        q1, median, q3 = np.percentile(d, [25, 50, 75])
        print(f"{limit:6g}  {median:5.0f} [{q1:.0f}, {q3:.0f}] ({d.min()}-{d.max()})"
              f"{np.median(seconds):>19.3f}  {max(seconds):.3f}")


def evaluate(specs: list[str], opponent: str, episodes: int, folder: Path) -> None:
    """Print the results of each spec against Kaggle's ``opponent``, both seats."""
    print(f"against kaggle_environments' {opponent}, {episodes} episodes per seat")
    print("spec                                         seat    W   D   L  None  win rate  min")
    for spec in specs:
        path = folder / "main.py"
        write_submission(spec, path, force=True)
        began = time.perf_counter()
        runs = [subprocess.Popen([sys.executable, "-c", EVALUATE, str(path), opponent,
                                  str(seat), str(episodes)], cwd=folder, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                for seat in (0, 1)]
        rewards = [json.loads(run.communicate()[0].strip().splitlines()[-1]) for run in runs]
        minutes = (time.perf_counter() - began) / 60
        everything = rewards[0] + rewards[1]
        for seat, seat_rewards in enumerate(rewards):
            counts = [seat_rewards.count(value) for value in (1, 0, -1, None)]
            print(f"{spec if seat == 0 else '':44} {'first' if seat == 0 else 'second':6}"
                  f"{counts[0]:4}{counts[1]:4}{counts[2]:4}{counts[3]:6}")
        print(f"{'':44} {'both':6}{everything.count(1):4}{everything.count(0):4}"
              f"{everything.count(-1):4}{everything.count(None):6}"
              f"{everything.count(1) / len(everything):10.1%}{minutes:6.1f}")


def main() -> None:
    """Run the measurement named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("cold", "depth", "evaluate"))
    parser.add_argument("args", nargs="*", help="specs (cold, evaluate) or seconds (depth)")
    parser.add_argument("--spec", default="negamax-id:heuristic=threats+positional")
    parser.add_argument("-n", "--episodes", type=int, default=50)
    parser.add_argument("--opponent", default="negamax")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if options.what == "cold":
            cold(options.args or list(DEFAULT_SPECS), folder)
        elif options.what == "depth":
            depth([float(a) for a in options.args] or [0.1, 1.0, 2.0], options.spec)
        else:
            evaluate(options.args or list(DEFAULT_SPECS), options.opponent, options.episodes,
                     folder)


if __name__ == "__main__":
    main()
