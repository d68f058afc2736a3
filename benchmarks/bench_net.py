"""The shipped network (``agents/data/net.onnx``) against the one of an earlier commit (not a
test).

    PYTHONPATH=. python benchmarks/bench_net.py [--before REF] [--positions N] [-n GAMES]

The earlier network is read from git (``REF:agents/data/net.onnx``, default the commit that
first shipped it) into a scratch folder. Then, each a whole ``arena`` process:

- ``arena accuracy`` of both networks, alone and with a 200-simulation search, on N random
  positions (default 1000) of each phase (``random:4-12``, ``random:12-16``,
  ``random:17-24``, ``random:25-34``, seed 42): printed, each phase's best-move rate of the
  shipped and the earlier network side by side;
- ``arena match net:sims=200 onnx:EARLIER,sims=200 -n GAMES --openings random:4`` (default
  400 games, seed 2026): printed, the shipped network's score with its interval.

The scratch folder is printed and kept (its accuracy and match folders open in pandas).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
FIRST_NET = "951a7e2"
PHASES = ("random:4-12", "random:12-16", "random:17-24", "random:25-34")


def arena(*args: str) -> None:
    """Run ``arena ARGS`` with this checkout's code, its output passed through."""
    command = [sys.executable, "-c", "from arena.cli import main; main()", *args]
    subprocess.run(command, check=True, cwd=ROOT)


def earlier_net(ref: str, scratch: Path) -> Path:
    """The network file of commit ``ref``, written into ``scratch``."""
    data = subprocess.run(["git", "show", f"{ref}:agents/data/net.onnx"], cwd=ROOT,
                          check=True, capture_output=True).stdout
    path = scratch / f"net-{ref}.onnx"
    path.write_bytes(data)
    return path


def accuracy_table(directory: Path, earlier: str) -> pd.DataFrame:
    """Best-move rate by phase, the shipped network beside the earlier one."""
    table = pd.read_csv(directory / "accuracy.csv")
    names = {"net": "new", "net:sims=200": "new sims=200", earlier: "old",
             f"{earlier},sims=200": "old sims=200"}
    table["agent"] = table["agent"].map(names)
    return table.pivot(index="set", columns="agent", values="accuracy").loc[list(PHASES)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=FIRST_NET, help="commit of the earlier network")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("-n", "--games", type=int, default=400)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-net-"))
    earlier = f"onnx:{earlier_net(args.before, scratch)}"
    started = time.perf_counter()
    sets = [option for phase in PHASES for option in ("--set", phase)]
    arena("accuracy", "net", "net:sims=200", earlier, f"{earlier},sims=200", *sets,
          "--positions", str(args.positions), "--seed", "42", "--out", str(scratch / "accuracy"))
    arena("match", "net:sims=200", f"{earlier},sims=200", "-n", str(args.games),
          "--openings", "random:4", "--seed", "2026", "--label", "A=new", "--label", "B=old",
          "--out", str(scratch / "match"))
    print(f"\nbest-move rate by phase ({args.positions} positions each):")
    print(accuracy_table(scratch / "accuracy", earlier).to_string(float_format="{:.3f}".format))
    match = pd.read_csv(scratch / "match" / "summary.csv").iloc[0]
    print(f"\nnet:sims=200 against {args.before}'s: {match['score']:.2%} "
          f"[{match['score_low']:.2%}, {match['score_high']:.2%}] over {match['games']} games "
          f"(+{match['wins']} ={match['draws']} -{match['losses']})")
    print(f"{time.perf_counter() - started:.0f} s; files in {scratch}")


if __name__ == "__main__":
    main()
