"""Whole commands cold and warm, this checkout against another, alternating (not a test).

    python benchmarks/bench_cold.py BEFORE_DIR [--rounds R] [--quick]

The commands of issue 39's measures: ``arena --help``, ``arena solve 4453``, a 10-game match of
random players and the README's first command (``--quick``: without the last, whose cold run took
about a minute before the compiled core). Each round, for BEFORE_DIR (e.g. a worktree of the commit
before a change) and then this checkout, each as pip builds it (``benchmarks/checkouts.py``), every
command runs twice in fresh processes, each from an empty directory of its own: ``cold`` with
nothing cached (an empty arena cache directory, and an empty numba cache for a checkout that uses
numba), then ``warm`` with the caches the cold run left. Printed: the median seconds of each command
cold and warm per checkout, and the ratios before / this.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

ROOT = Path(__file__).resolve().parents[1]
ARENA = "from arena.cli import main; main()"
README = ["match", "negamax:depth=4,heuristic=threats+positional", "negamax:depth=4",
          "-n", "1000", "--quiet"]
COMMANDS = {
    "arena --help": ["--help"],
    "arena solve 4453": ["solve", "4453"],
    "arena match random random -n 10 --no-report": ["match", "random", "random", "-n", "10",
                                                    "--no-report", "--quiet"],
    "README's first command": README,
}


def run_seconds(checkout: Path, arguments: list[str], caches: Path) -> float:
    """Wall-clock seconds of ``arena ARGUMENTS`` by ``checkout``'s Python, from a new empty
    directory, with its numba and arena caches under ``caches``."""
    env = clean_environment(NUMBA_CACHE_DIR=str(caches / "numba"),
                            XDG_CACHE_HOME=str(caches / "xdg"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed arena has its .pyc files
    with tempfile.TemporaryDirectory(prefix="arena-cold-") as scratch:
        began = time.perf_counter()
        subprocess.run([python_for(checkout), "-c", ARENA, *arguments], check=True,
                       cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - began


def cold_and_warm(checkout: Path, arguments: list[str]) -> tuple[float, float]:
    """The command's seconds with nothing cached, then again with what that run cached."""
    with tempfile.TemporaryDirectory(prefix="arena-caches-") as caches:
        cold = run_seconds(checkout, arguments, Path(caches))
        return cold, run_seconds(checkout, arguments, Path(caches))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="leave out the README's command")
    args = parser.parse_args()
    checkouts = (args.before.resolve(), ROOT)
    compare_checkouts(*checkouts)
    commands = {name: arguments for name, arguments in COMMANDS.items()
                if not (args.quick and arguments is README)}
    times: dict[tuple[str, Path, str], list[float]] = {}
    for round_ in range(args.rounds):
        for name, arguments in commands.items():
            for checkout in checkouts:
                cold, warm = cold_and_warm(checkout, arguments)
                times.setdefault((name, checkout, "cold"), []).append(cold)
                times.setdefault((name, checkout, "warm"), []).append(warm)
        print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'command':<46} {'':4} {'before':>8} {'this':>8} {'before/this':>12}")
    for name in commands:
        for state in ("cold", "warm"):
            before, this = (statistics.median(times[name, checkout, state])
                            for checkout in checkouts)
            print(f"{name:<46} {state:4} {before:7.2f}s {this:7.2f}s {before / this:11.1f}x")


if __name__ == "__main__":
    main()
