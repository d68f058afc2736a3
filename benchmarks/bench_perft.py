"""Perft speed of the pure-Python rules engine (Position.play / legal_moves) on 6 x 7 connect 4.

    PYTHONPATH=. python3 benchmarks/bench_perft.py            # depths 7 and 8
    PYTHONPATH=. python3 benchmarks/bench_perft.py 5 6 7      # chosen depths (1 to 8)

Prints, per depth, the count, the known answer, the seconds and the leaves counted per second;
exits with status 1 if a count differs from the known answer.
"""

from __future__ import annotations

import argparse
import sys
import time

from arena.rules.board import Position
from arena.rules.perft import perft

KNOWN_PERFT = {1: 7, 2: 49, 3: 343, 4: 2401, 5: 16807, 6: 117649, 7: 823536, 8: 5673234}
DEFAULT_DEPTHS = [7, 8]


def measure(depth: int) -> tuple[int, float]:
    """The perft count from the empty board and the seconds it took."""
    start = time.perf_counter()
    count = perft(Position.empty(), depth)
    return count, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the requested depths, print a table, return 1 if any count is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depths", nargs="*", type=int, metavar="DEPTH",
                        help="perft depths to run (1 to 8, default 7 8)")
    depths = parser.parse_args(argv).depths or DEFAULT_DEPTHS
    unknown = [depth for depth in depths if depth not in KNOWN_PERFT]
    if unknown:
        parser.error(f"no known answer for depth {unknown[0]}: choose from 1 to 8")
    print(f"{'depth':>5} {'count':>10} {'expected':>10} {'seconds':>8} {'leaves/s':>11}  check")
    wrong = 0
    for depth in depths:
        count, seconds = measure(depth)
        ok = count == KNOWN_PERFT[depth]
        wrong += not ok
        print(f"{depth:>5} {count:>10,} {KNOWN_PERFT[depth]:>10,} {seconds:>8.2f} "
              f"{count / max(seconds, 1e-9):>11,.0f}  {'ok' if ok else 'WRONG'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
