"""The PettingZoo AEC environment: PettingZoo's own API test on several boards, and the same
games as PettingZoo's connect_four_v3 (rewards, terminations, observations, masks)."""

from __future__ import annotations

import numpy as np
import pytest

from arena.rules.board import Rules

pytestmark = pytest.mark.rl


@pytest.mark.parametrize("rules", [Rules(), Rules(5, 4, 3), Rules(6, 9, 5), Rules(3, 3, 3)])
def test_passes_pettingzoo_api_test(rules: Rules) -> None:
    from pettingzoo.test import api_test

    from arena.envs.pettingzoo_env import ConnectFourEnv

    api_test(ConnectFourEnv(rules), num_cycles=300, verbose_progress=False)


def test_plays_the_same_games_as_pettingzoo_connect_four() -> None:
    from pettingzoo.classic import connect_four_v3

    from arena.envs.pettingzoo_env import ConnectFourEnv

    ours, theirs = ConnectFourEnv(), connect_four_v3.env()
    rng = np.random.default_rng(1)
    results: set[tuple[float, ...]] = set()
    for _ in range(40):
        ours.reset()
        theirs.reset()
        while True:
            assert ours.agent_selection == theirs.agent_selection
            mine, peer = ours.last(), theirs.last()
            # PettingZoo's board is (rows, cols, 2), row 0 at the top, own discs first
            assert np.array_equal(mine[0]["observation"],
                                  np.moveaxis(peer[0]["observation"], 2, 0))
            assert mine[1:4] == peer[1:4]  # reward, terminated, truncated
            if not mine[2]:  # (at the end, ours shows no column, theirs the open ones)
                assert np.array_equal(mine[0]["action_mask"], peer[0]["action_mask"])
            else:
                break
            column = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
            ours.step(column)
            theirs.step(column)
        assert ours.rewards == theirs.rewards
        results.add((ours.rewards["player_0"], ours.rewards["player_1"]))
    assert {(1.0, -1.0), (-1.0, 1.0)} <= results  # each side won some


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
