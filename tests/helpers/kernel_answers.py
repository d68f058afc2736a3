"""The search kernels' answers on fixed cases, through the API the arena calls (agents, the
solver, the fused loop, the vector environment), as JSON-ready data.

``tests/data/kernel_answers.json`` holds them as the numba kernels gave them at 5c44b0f, the
commit before the compiled core (``python tests/helpers/kernel_answers.py`` prints them, run
by that checkout's Python: ``benchmarks/checkouts.py``); ``test_kernel_answers.py`` asks the
same of this checkout. Only calls that checkout and this one both have are made here.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

if __name__ == "__main__":  # run as a script: this checkout's tests package is importable,
    # after the arena the running Python has installed (another checkout's, in a venv)
    sys.path.append(str(Path(__file__).resolve().parents[2]))

from arena.envs.vector import VectorEnv
from arena.protocol.agent import Choice
from arena.protocol.kernel_agents import kernel_agent
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.playing.fused import play_fused
from arena.runs.store.rows import GameRow
from arena.search.solver import Solver, shared_solver
from connect_four_agents.immediate_win import ImmediateWinAgent
from connect_four_agents.mcts import MCTSAgent
from connect_four_agents.negamax import NegamaxAgent
from connect_four_agents.random_agent import RandomAgent
from connect_four_agents.solver import SolverAgent
from tests.helpers.positions import random_positions

HEURISTICS = ("none", "threats+positional", "window",
              "live-threats+stacked-threats+threats*10+positional")
OTHER_BOARDS = (Rules(rows=5, cols=6, connect=3), Rules(rows=7, cols=8, connect=5),
                Rules(rows=4, cols=5, connect=4))
SMALL = Rules(rows=4, cols=5, connect=4)  # solved whole in milliseconds


def positions() -> list[Position]:
    """Openings, middle games and ends on the standard board, and three other boards."""
    standard = [from_moves(moves) for moves in ("", "4", "4453", "44444433", "1234567")]
    return (standard + random_positions(Rules(), 6, seed=5)
            + [p for rules in OTHER_BOARDS for p in random_positions(rules, 3, seed=6)])


def solver_positions() -> list[Position]:
    """Positions the solver answers within a second without a book: 6 x 7 from 16 discs on,
    the small board from its start, and 5 x 6 (connect 3) anywhere."""
    late = [p for p in random_positions(Rules(), 60, seed=8) if p.plies >= 16][:8]
    return [Position.empty(SMALL), *random_positions(SMALL, 4, seed=9),
            *random_positions(Rules(rows=5, cols=6, connect=3), 3, seed=10), *late]


def choice_of(choice: int | Choice) -> list[Any]:
    """A choice's column and what the agent reported about it."""
    if isinstance(choice, int):
        return [choice]
    return [choice.column, choice.nodes, choice.depth, choice.score, choice.playouts,
            choice.visit_share]


def negamax_answers() -> list[Any]:
    """Root scores and nodes of depth-4 and depth-6 negamax with every heuristic kind, and
    of the seed's own scoring."""
    answers = []
    for depth, heuristic in [(4, h) for h in HEURISTICS] + [(6, "threats+positional")]:
        for tiebreak in ("left", "random"):
            agent = NegamaxAgent(depth=depth, heuristic=heuristic, tiebreak=tiebreak)
            for position in positions():
                scores = agent.root_scores(position)
                choice = agent.choose(position, np.random.default_rng(3))
                answers.append([{str(c): s for c, s in scores.items()}, agent.nodes,
                                choice_of(choice)])
    seed_agent = NegamaxAgent(depth=3, heuristic="live-threats+stacked-threats+threats",
                              wins="flat", seed_scoring=True, seed_clearing_bug=True,
                              seed_live_bug=True, clearing="always", move_order="left-to-right")
    answers += [[{str(c): s for c, s in seed_agent.root_scores(p).items()}, seed_agent.nodes]
                for p in positions()]
    return answers


def mcts_answers() -> list[Any]:
    """MCTS choices with either rollout, two seeds each."""
    answers = []
    for rollout in ("random", "immediate-win"):
        agent = MCTSAgent(iterations=300, rollout=rollout)
        for position in positions():
            answers += [choice_of(agent.choose(position, np.random.default_rng(seed)))
                        for seed in (7, 8)]
    return answers


def solver_answers() -> list[Any]:
    """Every column's exact score, the weak and strong score, and the nodes of each."""
    answers = []
    solver = Solver(table_mb=16)
    for position in solver_positions():
        solver.clear()
        columns = solver.column_scores(position)
        column_nodes = solver.nodes
        solver.clear()
        strong = solver.solve(position)
        strong_nodes = solver.nodes
        solver.clear()
        weak = solver.solve(position, weak=True)
        answers.append([{str(c): s for c, s in columns.items()}, column_nodes, strong,
                        strong_nodes, weak, solver.nodes])
    return answers


def fused_games() -> list[Any]:
    """Games of the fused loop between every kind of kernel agent (adjudicated ones too), as
    their rows of games.csv give them."""
    played = []
    pairings = [((RandomAgent(), ImmediateWinAgent(block=True)), Rules(5, 6, 4), None),
                ((NegamaxAgent(depth=3, heuristic="threats+positional"),
                  MCTSAgent(iterations=40)), Rules(5, 6, 4), None),
                ((SolverAgent(), MCTSAgent(iterations=20, rollout="immediate-win")), SMALL,
                 None),
                ((RandomAgent(), NegamaxAgent(depth=2)), SMALL, 6),
                ((NegamaxAgent(depth=4), RandomAgent()), Rules(), None)]
    for agents, rules, adjudicate in pairings:
        shared_solver().clear()  # the solver's nodes as from a fresh process's table
        settings = GameSettings(rules=rules, seed=11, adjudicate=adjudicate)
        batch = MatchPlan((Pairing("a", "b", 6),), settings).batch(np.arange(6))
        player_a, player_b = (kernel_agent(agent, rules) for agent in agents)
        assert player_a is not None and player_b is not None
        text, _ = play_fused(settings, batch, (player_a, player_b)).text()
        played += [[row.moves, row.result.value, row.termination.value, row.nodes_a,
                    row.nodes_b, row.turns_a, row.turns_b]
                   for row in map(GameRow.from_csv, csv.reader(text.decode().splitlines()))]
    return played


def vector_steps() -> list[Any]:
    """Forty steps of 16 boards against each kind of opponent, with random columns (some
    illegal): what each step returns, summed per board."""
    answers = []
    for opponent, rules in [("random", Rules()), ("immediate-win", Rules(5, 6, 4)),
                            ("negamax:depth=3", Rules()), ("self", Rules(7, 8, 5))]:
        env = VectorEnv(16, opponent=opponent, rules=rules, seed=4)
        actions = np.random.default_rng(5)
        observations, masks = env.reset()
        trace = [observations.sum(axis=(1, 2, 3)).tolist(), masks.sum(axis=1).tolist()]
        for _ in range(40):
            observations, rewards, terminated, _, masks = env.step(
                actions.integers(-1, rules.cols, size=16))
            trace.append([(observations * np.arange(1, rules.cols + 1)).sum(axis=(1, 2, 3))
                          .tolist(), rewards.tolist(), terminated.tolist(),
                          masks.sum(axis=1).tolist()])
        answers.append(trace)
    return answers


def results() -> dict[str, Any]:
    """Every kernel's answers on the fixed cases."""
    out = {"negamax": negamax_answers(), "mcts": mcts_answers(), "solver": solver_answers(),
           "fused_games": fused_games(), "vector": vector_steps()}
    return json.loads(json.dumps(out))  # dict keys as strings, as the file holds them


if __name__ == "__main__":
    print(json.dumps(results()))
