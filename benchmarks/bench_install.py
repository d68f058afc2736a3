"""Install time and size, this checkout against another, alternating (not a test).

    python benchmarks/bench_install.py BEFORE_DIR [--rounds R] [--extras EXTRAS]

Each round, for BEFORE_DIR (e.g. a worktree of the commit before a change) and then this
checkout, a new venv (no system packages, pip only) gets ``pip install --no-cache-dir
CHECKOUT`` as a user runs it: the checkout built as pip builds it (its compiled core too,
where it has one) and its dependencies from the configured package index. Printed: the median
seconds of the install, the size of the venv's site-packages after it (the same every round),
its largest packages, and the ratios before / this.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_bytes(folder: Path) -> int:
    """The bytes of the files under ``folder``."""
    return sum(path.stat().st_size for path in folder.rglob("*")
               if path.is_file() and not path.is_symlink())


def install(checkout: Path, extras: str) -> tuple[float, dict[str, int]]:
    """Seconds of ``pip install`` of ``checkout`` into a new venv, and the bytes of each
    top-level entry of its site-packages."""
    with tempfile.TemporaryDirectory(prefix="bench-install-") as scratch:
        venv.create(Path(scratch) / "venv", with_pip=True, symlinks=True)
        python = Path(scratch) / "venv" / "bin" / "python"
        target = f"{checkout}[{extras}]" if extras else str(checkout)
        began = time.perf_counter()
        done = subprocess.run([str(python), "-m", "pip", "install", "--no-cache-dir", "--quiet",
                               "--disable-pip-version-check", target],
                              capture_output=True, text=True, cwd=scratch)
        seconds = time.perf_counter() - began
        if done.returncode:
            raise SystemExit(f"{checkout}: pip install failed:\n{done.stderr[-2000:]}")
        site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                               "'purelib'))"], capture_output=True, text=True, check=True)
        packages = Path(site.stdout.strip())
        sizes = {entry.name: folder_bytes(entry) if entry.is_dir() else entry.stat().st_size
                 for entry in packages.iterdir()}
        return seconds, sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--extras", default="", help="extras to install too, e.g. dev")
    args = parser.parse_args()
    checkouts = {"before": args.before.resolve(), "this": ROOT}
    seconds: dict[str, list[float]] = {side: [] for side in checkouts}
    sizes: dict[str, dict[str, int]] = {}
    for round_ in range(args.rounds):
        for side, checkout in checkouts.items():
            took, sizes[side] = install(checkout, args.extras)
            seconds[side].append(took)
            print(f"round {round_ + 1}: {side} installed in {took:.1f} s", file=sys.stderr)
    totals = {side: sum(sizes[side].values()) for side in checkouts}
    for side, checkout in checkouts.items():
        largest = sorted(sizes[side].items(), key=lambda item: -item[1])[:6]
        print(f"{side:6} {checkout}: install {statistics.median(seconds[side]):6.1f} s "
              f"(median of {args.rounds}), site-packages {totals[side] / 2**20:6.1f} MB; "
              "largest: " + ", ".join(f"{name} {size / 2**20:.1f}" for name, size in largest))
    time_ratio = statistics.median(seconds["before"]) / statistics.median(seconds["this"])
    print(f"before / this: install time {time_ratio:.2f}x, "
          f"size {totals['before'] / totals['this']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
