"""arena.analysis.bench: the fixed position sets, the plan, the measures (`arena bench`, its table
and CSV: tests/cli/test_bench_cli.py)."""

from __future__ import annotations

from arena.analysis.bench import (
    DEFAULT_PLAN,
    FRESH_PROCESS,
    QUICK_POSITIONS,
    fresh_process_row,
    game_positions,
    make_plan,
    measure,
    pons_positions,
)
from arena.rules.board import Rules
from arena.rules.errors import MalformedInputError
from arena.rules.notation import from_moves


def test_pons_set_is_the_start_of_test_l2_r1() -> None:
    positions = pons_positions()
    assert len(positions) == 100
    assert positions[0] == from_moves("5554224333234511764415115")
    assert positions[-1] == from_moves("546167317562564251256237162")
    assert all(15 <= p.plies <= 28 and not p.is_terminal for p in positions)
    assert len(pons_positions(3)) == 3


def test_game_set_is_fixed_and_playable() -> None:
    positions = game_positions()
    assert [p.key() for p in positions] == [p.key() for p in game_positions()]
    assert positions[0].plies == 0
    assert sum(p.plies == 0 for p in positions) == 8  # eight games
    assert all(p.rules == Rules() and not p.is_terminal for p in positions)


def test_default_plan_covers_the_speed_targets() -> None:
    plan = make_plan()
    assert plan[0].spec == "negamax:depth=10,heuristic=none" and plan[0].set == "pons"
    assert ("negamax:depth=10,heuristic=positional+threats", "pons") in [
        (row.spec, row.set) for row in plan]
    heuristics = {row.spec.partition("heuristic=")[2] for row in plan
                  if row.spec.startswith("negamax:depth=4")}
    assert {"none", "positional", "threats", "live-threats", "stacked-threats",
            "window"} <= heuristics
    assert any(row.spec.startswith("minimax") for row in plan)
    assert len(plan) == len(DEFAULT_PLAN)


def test_quick_plan_and_chosen_agents() -> None:
    assert all(row.limit == QUICK_POSITIONS and row.repeat == 1
               for row in make_plan(quick=True) if row.spec.startswith("negamax"))
    plan = make_plan(["random", "negamax:depth=2"], "pons")
    assert [(row.spec, row.set, row.limit) for row in plan] == [
        ("random", "pons", None), ("negamax:depth=2", "pons", None)]


def test_unknown_set_is_refused() -> None:
    try:
        make_plan(["random"], "openings")
    except MalformedInputError as error:
        assert "pons, games" in str(error)
    else:
        raise AssertionError("no error for an unknown set")


def test_measure_reports_nodes_for_searching_agents_only() -> None:
    positions = pons_positions(5)
    row = measure("negamax:depth=6", positions, "pons", repeat=2)
    assert (row.agent, row.set, row.depth, row.positions) == ("negamax:depth=6", "pons", 6, 5)
    assert row.nodes_per_move is not None and row.nodes_per_move > 6
    assert row.nodes_per_second is not None and row.nodes_per_second > 0
    assert 0 < row.ms_per_move <= row.ms_max
    plain = measure("random", positions, "pons")
    assert plain.depth is None and plain.nodes_per_second is None


def test_fresh_process_row() -> None:
    row = fresh_process_row("random")
    assert row.set == FRESH_PROCESS and row.positions == 1 and row.ms_per_move > 0
