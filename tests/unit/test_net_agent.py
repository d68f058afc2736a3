"""The shipped network (the built-in ``net`` agent): at most 5 MB, legal moves on every
position of the one board it claims (alone and with its search), every other board refused."""

from __future__ import annotations

import numpy as np
import pytest

from arena.protocol.agent import check_agent_rules
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import UnsupportedBoardError
from tests.helpers.positions import EXTREME_RULES

pytestmark = pytest.mark.onnx


def test_the_model_is_at_most_5_mb() -> None:
    from connect_four_agents.net import MODEL

    assert MODEL.stat().st_size <= 5 * 1024 * 1024


@pytest.mark.parametrize("spec", ["net", "net:sims=6"])
def test_plays_only_legal_moves_on_its_board(spec: str) -> None:
    agent = make_agent(spec)
    check_agent_rules(agent, Rules())
    rng = np.random.default_rng(1)
    full_columns = 0
    for _ in range(150 if spec == "net" else 40):
        position = Position.empty()
        while not position.is_terminal:
            column = agent.choose(position, rng).column
            assert column in position.legal_moves()
            full_columns += len(position.legal_moves()) < 7
            # the agent plays one side, random play the other, to reach varied boards
            position = position.play(column)
            if not position.is_terminal:
                position = position.play(int(rng.choice(position.legal_moves())))
    assert full_columns > 0


@pytest.mark.parametrize("rules", [r for r in (*EXTREME_RULES, Rules(6, 7, 5), Rules(5, 7, 4))
                                   if r != Rules()])
def test_refuses_every_other_board(rules: Rules) -> None:
    with pytest.raises(UnsupportedBoardError, match="net plays only on 6x7 connect 4"):
        check_agent_rules(make_agent("net"), rules)


def test_picks_a_best_move_in_most_early_positions() -> None:
    """On 200 positions of random play with 4 to 12 discs, scored by the exact solver (the
    12-ply database below), the network alone picks a best column in at least 72% of them:
    the net trained on every ply does (81%), the net trained from ply 14 on did not (59.5%)."""
    from arena.analysis.position_sets import load_position_set
    from arena.search.solver import column_scores

    positions = load_position_set("random:4-12", Rules(), 200, seed=3).positions
    agent = make_agent("net")
    rng = np.random.default_rng(0)
    hits = 0
    for position in positions:
        scores = column_scores(position)
        hits += scores[agent.choose(position, rng).column] == max(scores.values())
    assert hits >= 0.72 * len(positions)
