"""Steps per second of the vectorized environment (arena.envs.vector) on one core.

    PYTHONPATH=. python3 benchmarks/bench_vecenv.py                  # 4096 boards, random opponent
    PYTHONPATH=. python3 benchmarks/bench_vecenv.py --boards 1024 --opponent negamax:depth=2

A step is one learner move on one board, with the opponent's reply and any reset. Actions are
drawn beforehand from a cache of uniformly random columns, as PufferLib's own Connect Four
speed test does (an occasional full column then ends a game as an illegal move). Rounds
alternate with PettingZoo's connect_four_v3 (the peer most people train in, stepped in a Python
loop with random legal moves, both sides counted as steps) and the ratio of the two is printed
from this one run. PufferLib's C Connect Four is quoted at about 566,000 steps/s on a CPU
(issue 21's figure, for comparison only; it is not measured here).

    python3 benchmarks/bench_vecenv.py --before ../base --opponent negamax:depth=2

With ``--before DIR`` the rounds alternate instead between this checkout's environment and
DIR's, each round in a fresh process of the checkout's own Python (``checkouts.py``: both built
as pip builds them), warmed up before it is timed; the ratio of the medians is printed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from arena.envs.vector import VectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checkouts import ROOT, clean_environment, compare_checkouts, python_for

GOAL = 1_000_000
PUFFERLIB = 566_000


def vector_steps_per_second(env: VectorEnv, actions: np.ndarray, seconds: float) -> float:
    """Steps per second of ``env`` fed the cached ``actions`` for about ``seconds``."""
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(actions[steps % len(actions)])
        steps += 1
    return steps * env.num_envs / (time.perf_counter() - start)


def pettingzoo_steps_per_second(seconds: float, rng: np.random.Generator) -> float:
    """Steps per second of PettingZoo's connect_four_v3 with random legal moves."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return steps / (time.perf_counter() - start)


ROUND = """
import sys, time
import numpy as np
from arena.envs.vector import VectorEnv
boards, opponent, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
env = VectorEnv(boards, opponent=opponent, seed=0)
env.reset()
actions = np.random.default_rng(0).integers(0, env.rules.cols, (1024, boards))
env.step(actions[0])
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    env.step(actions[steps % len(actions)])
    steps += 1
print(steps * boards / (time.perf_counter() - start))
"""


def checkout_round(checkout: Path, boards: int, opponent: str, seconds: float) -> float:
    """Steps per second of ``checkout``'s environment in one round of a fresh process."""
    done = subprocess.run([python_for(checkout), "-c", ROUND, str(boards), opponent,
                           str(seconds)], capture_output=True, text=True, check=True,
                          env=clean_environment(), cwd="/")
    return float(done.stdout.split()[-1])


def against_checkout(before: Path, args: argparse.Namespace) -> int:
    """Alternate rounds of this checkout's environment and ``before``'s."""
    compare_checkouts(ROOT, before)
    ours, theirs = [], []
    print(f"{'round':>5} {'this checkout':>14} {before.name:>14}   steps/s, {args.opponent}")
    for index in range(args.rounds):
        ours.append(checkout_round(ROOT, args.boards, args.opponent, args.seconds))
        theirs.append(checkout_round(before, args.boards, args.opponent, args.seconds))
        print(f"{index + 1:>5} {ours[-1]:>14,.0f} {theirs[-1]:>14,.0f}")
    mine, other = float(np.median(ours)), float(np.median(theirs))
    print(f"median: {mine:,.0f} against {other:,.0f} steps/s ({mine / other:.2f}x) against "
          f"{args.opponent} on {args.boards} boards")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Alternate rounds of the two environments; print each round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=4096, help="boards stepped together")
    parser.add_argument("--opponent", default="random", help="the kernel opponent")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each environment")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round")
    parser.add_argument("--before", type=Path, help="a checkout to alternate with, in place "
                                                     "of PettingZoo")
    args = parser.parse_args(argv)
    if args.before:
        return against_checkout(args.before, args)
    env = VectorEnv(args.boards, opponent=args.opponent, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    actions = rng.integers(0, env.rules.cols, (1024, args.boards))
    env.step(actions[0])  # compiled before timing
    ours, peers = [], []
    print(f"{'round':>5} {'arena VectorEnv':>16} {'PettingZoo':>12}   steps/s")
    for index in range(args.rounds):
        ours.append(vector_steps_per_second(env, actions, args.seconds))
        peers.append(pettingzoo_steps_per_second(args.seconds, rng))
        print(f"{index + 1:>5} {ours[-1]:>16,.0f} {peers[-1]:>12,.0f}")
    mine, theirs = float(np.median(ours)), float(np.median(peers))
    print(f"median: {mine:,.0f} steps/s against {args.opponent} on {args.boards} boards; "
          f"{mine / theirs:,.0f} x PettingZoo's connect_four_v3 ({theirs:,.0f}); "
          f"goal {GOAL:,} ({'met' if mine >= GOAL else 'NOT met'}); "
          f"PufferLib's quoted {PUFFERLIB:,}: x {mine / PUFFERLIB:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
