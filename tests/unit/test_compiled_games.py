"""The compiled core's fused game loop (``_core.play_games``) on every kind of board, for every
pairing of the kinds (random, immediate-win, negamax, MCTS, solver), the solver adjudicating or
not, from openings, either side first: each game is one the rules allow, ends as the rules (or
the solver, when adjudicated) say, and is the same game played again with fresh kernels, node
counts and the search arrays left alike; the games are numba's as test_kernel_answers recorded
them. Bad arrays are refused, and other threads run while it plays."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.protocol.kernel_agents import kernel_agent
from arena.rules.board import Position, Rules
from arena.rules.notation import play_moves
from arena.runs.planning.plan import GameSettings
from arena.runs.playing.fused import _arguments
from arena.search.kernels import games
from arena.search.kernels import solver as kernels_solver
from arena.search.kernels.native import core
from arena.search.solver import Solver, shared_solver
from arena.search.table_size import MIN_TABLE_MB
from connect_four_agents.immediate_win import ImmediateWinAgent
from connect_four_agents.mcts import MCTSAgent
from connect_four_agents.negamax import NegamaxAgent
from connect_four_agents.random_agent import RandomAgent
from connect_four_agents.solver import SolverAgent

BOARDS = [Rules(6, 7, 4), Rules(5, 6, 4), Rules(4, 5, 3), Rules(7, 8, 5), Rules(6, 9, 4),
          Rules(3, 3, 3), Rules(1, 5, 3), Rules(5, 1, 3), Rules(7, 8, 4)]
SOLVED_BOARDS = [Rules(4, 5, 3), Rules(3, 3, 3), Rules(1, 5, 3), Rules(5, 1, 3),
                 Rules(4, 4, 4), Rules(4, 5, 4)]  # boards a solver player solves at once
HEURISTICS = ["none", "positional", "threats", "live-threats", "stacked-threats", "window",
              "threats+positional"]


def _agent(kind: str, draw: st.DrawFn) -> object:
    if kind == "random":
        return RandomAgent()
    if kind == "immediate-win":
        return ImmediateWinAgent(block=draw(st.booleans()))
    if kind == "solver":
        return SolverAgent(blunder=draw(st.sampled_from([0.0, 0.0, 0.3, 1.0])))
    if kind == "mcts":
        return MCTSAgent(iterations=draw(st.integers(1, 120)),
                         c=draw(st.sampled_from([0.0, 0.5, 1.4, 3.0])),
                         rollout=draw(st.sampled_from(["random", "immediate-win"])))
    return NegamaxAgent(depth=draw(st.integers(1, 4)),
                        heuristic=draw(st.sampled_from(HEURISTICS)),
                        tiebreak=draw(st.sampled_from(["random", "first", "left", "right"])),
                        move_order=draw(st.sampled_from(["centre-first", "left-to-right"])))


@st.composite
def batches(draw: st.DrawFn) -> tuple[Rules, list[str], np.ndarray, np.ndarray, np.ndarray,
                                      int | None]:
    """A board, the two agents' kinds and the batch: seeds, starting positions, first movers,
    and the adjudication ply (None: none). A solver plays or adjudicates on small boards."""
    solving = draw(st.booleans())
    rules = draw(st.sampled_from(SOLVED_BOARDS if solving else BOARDS))
    kinds = [draw(st.sampled_from(["random", "immediate-win", "negamax", "mcts"]
                                  + (["solver"] if solving else []))) for _ in range(2)]
    cells = rules.rows * rules.cols
    adjudicate = draw(st.none() | st.integers(0, cells - 1)) if solving else None
    count = draw(st.integers(0, 12))
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    starts = []
    for _ in range(count):
        position = Position.empty(rules)
        for _ in range(draw(st.integers(0, 4))):
            legal = position.legal_moves()
            if position.is_terminal or not legal:
                break
            child = play_moves(position, [int(rng.choice(legal))])
            if child.is_terminal:
                break
            position = child
        starts.append((position.current, position.mask))
    seeds = np.array([draw(st.integers(0, 2**64 - 1)) for _ in range(count)], dtype=np.uint64)
    firsts = np.array([draw(st.integers(0, 1)) for _ in range(count)], dtype=np.int64)
    agents = [_agent(kind, draw) for kind in kinds]
    return (rules, agents, seeds, np.array(starts, dtype=np.uint64).reshape(-1, 2), firsts,
            adjudicate)


def _fresh_solver(rules: Rules) -> games.SolverArrays:
    """Solver arrays with an empty table (the shared one would remember the other loop's
    searches) and the shipped books."""
    _, _, _, _, books = shared_solver().arguments(Position.empty(rules))
    return games.SolverArrays(kernels_solver.new_table(kernels_solver.MIN_TABLE_BITS),
                              kernels_solver.new_scratch(rules.rows * rules.cols),
                              kernels_solver.new_stats(), books)


def _played(rules: Rules, agents: list[object], seeds: np.ndarray, starts: np.ndarray,
            firsts: np.ndarray,
            adjudicate: int | None = None) -> tuple[games.Outcomes, list[np.ndarray]]:
    """The outcomes of a batch, and the negamax players' and the solver's tables and stats
    and the MCTS players' trees after it (fresh kernels each time: the same tables to start
    from)."""
    kernels = tuple(kernel_agent(agent, rules) for agent in agents)
    assert None not in kernels
    arguments = list(_arguments(rules, kernels,  # type: ignore[arg-type]
                                GameSettings(rules=rules, adjudicate=adjudicate)))
    if arguments[-1] is not None:
        arguments[-1] = _fresh_solver(rules)
    ply = games.NO_ADJUDICATION if adjudicate is None else adjudicate
    out = games.new_outcomes(len(seeds), rules.rows * rules.cols)
    core.play_games(seeds, starts, firsts, ply, *arguments, *out)
    searches = [array for arrays in [*arguments[3:5], arguments[-1]] if arrays is not None
                for array in (arrays.table, arrays.stats)]
    searches += [array for tree in arguments[5:7] if tree is not None for array in tree]
    return out, searches


@settings(max_examples=150, deadline=None)
@given(batches())
def test_the_compiled_loop_plays_games_by_the_rules_and_again_the_same(batch: tuple) -> None:
    rules, agents, seeds, starts, firsts, adjudicate = batch
    ours, our_searches = _played(rules, agents, seeds, starts, firsts, adjudicate)
    again, searches_again = _played(rules, agents, seeds, starts, firsts, adjudicate)
    for name in games.Outcomes._fields:
        if name != "cycles":
            np.testing.assert_array_equal(getattr(ours, name), getattr(again, name), name)
    for mine, other in zip(our_searches, searches_again, strict=True):
        np.testing.assert_array_equal(mine, other)
    assert (ours.cycles >= 0).all()
    opening = np.array([bin(int(m)).count("1") for m in starts[:, 1]], dtype=np.int64)
    assert (ours.turns.sum(axis=1) == ours.plies - opening).all()
    for g, (cur, mask) in enumerate(starts.tolist()):
        end = play_moves(Position(rules, cur, mask),
                         [int(c) for c in ours.moves[g, :ours.plies[g] - opening[g]]])
        side_to_move = (firsts[g] + end.plies) % 2  # 0: agent A, as the loop counts sides
        if ours.endings[g] == games.ADJUDICATED:
            assert end.plies == max(adjudicate, opening[g]) and not end.is_terminal
            score = Solver(MIN_TABLE_MB).solve(end)
            expected = -1 if score == 0 else side_to_move if score > 0 else 1 - side_to_move
            assert ours.winners[g] == expected
        else:
            assert end.is_terminal
            assert (ours.endings[g] == games.FOUR_IN_A_ROW) == (end.winner is not None)
            assert ours.winners[g] == (-1 if end.winner is None else 1 - side_to_move)


def test_full_games_of_random_players_end_by_the_rules() -> None:
    rules = Rules()
    seeds = np.arange(2000, dtype=np.uint64)
    starts = np.zeros((2000, 2), dtype=np.uint64)
    firsts = np.arange(2000, dtype=np.int64) % 2
    agents = [RandomAgent(), RandomAgent()]
    ours, _ = _played(rules, agents, seeds, starts, firsts)
    for game in range(50):  # each game replayed by the rules gives its ending and winner
        moves = [int(column) for column in ours.moves[game, :ours.plies[game]]]
        end = play_moves(Position.empty(rules), moves)
        assert end.is_terminal
        won = ours.endings[game] == games.FOUR_IN_A_ROW
        assert won == (end.winner is not None)
    assert set(np.unique(ours.endings)) <= {games.FOUR_IN_A_ROW, games.BOARD_FULL}


def _random_call(agent: object = None, **changes: object) -> dict[str, object]:
    rules = Rules()
    kernels = (kernel_agent(RandomAgent(), rules),
               kernel_agent(agent or NegamaxAgent(depth=2), rules))  # type: ignore[arg-type]
    packed, table, reals, negamax_a, negamax_b, tree_a, tree_b, _ = _arguments(
        rules, kernels, GameSettings())  # type: ignore[arg-type]
    out = games.new_outcomes(3, 42)
    call = dict(seeds=np.arange(3, dtype=np.uint64), starts=np.zeros((3, 2), dtype=np.uint64),
                firsts=np.zeros(3, dtype=np.int64), adjudicate=games.NO_ADJUDICATION,
                packed=packed, settings=table, reals=reals, negamax_a=negamax_a,
                negamax_b=negamax_b, tree_a=tree_a, tree_b=tree_b, solver=None,
                **out._asdict())
    call.update(changes)
    return call


@pytest.mark.parametrize(("changes", "message"), [
    ({"firsts": np.zeros(2, dtype=np.int64)}, "a row per game"),
    ({"moves": np.zeros((3, 41), dtype=np.uint8)}, "every cell"),
    ({"starts": np.array([[0, 2], [0, 0], [0, 0]], dtype=np.uint64)}, "game 0 starts"),
    ({"starts": np.array([[0, 0], [0, 0], [0, 1 << 6]], dtype=np.uint64)}, "game 2 starts"),
    ({"starts": np.array([[0, 0], [2, 1], [0, 0]], dtype=np.uint64)}, "game 1 starts"),
    ({"firsts": np.array([0, 2, 0], dtype=np.int64)}, "game 1 starts"),
    ({"negamax_b": None}, "needs its NegamaxArrays"),
    ({"settings": np.array([[games.SOLVER, 0, 0, 0, 0, 0, 0], [games.RANDOM, 0, 0, 0, 0, 0, 0]],
                           dtype=np.int64)}, "needs the SolverArrays"),
    ({"solver": games.SolverArrays(np.zeros(1000, dtype=np.uint64), np.zeros(400, dtype=np.int64),
                                   kernels_solver.new_stats(), kernels_solver.no_books())},
     "power of two"),
    ({"solver": games.SolverArrays(kernels_solver.new_table(kernels_solver.MIN_TABLE_BITS),
                                   np.zeros(10, dtype=np.int64), kernels_solver.new_stats(),
                                   kernels_solver.no_books())}, "scratch is too short"),
])
def test_bad_batches_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        core.play_games(**_random_call(**changes))


def test_arrays_it_would_write_into_a_copy_of_are_refused() -> None:
    call = _random_call()
    call["plies"] = np.zeros(3, dtype=np.int32)
    with pytest.raises(TypeError):
        core.play_games(**call)
    call = _random_call()
    settings = call["settings"]
    assert isinstance(settings, np.ndarray)
    settings[0, games.KIND] = games.SOLVER + 1
    with pytest.raises(ValueError, match="kind 5 is not one the compiled loop plays"):
        core.play_games(**call)


def _mcts_call(**changes: object) -> dict[str, object]:
    return _random_call(MCTSAgent(iterations=20), **changes)


def _spoilt_reals(c: float) -> np.ndarray:
    reals = np.array(_mcts_call()["reals"])
    reals[1, games.C] = c
    return reals


def _spoilt_settings(iterations: int) -> np.ndarray:
    table = np.array(_mcts_call()["settings"])
    table[1, games.ITERATIONS] = iterations
    return table


@pytest.mark.parametrize(("changes", "error", "message"), [
    ({"tree_b": None}, ValueError, "needs its tree"),
    ({"tree_b": games.new_tree(21, 6)}, ValueError, "2 \\+ cols"),
    ({"tree_b": games.new_tree(0, 7)}, ValueError, "room for a node"),
    ({"tree_b": games.new_tree(21, 7)[:2]}, TypeError, "3 arrays"),
    ({"tree_b": list(games.new_tree(21, 7))}, TypeError, "must be a tuple"),
    ({"tree_b": tuple(a.astype(np.float64) for a in games.new_tree(21, 7))}, TypeError,
     "wrong dtype"),
    ({"tree_b": (*games.new_tree(21, 7)[:2], games.new_tree(20, 7)[2])}, ValueError,
     "a row per node"),
    ({"reals": _spoilt_reals(-0.5)}, ValueError, "at least 0"),
    ({"reals": _spoilt_reals(float("nan"))}, ValueError, "finite"),
    ({"settings": _spoilt_settings(-1)}, ValueError, "iterations"),
])
def test_bad_mcts_players_are_refused(changes: dict[str, object], error: type[Exception],
                                      message: str) -> None:
    with pytest.raises(error, match=message):
        core.play_games(**_mcts_call(**changes))


def test_an_mcts_tree_too_small_for_its_iterations_stops_each_search_early() -> None:
    rules = Rules()
    agents = [MCTSAgent(iterations=50), RandomAgent()]
    kernels = tuple(kernel_agent(agent, rules) for agent in agents)
    arguments = list(_arguments(rules, kernels, GameSettings()))  # type: ignore[arg-type]
    arguments[5] = games.new_tree(12, 7)
    out = games.new_outcomes(4, 42)
    core.play_games(np.arange(4, dtype=np.uint64), np.zeros((4, 2), dtype=np.uint64),
                    np.array([0, 1, 0, 1], dtype=np.int64), games.NO_ADJUDICATION, *arguments,
                    *out)
    assert (out.nodes[:, 0] <= 12 * out.turns[:, 0]).all()  # no move grew past the tree
    assert (out.nodes[:, 0] >= out.turns[:, 0]).all() and out.turns[:, 0].min() > 0
    for game in range(4):
        end = play_moves(Position.empty(rules), [int(c) for c in out.moves[game, :out.plies[game]]])
        assert end.is_terminal


def test_other_threads_run_while_it_plays() -> None:
    rules = Rules()
    agents = [NegamaxAgent(depth=8), NegamaxAgent(depth=8)]
    kernels = tuple(kernel_agent(agent, rules) for agent in agents)
    packed, table, reals, negamax_a, negamax_b, *_ = _arguments(
        rules, kernels, GameSettings())  # type: ignore[arg-type]
    games_ = 400
    out = games.new_outcomes(games_, 42)
    ticks = [0]
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    began = time.perf_counter()
    try:
        core.play_games(np.arange(games_, dtype=np.uint64),
                        np.zeros((games_, 2), dtype=np.uint64), np.zeros(games_, dtype=np.int64),
                        games.NO_ADJUDICATION, packed, table, reals, negamax_a, negamax_b, None,
                        None, None, *out)
        seconds = time.perf_counter() - began
    finally:
        done.set()
        counter.join()
    assert seconds > 0.05 and ticks[0] >= 10  # the counter ran while the games were played
