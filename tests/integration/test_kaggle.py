"""Kaggle ConnectX agents played as arena agents: functions, submission files, Kaggle's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from arena.protocol.functions import KaggleFunctionAgent, Struct, is_kaggle_function
from arena.protocol.registry import make_agent
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.runs.game import play_game
from arena.runs.plan import GameSettings, match_plan
from arena.runs.reading import load_games
from arena.runs.request import RunRequest
from arena.runs.runner import run_games
from tests.helpers.cli import checkout_env, invoke
from tests.helpers.paths import DATA

AGENTS = DATA / "kaggle_agents.py"


def test_a_function_of_kaggles_signature_is_recognised() -> None:
    assert is_kaggle_function(lambda observation, configuration: 0)
    assert is_kaggle_function(lambda obs, config: 0)
    assert not is_kaggle_function(lambda position, rng: 0)
    assert isinstance(make_agent(f"{AGENTS}:random_choice"), KaggleFunctionAgent)


def test_the_observation_is_the_board_as_kaggle_lays_it_out() -> None:
    seen: list[Struct] = []
    agent = KaggleFunctionAgent(lambda observation, configuration: seen.append(
        observation) or 0)
    rng = np.random.default_rng(0)
    play_game([agent, agent], [rng, rng], from_moves("44"), [3, 3])
    board = seen[0].board  # after 4 4 (1-based): player 1 at the bottom of column 4, 2 above
    assert board[5 * 7 + 3] == 1 and board[4 * 7 + 3] == 2 and sum(map(bool, board)) == 2
    assert (seen[0].mark, seen[0].step, seen[1].mark, seen[1].step) == (1, 2, 2, 3)


def test_every_field_kaggle_gives_is_filled(tmp_path: Path) -> None:
    plan = match_plan(f"{AGENTS}:checks_every_field@time=0.5", "random", 4, GameSettings())
    run_games(plan, tmp_path)
    assert set(load_games(tmp_path / "games.csv")["termination"]) <= {"four_in_a_row",
                                                                      "board_full"}


def test_a_submission_file_plays_its_last_function(tmp_path: Path) -> None:
    submission = tmp_path / "main.py"
    submission.write_text("def helper(observation, configuration):\n    return 0\n\n"
                          "def rightmost(observation, configuration):\n"
                          "    return max(c for c in range(configuration.columns)\n"
                          "               if observation.board[c] == 0)\n")
    plan = match_plan(f"kaggle:{submission}", "random", 2, GameSettings(), first="a")
    run_games(plan, tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    assert all(moves[::2].startswith("777") for moves in games["moves"])  # never column 1


@pytest.mark.parametrize("hosting", [pytest.param("auto", marks=pytest.mark.slow), "inline"])
def test_global_random_is_seeded_so_runs_reproduce(tmp_path: Path, hosting: str) -> None:
    settings = GameSettings(seed=5, hosting=hosting)  # type: ignore[arg-type]
    plan = match_plan(f"{AGENTS}:random_choice", "random", 40, settings)
    for jobs in (1, 2):
        run_games(plan, tmp_path / f"jobs{jobs}", RunRequest(jobs=jobs))
    one, two = (load_games(tmp_path / f"jobs{jobs}" / "games.csv")["moves"].tolist()
                for jobs in (1, 2))
    assert one == two and len(set(one)) > 30


def test_an_agent_that_always_fails_ends_the_run_with_one_line(tmp_path: Path) -> None:
    result = invoke("match", f"{AGENTS}:broken", "random", "-n", "4",
                    "--no-report", "--out", str(tmp_path / "run"))
    assert result.exit_code == 1
    assert result.stderr.endswith(f"arena: error: every game of {AGENTS}:broken ended in its "
                                  "forfeit, agent_error: AttributeError: no_such_field\n")


@pytest.mark.slow
@pytest.mark.kaggle
def test_kaggles_own_agents_play_and_reproduce(tmp_path: Path) -> None:
    plan = match_plan("negamax:depth=4,heuristic=threats+positional", "kaggle:negamax", 4,
                      GameSettings(seed=2), "random:2")
    for jobs in (1, 2):
        run_games(plan, tmp_path / f"jobs{jobs}", RunRequest(jobs=jobs))
    games = [load_games(tmp_path / f"jobs{jobs}" / "games.csv") for jobs in (1, 2)]
    assert games[0]["moves"].tolist() == games[1]["moves"].tolist()
    assert set(games[0]["termination"]) <= {"four_in_a_row", "board_full"}
    with pytest.raises(Exception, match="kaggle:chess"):
        make_agent("kaggle:chess")


@pytest.mark.slow
@pytest.mark.kaggle
def test_importing_kaggle_first_does_not_hide_the_agents_package(tmp_path: Path) -> None:
    """kaggle-environments puts a folder holding an agents.py on sys.path."""
    code = ("import kaggle_environments, arena\n"
            "result = arena.match('negamax:depth=2', 'random', 4, jobs=2, progress=False)\n"
            "print(len(result.games))\n")
    done = subprocess.run([sys.executable, "-c", code], env=checkout_env(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"


def test_the_configuration_follows_the_board_and_the_bank() -> None:
    from arena.protocol.agent import GameStart, Limit

    agent = KaggleFunctionAgent(lambda observation, configuration: 0)
    agent.new_game(GameStart(Rules(5, 6, 4), 1, Limit(time=1.5), time_bank=7.0))
    assert (agent.configuration.rows, agent.configuration.columns,
            agent.configuration.actTimeout, agent.configuration.agentTimeout) == (5, 6, 1.5, 7.0)


