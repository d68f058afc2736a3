"""How deep negamax-id searches under a few time limits, and how much of them it uses.

    PYTHONPATH=. python benchmarks/bench_deepening.py [SECONDS ...] [--spec SPEC]

For each time limit (default 0.01, 0.1 and 1 second per move) the agent, told the limit by
its game's ``Limit(time=...)`` as the match runner does, plays every third position of the
``games`` set of ``arena bench`` (71 positions, opening to endgame). Printed per limit: the
depth reached per move (median, quartiles, range), the seconds used (median and worst, also
as a share of the limit) and the moves over the limit. The positions where a win or loss is
proven early stop shallow, which is why the minimum depth is small.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arena.analysis.bench import game_positions
from arena.protocol.agent import GameStart, Limit, as_choice
from arena.protocol.registry import make_agent
from arena.rules.board import Rules

DEFAULT_LIMITS = (0.01, 0.1, 1.0)
DEFAULT_SPEC = "negamax-id:heuristic=threats+positional"


def main() -> None:
    """Measure and print one line per time limit."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("limits", nargs="*", type=float, default=DEFAULT_LIMITS,
                        metavar="SECONDS")
    parser.add_argument("--spec", default=DEFAULT_SPEC)
    options = parser.parse_args()
    positions = game_positions()[::3]
    print(f"{options.spec}, {len(positions)} positions")
    print("limit s  depth median [q1, q3] (min-max)  seconds median  worst (share)  over")
    for limit in options.limits:
        agent = make_agent(options.spec)
        agent.new_game(GameStart(Rules(), 1, Limit(time=limit)))
        depths, seconds = [], []
        for position in positions:
            start = time.perf_counter()
            choice = as_choice(agent.choose(position, np.random.default_rng(0)))
            seconds.append(time.perf_counter() - start)
            depths.append(choice.depth or 0)
        d, s = np.array(depths), np.array(seconds)
        q1, median, q3 = np.percentile(d, [25, 50, 75])
        print(f"{limit:7g}  {median:5.0f} [{q1:.0f}, {q3:.0f}] ({d.min()}-{d.max()})"
              f"{np.median(s):>17.4f}  {s.max():.4f} ({s.max() / limit:.2f})"
              f"  {int((s > limit).sum())}")


if __name__ == "__main__":
    main()
