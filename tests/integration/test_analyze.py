"""``arena analyze``: the first move of each game that changed its theoretical result, on
hand-checked games, resumed after an interruption, and shown by ``arena report``."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena.analysis.annotate import (
    FROM_PLY_WITHOUT_DATABASE,
    analyse_game,
    analyse_run,
    default_from_ply,
    load_analysis,
    pending_games,
)
from arena.cli.options import FROM_PLY_HELP
from arena.report.blunders import blunder_rates, phase_names
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.rules.results import Result, Side, Termination
from arena.runs.planning.plan import GameSettings, MatchPlan, Pairing
from arena.runs.planning.seeds import game_seed
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import AgentRecord, RunMeta, write_meta
from arena.runs.store.rows import COLUMNS, GameRow
from arena.search.solver import solve
from tests.helpers.cli import invoke

STANDARD = Rules()
# Player 1 stacks three discs in column 1, player 2 in column 2; player 1 then misses the win
# in column 1 (plays 7) and player 2 wins in column 2: at ply 6 a won game became a lost one.
MISSED_WIN = "12121272"
SMALL = Rules(4, 5, 4)  # a draw; the edge columns lose at once: column scores -1 0 0 0 -1


def write_run(directory: Path, games: list[tuple[str, str, str, str]], rules: Rules) -> None:
    """A run directory with games (agent_a, agent_b, first, moves), each the one game of a
    pairing of its own (so that each has its first mover), ended as its moves end (an
    unfinished game is the side to move's forfeit), and its meta.json: a run that passes the
    checks of ``arena.runs.store.reading``."""
    directory.mkdir(parents=True)
    plan = MatchPlan(tuple(Pairing(a, b, 1, first) for a, b, first, _ in games),  # type: ignore[arg-type]
                     GameSettings(rules))
    record = AgentRecord("tests:Agent", {}, {}, "inline", True, "test")
    write_meta(directory, RunMeta(plan.describe(), dict.fromkeys(plan.specs, record), []))
    with (directory / "games.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for index, (agent_a, agent_b, first, moves) in enumerate(games):
            final = from_moves(moves, rules)
            winner = final.winner or (0 if final.is_full else 3 - final.side_to_move)
            termination = (Termination.FOUR_IN_A_ROW if final.won else Termination.BOARD_FULL
                           if final.is_full else Termination.AGENT_ERROR)
            row = GameRow(index, None, game_seed(plan.settings.seed, index), agent_a, agent_b,
                          Side(first), "", moves, Result.of_winner(winner, 1 if first == "a"
                                                                    else 2),
                          termination, len(moves), 0.0, 0.0, None, None, 4, 4, "")
            writer.writerow(["" if v is None else v for v in row])


def recorded(first: str, opening: str, result: str) -> GameRow:
    """Game 0 of x (agent A) against y with the missed win, as games.csv would hold it."""
    return GameRow(0, None, 0, "x", "y", Side(first), opening, MISSED_WIN, Result(result),
                   Termination.FOUR_IN_A_ROW, len(MISSED_WIN), 0.0, 0.0, None, None, 4, 4, "")


def test_a_missed_immediate_win_is_the_first_blunder() -> None:
    game = recorded("a", "", "loss")
    analysis, blunders, _ = analyse_game(game, STANDARD, 6, solve)
    assert blunders[0].ply == 6 and blunders[0].side == "a" and blunders[0].agent == "x"
    assert (blunders[0].move, blunders[0].before, blunders[0].after) == (7, "win", "loss")
    assert len(blunders) == 1  # the winning move keeps the lost game lost
    assert (analysis.first_blunder_ply, analysis.first_blunder_agent) == (6, "x")
    assert (analysis.start, analysis.moves_a, analysis.moves_b) == ("win", 1, 1)
    assert (analysis.blunders_a, analysis.blunders_b) == (1, 0)


def test_results_are_agent_a_s_whoever_moves_first() -> None:
    game = recorded("b", "", "win")  # agent B plays player 1
    analysis, blunders, _ = analyse_game(game, STANDARD, 6, solve)
    assert (blunders[0].side, blunders[0].agent) == ("b", "y")
    assert (blunders[0].before, blunders[0].after) == ("loss", "win")
    assert (analysis.start, analysis.blunders_a, analysis.blunders_b) == ("loss", 0, 1)


def test_opening_moves_are_not_graded() -> None:
    """With the first 7 moves an opening, the missed win at ply 6 is nobody's blunder."""
    game = recorded("a", MISSED_WIN[:7], "loss")
    analysis, blunders, _ = analyse_game(game, STANDARD, 0, solve)
    assert blunders == []
    assert (analysis.start, analysis.moves_a, analysis.moves_b) == ("loss", 0, 1)
    assert (analysis.from_ply, analysis.graded_from) == (0, 7)


def test_every_blunder_matches_the_solver_before_and_after(tmp_path: Path) -> None:
    """An edge column first on 4 x 5 turns the draw into a loss for the side that plays it."""
    run = tmp_path / "run"
    write_run(run, [("x", "y", "a", "13332244"), ("x", "y", "b", "32141")], SMALL)
    todo, total, _, _ = pending_games(run, 0)
    assert total == 2
    analyse_run(run, 0, todo)
    tables = load_analysis(run)
    assert tables is not None
    analysis, blunders = tables
    assert analysis["first_blunder_ply"].iloc[0] == 0
    first = blunders[blunders["game"] == 0].iloc[0]
    assert (first["ply"], first["side"], first["before"], first["after"]) == (0, "a", "draw",
                                                                             "loss")
    for row in blunders.to_dict("records"):
        moves = ("13332244", "32141")[row["game"]]
        before, after = from_moves(moves[:row["ply"]], SMALL), from_moves(
            moves[:row["ply"] + 1], SMALL)
        mover_score = solve(before)
        after_score = 0 if after.is_full and not after.won else \
            (1 if after.won else -solve(after))
        assert (mover_score > 0) - (mover_score < 0) != (after_score > 0) - (after_score < 0)


def test_an_interrupted_analysis_resumes_to_the_same_files(tmp_path: Path) -> None:
    games = [("x", "y", "a" if i % 2 else "b", moves) for i, moves in enumerate(
        ["13332244", "32141", "1111", "2345", "55552", "3131313"])]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    write_run(whole, games, SMALL)
    write_run(cut, games, SMALL)
    analyse_run(whole, 1, pending_games(whole, 1).games)
    analyse_run(cut, 1, pending_games(cut, 1).games[:3])
    with RunFiles(cut).blunders.open("a") as handle:  # a game cut between the two files
        handle.write("3,1,a,x,3,draw,loss\n")
    with RunFiles(cut).analysis.open("a") as handle:  # and a line cut short
        handle.write("4,x,y,a,lo")
    todo, total, from_ply, _ = pending_games(cut, 1)
    assert [game.game for game in todo] == [3, 4, 5] and (total, from_ply) == (6, 1)
    analyse_run(cut, 1, todo)
    for name in (RunFiles.ANALYSIS, RunFiles.BLUNDERS):
        assert (cut / name).read_text() == (whole / name).read_text()
    with pytest.raises(Exception, match="made with --from-ply 1"):
        pending_games(cut, 2)


def test_rates_per_agent_and_phase(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_run(run, [("x", "y", "a", MISSED_WIN)], STANDARD)
    analyse_run(run, 6, pending_games(run, 6).games)
    tables = load_analysis(run)
    assert tables is not None
    rates = blunder_rates(*tables, 42).set_index(["agent", "phase"])
    opening = phase_names(42)[0]
    assert opening == "opening (plies 0-13)"
    assert rates.loc[("x", "all"), ["moves", "blunders"]].tolist() == [1, 1]
    assert rates.loc[("x", opening), "rate"] == 1.0
    assert rates.loc[("y", "all"), ["moves", "blunders"]].tolist() == [1, 0]


def test_the_command_and_the_report(tmp_path: Path) -> None:
    run = tmp_path / "run"
    played = invoke("match", "negamax:depth=2", "random", "-n", "6",
                    "--rows", "4", "--cols", "5", "--out", str(run),
                    "--quiet", "--no-report", "-j", "1")
    assert played.exit_code == 0, played.output
    result = invoke("analyze", str(run), "--from-ply", "2", "-j", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Games       6 analysed (6 now), moves from ply 2 on")
    assert "negamax d2: " in result.stdout and "random: " in result.stdout  # as report.md
    assert result.stdout.splitlines()[-1] == (f"Report      arena report {run} adds the blunders "
                                              "per agent and per phase to report.md")
    again = invoke("analyze", str(run), "--from-ply", "2", "-j", "1")
    assert "6 analysed (0 now)" in again.stdout
    analysis = pd.read_csv(RunFiles(run).analysis)
    assert len(analysis) == 6 and analysis["from_ply"].eq(2).all()
    tables = load_analysis(run)
    assert tables is not None
    assert tables[0]["first_blunder_ply"].dtype == "Int64"
    assert tables[0]["plies"].dtype == np.int64 and tables[1]["ply"].dtype == np.int64
    report = invoke("report", str(run))
    assert report.exit_code == 0, report.output
    page = (run / "report.md").read_text()
    assert "## Blunders" in page and "![Accuracy by phase](blunders.png)" in page
    assert (run / "blunders.png").stat().st_size > 0
    wrong = invoke("analyze", str(run), "--from-ply", "3")
    assert wrong.exit_code == 2 and "made with --from-ply 2" in wrong.stderr
    missing = invoke("analyze", str(tmp_path))
    assert missing.exit_code == 2 and "no games.csv" in missing.stderr


def test_grading_starts_at_every_ply_where_the_solver_has_the_database() -> None:
    assert default_from_ply(STANDARD) == 0
    assert default_from_ply(Rules(5, 6, 4)) == FROM_PLY_WITHOUT_DATABASE == 12
    assert default_from_ply(SMALL) == FROM_PLY_WITHOUT_DATABASE
    assert f"from ply {FROM_PLY_WITHOUT_DATABASE} on other boards" in FROM_PLY_HELP


@pytest.mark.usefixtures("without_database")
def test_without_the_database_grading_starts_at_ply_12() -> None:
    assert default_from_ply(STANDARD) == FROM_PLY_WITHOUT_DATABASE


def test_a_6x7_run_is_graded_from_the_first_move_by_default(tmp_path: Path) -> None:
    """Every move of two depth-2 games on the standard board, each blunder where the exact
    score's sign changes from one position to the next."""
    run = tmp_path / "run"
    played = invoke("match", "negamax:depth=2", "negamax:depth=2", "-n", "2", "--out",
                    str(run), "--quiet", "--no-report", "-j", "1")
    assert played.exit_code == 0, played.output
    result = invoke("analyze", str(run), "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Games       2 analysed (2 now), moves from ply 0 on")
    tables = load_analysis(run)
    assert tables is not None
    analysis, blunders = tables
    assert analysis["from_ply"].eq(0).all() and analysis["graded_from"].eq(0).all()
    assert (analysis["moves_a"] + analysis["moves_b"]).tolist() == analysis["plies"].tolist()
    assert blunders["ply"].min() < FROM_PLY_WITHOUT_DATABASE  # what ply 12 on would miss
    games = pd.read_csv(RunFiles(run).games, dtype={"moves": str})
    for game in games.itertuples():
        signs = []  # the exact result for the side to move before each move, then at the end
        for ply in range(len(game.moves) + 1):
            position = from_moves(game.moves[:ply], STANDARD)
            score = -1 if position.won else 0 if position.is_full else solve(position)
            signs.append((score > 0) - (score < 0))
        changed = [ply for ply in range(len(game.moves)) if signs[ply] != -signs[ply + 1]]
        assert blunders[blunders["game"] == game.game]["ply"].tolist() == changed
        for_a = signs[0] if game.first == "a" else -signs[0]  # A moves first, or B
        start = analysis.loc[analysis["game"] == game.game, "start"].item()
        assert start == Result.of_sign(for_a)


def test_a_run_analysed_before_goes_on_from_its_ply(tmp_path: Path) -> None:
    run = tmp_path / "run"
    write_run(run, [("x", "y", "a", "13332244"), ("x", "y", "b", "32141")], SMALL)
    analyse_run(run, 1, pending_games(run, 1).games[:1])
    assert pending_games(run).from_ply == 1
    result = invoke("analyze", str(run), "-j", "1", "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Games       2 analysed (1 now), moves from ply 1 on")
    fresh = tmp_path / "fresh"
    write_run(fresh, [("x", "y", "a", "13332244")], SMALL)
    assert pending_games(fresh).from_ply == FROM_PLY_WITHOUT_DATABASE
