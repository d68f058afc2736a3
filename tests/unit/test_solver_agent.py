"""The ``solver`` agent: perfect play, random ties, graded strength, a node budget."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from arena.analysis.scored_positions import load_set
from arena.protocol.agent import Choice, GameStart, Limit
from arena.protocol.conformance import check_agent
from arena.protocol.registry import make_agent
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import AgentSpecError
from arena.rules.notation import from_moves
from arena.runs.playing.game import play_game
from arena.search.solver import column_scores
from connect_four_agents.solver import NOMINAL_NODES_PER_SECOND, SolverAgent, safe_column
from tests.helpers.cli import invoke

# Test_L2_R1's 5th position: columns 5 and 6 both score -2, the three others -6.
TWO_BEST = from_moves("6672375354252731116762237724")


def test_plays_a_best_column_with_its_exact_score() -> None:
    agent = make_agent("solver")
    rng = np.random.default_rng(0)
    for entry in load_set("Test_L2_R1", limit=60):
        choice = agent.choose(entry.position, rng)
        assert isinstance(choice, Choice)
        assert choice.score == entry.score, entry.moves
        assert column_scores(entry.position)[choice.column] == entry.score


def test_ties_are_broken_by_the_generator() -> None:
    agent = SolverAgent()
    columns = Counter(agent.choose(TWO_BEST, np.random.default_rng(seed)).column
                      for seed in range(40))
    assert set(columns) == {4, 5}
    assert agent.choose(TWO_BEST, np.random.default_rng(7)).column == \
        agent.choose(TWO_BEST, np.random.default_rng(7)).column


def test_temperature_draws_columns_by_their_scores() -> None:
    scores = column_scores(TWO_BEST)
    temperature = 2.0
    weights = {c: np.exp((s + 2) / temperature) for c, s in scores.items()}
    total = sum(weights.values())
    agent = SolverAgent(temperature=temperature)
    rng = np.random.default_rng(1)
    draws = 3000
    counts = Counter(agent.choose(TWO_BEST, rng).column for _ in range(draws))
    for column, weight in weights.items():
        expected = draws * weight / total
        assert abs(counts[column] - expected) < 4 * np.sqrt(expected) + 2, (column, counts)


def test_blunder_rate_plays_random_columns_that_often() -> None:
    position = load_set("Test_L2_R1", limit=1)[0].position  # column scores 4 -8 -8 ...
    scores = column_scores(position)
    best = max(scores.values())
    agent = SolverAgent(blunder=0.3)
    rng = np.random.default_rng(2)
    draws = 2000
    worse = sum(scores[agent.choose(position, rng).column] < best for _ in range(draws))
    share_worse = sum(s < best for s in scores.values()) / len(scores)
    expected = draws * 0.3 * share_worse
    assert abs(worse - expected) < 4 * np.sqrt(expected)


def test_past_the_node_budget_it_plays_a_safe_column_without_a_score() -> None:
    agent = SolverAgent(max_nodes=10)
    position = from_moves("44")
    choice = agent.choose(position, np.random.default_rng(0))
    assert choice.score is None and choice.column == safe_column(position) == 3
    limited = SolverAgent(max_nodes=10**9)
    limited.new_game(GameStart(position.rules, 1, Limit(nodes=10)))
    assert limited.node_budget() == 10
    assert limited.choose(position, np.random.default_rng(0)).score is None
    # An immediate win is taken, an immediate threat blocked.
    assert safe_column(from_moves("112233")) == 3
    assert safe_column(from_moves("17273")) == 3


def test_a_time_limit_is_a_node_budget_and_plays_in_time(tmp_path: Path) -> None:
    agent = SolverAgent()
    agent.new_game(GameStart(DEFAULT_RULES, 1, Limit(time=0.05)))
    assert agent.node_budget() == int(0.8 * 0.05 * NOMINAL_NODES_PER_SECOND)
    # 13 discs, one past the 6 x 7 database: millions of nodes to solve.
    choice = agent.choose(from_moves("2147756677465"), np.random.default_rng(0))
    assert choice.score is None and choice.nodes is not None
    assert choice.nodes <= agent.node_budget() + DEFAULT_RULES.cols  # it stopped at its budget
    assert {"time", "nodes"} <= SolverAgent.supported_limits
    assert SolverAgent().reproducible and not SolverAgent(max_nodes=100).reproducible
    # In a run: no forfeit under a limit far below what solving the early moves takes (a
    # short one: the grace past a limit is fixed, so a move under load overshoots in proportion).
    run = tmp_path / "run"
    result = invoke("match", "solver@time=0.05", "random", "-n", "2", "-j",
                    "1", "--out", str(run), "--quiet", "--no-report")
    assert result.exit_code == 0, result.output
    assert "Forfeits    none" in result.output


def test_it_never_loses_a_drawn_board_to_random_play() -> None:
    rules = Rules(4, 5, 4)  # a draw with perfect play
    for seed in range(6):
        players = [make_agent("solver"), make_agent("random")]
        if seed % 2:
            players.reverse()
        rngs = [np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1])]
        outcome = play_game(players, rngs, Position.empty(rules))
        solver_player = 1 if seed % 2 == 0 else 2
        assert outcome.winner in (0, solver_player), outcome


def test_defaults_conform_where_positions_solve_quickly() -> None:
    check_agent("solver", boards=(DEFAULT_RULES, Rules(4, 5, 3)), positions_per_board=3)


@pytest.mark.parametrize(("spec", "message"), [
    ("solver:temperature=-1", "temperature must be 0 or more"),
    ("solver:blunder=2", "blunder must be a probability"),
    ("solver:max_nodes=0", "max_nodes must be at least 1"),
])
def test_bad_parameters(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)
