"""Kaggle ConnectX agents played as arena agents: functions, submission files, Kaggle's own."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from arena.protocol.functions import KaggleFunctionAgent, Struct, is_kaggle_function
from arena.protocol.registry import make_agent
from arena.report.loading import load_run, run_labels
from arena.report.run_sections import verdict_section
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError
from arena.rules.notation import from_moves
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing.game import play_game
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from tests.helpers.cli import checkout_env, invoke
from tests.helpers.paths import DATA

AGENTS = DATA / "kaggle_agents.py"


def test_a_function_of_kaggles_signature_is_recognised() -> None:
    assert is_kaggle_function(lambda observation, configuration: 0)
    assert is_kaggle_function(lambda obs, config: 0)
    assert is_kaggle_function(lambda obs: 0)
    assert not is_kaggle_function(lambda position, rng: 0)
    assert isinstance(make_agent(f"{AGENTS}:random_choice"), KaggleFunctionAgent)


LEFTMOST = "[c for c in range(7) if {0}.board[c] == 0][0]"
SUBMISSIONS = {
    "one argument": f"def agent(obs):\n    return {LEFTMOST.format('obs')}\n",
    "two arguments": f"def agent(observation, configuration):\n"
                     f"    return {LEFTMOST.format('observation')}\n",
    "defaults after two": f"def agent(obs, config, depth=3, extra=None):\n"
                          f"    return {LEFTMOST.format('obs')}\n",
    "three required": "def agent(obs, config, extra):\n    return 0\n",
    "keyword-only required": "def agent(obs, *, depth):\n    return 0\n",
    "callable object": f"class Bot:\n    def __call__(self, obs, config):\n"
                       f"        return {LEFTMOST.format('obs')}\n\nagent = Bot()\n",
    "callable object of one argument": "class Bot:\n    def __call__(self, obs):\n"
                                       "        return 0\n\nagent = Bot()\n",
    "bound method": f"class Bot:\n    def act(self, obs, config):\n"
                    f"        return {LEFTMOST.format('obs')}\n\nagent = Bot().act\n",
    # co_argcount counts self: Kaggle passes both, which act(obs) refuses
    "bound method of one argument": "class Bot:\n    def act(self, obs):\n        return 0\n"
                                    "\nagent = Bot().act\n",
}


def kaggle_status(path: Path) -> str:
    """How a submission file's game against Kaggle's random agent ends for it in Kaggle's own
    evaluator: DONE (it played the game through), ERROR (calling it raised), INVALID."""
    from kaggle_environments import make

    steps = make("connectx").run([str(path), "random"])
    return str(steps[-1][0].status)


@pytest.mark.kaggle
@pytest.mark.parametrize("form", SUBMISSIONS)
def test_a_submission_plays_here_as_it_plays_in_kaggles_evaluator(tmp_path: Path,
                                                                   form: str) -> None:
    """Kaggle calls the last callable with as many of (observation, configuration) as its
    code takes: what Kaggle plays plays a whole game here, and what it cannot call is refused
    before any game."""
    path = tmp_path / "main.py"
    path.write_text(SUBMISSIONS[form])
    status = kaggle_status(path)
    assert status in ("DONE", "ERROR")
    if status == "ERROR":
        with pytest.raises(AgentSpecError, match=r"cannot be called as Kaggle calls it"):
            make_agent(f"kaggle:{path}")
        return
    agent = make_agent(f"kaggle:{path}")
    rngs = [np.random.default_rng(0), np.random.default_rng(1)]
    record = play_game([agent, make_agent("random")], rngs, from_moves(""))
    assert record.termination in ("four_in_a_row", "board_full"), record.error


def test_a_one_argument_submission_plays_a_match(tmp_path: Path) -> None:
    """``arena match kaggle:one.py random``: every game played, none forfeited."""
    path = tmp_path / "one.py"
    path.write_text(SUBMISSIONS["one argument"])
    result = invoke("match", f"kaggle:{path}", "random", "-n", "4", "--no-report", "-q",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    games = load_games(tmp_path / "run" / "games.csv")
    assert len(games) == 4 and set(games["termination"]) <= {"four_in_a_row", "board_full"}


def test_a_submission_kaggle_cannot_call_is_refused_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text(SUBMISSIONS["three required"])
    result = invoke("match", f"kaggle:{path}", "random", "-n", "2", "--out",
                    str(tmp_path / "run"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"arena: error: agent spec 'kaggle:{path}': agent(obs, config, "
                             "extra) cannot be called as Kaggle calls it, agent(observation, "
                             "configuration): missing a required argument: 'extra'\n")
    assert not (tmp_path / "run").exists()


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


@pytest.mark.parametrize("answer", ["x", "3", None, 2.5, 2.0, True, [3]])
def test_an_answer_that_is_not_a_whole_number_is_an_illegal_move(answer: object) -> None:
    """As a native agent's: quoted, never truncated (Kaggle plays none of these: its schema
    refuses all but 2.0, which its interpreter then fails on, and None, which it replaces
    with its default action 0, the leftmost column)."""
    agent = KaggleFunctionAgent(lambda observation, configuration: answer)
    rng = np.random.default_rng(0)
    record = play_game([agent, agent], [rng, rng], from_moves(""))
    assert (record.termination, record.winner, record.moves) == ("illegal_move", 2, [])
    assert record.error == f"agent returned {answer!r}, expected a column number or a Choice"


@pytest.mark.slow
def test_whole_numbers_play_numpy_integers_included(tmp_path: Path) -> None:
    agent = KaggleFunctionAgent(lambda observation, configuration: np.int64(2))
    rng = np.random.default_rng(0)
    assert play_game([agent, agent], [rng, rng], from_moves("")).moves[:2] == [2, 2]
    plan = match_plan(f"{AGENTS}:answers_numpy", f"{AGENTS}:answers_text", 1,
                      GameSettings(hosting="process"), first="a")
    run_games(plan, tmp_path)
    (game,) = load_games(tmp_path / "games.csv").to_dict("records")
    assert (game["moves"], game["termination"], game["result"]) == ("1", "illegal_move", "win")
    assert game["error"] == "agent returned 'x', expected a column number or a Choice"


def test_an_agent_that_always_fails_ends_the_run_with_one_line(tmp_path: Path) -> None:
    result = invoke("match", f"{AGENTS}:broken", "random", "-n", "4",
                    "--no-report", "--out", str(tmp_path / "run"))
    assert result.exit_code == 1
    assert result.stderr.endswith(f"arena: error: every game of {AGENTS}:broken ended in its "
                                  "forfeit, agent_error: AttributeError: no_such_field\n")


def test_forfeits_lead_the_verdict_and_the_forfeits_line_points_to_the_log(
        tmp_path: Path) -> None:
    """An agent that raises in some of its games: the report's verdict says how many games
    ended in a forfeit and why, and the printed Forfeits line where its traceback is."""
    out = tmp_path / "run"
    spec = f"{AGENTS}:raises_at_step_7"
    result = invoke("match", spec, "random", "-n", "6", "-j", "1", "--no-report", "--out",
                    str(out))
    assert result.exit_code == 0, result.output
    games = load_games(out / "games.csv")
    crashed = int((games["termination"] == "agent_error").sum())
    assert 0 < crashed < 6
    assert f"Forfeits    A {crashed} agent_error; what the agents printed: " \
        f"{out / 'agents.log'}\n" in result.stdout
    assert "ValueError: step 7 is too much" in (out / "agents.log").read_text()
    run = load_run(out)
    verdict, _, conditions = verdict_section(run, run.summary, run_labels(run))[2:]
    assert conditions == "**Conditions**: openings none · 6 x 7 · no time limit."
    assert verdict.startswith("**kaggle_agents.py:raises_at_step_7** scores ")
    assert verdict.endswith(
        f" **{crashed} of these 6 games ended in a forfeit**, each counted as a loss of the "
        f"agent at fault: kaggle_agents.py:raises_at_step_7 {crashed} agent_error, the first "
        "`ValueError: step 7 is too much`. What the agents printed is in agents.log.")


def test_forfeits_that_printed_nothing_point_to_the_error_column(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("match", f"{AGENTS}:answers_text", "random", "-n", "2", "--no-report",
                    "--out", str(out))
    assert not (out / "agents.log").exists()
    assert f"Forfeits    A 2 illegal_move; why: the error column of {out / 'games.csv'}\n" \
        in result.stdout


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


def told_and_ended(directory: Path) -> tuple[list[str], str, str]:
    """What the one Kaggle agent (A) of a run was told, move by move (``told ACT OVERAGE
    BANK``), and how its game ended: termination and error."""
    lines = (directory / "agents.log").read_text().splitlines()
    told = [line.split(": ", 1)[1] for line in lines if line.startswith("game 0 A ")]
    (game,) = load_games(directory / "games.csv").to_dict("records")
    return told, game["termination"], game["error"]


def run_kaggle_clock(directory: Path, agent: str, *options: str) -> tuple[list[str], str, str]:
    """``arena match AGENT immediate-win --hosting process OPTIONS``, one game, the Kaggle
    agent first: what it was told and how the game ended."""
    result = invoke("match", f"{AGENTS}:{agent}", "immediate-win", "-n", "1", "--first", "a",
                    "--hosting", "process", "-j", "1", "--no-report", "-q", "--out",
                    str(directory), *options)
    assert result.exit_code in (0, 1), result.output
    return told_and_ended(directory)


@pytest.mark.parametrize(("limit", "bank", "told"), [
    (None, None, (2.0, 60.0)), (None, 5.0, (2.0, 5.0)), (0.3, None, (0.3, 0.0)),
    (0.3, 1.0, (0.3, 1.0))])
def test_what_a_kaggle_agent_is_told_is_its_clock_in_the_game(
        limit: float | None, bank: float | None, told: tuple[float, float]) -> None:
    from arena.protocol.agent import Limit

    seen: list[tuple[float, float, float]] = []

    def tells(observation: Struct, configuration: Struct) -> int:
        seen.append((configuration.actTimeout, observation.remainingOverageTime,
                     configuration.agentTimeout))
        return 3

    agent = KaggleFunctionAgent(tells)
    rng = np.random.default_rng(0)
    play_game([agent, agent], [rng, rng], from_moves(""), (), [Limit(limit)] * 2, bank)
    assert seen[0] == (*told, told[1])


def test_a_kaggle_agent_past_its_clock_forfeits_in_the_worker_too() -> None:
    from arena.protocol.agent import Limit

    def slow(observation: Struct, configuration: Struct) -> int:
        time.sleep(0.5)
        return 3

    agent = KaggleFunctionAgent(slow)
    rng = np.random.default_rng(0)
    record = play_game([agent, agent], [rng, rng], from_moves(""), (), [Limit(0.3)] * 2)
    assert record.termination == "time_forfeit" and record.moves == []
    assert record.error.startswith("move 1 took 0.5")
    assert record.error.endswith(" s: limit 0.3 s + 0.1 s grace")


@pytest.mark.slow
def test_a_kaggle_agent_is_told_the_limits_that_are_enforced(tmp_path: Path) -> None:
    """--time-per-move without a bank: no overage (told 0); with a bank: the bank, drawn
    on by a slow move and told as it shrinks."""
    told, ending, error = run_kaggle_clock(tmp_path / "limit", "told_then_half_a_second",
                                           "--time-per-move", "0.3")
    assert told == ["told 0.3 0.0 0.0"]
    assert (ending, error) == ("time_forfeit", "no answer within 0.4 s to a move; the agent's "
                                               "process was stopped")
    told, ending, _ = run_kaggle_clock(tmp_path / "bank", "told_then_half_a_second",
                                       "--time-per-move", "0.3", "--time-bank", "1")
    assert told[:2] == ["told 0.3 1.0 1.0", "told 0.3 0.8 1.0"]
    assert ending in ("four_in_a_row", "board_full")


@pytest.mark.slow
def test_without_a_time_limit_a_kaggle_agent_plays_under_kaggles_own(tmp_path: Path) -> None:
    """2 s a move and 60 s of overage, told and enforced: a 2.4 s move draws 0.4 s from the
    overage; with --time-bank 0.2 in place of Kaggle's overage, it forfeits at 2.3 s."""
    told, ending, _ = run_kaggle_clock(tmp_path / "kaggle", "told_then_past_kaggles_limit")
    assert told[:2] == ["told 2.0 60.0 60.0", "told 2.0 59.6 60.0"]
    assert ending in ("four_in_a_row", "board_full")
    told, ending, error = run_kaggle_clock(tmp_path / "bank", "told_then_past_kaggles_limit",
                                           "--time-bank", "0.2")
    assert told == ["told 2.0 0.2 0.2"]
    assert (ending, error) == ("time_forfeit", "no answer within 2.3 s to a move; the agent's "
                                               "process was stopped")


def test_the_configuration_follows_the_board_and_the_bank() -> None:
    from arena.protocol.agent import GameStart, Limit

    agent = KaggleFunctionAgent(lambda observation, configuration: 0)
    agent.new_game(GameStart(Rules(5, 6, 4), 1, Limit(time=1.5), time_bank=7.0))
    assert (agent.configuration.rows, agent.configuration.columns,
            agent.configuration.actTimeout, agent.configuration.agentTimeout) == (5, 6, 1.5, 7.0)


