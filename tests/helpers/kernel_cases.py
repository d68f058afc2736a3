"""A fixed set of numba kernel calls and their results, as JSON-ready data.

``test_pure_python_kernels.py`` computes them once compiled and once in a process with
``NUMBA_DISABLE_JIT=1`` (``python tests/helpers/kernel_cases.py`` prints them), and compares.
The negamax cases call the numba search the fused loop still calls (``negamax.score_root``),
not the agents' ``root_scores``, which is the compiled core's in both processes.
"""

from __future__ import annotations

import csv
import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np

if __name__ == "__main__":  # run as a script: the checkout's tests package is importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.protocol.kernel_agents import kernel_agent
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.playing.fused import play_fused
from arena.runs.store.rows import GameRow
from arena.search.heuristics import parse_heuristic, terms_array
from arena.search.kernels import bitboard, evaluation, negamax
from arena.search.kernels import mcts as mcts_kernels
from arena.search.kernels.endings import game_endings
from connect_four_agents.immediate_win import ImmediateWinAgent
from connect_four_agents.mcts import MCTSAgent
from connect_four_agents.negamax import NegamaxAgent
from connect_four_agents.random_agent import RandomAgent
from tests.helpers.positions import random_positions

U = np.uint64
HEURISTICS = ("none", "threats+positional", "window",
              "live-threats+stacked-threats+threats*10+positional")
OTHER_BOARDS = (Rules(rows=5, cols=6, connect=3), Rules(rows=7, cols=8, connect=5))


def positions() -> list[Position]:
    """Openings, middle games and ends on the standard board, and two other boards."""
    standard = [from_moves(moves) for moves in ("", "4", "4453", "44444433", "1234567")]
    return (standard + random_positions(Rules(), 5, seed=5)
            + [p for rules in OTHER_BOARDS for p in random_positions(rules, 2, seed=6)])


def compiled() -> bool:
    """True if the kernels are numba dispatchers, False if they run as plain Python (the numba
    search the fused loop of numba calls; the agents' is the compiled core's either way)."""
    return not isinstance(mcts_kernels.search_jit, types.FunctionType)


def numba_root_scores(agent: NegamaxAgent, position: Position) -> list[Any]:
    """The numba search's scores of ``agent``'s legal columns, as its ``root_scores`` gives
    them, and the nodes it visited."""
    kernel = agent.kernel_player(position.rules)
    scores = np.empty(position.rules.cols, dtype=np.int64)
    negamax.score_root(scores, U(position.current), U(position.mask), kernel.depth,
                       kernel.search, kernel.terms, kernel.lines, kernel.points, kernel.table,
                       kernel.stats, kernel.stack, kernel.all_ties)
    return [{c: int(scores[c]) for c in kernel.order if scores[c] != negamax.NO_SCORE},
            int(kernel.stats[negamax.NODES])]


def results() -> dict[str, Any]:
    """Every kernel's answers on the fixed cases."""
    cases = positions()
    out: dict[str, Any] = {"negamax": [], "evaluate": [], "rules": [], "mcts": []}
    for heuristic in HEURISTICS:
        for position in cases:
            agent = NegamaxAgent(depth=4, heuristic=heuristic, tiebreak="left")
            out["negamax"].append(numba_root_scores(agent, position))
    seed_agent = NegamaxAgent(depth=3, heuristic="live-threats+stacked-threats+threats",
                              wins="flat", seed_scoring=True, seed_clearing_bug=True,
                              seed_live_bug=True, clearing="always", move_order="left-to-right")
    out["seed_negamax"] = [numba_root_scores(seed_agent, p) for p in cases]
    for position in cases:
        tables = bitboard.board_tables(position.rules)
        windows = evaluation.board_windows(position.rules)
        cur, mask = U(position.current), U(position.mask)
        out["evaluate"].append([int(evaluation.evaluate(
            cur, mask, 1, 1, tables, terms_array(parse_heuristic(heuristic)), *windows))
            for heuristic in HEURISTICS])
        out["rules"].append([int(bitboard.winning_cells(cur, mask, tables)),
                             int(bitboard.playable(mask, tables)),
                             bool(bitboard.has_line(cur ^ mask, tables)),
                             bitboard.legal_columns(mask, tables).tolist()])
        agent = MCTSAgent(iterations=200, rollout="immediate-win")
        choice = agent.choose(position, np.random.default_rng(7))
        out["mcts"].append([choice.column, choice.playouts, choice.score, choice.visit_share])
    state = np.array([12345], dtype=np.uint64)
    out["playouts"] = mcts_kernels.playout_results(U(0), U(0), 100, False, state,
                                                   bitboard.board_array(Rules())).tolist()
    games = [[3, 3, 2, 2, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0], [9], list(range(7)) * 6]
    columns = np.array([c for game in games for c in game], dtype=np.int8)
    offsets = np.cumsum([0] + [len(game) for game in games]).astype(np.int64)
    out["game_endings"] = game_endings(columns, offsets, 6, 7, 4).tolist()
    out["fused_games"] = fused_games()
    return json.loads(json.dumps(out))  # dict keys as strings, as the subprocess prints them


def fused_games() -> list[list[Any]]:
    """Games of the fused loop (random against immediate-win, negamax against MCTS), as their
    rows of games.csv give them (the rows' text written by the compiled core in both
    processes)."""
    settings = GameSettings(rules=Rules(5, 6, 4), seed=11)
    batch = MatchPlan((Pairing("a", "b", 4),), settings).batch(np.arange(4))
    played = []
    for agents in ((RandomAgent(), ImmediateWinAgent(block=True)),
                   (NegamaxAgent(depth=2), MCTSAgent(iterations=30))):
        player_a, player_b = (kernel_agent(agent, settings.rules) for agent in agents)
        assert player_a is not None and player_b is not None
        text, _ = play_fused(settings, batch, (player_a, player_b)).text()
        played += [[row.moves, row.result.value, row.nodes_a, row.nodes_b, row.turns_a]
                   for row in map(GameRow.from_csv, csv.reader(text.decode().splitlines()))]
    return played


if __name__ == "__main__":
    print(json.dumps({"compiled": compiled(), "results": results()}))
