"""RunDescription: meta.json's ``run`` object as a value, read and written key for key."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from arena.rules.board import Rules
from arena.runs.planning.description import Pairing, RunDescription
from arena.runs.planning.plan import GameSettings, MatchPlan, plan_from_description
from tests.helpers.paths import ROOT

COMMITTED = sorted((ROOT / "results").rglob("meta.json"))


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: str(p.relative_to(ROOT / "results")))
def test_a_committed_description_is_written_back_as_it_was(path: Path) -> None:
    run = json.loads(path.read_text(encoding="utf-8"))["run"]
    description = RunDescription.from_json(run)
    assert json.dumps(description.to_json()) == json.dumps(run)  # values and key order
    assert description.games == run["games"] and description.seed == run["seed"]
    assert plan_from_description(description).describe() == {
        key: value for key, value in run.items() if not key.startswith("sprt_")}


def test_a_plan_describes_itself_as_its_json_did() -> None:
    settings = GameSettings(Rules(5, 6), seed=9, time_per_move=0.5, time_bank=2.0,
                            adjudicate=12)
    plan = MatchPlan((Pairing("a", "b", 4), Pairing("a", "c", 4, "b")), settings)
    assert plan.describe() == {
        "pairings": [["a", "b", 4, "alternate"], ["a", "c", 4, "b"]], "games": 8, "seed": 9,
        "board": {"rows": 5, "cols": 6, "connect": 4}, "time_per_move": 0.5, "time_bank": 2.0,
        "adjudicate": 12, "openings": "none"}
    assert list(plan.describe()) == ["pairings", "games", "seed", "board", "time_per_move",
                                     "time_bank", "adjudicate", "openings"]
    assert RunDescription.from_json(plan.describe()) == plan.description()
    assert plan_from_description(plan.description()).description() == plan.description()


def test_a_stopping_rule_and_unknown_keys_come_last_in_order() -> None:
    base = RunDescription((Pairing("a", "b", 2),), 2, 1, Rules())
    stopped = base.stopped_by({"sprt_elo0": 0.0, "sprt_elo1": 5.0})
    assert list(stopped.to_json())[-2:] == ["sprt_elo0", "sprt_elo1"]
    assert RunDescription.from_json(stopped.to_json()) == stopped != base
    assert stopped["sprt_elo1"] == 5.0 and stopped.get("seed") == 1  # read as its JSON


def test_differences_name_each_key_once_in_order_of_names() -> None:
    old = RunDescription((Pairing("a", "b", 10),), 10, 1, Rules())
    new = replace(old, seed=2, time_bank=1.5)
    assert old.differences(new) == ["seed 1 there, 2 here", "time_bank none there, 1.5 here"]
    assert old.differences(old) == []


def test_only_more_games_for_every_pairing_alike_extend_a_run() -> None:
    old = RunDescription((Pairing("a", "b", 10), Pairing("a", "c", 10)), 20, 1, Rules())
    more = replace(old, pairings=(Pairing("a", "b", 15), Pairing("a", "c", 15)), games=30)
    uneven = replace(old, pairings=(Pairing("a", "b", 15), Pairing("a", "c", 10)), games=25)
    assert old.extended_by(more) and not more.extended_by(old)
    assert old.same_but_counts(uneven) and not old.extended_by(uneven)
    assert not old.extended_by(replace(more, seed=3)) and not old.extended_by(old)


def test_the_conditions_name_the_openings_board_and_limits_on_one_line() -> None:
    base = RunDescription((Pairing("a", "b", 2),), 2, 1, Rules())
    assert base.conditions() == "openings none · 6 x 7 · no time limit"
    timed = replace(base, rules=Rules(5, 6), openings="random:4", time_per_move=0.5,
                    time_bank=5.0, adjudicate=12)
    assert timed.conditions() == \
        "openings random:4 · 5 x 6 · 0.5 s a move + 5 s bank · adjudicated at ply 12"
    own = replace(base, pairings=(Pairing("a@time=0.1", "b", 2),), rules=Rules(6, 7, 5),
                  openings="file", openings_count=1200)
    assert own.conditions() == "openings from a file of 1,200 · 6 x 7, connect 5 · the " \
        "agents' own limits"
    assert replace(base, time_bank=2.0).conditions() == "openings none · 6 x 7 · 2 s bank"
