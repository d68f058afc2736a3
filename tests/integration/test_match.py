"""Many games: seeds, colours, openings, forfeits, workers, resuming, dask (the plans alone:
tests/unit/runs/planning/test_plan.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

import arena.hosting.policy  # noqa: F401 - imported before parse_spec is counted in it
import arena.protocol.registry as registry
from arena.protocol.players import canonical_player
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError
from arena.rules.notation import format_moves, from_moves
from arena.runs.planning.plan import GameSettings, MatchSetupError, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games
from arena.runs.store.directory import RunDirectoryError
from arena.runs.store.reading import load_games
from arena.runs.store.rows import read_rows
from arena.runs.store.summary import summarize, summary_csv
from connect_four_agents.random_agent import RandomAgent
from tests.helpers.runs import games_without_timing, plan_of

TEST_AGENTS = '''
import time

from arena.protocol.agent import BaseAgent, Choice
from arena.rules.errors import UnsupportedBoardError


class Leftmost(BaseAgent):
    """Plays the leftmost legal column and reports one node per legal column."""

    def choose(self, position, rng):
        moves = position.legal_moves()
        return Choice(moves[0], nodes=len(moves))


class Crasher(BaseAgent):
    """Raises on its second move."""

    def choose(self, position, rng):
        if position.plies >= 2:
            raise RuntimeError("lost the thread")
        return position.legal_moves()[0]


class OnlyChoose:
    """Nothing but choose: the leftmost legal column."""

    def choose(self, position, rng):
        return position.legal_moves()[0]


class FirstColumn(BaseAgent):
    """Plays column 0 (the leftmost), full or not."""

    def choose(self, position, rng):
        return 0


class OffBoard(BaseAgent):
    """Plays column 99."""

    def choose(self, position, rng):
        return 99


class Sleeper(BaseAgent):
    """Thinks for a while, then plays the leftmost column."""

    def __init__(self, seconds: float = 0.2):
        self.seconds = seconds

    def choose(self, position, rng):
        time.sleep(self.seconds)
        return position.legal_moves()[0]


class NeedsBudget(BaseAgent):
    """Plays randomly when told a time budget of half a second, else an illegal column."""

    def choose(self, position, rng):
        if self.game.time_per_move != 0.5:
            return -1
        moves = position.legal_moves()
        return moves[int(rng.integers(len(moves)))]


class SevenColumnsOnly(BaseAgent):
    """Refuses boards that are not 7 columns wide."""

    def check_rules(self, rules):
        if rules.cols != 7:
            raise UnsupportedBoardError(f"needs 7 columns, got {rules.cols}")

    def choose(self, position, rng):
        return position.legal_moves()[0]
'''


@pytest.fixture
def agents_file(tmp_path: Path) -> str:
    path = tmp_path / "test_agents.py"
    path.write_text(TEST_AGENTS)
    return str(path)


# --- the plan against the agents ----------------------------------------------------


def test_agents_are_checked_against_the_board(tmp_path: Path, agents_file: str) -> None:
    seven = f"{agents_file}:SevenColumnsOnly"
    run_games(plan_of(seven, "random", 2), tmp_path / "ok")
    with pytest.raises(AgentSpecError, match="needs 7 columns"):
        run_games(plan_of(seven, "random", 2, rules=Rules(rows=5, cols=6)), tmp_path / "no")
    assert not (tmp_path / "no" / "games.csv").exists()
    with pytest.raises(AgentSpecError, match="depth must be a whole number"):
        canonical_player("negamax:depth=99", Rules())  # built-ins are built with the plan
    with pytest.raises(AgentSpecError, match="unknown parameter"):
        canonical_player("random:depth=3")


# --- playing ----------------------------------------------------------------------------


def test_each_row_replays_from_its_seed(tmp_path: Path) -> None:
    plan = plan_of("random", "random", 6, openings="random:2")
    run_games(plan, tmp_path)
    rows = [(row.seed, row.opening, row.first, row.moves, row.plies, row.result)
            for row in read_rows(tmp_path / "games.csv")]
    assert len(rows) == 6
    for seed, opening, first, played, plies, result in rows:
        rng = np.random.Generator(np.random.PCG64(int(seed)))
        position = from_moves(opening, Rules())
        moves = []
        while not position.is_terminal:
            moves.append(RandomAgent().choose(position, rng))
            position = position.play(moves[-1])
        assert played == opening + format_moves(moves)
        assert int(plies) == len(played)
        winner = position.winner
        a_player = 1 if first == "a" else 2
        assert result == ("draw" if winner is None else "win" if winner == a_player else "loss")


def test_results_are_from_agent_a_whoever_moves_first(tmp_path: Path, agents_file: str) -> None:
    # Leftmost against itself fills columns 1, 2 and 3, then the first mover completes the
    # diagonal 1-2-3-4 from the bottom left on ply 19.
    plan = plan_of(f"{agents_file}:Leftmost", f"{agents_file}:Leftmost", 4)
    run = run_games(plan, tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    assert games["moves"].tolist() == ["1111112222223333334"] * 4
    assert games["result"].tolist() == ["win", "loss", "win", "loss"]
    # the first mover saw 7, 7, 7, 6, 6, 6, 5, 5, 5, 4 legal columns; the second 7, 7, 7, ...
    assert games["nodes_a"].tolist() == [58, 54, 58, 54]
    assert games["turns_a"].tolist() == [10, 9, 10, 9]
    [summary] = run.summaries
    assert summary.distinct_games == 2 and run.played == 4


def test_forfeits_lose_the_game_and_the_run_goes_on(tmp_path: Path, agents_file: str) -> None:
    plan = plan_of(f"{agents_file}:Crasher", f"{agents_file}:OffBoard", 4, first="a")
    run_games(plan, tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    # A plays column 1, B answers column 99 and forfeits before A's second move
    assert games["termination"].tolist() == ["illegal_move"] * 4
    assert games["result"].tolist() == ["win"] * 4
    assert games["error"][0] == ("the agent returned 99, not a column from 0 to 6 (columns 1 to 7 "
                                 "in move strings), in position 1")
    assert games["moves"].tolist() == ["1"] * 4


def test_a_crash_is_recorded_with_its_message(tmp_path: Path, agents_file: str) -> None:
    plan = plan_of("random", f"{agents_file}:Crasher", 2)
    [summary] = run_games(plan, tmp_path / "run").summaries
    games = load_games(tmp_path / "run" / "games.csv")
    assert games["termination"].tolist() == ["agent_error"] * 2
    assert games["error"].tolist() == ["RuntimeError: lost the thread"] * 2
    assert summary.forfeits[("agent_error", "b")] == 2 and summary.wins == 2


def test_overtime_forfeits_only_with_a_time_limit(tmp_path: Path, agents_file: str) -> None:
    sleeper = f"{agents_file}:Sleeper:seconds=0.15"
    timed = plan_of(sleeper, "random", 2, first="a", time_per_move=0.02)
    run_games(timed, tmp_path / "timed")
    games = load_games(tmp_path / "timed" / "games.csv")
    assert games["termination"].tolist() == ["time_forfeit"] * 2
    assert games["result"].tolist() == ["loss"] * 2
    assert games["error"][0].startswith("no answer within 0.12 s to a move")
    assert games["plies"].tolist() == [0, 0]


def test_agents_receive_the_time_budget(tmp_path: Path, agents_file: str) -> None:
    budget = f"{agents_file}:NeedsBudget"
    run_games(plan_of(budget, "random", 4, time_per_move=0.5), tmp_path / "told")
    told = load_games(tmp_path / "told" / "games.csv")
    assert set(told["termination"]) <= {"four_in_a_row", "board_full"}
    run_games(plan_of(budget, "random", 1), tmp_path / "untold")
    assert load_games(tmp_path / "untold" / "games.csv")["termination"][0] == "illegal_move"


def test_interactive_agents_stay_in_this_process(tmp_path: Path) -> None:
    plan = plan_of("human", "random", 2)
    with pytest.raises(MatchSetupError, match=r"'human' is interactive.*--jobs 2"):
        run_games(plan, tmp_path, RunRequest(jobs=2))
    with pytest.raises(MatchSetupError, match="--backend dask"):
        run_games(plan, tmp_path, RunRequest(backend="dask"))
    assert not (tmp_path / "games.csv").exists()


def test_dask_needs_the_optional_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "distributed" else found(name, *rest))
    with pytest.raises(MatchSetupError, match=r"dask\.distributed \(the dask extra\): python3 -m"):
        run_games(plan_of("random", "random", 2), tmp_path / "run", RunRequest(backend="dask"))
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("openings", ["random:3", "uniform:4"])
def test_worker_count_does_not_change_the_games(tmp_path: Path, openings: str) -> None:
    plan = plan_of("immediate-win:block=true", "random", 150, openings=openings)
    one = run_games(plan, tmp_path / "one", RunRequest(jobs=1))
    two = run_games(plan, tmp_path / "two", RunRequest(jobs=2))
    assert one.played == two.played == 150
    assert games_without_timing(tmp_path / "one") == games_without_timing(tmp_path / "two")
    assert [s.row()["wins"] for s in one.summaries] == [s.row()["wins"] for s in two.summaries]
    for run in ("one", "two"):  # counted as written (batches out of order): as read back
        out = tmp_path / run
        assert (out / "summary.csv").read_text() == summary_csv(summarize(out / "games.csv"))


def test_a_resumed_run_plays_only_the_missing_games(tmp_path: Path) -> None:
    plan = plan_of("random", "immediate-win", 40, openings="random:2")
    run_games(plan, tmp_path / "whole")
    reference = games_without_timing(tmp_path / "whole")
    broken = tmp_path / "broken"
    run_games(plan, broken)
    games_csv = broken / "games.csv"
    lines = games_csv.read_text().splitlines(keepends=True)
    kept = [lines[0], *lines[5:20:2]]  # header and 8 games, then half a row
    games_csv.write_text("".join(kept) + lines[21][:15])
    again = run_games(plan, broken, RunRequest(jobs=2))
    assert again.played == 32
    assert games_without_timing(broken) == reference
    assert run_games(plan, broken).played == 0
    meta = json.loads((broken / "meta.json").read_text())
    assert [s["games_played"] for s in meta["sessions"]] == [40, 32, 0]
    assert meta["run"] == plan.describe() and meta["ended"] is not None


def test_a_different_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    run_games(plan_of("random", "random", 6), tmp_path)
    before = (tmp_path / "games.csv").read_text()
    for other in (plan_of("random", "random", 4), plan_of("random", "random", 6, seed=6),
                  plan_of("random", "immediate-win", 6), plan_of("random", "random", 6,
                                                                 openings="random:2")):
        with pytest.raises(RunDirectoryError, match="holds a different run"):
            run_games(other, tmp_path)
    assert (tmp_path / "games.csv").read_text() == before


def test_more_games_extend_a_run_and_play_only_the_new_ones(tmp_path: Path) -> None:
    run_games(plan_of("random", "immediate-win", 6, openings="random:2"), tmp_path / "grown")
    grown = run_games(plan_of("random", "immediate-win", 10, openings="random:2"),
                      tmp_path / "grown")
    assert grown.played == 4 and grown.summaries[0].games == 10
    run_games(plan_of("random", "immediate-win", 10, openings="random:2"), tmp_path / "whole")
    assert games_without_timing(tmp_path / "grown") == games_without_timing(tmp_path / "whole")
    meta = json.loads((tmp_path / "grown" / "meta.json").read_text())
    assert meta["run"]["games"] == 10 and meta["sessions"][1]["extended_from"] == 6


def test_meta_records_agents_options_and_versions(tmp_path: Path) -> None:
    plan = plan_of("immediate-win:block=true", "random", 2, time_per_move=1.0)
    run_games(plan, tmp_path, RunRequest(jobs=1), command={"command": "arena match ..."})
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["agents"]["immediate-win:block=true"]["params"] == {"block": True}
    assert meta["run"]["time_per_move"] == 1.0 and meta["run"]["seed"] == 5
    assert meta["run"]["board"] == {"rows": 6, "cols": 7, "connect": 4}
    [session] = meta["sessions"]
    assert session["command"] == "arena match ..." and session["jobs"] == 1
    assert {"python", "numpy", "arena"} <= session["versions"].keys()
    assert session["hosting"] == "auto"
    assert meta["agents"]["random"]["hosting"] == "inline"
    assert session["cores"] >= 1
    assert meta["started"] <= session["started"] <= session["ended"] == meta["ended"]


@pytest.mark.slow
@pytest.mark.dask
def test_dask_gives_the_same_games_as_local_workers(tmp_path: Path) -> None:
    import distributed
    plan = plan_of("immediate-win", "random", 60, openings="random:2")
    run_games(plan, tmp_path / "local", RunRequest(jobs=2))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        run = run_games(plan, tmp_path / "dask", RunRequest(backend="dask", scheduler=address))
    assert run.played == 60
    assert games_without_timing(tmp_path / "dask") == games_without_timing(tmp_path / "local")


@pytest.mark.parametrize("hosting", ["inline", pytest.param("process", marks=pytest.mark.slow)])
def test_an_agent_needs_nothing_but_choose(tmp_path: Path, agents_file: str,
                                           hosting: str) -> None:
    settings = GameSettings(seed=5, hosting=hosting)  # type: ignore[arg-type]
    run_games(match_plan(f"{agents_file}:OnlyChoose", "random", 2, settings), tmp_path / "run")
    games = load_games(tmp_path / "run" / "games.csv")
    assert set(games["termination"]) <= {"four_in_a_row", "board_full"}, games["error"][0]


def test_a_full_column_is_named_as_move_strings_name_it(tmp_path: Path,
                                                       agents_file: str) -> None:
    """games.csv's error column counts columns from 1, as its moves column does."""
    plan = plan_of(f"{agents_file}:FirstColumn", f"{agents_file}:FirstColumn", 1)
    run_games(plan, tmp_path / "run")
    (error,) = load_games(tmp_path / "run" / "games.csv")["error"]
    assert error == "column 1 is full in position 111111 (the agent returned 0)"


@pytest.mark.parametrize(("a", "b", "time_per_move"), [
    ("random", "immediate-win", None),  # fused
    ("random", "random", 30.0),  # hosted, an agent against itself (its host B in each worker)
])
def test_a_match_parses_each_agent_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        a: str, b: str, time_per_move: float | None) -> None:
    original = registry.parse_spec
    log = tmp_path / "parses"

    def counted(text: str, engines: object = None) -> registry.AgentSpec:
        with log.open("a") as out:  # the workers are forked: each writes its own line
            out.write(f"{os.getpid()} {text}\n")
        return original(text, engines)

    for module in list(sys.modules.values()):  # every module that took the name
        if getattr(module, "parse_spec", None) is original:
            monkeypatch.setattr(module, "parse_spec", counted)
    request = RunRequest(jobs=2, time_per_move=time_per_move, progress=False)
    run_games(request.match_plan(a, b, 8), tmp_path / "run", request)
    parses = [line.split(" ", 1) for line in log.read_text().splitlines()]
    assert [text for _, text in parses] == [a, b]  # the plan's, one per agent
    assert {int(pid) for pid, _ in parses} == {os.getpid()}  # none in the worker
