"""Engines: programs that speak the arena's line protocol (docs/engine-protocol.md).

The example engine passes the conformance check and plays as its docstring says; each tiny
engine of tests/data/engines/ misbehaves in one way, and costs its game, never the run.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena.hosting.base import AgentFault
from arena.hosting.engines.engine import ProtocolError
from arena.hosting.engines.engines_file import load_engines
from arena.hosting.engines.line_protocol import parse_move
from arena.hosting.policy import make_host
from arena.protocol.agent import Choice, GameStart, Limit
from arena.protocol.conformance import check_agent
from arena.protocol.players import canonical_player
from arena.protocol.registry import make_agent, parse_spec
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError, UnsupportedBoardError
from arena.rules.notation import from_moves
from arena.rules.results import Termination
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import MatchPlayed, run_games
from arena.runs.store.reading import load_games
from tests.helpers.cli import invoke
from tests.helpers.paths import ENGINES, ROOT

EXAMPLE = "engine:examples/engine.py"


def engine(name: str) -> str:
    return f"engine:{ENGINES / name}.py"


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def play(a: str, b: str, games: int, out: Path, jobs: int = 1,
         **options: object) -> tuple[MatchPlayed, pd.DataFrame]:
    settings = GameSettings(seed=7, **options)  # type: ignore[arg-type]
    run = run_games(match_plan(a, b, games, settings), out, RunRequest(jobs=jobs))
    return run, load_games(out / "games.csv")


def started(log: Path) -> list[int]:
    """The pids the engines of a run printed when they started (``started PID``)."""
    return [int(pid) for pid in re.findall(r": started (\d+)$", log.read_text(), re.M)]


def running(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def engines_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "engines.toml"
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- the example


def test_the_example_engine_passes_the_conformance_check(in_root: None) -> None:
    check_agent(EXAMPLE)


@pytest.mark.parametrize(("moves", "expected"), [
    ("445566", {2, 6}),  # X holds 4, 5, 6 of the bottom row: it wins at 3 or 7
    ("141526", {2, 6}),  # O holds them: X blocks at 3 or 7
    ("172737", {3}),  # X wins at 4 rather than block O's three in column 7
])
def test_the_example_engine_wins_when_it_can_else_blocks(in_root: None, moves: str,
                                                          expected: set[int]) -> None:
    agent = make_agent(EXAMPLE)
    position = from_moves(moves)
    try:
        for seed in range(8):
            agent.new_game(GameStart(position.rules, position.side_to_move))
            assert agent.choose(position, np.random.default_rng(seed)).column in expected
    finally:
        agent.close()  # type: ignore[attr-defined]


def test_an_engine_option_from_the_engines_file_reaches_the_engine(tmp_path: Path) -> None:
    table = load_engines(engines_file(tmp_path, f"""
[[engine]]
name = "careless"
command = "{ROOT / 'examples' / 'engine.py'}"
options = {{ block = false }}
"""))
    agent = make_agent("engine:careless", table)
    position = from_moves("141526")
    columns = set()
    for seed in range(20):
        agent.new_game(GameStart(position.rules, 1))
        columns.add(agent.choose(position, np.random.default_rng(seed)).column)
    agent.close()  # type: ignore[attr-defined]
    assert columns - {2, 6}  # without blocking, it plays other columns too


def test_engine_games_are_the_same_for_any_number_of_workers(tmp_path: Path,
                                                             in_root: None) -> None:
    _, one = play(EXAMPLE, "random", 12, tmp_path / "one")
    _, two = play(EXAMPLE, "random", 12, tmp_path / "two", jobs=2)
    assert one["moves"].tolist() == two["moves"].tolist()
    assert len(set(one["moves"])) > 6  # the seeds vary its random moves
    assert one["termination"].isin(["four_in_a_row", "board_full"]).all()


# --------------------------------------------------------------------------- misbehaviour


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_crash_costs_the_game_and_the_engine_is_restarted_for_the_next(tmp_path: Path,
                                                                          jobs: int) -> None:
    run, games = play(engine("crashes"), "random", 4, tmp_path, jobs=jobs)
    assert games["termination"].tolist() == ["agent_crash"] * 4
    assert set(games["error"]) == {"the engine exited with status 3; it last printed: engine "
                                   "trouble: giving up"}
    assert (games["turns_a"] == 2).all()  # one move played, then the crash, in every game
    assert run.summaries[0].forfeits[("agent_crash", "a")] == 4
    pids = started(tmp_path / "agents.log")
    assert len(set(pids)) >= 4  # a fresh engine for every game (and one to check it first)
    assert not any(running(pid) for pid in pids)


@pytest.mark.slow
def test_a_hang_under_a_limit_is_a_time_forfeit_and_the_engine_is_stopped(tmp_path: Path) -> None:
    began = time.monotonic()
    _, games = play(engine("hangs"), "random", 3, tmp_path, time_per_move=0.2)
    assert time.monotonic() - began < 20  # the engine's 30 s sleeps were not waited for
    assert games["termination"].tolist() == ["time_forfeit"] * 3
    assert set(games["error"]) == {"no answer within 0.3 s to a move; the engine was stopped"}
    assert not any(running(pid) for pid in started(tmp_path / "agents.log"))


@pytest.mark.parametrize(("name", "error"), [
    ("garbage", "the engine printed 'I think column 4 looks nice' where a move was expected"),
    ("off_board", "the engine answered 'move 9': expected move COLUMN with a column from 1 to 7"),
])
def test_garbage_or_a_column_off_the_board_is_an_illegal_move(tmp_path: Path, name: str,
                                                              error: str) -> None:
    _, games = play(engine(name), "random", 2, tmp_path)
    assert games["termination"].tolist() == ["illegal_move"] * 2
    assert games["error"].tolist() == [error] * 2


def test_a_full_column_is_an_illegal_move_named_as_the_engine_named_it(tmp_path: Path) -> None:
    _, games = play(engine("full_column"), engine("leftmost"), 2, tmp_path)
    # A plays 1 six times; B (leftmost) plays 1 too until it is full, then 2.
    assert games["termination"].tolist() == ["illegal_move"] * 2
    assert games["error"][0] == ("the engine played column 1, which is full in position "
                                 "111111")
    assert games["moves"][0] == "111111"


def test_stderr_and_info_lines_go_to_the_log_and_search_figures_to_games(tmp_path: Path) -> None:
    _, games = play(engine("noisy"), "random", 2, tmp_path)
    assert games["termination"].isin(["four_in_a_row", "board_full"]).all()
    assert (games["nodes_a"] > 0).all()  # the engine's `move ... nodes N` is recorded
    log = (tmp_path / "agents.log").read_text().splitlines()
    name = engine("noisy")
    assert f"game 0 A {name}: thinking about the empty board" in log
    assert f"game 0 A {name}: stdout: Noisy engine 1.0 (c) nobody" in log
    assert f"game 1 A {name}: stdout: info depth 1 nodes 2 string weighing columns" in log
    assert not any("move" in line for line in log)  # answers are not logged


@pytest.mark.slow
def test_closing_leaves_no_process_even_of_an_engine_that_ignores_quit(tmp_path: Path) -> None:
    play(engine("stubborn"), engine("leftmost"), 4, tmp_path, jobs=2)
    log = (tmp_path / "agents.log").read_text()
    children = [int(pid) for pid in re.findall(r": child (\d+)$", log, re.M)]
    pids = started(tmp_path / "agents.log")
    assert children and len(pids) >= 2
    deadline = time.monotonic() + 5  # killed processes vanish as soon as they are reaped
    while any(running(pid) for pid in pids + children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(running(pid) for pid in pids + children)


def test_an_engine_that_cannot_start_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="could not start the engine: the engine exited "
                                             "with status 2; it last printed: missing a "
                                             "library: cannot start"):
        play(engine("fails_to_start"), "random", 2, tmp_path / "run")
    assert not (tmp_path / "run" / "games.csv").exists()


def test_an_engine_that_cannot_start_is_one_line_from_the_cli(tmp_path: Path) -> None:
    result = invoke("match", engine("fails_to_start"), "random", "-n", "2",
                    "--out", str(tmp_path / "run"), "--no-report")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"arena: error: agent spec {engine('fails_to_start')!r}: "
                                    "could not start the engine")


def test_a_board_the_engine_refuses_is_refused_before_the_run(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="the engine cannot play on 6x7 connect 4: at most "
                                             "5 columns"):
        play(engine("small_boards_only"), "random", 2, tmp_path)
    agent = make_agent(engine("small_boards_only"))
    with pytest.raises(UnsupportedBoardError, match="at most 5 columns"):
        agent.new_game(GameStart(Rules(), 1))
    agent.new_game(GameStart(Rules(4, 5, 3), 1))  # a board it takes
    assert agent.choose(from_moves("", Rules(4, 5, 3)), np.random.default_rng(0)) == Choice(0)
    agent.close()  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- declarations


def test_options_limits_and_reproducibility_are_declared_and_checked(tmp_path: Path) -> None:
    table = load_engines(engines_file(tmp_path, f"""
[[engine]]
name = "tuned"
command = "{ENGINES / 'options.py'}"
options = {{ hash = 64, style = "wild" }}
"""))
    settings = GameSettings(seed=1, time_per_move=2.0, time_bank=1.0, engines=table)
    run_games(match_plan("engine:tuned@depth=3", "random", 2, settings), tmp_path / "run")
    log = (tmp_path / "run" / "agents.log").read_text()
    assert "options [('hash', '64'), ('style', 'wild')] go time 2 bank 1.000 depth 3 seed " \
        in log
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    described = meta["agents"]["engine:tuned@depth=3"]
    assert described["hosting"] == "engine" and described["reproducible"] is False
    assert meta["sessions"][0]["engines"]["engines"]["tuned"]["options"] == {
        "hash": "64", "style": "wild"}
    with pytest.raises(AgentSpecError, match="does not support a nodes limit"):
        run_games(match_plan("engine:tuned@nodes=5", "random", 2, settings), tmp_path / "two")


def test_an_option_the_engine_does_not_declare_is_refused_before_the_run(tmp_path: Path) -> None:
    table = load_engines(engines_file(tmp_path, f"""
[[engine]]
name = "tuned"
command = "{ENGINES / 'options.py'}"
options = {{ colour = "red" }}
"""))
    with pytest.raises(AgentSpecError, match=r"the engine has no option 'colour' \(it declares "
                                             r"hash, style\)"):
        play("engine:tuned", "random", 2, tmp_path / "run", engines=table)


def test_engines_run_in_their_own_process_whatever_the_hosting(tmp_path: Path) -> None:
    assert type(make_host(engine("leftmost"), "inline")).__name__ == "EngineHost"
    play(engine("leftmost"), "random", 2, tmp_path, hosting="inline")
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["agents"][canonical_player(engine("leftmost"))]["hosting"] == "engine"


# --------------------------------------------------------------------------- specs


def test_an_executable_engine_runs_as_it_is(tmp_path: Path) -> None:
    program = tmp_path / "leftmost-engine"
    program.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{ENGINES / 'leftmost.py'}'\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    _, games = play(f"engine:{program}", "random", 2, tmp_path / "run")
    assert games["termination"].isin(["four_in_a_row", "board_full"]).all()
    assert games["moves"][0].startswith("1")


def test_a_relative_path_is_named_canonically(in_root: None) -> None:
    assert canonical_player("engine:./examples/engine.py") == "engine:examples/engine.py"
    assert canonical_player("engine:examples/engine.py@time=0.5") == \
        "engine:examples/engine.py@time=0.5"


def test_the_fingerprint_is_the_program_file_s_digest(tmp_path: Path) -> None:
    program = tmp_path / "engine.py"
    program.write_text((ENGINES / "leftmost.py").read_text())
    before = parse_spec(f"engine:{program}").fingerprint()
    program.write_text((ENGINES / "leftmost.py").read_text() + "# changed\n")
    after = parse_spec(f"engine:{program}").fingerprint()
    assert before.startswith("sha256 ") and before != after


@pytest.mark.parametrize(("spec", "error"), [
    ("engine:", "give engine:PATH (an executable, or a .py file) or engine:NAME"),
    ("engine:no/such/engine", "no such file no/such/engine (give an executable or a .py file; "
                              "named engines need --engines FILE)"),
    ("engine:tests", "tests is not a file"),
    ("engine:README.md", "README.md is not executable (chmod +x README.md)"),
    ("pons:", "give pons:PATH, the path of Pascal Pons' c4solver"),
])
def test_bad_engine_specs_are_one_line_errors(in_root: None, spec: str, error: str) -> None:
    with pytest.raises(AgentSpecError, match=re.escape(f"agent spec {spec!r}: {error}")):
        canonical_player(spec)


def test_an_unknown_engine_name_lists_the_engines_of_the_file(tmp_path: Path) -> None:
    path = engines_file(tmp_path, f'[[engine]]\nname = "a"\ncommand = "{sys.executable}"\n'
                                  f'[[engine]]\nname = "b"\ncommand = "{sys.executable}"\n')
    with pytest.raises(AgentSpecError, match=re.escape(
            f"agent spec 'engine:c': no engine named 'c' in {path} (engines: a, b) and no "
            "file c")):
        canonical_player("engine:c", engines=load_engines(path))


# --------------------------------------------------------------------------- the protocol


@pytest.mark.parametrize(("line", "choice"), [
    ("move 4", Choice(3)),
    ("move 1 depth 6 nodes 1234 score -2 pv 1443", Choice(0, 1234, 6, -2, pv=(0, 3, 3, 2))),
    ("move 7 score 0.25 seldepth 9 nodes 5", Choice(6, nodes=5, score=0.25)),
])
def test_move_lines_are_read_with_their_search_figures(line: str, choice: Choice) -> None:
    assert parse_move(line, Rules()) == choice


@pytest.mark.parametrize(("line", "problem"), [
    ("move", "expected move COLUMN with a column from 1 to 7"),
    ("move 0", "expected move COLUMN with a column from 1 to 7"),
    ("move 8", "expected move COLUMN with a column from 1 to 7"),
    ("move four", "expected move COLUMN with a column from 1 to 7"),
    ("move 4 depth", "expected KEY VALUE pairs after the column"),
    ("move 4 nodes -3", "bad nodes '-3'"),
    ("move 4 score high", "bad score 'high'"),
    ("move 4 pv 4481", "bad pv '4481'"),
])
def test_malformed_move_lines_are_protocol_errors_quoting_the_line(line: str,
                                                                   problem: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(f"the engine answered {line!r}: "
                                                      f"{problem}")):
        parse_move(line, Rules())


def test_the_host_says_what_the_protocol_promises(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines an engine is sent over two games, as docs/engine-protocol.md shows them."""
    transcript = tmp_path / "transcript.txt"
    monkeypatch.setenv("ENGINE_TRANSCRIPT", str(transcript))
    table = load_engines(engines_file(
        tmp_path, f'[[engine]]\nname = "recorder"\ncommand = "{ENGINES / "recorder.py"}"\n'
                  'options = { hash = 32 }\n'))
    host = make_host("engine:recorder", "auto", table)
    rng = np.random.default_rng(0)
    host.new_game(GameStart(Rules(), 2, Limit(time=0.5, depth=4), time_bank=3.0))
    host.move(from_moves("4"), rng, 0.5 + 3.0 + 0.1)
    host.new_game(GameStart(Rules(5, 6, 4), 1))
    host.move(from_moves("", Rules(5, 6, 4)), rng, None)
    host.close()
    lines = transcript.read_text().splitlines()
    seeds = [line.rsplit(" ", 1)[1] for line in lines if line.startswith("go")]
    assert lines == ["arena 1", "setoption hash 32", "board 6 7 4", "newgame 2", "position 4",
                     f"go time 0.5 bank 3.000 depth 4 seed {seeds[0]}", "board 5 6 4",
                     "newgame 1", "position", f"go seed {seeds[1]}", "quit"]


def test_positions_are_the_game_s_moves_in_the_order_played(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    transcript = tmp_path / "transcript.txt"
    monkeypatch.setenv("ENGINE_TRANSCRIPT", str(transcript))
    settings = GameSettings(seed=5)
    run_games(match_plan(engine("recorder"), "random", 2, settings, openings="random:4"),
              tmp_path / "run", RunRequest(jobs=1))  # one process writes the transcript
    games = load_games(tmp_path / "run" / "games.csv")
    sent = [line.split()[1] for line in transcript.read_text().splitlines()
            if line.startswith("position ")]
    # After the 4 plies of its opening, the recorder (A) moves at plies 4, 6, ... when it
    # moves first (it is then player 1), else at plies 5, 7, ...
    expected = [moves[:plies] for moves, first in zip(games["moves"], games["first"], strict=True)
                for plies in range(4 if first == "a" else 5, len(moves), 2)]
    assert sent == expected and len(sent) > 10


@pytest.mark.slow
@pytest.mark.dask
def test_a_named_engine_works_on_dask_workers(tmp_path: Path) -> None:
    table = load_engines(engines_file(
        tmp_path, f'[[engine]]\nname = "left"\ncommand = "{ENGINES / "leftmost.py"}"\n'))
    plan = MatchPlan((Pairing(canonical_player("engine:left", engines=table), "random", 4),),
                     GameSettings(seed=2, engines=table))
    run_games(plan, tmp_path / "run", RunRequest(jobs=2, backend="dask"))
    games = load_games(tmp_path / "run" / "games.csv")
    assert games["termination"].isin(["four_in_a_row", "board_full"]).all()
    assert games["moves"][0].startswith("1")


def test_a_fault_raised_through_a_hosted_agent_is_the_hosts_fault() -> None:
    agent = make_agent(engine("garbage"))
    agent.new_game(GameStart(Rules(), 1))
    with pytest.raises(AgentFault) as caught:
        agent.choose(from_moves(""), np.random.default_rng(0))
    assert caught.value.termination == Termination.ILLEGAL_MOVE
    agent.close()  # type: ignore[attr-defined]
