"""How fast short commands start, whole process (not a test).

    python benchmarks/bench_startup.py                       # this checkout alone
    python benchmarks/bench_startup.py --base ../base-commit  # against another checkout

Each command runs as a user runs it (``python -c 'from arena.cli import main; main()' ARGS``)
with PYTHONPATH set to the checkout under test, from an empty directory (``python -c`` puts
the current directory first on sys.path), after one untimed run that fills numba's
cache. With --base the two checkouts alternate, run by run, so that both see the same load;
the medians and their ratio (this checkout / base) are printed per command.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARENA = "from arena.cli import main; main()"
EASY = "44444433333322222"  # solved in milliseconds: what is left is start-up
COMMANDS = {
    "arena --help": ["--help"],
    "arena agents": ["agents"],
    f"arena solve {EASY}": ["solve", EASY],
}


def timed(checkout: Path, args: list[str], scratch: Path) -> float:
    """Wall-clock seconds of ``arena ARGS`` run from ``checkout``, in ``scratch``."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", ARENA, *args], check=True, cwd=scratch,
                   env={**os.environ, "PYTHONPATH": str(checkout)},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout to compare against")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command and checkout")
    options = parser.parse_args()
    checkouts = {"this": ROOT} | ({"base": options.base.resolve()} if options.base else {})
    print(f"{'command':<34}" + "".join(f"{name + ' (s)':>12}" for name in checkouts)
          + ("   this/base" if options.base else ""))
    scratch = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    for label, args in COMMANDS.items():
        for checkout in checkouts.values():
            timed(checkout, args, scratch)  # numba's cache filled, files in the page cache
        times: dict[str, list[float]] = {name: [] for name in checkouts}
        for _ in range(options.runs):
            for name, checkout in checkouts.items():
                times[name].append(timed(checkout, args, scratch))
        medians = {name: statistics.median(values) for name, values in times.items()}
        line = f"{label:<34}" + "".join(f"{medians[name]:>12.3f}" for name in checkouts)
        if options.base:
            line += f"   {medians['this'] / medians['base']:>9.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
