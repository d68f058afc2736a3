"""The ``onnx:`` agent: a tiny network built with the onnx package gives the same policy and
value as the same network computed in numpy, the agent plays its best legal column, the
PUCT search finds wins, and its spec is parsed and refused as every spec is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from arena.envs.observation import planes
from arena.protocol.registry import make_agent, parse_spec
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError
from arena.rules.notation import parse_moves, play_moves
from tests.helpers.onnx_models import LinearNet, random_net, write_model

pytestmark = pytest.mark.onnx


def random_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        position = Position.empty(rules)
        for _ in range(int(rng.integers(0, rules.rows * rules.cols))):
            moves = position.legal_moves()
            following = position.play(int(rng.choice(moves)))
            if following.is_terminal:
                break
            position = following
        found.append(position)
    return found


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> tuple[LinearNet, Path]:
    net = random_net(6, 7, seed=1)
    return net, write_model(net, 6, 7, tmp_path_factory.mktemp("onnx") / "linear.onnx")


def test_network_outputs_equal_numpy(model: tuple[LinearNet, Path]) -> None:
    from connect_four_agents.onnx_agent import Network, encode

    net, path = model
    positions = random_positions(Rules(), 60, seed=2)
    encoded = encode(positions)
    assert np.array_equal(encoded, np.stack([planes(p) for p in positions]).astype(np.float32))
    policy, value = Network(path).evaluate(positions)
    expected_policy, expected_value = net.numpy(encoded)
    np.testing.assert_allclose(policy, expected_policy, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value, expected_value, rtol=1e-4, atol=1e-4)


def test_agent_plays_the_best_legal_column_of_the_numpy_net(
        model: tuple[LinearNet, Path]) -> None:
    net, path = model
    agent = make_agent(f"onnx:{path}")
    rng = np.random.default_rng(0)
    full_columns = 0
    for position in random_positions(Rules(), 150, seed=3):
        policy, _ = net.numpy(planes(position)[None])
        legal = position.legal_moves()
        full_columns += len(legal) < 7
        choice = agent.choose(position, rng)
        assert choice.column == legal[int(np.argmax(policy[0, legal]))]
    assert full_columns > 10


def test_search_takes_a_win_and_blocks_a_loss(model: tuple[LinearNet, Path]) -> None:
    _, path = model
    agent = make_agent(f"onnx:{path},sims=60")
    rng = np.random.default_rng(0)
    win = play_moves(Position.empty(), parse_moves("121212"))  # column 1 wins
    assert agent.choose(win, rng).column == 0
    # player 2 must block column 4: player 1 has 1, 2, 3 on the bottom row
    block = play_moves(Position.empty(), parse_moves("172737"))
    assert agent.choose(block, rng).column == 3


def test_other_board_sizes(tmp_path: Path) -> None:
    rules = Rules(4, 5, 4)
    net = random_net(4, 5, seed=4)
    path = write_model(net, 4, 5, tmp_path / "small.onnx")
    agent = make_agent(f"onnx:{path}")
    for position in random_positions(rules, 20, seed=5):
        policy, _ = net.numpy(planes(position)[None])
        legal = position.legal_moves()
        assert agent.choose(position, np.random.default_rng(0)).column == \
            legal[int(np.argmax(policy[0, legal]))]


def test_specs_are_parsed_and_refused(model: tuple[LinearNet, Path], tmp_path: Path) -> None:
    _, path = model
    spec = parse_spec(f"onnx:{path},sims=20,c_puct=2")
    assert spec.values == {"model": str(path), "sims": 20, "c_puct": 2.0}
    assert spec.fingerprint().startswith("sha256 ")
    with pytest.raises(AgentSpecError, match="unknown parameter 'simulations'"):
        parse_spec(f"onnx:{path},simulations=20")
    with pytest.raises(AgentSpecError, match=r"give onnx:PATH\.onnx"):
        parse_spec("onnx:")
    with pytest.raises(AgentSpecError, match="no model file"):
        make_agent(f"onnx:{tmp_path / 'missing.onnx'}")
    bad = tmp_path / "bad.onnx"
    bad.write_text("not a model")
    with pytest.raises(AgentSpecError, match="not an ONNX model"):
        make_agent(f"onnx:{bad}")
    with pytest.raises(AgentSpecError, match="sims must be"):
        make_agent(f"onnx:{path},sims=-1")


def test_a_network_refuses_boards_of_another_shape(model: tuple[LinearNet, Path]) -> None:
    from arena.protocol.agent import check_agent_rules
    from arena.rules.errors import UnsupportedBoardError

    _, path = model
    agent = make_agent(f"onnx:{path}")
    check_agent_rules(agent, Rules())
    with pytest.raises(UnsupportedBoardError, match=r"shape \(2, 6, 7\), not \(2, 4, 5\)"):
        check_agent_rules(agent, Rules(4, 5, 4))


def test_a_match_names_it_by_a_spec_that_parses_back(model: tuple[LinearNet, Path],
                                                     tmp_path: Path) -> None:
    """The canonical spec keeps the kind's form, onnx:PATH,key=value (not PATH:key=value,
    which would name another file), and the match is played."""
    from arena.protocol.players import canonical_player
    from arena.runs.planning.plan import GameSettings, match_plan
    from arena.runs.playing.runner import run_games
    from arena.runs.store.reading import load_games

    _, path = model
    assert canonical_player(f"onnx:{path},sims=0,c_puct=2") == f"onnx:{path},c_puct=2.0"
    assert canonical_player(f"onnx:{path}") == f"onnx:{path}"
    run_games(match_plan(f"onnx:{path},sims=2", "random", 2, GameSettings(hosting="inline")),
              tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    assert set(games["agent_a"]) == {f"onnx:{path},sims=2"}
    assert set(games["termination"]) <= {"four_in_a_row", "board_full"}
