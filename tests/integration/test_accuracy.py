"""``arena accuracy``: best-move and blunder rates against exact scores, cached scoring,
position sets, and the files it writes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena.analysis import scores as scores_module
from arena.analysis.accuracy import (
    ACCURACY_FILE,
    CHART_FILE,
    CHOICES_FILE,
    EARLY_SET,
    LATER_SETS,
    default_sets,
    measure_agent,
    read_table,
    write_results,
)
from arena.analysis.position_sets import PositionSetError, load_position_set
from arena.analysis.scores import ScoreCache, score_positions
from arena.cli.accuracy import DEFAULT_SETS_HELP
from arena.protocol.agent import BaseAgent
from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from arena.search.solver import column_scores
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA

HERE = __file__  # agents of this file, loaded by path (in a child process of their own)
AGENTS = DATA / "hosting_agents.py"
STANDARD = Rules()


class Leftmost(BaseAgent):
    """The leftmost legal column."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Column of the lowest index that is not full."""
        return position.legal_moves()[0]


@pytest.mark.slow
def test_rates_of_an_agent_with_a_known_move(tmp_path: Path) -> None:
    positions = load_position_set("Test_L2_R1", STANDARD, 60)
    scores = score_positions(positions.positions, ScoreCache(tmp_path, STANDARD))
    summary, rows, _ = measure_agent(f"{HERE}:Leftmost", positions, scores, seed=1)
    best = [s[min(s)] == max(s.values()) for s in scores]
    kept = [np.sign(s[min(s)]) == np.sign(max(s.values())) for s in scores]
    assert summary.positions == 60
    assert summary.best == sum(best) and summary.accuracy == sum(best) / 60
    assert summary.blunders == 60 - sum(kept)
    assert summary.accuracy_low < summary.accuracy < summary.accuracy_high
    assert summary.nodes_per_move is None
    assert [row.move for row in rows] == [min(s) + 1 for s in scores]
    assert all(row.score == scores[row.index][row.move - 1] for row in rows)


@pytest.mark.parametrize(("agent", "reason"), [
    pytest.param("Exits", "agent_error): SystemExit: 0", marks=pytest.mark.slow),
    ("HardExits", "agent_crash): the agent's process exited with status 3"),
    ("Interrupts", "agent_error): KeyboardInterrupt"),
])
def test_an_agent_that_fails_is_one_line(tmp_path: Path, agent: str, reason: str) -> None:
    result = invoke("accuracy", f"{AGENTS}:{agent}", "--set", "Test_L3_R1",
                    "--positions", "3", "--out", str(tmp_path / "out"),
                    "--quiet")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1
    assert "failed on position" in result.output and reason in result.output


def test_the_solver_agent_is_perfect(tmp_path: Path) -> None:
    positions = load_position_set("random:20-30", STANDARD, 40, seed=3)
    scores = score_positions(positions.positions, ScoreCache(tmp_path, STANDARD))
    summary, _, _ = measure_agent("solver", positions, scores)
    assert (summary.best, summary.blunders) == (40, 0)
    assert summary.accuracy_high == 1.0 and summary.blunder_low == 0.0


def test_scores_are_cached_on_disk_and_not_solved_again(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    positions = load_position_set("Test_L3_R1", STANDARD, 30).positions
    first = score_positions(positions, ScoreCache(tmp_path, STANDARD), jobs=2)
    assert first == [column_scores(p) for p in positions]

    def no_solving(*args: object) -> None:
        raise AssertionError("solved again")

    monkeypatch.setattr(scores_module, "_solve_chunk", no_solving)
    again = ScoreCache(tmp_path, STANDARD)  # read back from the file
    assert len(again) == 30
    assert score_positions(positions, again) == first


def test_position_sets() -> None:
    random_set = load_position_set("random:12-16", STANDARD, 50, seed=7)
    assert len(random_set) == 50 == len({p.key() for p in random_set.positions})
    assert all(12 <= p.plies <= 16 and not p.is_terminal and not p.winning_moves()
               for p in random_set.positions)
    assert load_position_set("random:12-16", STANDARD, 50, seed=7) == random_set
    assert load_position_set("L2_R1", STANDARD, 5).moves[0] == "5554224333234511764415115"
    for spec, message in (("random:x", "expected a number of discs"),
                          ("random:9-3", "empty"),
                          ("random:42", "fewer than 42 discs"),
                          ("games:/nonexistent", "does not exist"),
                          ("no-such-set", "not a shipped set")):
        with pytest.raises(Exception, match=message):
            load_position_set(spec, STANDARD, 5)


def test_positions_from_a_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    result = invoke("match", "random", "random", "-n", "4", "--rows", "4",
                    "--cols", "5", "--connect", "3", "--out", str(run),
                    "--quiet", "--no-report", "-j", "1")
    assert result.exit_code == 0, result.output
    games = pd.read_csv(run / "games.csv", dtype={"moves": str})
    found = load_position_set(f"games:{run}:2-4", STANDARD, None)
    assert found.rules == Rules(4, 5, 3)
    expected = {games_moves[:k] for games_moves in games["moves"] for k in (2, 3, 4)
                if k < len(games_moves)}
    assert set(found.moves) <= expected and found.moves
    assert all(2 <= p.plies <= 4 for p in found.positions)
    with pytest.raises(PositionSetError, match="no position"):
        load_position_set(f"games:{run}:30-40", STANDARD, None)


def test_results_merge_and_open_in_pandas_with_their_types(tmp_path: Path) -> None:
    positions = load_position_set("Test_L3_R1", STANDARD, 20)
    scores = score_positions(positions.positions, ScoreCache(tmp_path, STANDARD))
    first = measure_agent("random", positions, scores)
    second = measure_agent("negamax:depth=2", positions, scores)
    write_results(tmp_path, [first[0]], first[1])
    table = write_results(tmp_path, [second[0], first[0]], [*second[1], *first[1]])
    assert list(table["agent"]) == ["negamax:depth=2", "random"]  # random replaced, not doubled
    assert table["accuracy"].dtype == float and table["positions"].dtype == np.int64
    assert table["nodes_per_move"].isna().tolist() == [False, True]
    choices = read_table(tmp_path / CHOICES_FILE)
    assert len(choices) == 40
    assert choices["best"].dtype == bool and choices["nodes"].dtype == "Int64"
    assert choices["position"].str.fullmatch("[1-7]+").all()


def test_the_command_writes_its_files_and_a_table(tmp_path: Path) -> None:
    out = tmp_path / "acc"
    result = invoke(
        "accuracy", "random", "negamax:depth=2", "negamax:depth=4", "--set", "Test_L3_R1",
        "-n", "30", "--out", str(out), "--cache", str(tmp_path / "cache"), "-j", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["agent", "set", "positions"]
    assert [line.split()[0] for line in lines[1:4]] == ["random", "negamax:depth=2",
                                                        "negamax:depth=4"]
    assert all((out / name).stat().st_size > 0 for name in (ACCURACY_FILE, CHOICES_FILE,
                                                             CHART_FILE))
    assert len(read_table(out / ACCURACY_FILE)) == 3
    assert read_table(out / ACCURACY_FILE)["positions"].eq(30).all()  # -n: --positions
    assert not any(line.startswith("Model") for line in lines)  # no language model


@pytest.mark.parametrize(("args", "message"), [
    (["nobody"], "unknown agent 'nobody'"),
    (["random", "--set", "random:5-2"], "empty or negative"),
    (["random", "--set", "missing.txt"], "not a shipped set"),
    (["random", "--concurrency", "0"], "'--concurrency': 0 is not in the range 1<=x<=1024"),
    (["random", "--concurrency", "5000"], "5000 is not in the range 1<=x<=1024"),
])
def test_bad_input_is_a_one_line_error(tmp_path: Path, args: list[str], message: str) -> None:
    result = invoke("accuracy", *args, "--cache", str(tmp_path), "--out", str(tmp_path / "acc"))
    assert result.exit_code == 2 and not (tmp_path / "acc").exists()
    assert result.stderr.startswith("arena: error: ") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_the_default_sets_begin_with_the_early_game_where_the_solver_has_the_database(
        ) -> None:
    assert default_sets(STANDARD) == (EARLY_SET, *LATER_SETS)
    assert default_sets(Rules(5, 6, 4)) == LATER_SETS
    for spec in default_sets(STANDARD):
        assert spec in DEFAULT_SETS_HELP  # the help says what the default is


@pytest.mark.usefixtures("without_database")
def test_without_the_database_the_default_sets_start_at_ply_12() -> None:
    assert default_sets(STANDARD) == LATER_SETS


def test_the_early_set_is_scored_and_the_solver_agent_plays_it_perfectly(
        tmp_path: Path) -> None:
    positions = load_position_set(EARLY_SET, STANDARD, 20, seed=5)
    assert {p.plies for p in positions.positions} <= set(range(4, 13))
    scores = score_positions(positions.positions, ScoreCache(tmp_path, STANDARD))
    assert scores == [column_scores(p) for p in positions.positions]
    summary, rows, spent = measure_agent("solver", positions, scores)
    assert (summary.accuracy, summary.blunder_rate) == (1.0, 0.0)
    assert all(row.score == max(s.values()) for row, s in zip(rows, scores, strict=True))
    assert spent is None  # no language model: nothing spent


@pytest.mark.slow
def test_the_command_tests_the_early_game_first_on_6x7(tmp_path: Path) -> None:
    """The command's default sets on 6 x 7, the early one first: every position of it
    scored (column by column as the solver's column_scores) and the solver agent's every
    move a best one."""
    out = tmp_path / "acc"
    result = invoke("accuracy", "solver", "--positions", "8", "--out", str(out), "--cache",
                    str(tmp_path / "cache"), "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    table = read_table(out / ACCURACY_FILE)
    assert table["set"].tolist() == list(default_sets(STANDARD))
    assert table["accuracy"].eq(1.0).all() and table["blunder_rate"].eq(0.0).all()
    choices = pd.read_csv(out / CHOICES_FILE, dtype={"position": str})
    early = choices[choices["set"] == EARLY_SET]
    assert len(early) == 8 and early["plies"].between(4, 12).all()
    for row in early.itertuples():
        scores = column_scores(from_moves(row.position, STANDARD))
        assert (row.score, row.best_score) == (scores[row.move - 1], max(scores.values()))
