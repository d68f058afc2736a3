"""Players: parsed once when the plan is made, their limit decided once, carried by the plan
to the workers (the parses of a whole match: tests/integration/test_match.py)."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from arena.protocol.agent import Limit
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing, match_plan
from arena.runs.planning.player import make_player, make_players


def test_a_player_is_named_canonically_with_its_limit() -> None:
    player = make_player(" negamax:depth=4,heuristic=threats@depth=3 ", Rules())
    assert player.name == "negamax:heuristic=threats@depth=3"
    assert player.text == player.spec.text == "negamax:heuristic=threats"
    assert player.limit == Limit(depth=3)


@pytest.mark.parametrize(("text", "time_per_move", "limit"), [
    ("random", None, Limit()),
    ("random", 0.5, Limit(time=0.5)),
    ("random@time=2", 0.5, Limit(time=2.0)),
    ("negamax@depth=3", 0.5, Limit(time=0.5, depth=3)),
])
def test_its_limit_is_its_own_with_the_runs_time_where_it_sets_none(
        text: str, time_per_move: float | None, limit: Limit) -> None:
    assert make_player(text, None, time_per_move=time_per_move).limit == limit


def test_the_agent_built_to_check_the_board_is_the_first_one_played() -> None:
    player = make_player("negamax", Rules())
    [checked] = player._built
    assert player.build() is checked
    assert player.build() is not checked  # every later host gets an agent of its own
    with pytest.raises(AgentSpecError, match="depth"):
        make_player("negamax:depth=99", Rules())  # built with the plan: refused before a run
    assert make_player("negamax:depth=99", None)._built == []  # no board, nothing built


def test_texts_that_name_one_player_give_one_player() -> None:
    a, b, c = make_players(["random", " random", "random@time=1"], Rules())
    assert a is b and a is not c
    assert len(a._built) == 1  # built once to check the board


def test_a_built_in_player_travels_parsed_and_a_users_as_its_text(tmp_path: Path) -> None:
    builtin = make_player("negamax:depth=2@time=1", Rules())
    again = pickle.loads(pickle.dumps(builtin))
    assert again == builtin and again._spec == builtin.spec and again._built == []
    (tmp_path / "bot.py").write_text("class Bot:\n    def __init__(self, width: int = 3):\n"
                                     "        pass\n"
                                     "    def choose(self, position, rng):\n"
                                     "        return position.legal_moves()[0]\n")
    user = make_player(f"{tmp_path / 'bot.py'}:Bot:width=4", Rules())
    unpickled = pickle.loads(pickle.dumps(user))
    assert unpickled == user and unpickled._spec is None  # parsed where a host builds it
    assert unpickled.spec.values == {"width": 4}


def test_the_plan_carries_its_players_to_every_batch() -> None:
    plan = match_plan("random", "immediate-win", 4, GameSettings())
    assert list(plan.players) == plan.specs == ["random", "immediate-win"]
    batch = plan.batch(np.arange(4)).select(np.array([True, False, True, False]))
    assert batch.players == ((plan.players["random"], plan.players["immediate-win"]),)
    named = MatchPlan((Pairing("random", "immediate-win@time=1", 2),), GameSettings())
    assert named.batch(np.arange(2)).players == ()  # a plan of names alone, as meta.json's
    made = named.with_players()
    assert made == named and made.players["immediate-win@time=1"].limit == Limit(time=1.0)
    assert made.batch(np.arange(2)).players[0][1] is made.players["immediate-win@time=1"]
