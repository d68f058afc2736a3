"""The Gymnasium environment: Gymnasium's env checker with several opponents, the opponent
seeded and told of its games as in a match (the same moves as ``play_game``), forfeits."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from arena.protocol.agent import BaseAgent
from arena.rules.board import Position, Rules
from arena.rules.notation import play_moves
from arena.runs.planning.seeds import game_rng
from arena.runs.playing.game import play_game
from tests.helpers.cli import checkout_env

pytestmark = pytest.mark.rl
SMALL = Rules(4, 5, 4)


@pytest.mark.parametrize(("opponent", "rules"), [
    ("random", Rules()), ("negamax:depth=2", Rules()), ("solver:blunder=0.2", SMALL),
    ("mcts:iterations=50", Rules(5, 6, 4)), ("immediate-win:block=true", Rules(6, 9, 5)),
])
def test_passes_gymnasium_env_checker(opponent: str, rules: Rules) -> None:
    """Made by ``gymnasium.make`` from its registered id, as a user makes it, so that the
    checker also makes it in each declared render mode; the checker warns of nothing."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from arena.envs.gymnasium_env import ID

    env = gymnasium.make(ID, opponent=opponent, rules=rules)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()


def test_gymnasium_finds_it_by_its_id_from_a_fresh_process() -> None:
    """``module:id``: Gymnasium imports the module, which registers the environment."""
    probe = ("import gymnasium; env = gymnasium.make('arena.envs.gymnasium_env:"
             "arena/ConnectFour-v0', opponent='immediate-win', render_mode='ansi'); "
             "env.reset(seed=1); print(env.render().splitlines()[0]); env.close()")
    done = subprocess.run([sys.executable, "-c", probe], env=checkout_env(), text=True,
                          capture_output=True, check=True)
    assert done.stdout == "1 2 3 4 5 6 7\n"


class Script(BaseAgent):
    """Plays the given columns in order, drawing nothing from the game's generator."""

    def __init__(self, columns: list[int]):
        self.columns = columns

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        return self.columns[position.plies // 2]


def play_out(env: Any, observation: dict[str, np.ndarray],
             rng: np.random.Generator) -> list[int]:
    """Play ``env``'s game to its end with random legal columns; the learner's columns."""
    played = []
    while True:
        column = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append(column)
        observation, _, terminated, _, _ = env.step(column)
        if terminated:
            return played


@pytest.mark.parametrize("opponent", ["random", "mcts:iterations=30", "negamax:depth=3"])
def test_the_opponent_plays_as_in_a_match(opponent: str) -> None:
    """Game g after reset(seed=s) is game g of a match of run seed s: the same moves."""
    from arena.envs.gymnasium_env import OpponentEnv
    from arena.hosting.policy import make_host

    env = OpponentEnv(opponent)
    host = make_host(opponent, "auto")
    rng = np.random.default_rng(2)
    for game in range(4):
        observation, info = env.reset(seed=9) if game == 0 else env.reset()
        assert info["game"] == game
        assert env.learner == 1 + game % 2  # colours alternate as a match swaps them
        players: list[Any] = [Script(play_out(env, observation, rng)), host]
        if env.learner == 2:
            players.reverse()
        record = play_game(players, [game_rng(9, game)] * 2, Position.empty())
        assert play_moves(Position.empty(), record.moves) == env.position
    host.close()
    env.close()


class Crashes(BaseAgent):
    """Raises on its second move."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        if position.plies >= 2:
            raise ValueError("lost the thread")
        return 0


def test_an_opponent_that_crashes_forfeits() -> None:
    from arena.envs.gymnasium_env import OpponentEnv
    from arena.protocol.objects import register

    env = OpponentEnv(register(Crashes()), first="learner")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(3)
    assert (reward, terminated) == (0.0, False)
    _, reward, terminated, _, info = env.step(3)
    assert (reward, terminated) == (1.0, True)
    assert info["termination"] == "agent_error"
    assert "lost the thread" in info["error"]


def test_an_illegal_learner_column_loses_and_wins_are_rewarded() -> None:
    from arena.envs.gymnasium_env import OpponentEnv

    env = OpponentEnv(register_columns([6, 6, 6]), first="learner")
    env.reset(seed=0)
    for _ in range(3):
        assert env.step(0)[1:3] == (0.0, False)
    observation, reward, terminated, _, info = env.step(0)  # four in column 0
    assert (reward, terminated, info["termination"]) == (1.0, True, "four_in_a_row")
    assert observation["observation"][0, 2:, 0].tolist() == [1, 1, 1, 1]
    env.reset()  # game 1: the opponent moves first
    env.reset()  # game 2: the learner again
    for _ in range(3):
        env.step(0)
    observation, reward, terminated, _, info = env.step(7)
    assert (reward, terminated, info["termination"]) == (-1.0, True, "illegal_move")


def register_columns(columns: list[int]) -> str:
    from arena.protocol.objects import register

    return register(Script(columns))
