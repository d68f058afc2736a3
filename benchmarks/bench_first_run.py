"""A fresh install's first command: seconds from nothing compiled (not a test).

    python benchmarks/bench_first_run.py                    # this checkout
    python benchmarks/bench_first_run.py --base /work/old   # and that checkout, alternating

Each command (a three-game match: with numba's kernels, its time is numba compiling what the
games need; with the compiled core, nothing is compiled at run time) runs in a fresh Python
process with an empty cache of its own (``NUMBA_CACHE_DIR``, for a checkout that uses numba),
as on a machine where the project was just installed, and prints its wall-clock seconds. With
``--base DIR`` (another checkout, say a worktree of the commit before a change) each command
runs there too, right after, and the ratio printed is that checkout's seconds over this one's.
Every process runs in an empty directory; with ``--base`` both checkouts run as pip builds
them (``benchmarks/checkouts.py``).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

ROOT = Path(__file__).resolve().parents[1]
MATCHES = (("random", "random"), ("immediate-win", "random"),
           ("negamax:depth=4,heuristic=threats+positional", "negamax:depth=4"),
           ("mcts:iterations=100", "random"), ("solver", "random"))
"""The first matches timed (A, B): the README's first command's agents among them."""


def cold_seconds(checkout: Path, agents: tuple[str, str]) -> float:
    """Seconds of ``arena match A B -n 3`` with ``checkout``'s arena and nothing compiled."""
    with tempfile.TemporaryDirectory() as scratch:
        env = clean_environment(NUMBA_CACHE_DIR=str(Path(scratch) / "numba"))
        command = [python_for(checkout), "-c", "from arena.cli import main; main()", "match",
                   *agents, "-n", "3", "-j", "1", "--quiet", "--no-report", "--out",
                   str(Path(scratch) / "run")]
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=scratch, check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    compare_checkouts(ROOT, *([args.base] if args.base else []))
    for agents in MATCHES:
        name = " vs ".join(agents)
        ours = cold_seconds(ROOT, agents)
        line = f"{name:<60} {ours:6.1f} s"
        if args.base is not None:
            base = cold_seconds(args.base, agents)
            line += f"   base {base:6.1f} s   base / this {base / ours:5.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
