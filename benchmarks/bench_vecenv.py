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
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from arena.envs.vector import VectorEnv

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


def main(argv: list[str] | None = None) -> int:
    """Alternate rounds of the two environments; print each round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=4096, help="boards stepped together")
    parser.add_argument("--opponent", default="random", help="the kernel opponent")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each environment")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round")
    args = parser.parse_args(argv)
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
