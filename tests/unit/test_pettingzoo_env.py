"""The PettingZoo AEC environment: PettingZoo's own API test on several boards, and PettingZoo's
connect_four_v3 itself side by side: the same games (turns, rewards, terminations,
observations, masks) but for the differences the README lists, each checked here."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from arena.rules.board import Rules

pytestmark = pytest.mark.rl


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 4, 3), Rules(6, 9, 5), Rules(3, 3, 3)])
def test_passes_pettingzoo_api_test(rules: Rules) -> None:
    from pettingzoo.test import api_test

    from arena.envs.pettingzoo_env import ConnectFourEnv

    api_test(ConnectFourEnv(rules), num_cycles=300, verbose_progress=False)


def both() -> tuple[Any, Any]:
    """Our environment and PettingZoo's connect_four_v3, both reset."""
    from pettingzoo.classic import connect_four_v3

    from arena.envs.pettingzoo_env import ConnectFourEnv

    ours, theirs = ConnectFourEnv(), connect_four_v3.env()
    ours.reset()
    theirs.reset()
    return ours, theirs


def open_columns(env: Any) -> np.ndarray:
    """The columns whose top cell is empty, as PettingZoo's mask shows them."""
    observation = env.observe(env.agent_selection)["observation"]
    return (observation.sum(axis=-1)[0] == 0).astype(np.int8)


def test_plays_the_same_games_as_pettingzoo_connect_four() -> None:
    """Random legal games: the same turns, rewards, terminations and truncations; the same
    boards with the planes first instead of last; the same masks until the game ends, where
    PettingZoo's still shows the open columns to the agent to act and ours none."""
    rng = np.random.default_rng(1)
    results: set[tuple[float, ...]] = set()
    for _ in range(40):
        ours, theirs = both()
        while True:
            assert ours.agent_selection == theirs.agent_selection
            mine, peer = ours.last(), theirs.last()
            assert np.array_equal(mine[0]["observation"],
                                  np.moveaxis(peer[0]["observation"], -1, 0))
            assert mine[1:4] == peer[1:4]  # reward, terminated, truncated
            for agent in ("player_0", "player_1"):
                assert np.array_equal(ours.observe(agent)["observation"],
                                      np.moveaxis(theirs.observe(agent)["observation"], -1, 0))
            if mine[2]:
                break
            assert np.array_equal(mine[0]["action_mask"], peer[0]["action_mask"])
            column = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
            ours.step(column)
            theirs.step(column)
        assert not mine[0]["action_mask"].any()
        assert np.array_equal(peer[0]["action_mask"], open_columns(theirs))
        assert peer[0]["action_mask"].any() or peer[1] == 0  # open columns, or a full board
        assert ours.rewards == theirs.rewards
        results.add((ours.rewards["player_0"], ours.rewards["player_1"]))
    assert {(1.0, -1.0), (-1.0, 1.0)} <= results  # each side won some


def test_a_full_column_forfeits_where_pettingzoo_gives_the_other_nothing() -> None:
    """A full column: PettingZoo gives -1 to the mover and 0 to the other, truncates the game
    as well as terminating it and selects the mover; ours is a forfeit as in a match: +1 to
    the other, terminated only, the other selected, the mover's info says illegal_move."""
    ours, theirs = both()
    for env in (ours, theirs):
        for _ in range(6):
            env.step(0)  # column 1 is full, player_0 to move
        env.step(0)
    assert theirs.rewards == {"player_0": -1, "player_1": 0}
    assert all(theirs.terminations.values()) and all(theirs.truncations.values())
    assert theirs.agent_selection == "player_0" and theirs.infos["player_0"] == {}
    assert ours.rewards == {"player_0": -1, "player_1": 1}
    assert all(ours.terminations.values()) and not any(ours.truncations.values())
    assert ours.agent_selection == "player_1" and ours.infos["player_0"]["illegal_move"]


@pytest.mark.parametrize("action", [7, -1, None])
def test_a_column_off_the_board_forfeits_where_pettingzoo_raises(action: int | None) -> None:
    ours, theirs = both()
    with pytest.raises(AssertionError, match="not in action space"):
        theirs.step(action)
    ours.step(action)
    assert ours.rewards == {"player_0": -1, "player_1": 1} and ours.terminations["player_0"]


def test_an_illegal_column_loses() -> None:
    from arena.envs.pettingzoo_env import ConnectFourEnv

    env = ConnectFourEnv(Rules(4, 4, 3))
    env.reset()
    for _ in range(4):
        env.step(0)  # column 0 is now full
    assert not env.terminations["player_0"]
    env.step(0)
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())
    assert env.infos["player_0"]["illegal_move"]
