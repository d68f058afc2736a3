"""Match plans: seeds, colours, openings and pairings game by game, settings, canonical specs,
batch sizes (playing the plans: tests/integration/test_match.py)."""

from __future__ import annotations

import numpy as np
import pytest

from arena.protocol.players import canonical_player
from arena.rules.board import Position, Rules
from arena.runs.planning.openings import NoOpenings, load_openings
from arena.runs.planning.plan import GameSettings, MatchPlan, MatchSetupError, Pairing
from arena.runs.planning.seeds import game_seed
from arena.runs.playing.pool import BatchSizer
from tests.helpers.runs import plan_of


def test_game_seeds_combine_the_run_seed_and_the_game_index() -> None:
    assert game_seed(0, 0) == 0
    assert game_seed(42, 7) == 42 * 2**32 + 7
    assert len({game_seed(s, g) for s in range(5) for g in range(1000)}) == 5000


def test_without_openings_colours_alternate_by_game() -> None:
    plan = MatchPlan((Pairing("random", "immediate-win", 4),))
    tasks = [plan.task(g) for g in range(4)]
    assert [t.first for t in tasks] == ["a", "b", "a", "b"]
    assert {(t.pair, t.opening, t.agent_a, t.agent_b) for t in tasks} == {
        (None, "", "random", "immediate-win")}


def test_with_openings_each_opening_is_a_pair_with_colours_swapped() -> None:
    plan = plan_of("random", "random", 5, openings="random:3")
    tasks = [plan.task(g) for g in range(5)]
    assert [(t.pair, t.first) for t in tasks] == [(0, "a"), (0, "b"), (1, "a"), (1, "b"),
                                                  (2, "a")]
    assert tasks[0].opening == tasks[1].opening != tasks[2].opening == tasks[3].opening
    assert all(len(t.opening) == 3 for t in tasks)


def test_uniform_openings_are_each_games_own_and_unpaired() -> None:
    rules = Rules()
    book = load_openings("uniform:4", rules, 1)
    plan = MatchPlan((Pairing("p", "q", 4), Pairing("q", "r", 4)), GameSettings(rules, 1), book)
    tasks = [plan.task(g) for g in reversed(range(8))][::-1]
    assert [t.pair for t in tasks] == [None] * 8
    assert [t.first for t in tasks] == ["a", "a", "b", "b"] * 2  # the pairings take turns
    assert [t.opening for t in tasks] == [book.opening(g) for g in range(8)]
    assert len({t.opening for t in tasks}) == 8


@pytest.mark.parametrize("first", ["a", "b"])
def test_a_fixed_first_mover_moves_first_in_every_game(first: str) -> None:
    plan = plan_of("random", "random", 4, openings="random:2", first=first)
    assert {plan.task(g).first for g in range(4)} == {first}


def test_several_pairings_play_in_rounds_and_share_the_openings() -> None:
    rules = Rules()
    plan = MatchPlan((Pairing("p", "q", 3), Pairing("q", "r", 4)), GameSettings(rules, 1),
                     load_openings("random:4", rules, 1))
    assert plan.total == 7
    tasks = [plan.task(game) for game in range(7)]
    assert [(t.agent_a, t.agent_b) for t in tasks] == [("p", "q"), ("q", "r")] * 3 + [("q", "r")]
    assert [t.first for t in tasks] == ["a", "a", "b", "b", "a", "a", "b"]
    assert [t.pair for t in tasks] == [0, 0, 0, 0, 1, 1, 1]
    assert tasks[1].opening == tasks[0].opening != tasks[4].opening
    with pytest.raises(IndexError):
        plan.task(7)


def test_more_games_per_pairing_keep_every_game_of_fewer() -> None:
    def plan(games: int) -> MatchPlan:
        return MatchPlan(tuple(Pairing(a, b, games) for a, b in (("p", "q"), ("p", "r"),
                                                                   ("q", "r"))))

    small, large = plan(4), plan(10)
    assert [small.task(g) for g in range(small.total)] == [large.task(g) for g in range(12)]


def test_plans_need_games() -> None:
    with pytest.raises(MatchSetupError, match="at least 1"):
        Pairing("random", "random", 0)
    with pytest.raises(MatchSetupError, match="1 to"):
        MatchPlan(())


@pytest.mark.parametrize(("seed", "time_per_move", "message"),
                         [(-1, None, "seed"), (1.5, None, "seed"), (1, 0.0, "time per move")])
def test_settings_need_a_seed_and_a_positive_time(seed: int, time_per_move: float | None,
                                                  message: str) -> None:
    with pytest.raises(MatchSetupError, match=message):
        GameSettings(Rules(), seed, time_per_move)


def test_canonical_specs_leave_out_defaults() -> None:
    names = [canonical_player(text) for text in
             ("immediate-win", "immediate-win:block=yes", "immediate-win:block=false",
              "immediate-win:block=false@nodes=9,time=0.50")]
    assert names == ["immediate-win", "immediate-win:block=true", "immediate-win",
                     "immediate-win@time=0.5,nodes=9"]


def test_batches_grow_to_the_target_duration_and_no_faster_than_doubling() -> None:
    sizer = BatchSizer(jobs=1, seconds=0.5, largest=1000)
    assert [sizer.next_size(10**6) for _ in range(3)] == [1, 1, 1]
    sizer.record(games=10, seconds=0.01)  # 1000 games per second
    assert [sizer.next_size(10**6) for _ in range(5)] == [2, 4, 8, 16, 32]
    sizer.record(games=90, seconds=0.09)
    assert [sizer.next_size(10**6) for _ in range(6)] == [64, 128, 256, 500, 500, 500]
    sizer.record(games=1, seconds=100)  # a slow batch: 50 s per game on average
    assert sizer.next_size(10**6) == 1
    for _ in range(30):  # fast batches again: the slow one is forgotten
        sizer.record(games=1, seconds=0.001)
    sizes = [sizer.next_size(10**6) for _ in range(10)]
    assert sizes[:8] == [2, 4, 8, 16, 32, 64, 128, 256] and sizes[8] == sizes[9] in (499, 500)


def test_batches_shrink_near_the_end_so_workers_finish_together() -> None:
    sizer = BatchSizer(jobs=2, seconds=1.0, largest=1000)
    sizer.record(games=1000, seconds=0.1)  # 10,000 games per second
    sizes = [sizer.next_size(left) for left in (10**6, 10**6, 10**6, 400, 300, 3, 1)]
    assert sizes == [1, 2, 4, 8, 16, 1, 1]
    assert [sizer.next_size(left) for left in (41, 40, 39)] == [2, 4, 8]
    assert [sizer.next_size(left) for left in (10**6, 60)] == [16, 15]


def test_an_empty_board_plan_describes_itself_for_comparison() -> None:
    plan = MatchPlan((Pairing("random", "random", 3),), GameSettings(Rules(5, 6, 4), 9),
                     NoOpenings())
    assert plan.describe() == {
        "pairings": [["random", "random", 3, "alternate"]], "games": 3, "seed": 9,
        "board": {"rows": 5, "cols": 6, "connect": 4}, "time_per_move": None,
        "openings": "none",
    }
    assert Position.empty(plan.settings.rules).rules.cols == 6


@pytest.mark.parametrize("openings", ["none", "random:2", "uniform:3"])
@pytest.mark.parametrize("first", ["alternate", "a", "b"])
def test_a_batch_holds_the_games_task_gives_one_by_one(openings: str, first: str) -> None:
    settings = GameSettings(seed=5)
    plan = MatchPlan((Pairing("random", "negamax:depth=2", 7, first), Pairing("x", "y", 12),
                      Pairing("p", "q", 3, "b")), settings,
                     load_openings(openings, settings.rules, settings.seed))
    shuffled = np.random.default_rng(1).permutation(plan.total)[:15]
    assert plan.batch(shuffled).tasks() == [plan.task(int(game)) for game in shuffled]
    assert plan.batch(np.arange(plan.total)).tasks() == [plan.task(game)
                                                         for game in range(plan.total)]
    with pytest.raises(IndexError):
        plan.batch(np.array([plan.total]))
